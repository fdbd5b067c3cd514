"""The result posts a game's end left (migration V2_RESULT_POSTS): remembered, then taken once to be marked
withdrawn; the file stays sound (integrity check at the next open)."""

from __future__ import annotations

import sqlite3

from store_helpers import BUSY

from bot.store import SqliteStore


async def test_result_posts_are_remembered_then_taken_once(store, game, db_path):
    await store.add_result_post(game.id, 111, 5)
    await store.add_result_post(game.id, 222, 6)
    await store.add_result_post(game.id, 111, 5)  # the same post twice is kept once
    assert await store.take_result_posts(game.id) == [(111, 5), (222, 6)]
    assert await store.take_result_posts(game.id) == []
    await store.add_result_post(game.id, 111, 7)
    await store.close()
    with sqlite3.connect(db_path) as conn:
        assert conn.execute("PRAGMA integrity_check").fetchall() == [("ok",)]
    reopened = SqliteStore(db_path, busy_timeout=BUSY)
    await reopened.open()  # runs the integrity check itself
    try:
        assert await reopened.take_result_posts(game.id) == [(111, 7)]
    finally:
        await reopened.close()
