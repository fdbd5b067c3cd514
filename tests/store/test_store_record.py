"""Issue 36, points 3 and 5 (the store's part): each game and result keeps where it was played; a player's record
spans every place, a server's leaderboard and stats only its own games, and /game forget takes everything the
player owns wherever it was played. On SQLite and PostgreSQL alike."""

from __future__ import annotations

import itertools

import pytest
from store_helpers import new_game_args

from bot import games
from bot.store import PLACES, FinishInfo, Store

BACKENDS = ("sqlite", "postgres")

_channels = itertools.count(5000)
RANKINGS = {g.kind: g.ranking for g in games.registry()}


async def played(store: Store, *, user: int, guild: int | None, place: str | None = None, outcome: str = "won",
                 kind: str = "seasons", difficulty: str = "wizard", score: tuple[int, int] = (120, 100),
                 when: str = "2026-01-01T00:00:00") -> int:
    game = await store.create_game(**new_game_args(next(_channels), guild_id=guild, owner_id=user, kind=kind,
                                                   difficulty=difficulty), place=place)
    finish = FinishInfo("finished", outcome, difficulty, score[0], score[1], 10, None, when)
    await store.append_action(game.id, expected_ply=0, action={"type": "end"}, user_id=user, finish=finish)
    return game.id


async def test_a_game_and_its_result_keep_where_they_were_played(store: Store) -> None:
    in_server = await store.create_game(**new_game_args(next(_channels), guild_id=1))
    in_dm = await store.create_game(**new_game_args(next(_channels), guild_id=None))
    grouped = await store.create_game(**new_game_args(next(_channels), guild_id=None), place="group_dm")
    assert (in_server.place, in_dm.place, grouped.place) == ("guild", "dm", "group_dm")
    assert (await store.game(in_dm.id)).place == "dm"  # read back as written
    game_id = await played(store, user=7, guild=3, place="user_install")
    result = await store.result(game_id)
    assert result is not None and (result.guild_id, result.place) == (3, "user_install")
    assert set(PLACES) == {"guild", "dm", "group_dm", "user_install"}


async def test_an_unknown_place_is_refused_and_nothing_is_written(store: Store) -> None:
    with pytest.raises(ValueError, match="place"):
        await store.create_game(**new_game_args(next(_channels)), place="moon")
    assert await store.count_games() == 0


async def test_the_record_spans_servers_and_dms_and_a_leaderboard_only_its_server(store: Store) -> None:
    await played(store, user=7, guild=1, score=(130, 100))  # +30 in server 1
    await played(store, user=7, guild=2, outcome="lost", score=(90, 100))  # in server 2
    dm_game = await played(store, user=7, guild=None, score=(200, 100))  # +100, in a DM: the best of the record
    await played(store, user=7, guild=None, difficulty="archmage", outcome="lost", score=(80, 95))
    await played(store, user=8, guild=1, score=(110, 100))  # someone else's

    record = await store.record(7, rankings=RANKINGS)
    rows = {(r["kind"], r["difficulty"]): r for r in record["rows"]}
    assert set(rows) == {("seasons", "wizard"), ("seasons", "archmage")}
    wizard = rows[("seasons", "wizard")]
    assert (wizard["played"], wizard["wins"], wizard["losses"]) == (3, 2, 1)
    assert wizard["best"].game_id == dm_game and wizard["best"].margin == 100
    assert (rows[("seasons", "archmage")]["played"], rows[("seasons", "archmage")]["wins"]) == (1, 0)
    assert record["places"] == {"guild": 2, "dm": 2} and record["servers"] == 2

    # A server's leaderboard and stats count only that server's games: the DM's +100 is in neither.
    board = await store.leaderboard(1, "seasons", ranking=RANKINGS["seasons"])
    assert [(r.user_id, r.margin) for r in board] == [(7, 30), (8, 10)]
    assert dm_game not in {r.game_id for r in board}
    stats = await store.stats(1, 7, rankings=RANKINGS)
    assert stats["games"] == 1 and stats["best"]["seasons"].margin == 30


async def test_recent_results_are_the_players_newest_won_or_lost_of_one_game(store: Store) -> None:
    for day, (guild, outcome) in enumerate([(1, "won"), (None, "lost"), (2, "won"), (None, "won"), (1, "won")], 1):
        await played(store, user=7, guild=guild, outcome=outcome, when=f"2026-01-0{day}T00:00:00")
    await played(store, user=7, guild=1, kind="volfyirion", difficulty="hard", when="2026-02-01T00:00:00")
    abandoned = await store.create_game(**new_game_args(next(_channels), guild_id=None, owner_id=7))
    await store.abandon(abandoned.id, expected_ply=0, by_user=7)  # says nothing of the level: left out
    recent = await store.recent_results(7, "seasons", limit=4)
    assert [r.finished_at[:10] for r in recent] == ["2026-01-05", "2026-01-04", "2026-01-03", "2026-01-02"]
    assert [r.outcome for r in recent] == ["won", "won", "won", "lost"]
    assert await store.recent_results(9, "seasons") == []


async def test_forget_takes_the_players_games_from_every_place(store: Store) -> None:
    await played(store, user=7, guild=1)
    await played(store, user=7, guild=None)
    await played(store, user=7, guild=None, place="group_dm")
    await played(store, user=7, guild=4, place="user_install")
    kept = await played(store, user=8, guild=None)
    assert (await store.user_data(7))["games"] == 4
    forgotten = await store.forget_user(7)
    assert forgotten["games"] == 4 and forgotten["results"] == 4
    assert (await store.user_data(7))["games"] == 0
    assert (await store.record(7, rankings=RANKINGS))["rows"] == []
    assert (await store.result(kept)) is not None  # another player's DM game stays


_OLD_GAME = ("INSERT INTO games (id, guild_id, channel_id, owner_id, kind, options, seed, status, ply, created_at,"
             " updated_at) VALUES ({id}, {guild}, {id}, 7, 'seasons', '{{}}', 1, 'finished', 1, '2026-01-01', '2026-01-01')")
_OLD_RESULT = ("INSERT INTO results (game_id, guild_id, user_id, kind, outcome, difficulty, finished_at)"
               " VALUES ({id}, {guild}, 7, 'seasons', 'won', 'wizard', '2026-01-0{id}')")


@pytest.mark.backends("sqlite")
async def test_the_sqlite_step_marks_older_rows_a_servers_or_a_dms(db_path, monkeypatch) -> None:
    import sqlite3

    from bot.store import SqliteStore, schema

    before = schema.MIGRATIONS.index(schema.V11)
    with monkeypatch.context() as m:  # a file of the schema before V11, its rows written as that release did
        m.setattr("bot.store.sqlite.MIGRATIONS", schema.MIGRATIONS[:before])
        m.setattr("bot.store.sqlite.SCHEMA_VERSION", before)
        async with SqliteStore(db_path, background_check=False):
            pass
    with sqlite3.connect(db_path) as conn:
        for game_id, guild in ((1, "5"), (2, "NULL")):
            conn.execute(_OLD_GAME.format(id=game_id, guild=guild))
            conn.execute(_OLD_RESULT.format(id=game_id, guild=guild))
    async with SqliteStore(db_path, background_check=False) as store:
        assert [(await store.game(i)).place for i in (1, 2)] == ["guild", "dm"]
        assert [(await store.result(i)).place for i in (1, 2)] == ["guild", "dm"]
        assert (await store.record(7, rankings=RANKINGS))["places"] == {"guild": 1, "dm": 1}
    with sqlite3.connect(db_path) as conn:
        assert conn.execute("PRAGMA user_version").fetchone()[0] == schema.SCHEMA_VERSION
        assert conn.execute("PRAGMA integrity_check").fetchone()[0] == "ok"


@pytest.mark.backends("postgres")
async def test_the_postgresql_step_marks_older_rows_a_servers_or_a_dms(pg_dsn, monkeypatch) -> None:
    import asyncpg

    from bot.store import PostgresStore, postgres

    before = postgres.PG_MIGRATIONS.index(postgres.PG_V4)
    with monkeypatch.context() as m:
        m.setattr("bot.store.postgres.PG_MIGRATIONS", postgres.PG_MIGRATIONS[:before])
        m.setattr("bot.store.postgres.PG_SCHEMA_VERSION", before)
        async with PostgresStore(pg_dsn):
            pass
    conn = await asyncpg.connect(pg_dsn)
    try:
        for game_id, guild in ((1, "5"), (2, "NULL")):
            await conn.execute(_OLD_GAME.format(id=game_id, guild=guild))
            await conn.execute(_OLD_RESULT.format(id=game_id, guild=guild))
    finally:
        await conn.close()
    async with PostgresStore(pg_dsn) as store:
        assert [(await store.game(i)).place for i in (1, 2)] == ["guild", "dm"]
        assert [(await store.result(i)).place for i in (1, 2)] == ["guild", "dm"]
        assert [r.place for r in await store.recent_results(7, "seasons")] == ["dm", "guild"]
