"""``python -m bot migrate --to postgresql://…``: an SQLite database copied into PostgreSQL with its ids, the
sequences moved past them, every game replayed on the target to the source's state; a non-empty target refused;
a copy that does not match is reported and removed again. End to end against the real server."""

from __future__ import annotations

from pathlib import Path

import asyncpg
import pytest
from store_helpers import new_game_args

from bot import games
from bot.__main__ import main as bot_main
from bot.games import rules_for
from bot.sessions import GameService
from bot.store import PostgresStore, SqliteStore
from bot.store import postgres as pg_module
from engine.core import Action
from engine.seasons.autoplay import play_game as seasons_game
from engine.volfyirion.autoplay import play_game as volfyirion_game

SEED = 11


async def _source(path: Path) -> dict:
    """A database with a finished Seasons game (with an undo, snapshots, a result and its posts), a Volfyirion
    game under way, an abandoned game, a gap in the ids (a forgotten user) and a setting."""
    async with SqliteStore(path) as store:
        service = GameService(store, rules=rules_for, seed=lambda: SEED)
        gone = await store.create_game(**new_game_args(1, owner_id=99))
        actions, _ = seasons_game("wizard", "table", SEED)
        played = await service.start(kind="seasons", options={"difficulty": "wizard", "dice": "table"},
                                     guild_id=1, channel_id=10, parent_channel_id=None, owner_id=7)
        for i, action in enumerate(actions):
            if i == 5:
                await service.play(10, 7, Action("crystals", change=1), interaction_id=5000)
                await service.undo(10, 7)
            played = await service.play(10, 7, action, interaction_id=6000 + i)
        assert played.row.status == "finished"
        await store.add_result_post(played.row.id, 10, 123456789012345678)
        record = volfyirion_game(SEED, max_actions=25, allow_win=False)
        await service.start(kind="volfyirion", options=dict(record.options), guild_id=1, channel_id=20,
                            parent_channel_id=None, owner_id=8)
        for action in record.actions:
            await service.play(20, 8, action)
        quit_ = await store.create_game(**new_game_args(30, owner_id=9))
        await store.abandon(quit_.id, expected_ply=0, by_user=9)
        await store.forget_user(99)
        await store.put_setting("command_hash", "abc")
        return {"seasons": played.row.id, "gone": gone.id, "actions": len(actions)}


async def test_migrate_copies_everything_and_replays_every_game(tmp_path, pg_dsn, capsys) -> None:
    path = tmp_path / "bot.sqlite3"
    made = await _source(path)
    async with PostgresStore(pg_dsn):  # a schema made by a bot that never wrote: still an empty target
        pass

    code = await _run(["migrate", "--to", pg_dsn, "--db", str(path)])
    out = capsys.readouterr()
    assert code == 0, out.err
    assert "checked: 3 games replayed on PostgreSQL to the same state" in out.out
    async with SqliteStore(path) as src, PostgresStore(pg_dsn) as dst:
        assert await dst.count_games() == await src.count_games() == 3
        for game_id in (made["seasons"], made["seasons"] + 1, made["seasons"] + 2):
            assert await dst.game(game_id) == await src.game(game_id)
            assert await dst.history(game_id, 10_000) == await src.history(game_id, 10_000)
        assert await dst.result(made["seasons"]) == await src.result(made["seasons"])
        ranking = games.get("seasons").ranking
        assert await dst.leaderboard(1, "seasons", ranking=ranking) == await src.leaderboard(1, "seasons", ranking=ranking)
        assert await dst.stats(1, 7, rankings=games.rankings()) == await src.stats(1, 7, rankings=games.rankings())
        assert await dst.active_game(20) == await src.active_game(20)
        assert await dst.get_setting("command_hash") == "abc"
        assert await dst.take_result_posts(made["seasons"]) == [(10, 123456789012345678)]
        # The sequences were moved past the copied ids: new rows do not collide.
        fresh = await dst.create_game(**new_game_args(40))
        assert fresh.id == made["seasons"] + 3
        again = await dst.append_action(fresh.id, expected_ply=0, action={"type": "x"}, user_id=7)
        assert again.ply == 1
        # …and the interaction ids came along: a second delivery is still refused on PostgreSQL.
        from bot.store import AlreadyApplied

        with pytest.raises(AlreadyApplied):
            await dst.append_action(fresh.id, expected_ply=1, action={"type": "x"}, user_id=7,
                                    interaction_id=6000)
    assert made["gone"] < made["seasons"]


async def test_migrate_refuses_a_target_that_holds_rows(tmp_path, pg_dsn, capsys) -> None:
    path = tmp_path / "bot.sqlite3"
    async with SqliteStore(path) as store:
        await store.create_game(**new_game_args(1))
    async with PostgresStore(pg_dsn) as target:
        await target.put_setting("someone", "else")
    assert await _run(["migrate", "--to", pg_dsn, "--db", str(path)]) == 1
    assert "already holds rows" in capsys.readouterr().err
    async with PostgresStore(pg_dsn) as target:
        assert await target.count_games() == 0
        assert await target.get_setting("someone") == "else"


async def test_a_copy_that_does_not_replay_the_same_is_reported_and_removed(tmp_path, pg_dsn, capsys,
                                                                           monkeypatch) -> None:
    path = tmp_path / "bot.sqlite3"
    await _source(path)
    real = pg_module.result_from_sqlite

    def wrong(row: dict) -> tuple:  # a copy that loses a score
        values = list(real(row))
        values[6] = None if values[6] is None else values[6] + 1
        return tuple(values)

    monkeypatch.setattr("bot.store.transfer.result_from_sqlite", wrong)
    assert await _run(["migrate", "--to", pg_dsn, "--db", str(path)]) == 1
    err = capsys.readouterr().err
    assert "the result differs" in err and "emptied again" in err
    conn = await asyncpg.connect(pg_dsn)
    try:
        assert await conn.fetchval("SELECT count(*) FROM games") == 0
    finally:
        await conn.close()


async def _run(argv: list[str]) -> int:
    import asyncio

    return await asyncio.to_thread(bot_main, argv)
