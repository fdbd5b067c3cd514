"""Games and their action log: one active game per channel, versioned writes, undo, abandon."""

from __future__ import annotations

import asyncio
import contextlib

import pytest
from store_helpers import new_game_args, play, queued, writer_held

from bot import games
from bot.store import (
    ChannelBusy,
    FinishInfo,
    GameNotActive,
    GameNotFound,
    GameRow,
    NothingToUndo,
    SqliteStore,
    StaleVersion,
)

BACKENDS = ("sqlite", "postgres")

WON = FinishInfo(status="finished", outcome="won", player_score=120, opponent_score=95)


def ranked(store, guild, kind, *args, **kwargs):
    return store.leaderboard(guild, kind, *args, ranking=games.get(kind).ranking, **kwargs)


async def test_create_and_find_the_channel_game(store: SqliteStore) -> None:
    assert await store.active_game(100) is None
    game = await store.create_game(**{**new_game_args(100), "parent_channel_id": 99})
    assert (game.channel_id, game.parent_channel_id, game.owner_id, game.guild_id) == (100, 99, 7, 1)
    assert (game.kind, game.options, game.seed, game.status, game.ply) == (
        "seasons",
        {"difficulty": "wizard"},
        12345,
        "active",
        0,
    )
    assert await store.active_game(100) == game
    assert await store.game(game.id) == game
    assert await store.last_game(100) == game
    assert await store.count_games() == 1


async def test_a_second_game_in_a_busy_channel_is_refused(store: SqliteStore, game: GameRow) -> None:
    with pytest.raises(ChannelBusy) as info:
        await store.create_game(**new_game_args(100, owner_id=8, kind="volfyirion"))
    assert info.value.key == "store.channel_busy"
    assert info.value.params == {"channel_id": 100, "game_id": game.id}
    assert await store.count_games() == 1
    other = await store.create_game(**new_game_args(101))  # another channel (or thread) is free
    assert other.id != game.id


async def test_the_index_not_a_read_keeps_one_active_game(store: SqliteStore, game: GameRow, backend) -> None:
    # Bypass the store's code path entirely: the database itself refuses a second active game.
    insert = ("INSERT INTO games (channel_id, owner_id, kind, options, seed, created_at, updated_at)"
              " VALUES (100, 1, 'seasons', '{}', 1, 'now', 'now')")
    if backend == "sqlite":
        import sqlite3

        with sqlite3.connect(store.path) as conn, pytest.raises(sqlite3.IntegrityError):
            conn.execute(insert)
    else:
        import asyncpg

        conn = await asyncpg.connect(store.dsn)
        try:
            with pytest.raises(asyncpg.UniqueViolationError):
                await conn.execute(insert)
        finally:
            await conn.close()


async def test_a_channel_is_free_again_once_its_game_ended(store: SqliteStore, game: GameRow) -> None:
    await store.abandon(game.id, expected_ply=0, by_user=7)
    assert await store.active_game(100) is None
    again = await store.create_game(**new_game_args(100))
    assert await store.active_game(100) == again
    assert await store.last_game(100) == again
    assert await store.count_games() == 2
    assert await store.count_games("abandoned") == 1


async def test_seeds_are_unsigned_64_bit(store: SqliteStore) -> None:
    game = await store.create_game(**{**new_game_args(), "seed": (1 << 64) - 1})
    assert (await store.game(game.id)).seed == (1 << 64) - 1
    with pytest.raises(ValueError):
        await store.create_game(**{**new_game_args(101), "seed": 1 << 64})


async def test_the_store_knows_no_game_a_new_kind_needs_no_schema_change(store: SqliteStore) -> None:
    # Issue 9: which games exist is the registry's business (bot/games); the store keeps any kind.
    game = await store.create_game(**new_game_args(kind="chess"))
    assert (await store.game(game.id)).kind == "chess"
    with pytest.raises(ValueError):
        await store.create_game(**new_game_args(kind=""))
    assert await store.count_games() == 1


async def test_append_checks_the_version(store: SqliteStore, game: GameRow) -> None:
    after = await store.append_action(
        game.id, expected_ply=0, action={"type": "die", "face": 3}, user_id=7)
    assert (after.ply, after.status) == (1, "active")
    with pytest.raises(StaleVersion) as info:
        await store.append_action(game.id, expected_ply=0, action={"type": "die"}, user_id=7)
    assert info.value.params == {"game_id": game.id, "expected": 0, "actual": 1}
    [row] = await store.live_actions(game.id)
    assert (row.ply, row.action, row.user_id, row.undone) == (1, {"type": "die", "face": 3}, 7, False)
    assert (await store.game(game.id)).ply == 1


async def test_append_to_a_missing_or_ended_game(store: SqliteStore, game: GameRow) -> None:
    with pytest.raises(GameNotFound):
        await store.append_action(999, expected_ply=0, action={"type": "x"}, user_id=7)
    with pytest.raises(GameNotFound):
        await store.game(999)
    await store.abandon(game.id, expected_ply=None, by_user=7)
    with pytest.raises(GameNotActive) as info:
        await store.append_action(game.id, expected_ply=0, action={"type": "x"}, user_id=7)
    assert info.value.params == {"game_id": game.id, "status": "abandoned"}
    assert await store.live_actions(game.id) == []


async def test_a_value_that_is_not_json_writes_nothing(store: SqliteStore, game: GameRow) -> None:
    with pytest.raises(TypeError):
        await store.append_action(
            game.id, expected_ply=0, action={"type": "x", "bad": object()}, user_id=7)
    assert (await store.game(game.id)).ply == 0
    assert await store.history(game.id, 10) == []


async def test_snapshots_are_found_at_or_below_a_ply(store: SqliteStore, game: GameRow) -> None:
    for ply in range(1, 8):
        snapshot = {"at": ply} if ply % 3 == 0 else None
        game = await store.append_action(
            game.id, expected_ply=ply - 1, action={"type": "s"}, user_id=7, snapshot=snapshot)
    assert await store.latest_snapshot(game.id, 7) == (6, {"at": 6})
    assert await store.latest_snapshot(game.id, 5) == (3, {"at": 3})
    assert await store.latest_snapshot(game.id, 2) is None
    assert [a.ply for a in await store.live_actions(game.id, after_ply=3)] == [4, 5, 6, 7]


async def test_undo_and_redo_keep_the_log(store: SqliteStore, game: GameRow) -> None:
    game = await play(store, game, 3)
    game = await store.append_action(
        game.id, expected_ply=3, action={"type": "s4"}, user_id=7, snapshot={"at": 4})
    game = await store.undo_action(game.id, expected_ply=4, user_id=7)
    assert game.ply == 3
    assert await store.latest_snapshot(game.id, 10) is None  # the snapshot above the new ply is gone
    game = await store.undo_action(game.id, expected_ply=3, user_id=7)
    game = await store.append_action(
        game.id, expected_ply=2, action={"type": "redo"}, user_id=8, snapshot={"at": 3})
    assert game.ply == 3
    live = await store.live_actions(game.id)
    assert [(a.ply, a.action["type"]) for a in live] == [(1, "step"), (2, "step"), (3, "redo")]
    history = await store.history(game.id, 10)
    assert [(a.ply, a.undone) for a in history] == [(3, False), (4, True), (3, True), (2, False), (1, False)]
    assert [a.seq for a in history] == sorted((a.seq for a in history), reverse=True)
    assert [a.ply for a in await store.history(game.id, 2)] == [3, 4]
    assert await store.latest_snapshot(game.id, 3) == (3, {"at": 3})


async def test_undo_checks_the_version_and_needs_an_action(store: SqliteStore, game: GameRow) -> None:
    with pytest.raises(NothingToUndo):
        await store.undo_action(game.id, expected_ply=0, user_id=7)
    game = await play(store, game, 2)
    with pytest.raises(StaleVersion):
        await store.undo_action(game.id, expected_ply=1, user_id=7)
    assert (await store.game(game.id)).ply == 2
    assert not any(a.undone for a in await store.history(game.id, 10))


async def test_the_final_action_finishes_and_can_be_undone(store: SqliteStore, game: GameRow) -> None:
    game = await play(store, game, 2)
    done = await store.append_action(
        game.id, expected_ply=2, action={"type": "score"}, user_id=7, finish=WON
    )
    assert (done.status, done.ply) == ("finished", 3)
    assert await store.active_game(100) is None
    result = await store.result(game.id)
    assert (result.outcome, result.margin, result.difficulty, result.ended_by) == ("won", 25, "wizard", 7)
    with pytest.raises(GameNotActive):
        await store.append_action(game.id, expected_ply=3, action={"type": "more"}, user_id=7)

    reopened = await store.undo_action(game.id, expected_ply=3, user_id=7)
    assert (reopened.status, reopened.ply) == ("active", 2)
    assert await store.active_game(100) == reopened
    assert await store.result(game.id) is None
    assert await ranked(store, 1, "seasons") == []
    # …and finishing again records a fresh result.
    await store.append_action(
        game.id,
        expected_ply=2,
        action={"type": "score"},
        user_id=7,
        finish=FinishInfo("finished", "lost", player_score=90, opponent_score=95),
    )
    assert (await store.result(game.id)).outcome == "lost"


async def test_reopening_a_game_in_a_channel_that_moved_on_is_refused(
    store: SqliteStore, game: GameRow
) -> None:
    done = await store.append_action(
        game.id, expected_ply=0, action={"type": "score"}, user_id=7, finish=WON
    )
    newer = await store.create_game(**new_game_args(100))
    with pytest.raises(ChannelBusy) as info:
        await store.undo_action(game.id, expected_ply=done.ply, user_id=7)
    assert info.value.params["game_id"] == newer.id
    assert (await store.game(game.id)).status == "finished"
    assert await store.result(game.id) is not None
    assert not any(a.undone for a in await store.history(game.id, 10))


async def test_abandon(store: SqliteStore, game: GameRow) -> None:
    game = await play(store, game, 2)
    with pytest.raises(StaleVersion):
        await store.abandon(game.id, expected_ply=1, by_user=9)
    gone = await store.abandon(game.id, expected_ply=2, by_user=9)
    assert (gone.status, gone.ply) == ("abandoned", 2)
    result = await store.result(game.id)
    assert (result.outcome, result.user_id, result.ended_by, result.player_score) == ("abandoned", 7, 9, None)
    with pytest.raises(GameNotActive):
        await store.abandon(game.id, expected_ply=None, by_user=7)
    with pytest.raises(GameNotActive):
        await store.undo_action(game.id, expected_ply=2, user_id=7)
    assert await ranked(store, 1, "seasons") == []


async def test_timestamps_come_from_the_clock(new_store) -> None:
    ticks = iter(f"2026-01-01T00:00:0{i}+00:00" for i in range(10))
    async with new_store(clock=lambda: next(ticks)) as store:
        game = await store.create_game(**new_game_args())
        game = await store.append_action(
            game.id, expected_ply=0, action={"type": "x"}, user_id=7)
        assert (game.created_at, game.updated_at) == (
            "2026-01-01T00:00:00+00:00",
            "2026-01-01T00:00:01+00:00",
        )
        assert (await store.live_actions(game.id))[0].created_at == "2026-01-01T00:00:01+00:00"


async def test_a_cancelled_write_is_all_or_nothing(store: SqliteStore, game: GameRow) -> None:
    # Cancel an append at every point it can be cancelled: it either happened whole or not at all,
    # and the store keeps working.
    written: set[bool] = set()
    for pause in range(100):
        before = await store.game(game.id)
        task = asyncio.create_task(
            store.append_action(
                game.id,
                expected_ply=before.ply,
                action={"type": "c", "pause": pause},
                user_id=7,
                snapshot={"pause": pause},
            )
        )
        if pause:  # 0: cancelled before it ran at all; then a sweep from "queued" to "after it is done"
            await asyncio.sleep(pause * 0.0002)
        task.cancel()
        with contextlib.suppress(asyncio.CancelledError):
            await task
        game = await store.game(game.id)
        assert game.ply in (before.ply, before.ply + 1)
        live = await store.live_actions(game.id)
        assert [a.ply for a in live] == list(range(1, game.ply + 1))
        assert len([a for a in await store.history(game.id, 1000) if not a.undone]) == game.ply  # all of the log
        snapshot = await store.latest_snapshot(game.id, 100)
        if game.ply > before.ply:  # the action came with its snapshot, or did not come at all
            assert snapshot == (game.ply, {"pause": pause})
        else:
            assert snapshot is None or snapshot[0] <= game.ply
        written.add(game.ply > before.ply)
        game = await play(store, game, 1)
        await store.undo_action(game.id, expected_ply=game.ply, user_id=7)
        game = await store.game(game.id)
        if written == {True, False} and pause >= 30:
            break
    assert written == {True, False}  # both outcomes were seen


@pytest.mark.backends("sqlite")  # SQLite's writer connection and its queue
async def test_a_write_cancelled_while_queued_never_runs_and_leaves_no_transaction_open(
    store: SqliteStore, game: GameRow
) -> None:
    # Hold the writer, queue an append behind it and cancel the append there: it must never run
    # (nothing written), and no transaction may be left open, or every later write would fail.
    async with writer_held(store):
        task = asyncio.create_task(
            store.append_action(game.id, expected_ply=0, action={"type": "x"}, user_id=7)
        )
        await queued(store, 1)
        task.cancel()
        with contextlib.suppress(asyncio.CancelledError):
            await task
    assert not store._writer.db.in_transaction
    assert (await store.game(game.id)).ply == 0
    assert (await play(store, game, 2)).ply == 2
