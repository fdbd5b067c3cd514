"""Leaderboards and stats: who ranks where, and what counts."""

from __future__ import annotations

import itertools

from store_helpers import new_game_args

from bot import games
from bot.store import FinishInfo, SqliteStore

BACKENDS = ("sqlite", "postgres")

_channels = itertools.count(1000)


def ranked(store, guild, kind, *args, **kwargs):
    return store.leaderboard(guild, kind, *args, ranking=games.get(kind).ranking, **kwargs)


async def finished(
    store: SqliteStore,
    *,
    user: int,
    outcome: str = "won",
    guild: int | None = 1,
    kind: str = "seasons",
    difficulty: str = "wizard",
    player: int | None = None,
    dummbot: int | None = None,
    turns: int | None = None,
    when: str = "2026-01-01",
) -> int:
    game = await store.create_game(
        **new_game_args(next(_channels), guild_id=guild, owner_id=user, kind=kind, difficulty=difficulty)
    )
    finish = FinishInfo(
        "finished", outcome, difficulty, player, dummbot, turns, {"outcome": outcome, "how": "attack"} if turns else None, when
    )
    await store.append_action(
        game.id, expected_ply=0, action={"type": "end"}, user_id=user, finish=finish
    )
    return game.id


async def test_seasons_ranks_each_players_best_margin_won_or_lost(store: SqliteStore) -> None:
    a1 = await finished(store, user=1, player=100, dummbot=90)  # +10
    a2 = await finished(store, user=1, player=150, dummbot=120)  # +30: user 1's best
    b1 = await finished(store, user=2, outcome="lost", player=80, dummbot=85)  # -5, still ranked
    c1 = await finished(store, user=3, player=140, dummbot=120, when="2026-01-02")  # +20
    d1 = await finished(
        store, user=4, player=140, dummbot=120, when="2026-01-01"
    )  # +20, same scores, earlier
    e1 = await finished(store, user=5, player=130, dummbot=110)  # +20 but a lower score: after both
    await finished(store, user=9, player=999, dummbot=0, guild=2)  # another server
    abandoned = await store.create_game(**new_game_args(next(_channels), owner_id=6))
    await store.abandon(abandoned.id, expected_ply=None, by_user=6)

    board = await ranked(store, 1, "seasons")
    assert [(r.user_id, r.margin) for r in board] == [(1, 30), (4, 20), (3, 20), (5, 20), (2, -5)]
    assert [r.game_id for r in board] == [a2, d1, c1, e1, b1]
    assert a1 not in [r.game_id for r in board]
    assert [r.user_id for r in await ranked(store, 1, "seasons", limit=2)] == [1, 4]
    assert [r.user_id for r in await ranked(store, 2, "seasons")] == [9]
    assert await ranked(store, 3, "seasons") == []


async def test_seasons_by_difficulty(store: SqliteStore) -> None:
    await finished(store, user=1, player=200, dummbot=100, difficulty="apprentice")
    await finished(store, user=1, player=110, dummbot=100, difficulty="archmage")
    await finished(store, user=2, player=120, dummbot=100, difficulty="archmage")
    assert [(r.user_id, r.margin) for r in await ranked(store, 1, "seasons", "archmage")] == [
        (2, 20),
        (1, 10),
    ]
    assert [(r.user_id, r.margin) for r in await ranked(store, 1, "seasons")] == [(1, 100), (2, 20)]


async def test_volfyirion_ranks_fastest_wins_only(store: SqliteStore) -> None:
    await finished(store, user=1, kind="volfyirion", turns=14, difficulty="hard")
    await finished(store, user=1, kind="volfyirion", turns=11, difficulty="hard")
    await finished(store, user=2, kind="volfyirion", turns=9, difficulty="normal")
    await finished(store, user=3, kind="volfyirion", outcome="lost", turns=5, difficulty="hard")
    await finished(store, user=4, kind="seasons", player=100, dummbot=50)
    board = await ranked(store, 1, "volfyirion")
    assert [(r.user_id, r.length) for r in board] == [(2, 9), (1, 11)]
    assert [(r.user_id, r.length) for r in await ranked(store, 1, "volfyirion", "hard")] == [(1, 11)]


async def test_games_outside_a_server_rank_together(store: SqliteStore) -> None:
    await finished(store, user=1, guild=None, player=10, dummbot=5)
    assert [r.user_id for r in await ranked(store, None, "seasons")] == [1]
    assert await ranked(store, 1, "seasons") == []


async def test_stats_per_user_and_server(store: SqliteStore) -> None:
    await finished(store, user=1, player=100, dummbot=90)
    best = await finished(store, user=1, player=150, dummbot=120)
    await finished(store, user=1, outcome="lost", player=70, dummbot=90)
    fastest = await finished(store, user=1, kind="volfyirion", turns=12)
    await finished(store, user=1, kind="volfyirion", outcome="lost", turns=8)
    await finished(store, user=1, guild=2, player=300, dummbot=0)  # another server: not counted
    await finished(store, user=2, player=500, dummbot=0)  # another user
    dropped = await store.create_game(**new_game_args(next(_channels), owner_id=1))
    await store.abandon(dropped.id, expected_ply=0, by_user=1)
    await store.create_game(**new_game_args(next(_channels), owner_id=1, kind="volfyirion"))  # still going

    stats = await store.stats(1, 1, rankings=games.rankings())
    assert {k: stats[k] for k in ("games", "active", "wins", "losses", "abandoned")} == {
        "games": 7,
        "active": 1,
        "wins": 3,
        "losses": 2,
        "abandoned": 1,
    }
    assert stats["by_kind"]["seasons"] == {"games": 4, "active": 0, "wins": 2, "losses": 1, "abandoned": 1}
    assert stats["by_kind"]["volfyirion"] == {"games": 3, "active": 1, "wins": 1, "losses": 1, "abandoned": 0}
    assert (stats["best"]["seasons"].game_id, stats["best"]["seasons"].margin) == (best, 30)
    assert (stats["best"]["volfyirion"].game_id, stats["best"]["volfyirion"].length) == (fastest, 12)

    nobody = await store.stats(1, 99, rankings=games.rankings())
    assert (nobody["games"], nobody["wins"], nobody["best"]) == (0, 0, {"seasons": None, "volfyirion": None})
