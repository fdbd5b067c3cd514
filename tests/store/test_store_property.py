"""Property: any sequence of appends, undos, stale writes and finishes keeps the log consistent.

After every step: ``ply`` equals the number of live actions, the live plies are exactly 1..n in
order and hold what the model says, the latest snapshot is the model's, and the log only grows.
"""

from __future__ import annotations

import asyncio
import itertools
import tempfile
from pathlib import Path

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st
from store_helpers import new_game_args

from bot.store import FinishInfo, GameNotActive, NothingToUndo, SqliteStore, StaleVersion, Store, make_store

BACKENDS = ("sqlite", "postgres")
_channels = itertools.count(1000)  # one database serves every example on PostgreSQL: a channel each

OPS = st.lists(
    st.one_of(
        st.tuples(st.just("append"), st.booleans()),  # with a snapshot or not
        st.tuples(st.just("undo"), st.just(False)),
        st.tuples(st.just("stale"), st.integers(1, 3)),  # a write on a version that is not current
        st.tuples(st.just("finish"), st.just(False)),
    ),
    max_size=40,
)


async def _run(ops: list[tuple[str, object]], store: Store) -> None:
    async with store:
        game = await store.create_game(**new_game_args(next(_channels)))
        live: list[dict] = []  # the model: live actions in order
        snapshots: dict[int, dict] = {}
        finished = False
        writes = 0
        for i, (op, arg) in enumerate(ops):
            ply = len(live)
            if op in ("append", "finish"):
                action = {"type": op, "i": i}
                snapshot = {"ply": ply + 1, "i": i} if arg else None
                finish = (
                    FinishInfo("finished", "won", player_score=i, opponent_score=0) if op == "finish" else None
                )
                try:
                    await store.append_action(
                        game.id,
                        expected_ply=ply,
                        action=action,
                        user_id=7,
                        snapshot=snapshot,
                        finish=finish,
                    )
                except GameNotActive:
                    assert finished
                else:
                    assert not finished
                    live.append(action)
                    writes += 1
                    finished = op == "finish"
                    if snapshot:
                        snapshots[ply + 1] = snapshot
            elif op == "undo":
                try:
                    await store.undo_action(game.id, expected_ply=ply, user_id=7)
                except NothingToUndo:
                    assert ply == 0
                else:
                    live.pop()
                    snapshots.pop(ply, None)
                    finished = False
            else:
                try:
                    await store.append_action(
                        game.id,
                        expected_ply=ply + int(arg),
                        action={"type": "stale"},
                        user_id=7,
                    )
                    raise AssertionError("a stale write went through")
                except (StaleVersion, GameNotActive):
                    pass

            row = await store.game(game.id)
            rows = await store.live_actions(game.id)
            assert row.ply == len(rows) == len(live)
            assert [a.ply for a in rows] == list(range(1, len(live) + 1))
            assert [a.action for a in rows] == live
            assert row.status == ("finished" if finished else "active")
            assert (await store.result(game.id) is not None) == finished
            assert len(await store.history(game.id, 1000)) == writes
            best = max((p for p in snapshots if p <= row.ply), default=None)
            expected = None if best is None else (best, snapshots[best])
            assert await store.latest_snapshot(game.id, row.ply) == expected


@settings(max_examples=40, deadline=None,
          suppress_health_check=[HealthCheck.too_slow, HealthCheck.function_scoped_fixture])
@given(ops=OPS)
def test_random_appends_and_undos_keep_the_log_contiguous(
    ops: list[tuple[str, object]], backend: str, request: pytest.FixtureRequest
) -> None:
    if backend == "postgres":
        asyncio.run(_run(ops, make_store(request.getfixturevalue("pg_dsn"))))
        return
    with tempfile.TemporaryDirectory() as tmp:  # fsync adds nothing to this property
        asyncio.run(_run(ops, SqliteStore(Path(tmp) / "bot.sqlite3", synchronous="NORMAL")))
