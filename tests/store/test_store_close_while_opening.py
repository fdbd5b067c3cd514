"""Issue 37 point 7: a SIGTERM while the bot logs in closes the store while it is still opening.

`close()` used to stop the background integrity check before waiting for the open under way, and the open then
started the check as it ended: its connection's thread outlived the event loop and printed a traceback
("Event loop is closed") after "stopped cleanly". On a loaded machine the window was wide enough for
tests/faults/test_faults_deploy.py to meet it. Here it is met every time, by the order of events."""

from __future__ import annotations

import asyncio
import threading
from pathlib import Path

from bot.store import SqliteStore


def _connection_threads() -> set[threading.Thread]:
    return {t for t in threading.enumerate() if "_connection_worker_thread" in t.name}


async def test_close_during_open_leaves_no_integrity_check_and_no_connection_behind(db_path: Path) -> None:
    before = _connection_threads()
    store = SqliteStore(db_path, background_check=True)
    opening = asyncio.create_task(store.open())
    while not store._open_lock.locked():  # the open has begun and holds the lock (as setup_hook's does)
        await asyncio.sleep(0)
    await store.close()
    await opening
    assert store._checking is None  # the check the open started was stopped, not left running
    left = [t for t in _connection_threads() - before if t.is_alive()]
    for thread in left:  # a closed aiosqlite connection's thread ends by itself right after close()
        await asyncio.to_thread(thread.join, 30)
    assert not [t for t in left if t.is_alive()]
    assert store._reader is None and store._writer is None
