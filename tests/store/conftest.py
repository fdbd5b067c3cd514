"""Shared fixtures for the store tests: a fresh SQLite file per test, and a game in it."""

from __future__ import annotations

from collections.abc import AsyncIterator
from pathlib import Path

import pytest
from store_helpers import BUSY, new_game_args

from bot.store import GameRow, SqliteStore


@pytest.fixture
def db_path(tmp_path: Path) -> Path:
    return tmp_path / "data" / "bot.sqlite3"


@pytest.fixture
async def store(db_path: Path) -> AsyncIterator[SqliteStore]:
    s = SqliteStore(db_path, busy_timeout=BUSY)
    await s.open()
    yield s
    await s.close()


@pytest.fixture
async def game(store: SqliteStore) -> GameRow:
    return await store.create_game(**new_game_args())
