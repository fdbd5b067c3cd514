"""Group commit (issue 12): the writes waiting at one moment share one transaction and one fsync, each in a
savepoint of its own, and each is acknowledged only once the COMMIT holding it returned.

The writer is held by a job of the test's own (an event, not a time) while writes queue behind it,
so what one group holds is known exactly."""

from __future__ import annotations

import asyncio
import contextlib
from collections.abc import Awaitable

import pytest
from store_helpers import new_game_args, on_writer, queued, writer_held

from bot.store import GameRow, SqliteStore, StaleVersion, StoreUnavailable


async def games(store: SqliteStore, n: int) -> list[GameRow]:
    return [await store.create_game(**new_game_args(channel_id=500 + i)) for i in range(n)]


def append(store: SqliteStore, game: GameRow, **extra) -> Awaitable[GameRow]:
    return store.append_action(game.id, expected_ply=game.ply, action={"type": "step", "n": game.ply + 1},
                               user_id=7, **extra)


async def test_writes_waiting_together_share_one_commit(store: SqliteStore) -> None:
    rows = await games(store, 20)
    before = store.commits()
    async with writer_held(store):
        writes = [asyncio.create_task(append(store, g)) for g in rows]
        await queued(store, len(rows))
    done = await asyncio.gather(*writes)
    commits, grouped = (a - b for a, b in zip(store.commits(), before, strict=True))
    assert (commits, grouped) == (1, 20)
    assert [g.ply for g in done] == [1] * 20
    for g in rows:
        assert [a.ply for a in await store.live_actions(g.id)] == [1]


async def test_one_failing_write_in_a_group_writes_nothing_and_the_others_hold(store: SqliteStore) -> None:
    rows = await games(store, 5)
    async with writer_held(store):
        good = [asyncio.create_task(append(store, g)) for g in rows[:2]]
        stale = asyncio.create_task(store.append_action(
            rows[2].id, expected_ply=3, action={"type": "late"}, user_id=7))
        more = [asyncio.create_task(append(store, g)) for g in rows[3:]]
        await queued(store, 5)
    with pytest.raises(StaleVersion):
        await stale
    assert [g.ply for g in await asyncio.gather(*good, *more)] == [1, 1, 1, 1]
    assert (await store.game(rows[2].id)).ply == 0
    assert await store.live_actions(rows[2].id) == []


async def test_a_group_that_fills_the_disk_acknowledges_only_what_is_durable(store: SqliteStore, db_path) -> None:
    # One write of the group needs pages the file may not grow to: whatever SQLite then does (roll back that
    # statement or the whole transaction), every write acknowledged is in the file after a restart and every
    # write refused left nothing.
    rows = await games(store, 6)
    pages = await on_writer(store, "PRAGMA page_count")
    await on_writer(store, f"PRAGMA max_page_count = {pages}")
    async with writer_held(store):
        writes = [asyncio.create_task(append(store, g, snapshot={"pad": "x" * (200_000 if i == 3 else 10)}))
                  for i, g in enumerate(rows)]
        await queued(store, len(rows))
    outcomes = await asyncio.gather(*writes, return_exceptions=True)
    assert isinstance(outcomes[3], StoreUnavailable) and outcomes[3].reason == "disk_full"
    await store.close()
    async with SqliteStore(db_path) as again:
        for game, outcome in zip(rows, outcomes, strict=True):
            live = await again.live_actions(game.id)
            if isinstance(outcome, GameRow):
                assert [a.ply for a in live] == [1] and (await again.game(game.id)).ply == 1
            else:
                assert isinstance(outcome, StoreUnavailable), outcome
                assert live == [] and (await again.game(game.id)).ply == 0
                assert await again.latest_snapshot(game.id, 10) is None
    await store.open()  # the fixture closes it


async def test_a_write_cancelled_in_its_group_is_whole_or_absent(store: SqliteStore) -> None:
    rows = await games(store, 4)
    async with writer_held(store):
        writes = [asyncio.create_task(append(store, g)) for g in rows]
        await queued(store, len(rows))
        writes[1].cancel()  # still queued: it must never run
        with contextlib.suppress(asyncio.CancelledError):
            await writes[1]  # the cancellation gone through while the writer is still held
    done = await asyncio.gather(*(w for i, w in enumerate(writes) if i != 1))
    assert [g.ply for g in done] == [1, 1, 1]
    assert (await store.game(rows[1].id)).ply == 0 and await store.live_actions(rows[1].id) == []


async def test_callers_answered_by_one_commit_give_their_next_writes_as_one_group(store: SqliteStore) -> None:
    """The callers one COMMIT answered, writing again at once, share the next COMMIT."""
    rows = await games(store, 5)
    before = store.commits()

    async def twice(game: GameRow) -> GameRow:
        return await append(store, await append(store, game))

    async with writer_held(store):
        writes = [asyncio.create_task(twice(g)) for g in rows]
        await queued(store, len(rows))
    done = await asyncio.gather(*writes)
    assert [g.ply for g in done] == [2] * 5
    commits, grouped = (a - b for a, b in zip(store.commits(), before, strict=True))
    assert (commits, grouped) == (2, 10)
