"""Plain helpers for the store tests (fixtures live in conftest.py)."""

from __future__ import annotations

import asyncio
import contextlib
import subprocess
import sys
from collections.abc import AsyncIterator, Awaitable
from pathlib import Path
from typing import TypeVar

from bot.store import GameRow, SqliteStore

T = TypeVar("T")

# Short enough that a locked file fails fast in tests, long enough for a racing peer to commit.
BUSY = 1.0


def new_game_args(
    channel_id: int = 100,
    *,
    guild_id: int | None = 1,
    owner_id: int = 7,
    kind: str = "seasons",
    difficulty: str = "wizard",
) -> dict:
    return {
        "guild_id": guild_id,
        "channel_id": channel_id,
        "parent_channel_id": None,
        "owner_id": owner_id,
        "kind": kind,
        "options": {"difficulty": difficulty},
        "seed": 12345,
    }


async def play(store: SqliteStore, game: GameRow, n: int, *, user_id: int = 7) -> GameRow:
    """Append ``n`` numbered actions to ``game``."""
    for _ in range(n):
        game = await store.append_action(
            game.id,
            expected_ply=game.ply,
            action={"type": "step", "n": game.ply + 1},
            user_id=user_id,
        )
    return game


async def wait_checked(store: SqliteStore) -> list[str] | None:
    """Wait for the store's background integrity check (if one runs) and return its finding."""
    if store._checking is not None:
        with contextlib.suppress(asyncio.CancelledError):
            await asyncio.shield(store._checking)
    return store.integrity


async def on_writer(store: SqliteStore, sql: str) -> object:
    """One statement on the SQLite store's writer connection, outside any transaction (a PRAGMA a test sets):
    the first column of its first row."""

    async def run(db) -> object:
        rows = await db.execute_fetchall(sql)
        return rows[0][0] if rows else None

    return await store._writer.call(run)


@contextlib.asynccontextmanager
async def writer_held(store: SqliteStore) -> AsyncIterator[None]:
    """Hold the SQLite store's writer on a job of the test's own (an event, not a time) until exit: the writes
    given meanwhile queue behind it."""
    release, held = asyncio.Event(), asyncio.Event()

    async def hold(_db) -> None:
        held.set()
        await release.wait()

    blocker = asyncio.create_task(store._writer.call(hold))
    await held.wait()
    try:
        yield
    finally:
        release.set()
        await blocker


async def queued(store: SqliteStore, n: int) -> None:
    """Until ``n`` writes wait behind the held job."""
    while store._writer.pending < n + 1:  # n writes behind the held job
        await asyncio.sleep(0)


async def given_behind(store: SqliteStore, write: Awaitable[T]) -> asyncio.Task[T]:
    """``write`` given while the writer is busy: it queues, and runs in the next group. Returns it under way,
    the writer free again."""
    async with writer_held(store):
        task = asyncio.ensure_future(write)
        await queued(store, 1)
    return task


# A second process that takes the database's write lock and holds it until told to let go.
LOCKER = r"""
import sqlite3, sys
conn = sqlite3.connect(sys.argv[1], isolation_level=None)
if sys.argv[2] == "exclusive-mode":
    conn.execute("PRAGMA locking_mode = EXCLUSIVE")
conn.execute("BEGIN EXCLUSIVE")
conn.execute("INSERT INTO actions (game_id, ply, action, user_id, created_at) VALUES (1, 999, '{}', 0, 'x')")
print("locked", flush=True)
sys.stdin.readline()
conn.execute("ROLLBACK")
"""


class Locker:
    """Another process holding the database's write lock from entry to exit."""

    def __init__(self, path: Path, mode: str = "normal") -> None:
        self.proc = subprocess.Popen(
            [sys.executable, "-c", LOCKER, str(path), mode],
            stdin=subprocess.PIPE,
            stdout=subprocess.PIPE,
            text=True,
        )

    async def __aenter__(self) -> Locker:
        line = await asyncio.to_thread(self.proc.stdout.readline)
        assert line.strip() == "locked"
        return self

    async def __aexit__(self, *exc: object) -> None:
        self.proc.stdin.write("\n")
        self.proc.stdin.flush()
        assert await asyncio.to_thread(self.proc.wait, 10) == 0


# The columns today's store code writes that schema V11 (issue 36) adds: a test that writes a file of an older schema
# with today's code adds them while it writes (``PLACE_COLUMNS``, without V11's CHECK so that SQLite can drop them)
# and takes them off again (``PLACE_UNDO``), which leaves exactly the older schema's tables.
PLACE_COLUMNS = ("ALTER TABLE games ADD COLUMN place TEXT NOT NULL DEFAULT 'guild'",
                 "ALTER TABLE results ADD COLUMN place TEXT NOT NULL DEFAULT 'guild'")
PLACE_UNDO = ("ALTER TABLE games DROP COLUMN place", "ALTER TABLE results DROP COLUMN place")
