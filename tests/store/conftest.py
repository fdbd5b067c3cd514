"""Shared fixtures for the store tests: a fresh SQLite file per test, and a game in it."""

from __future__ import annotations

from collections.abc import AsyncIterator
from pathlib import Path

import pytest

from bot.store import GameRow, SqliteStore

# Short enough that a locked file fails fast in tests, long enough for a racing peer to commit.
BUSY = 1.0


def new_game_args(channel_id: int = 100, *, guild_id: int | None = 1, owner_id: int = 7, kind: str = "seasons",
                  difficulty: str = "wizard") -> dict:
    return {
        "guild_id": guild_id,
        "channel_id": channel_id,
        "parent_channel_id": None,
        "owner_id": owner_id,
        "kind": kind,
        "options": {"difficulty": difficulty},
        "seed": 12345,
    }


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


async def play(store: SqliteStore, game: GameRow, n: int, *, user_id: int = 7) -> GameRow:
    """Append ``n`` numbered actions to ``game``."""
    for _ in range(n):
        game = await store.append_action(
            game.id, expected_ply=game.ply, action={"type": "step", "n": game.ply + 1}, user_id=user_id,
            summary={"ply": game.ply + 1},
        )
    return game
