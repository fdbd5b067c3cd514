"""Where games live: the ``Store`` contract (base.py) and its SQLite implementation (sqlite.py)."""

from __future__ import annotations

import os
import sys

from .base import (
    ActionRow,
    ChannelBusy,
    FinishInfo,
    GameNotActive,
    GameNotFound,
    GameRow,
    NothingToUndo,
    Ranking,
    ResultRow,
    SchemaTooNew,
    StaleVersion,
    Store,
    StoreCorrupt,
    StoreError,
    StoreUnavailable,
)
from .sqlite import SqliteStore

__all__ = [
    "ActionRow",
    "ChannelBusy",
    "FinishInfo",
    "GameNotActive",
    "GameNotFound",
    "GameRow",
    "NothingToUndo",
    "Ranking",
    "ResultRow",
    "SchemaTooNew",
    "SqliteStore",
    "StaleVersion",
    "Store",
    "StoreCorrupt",
    "StoreError",
    "StoreUnavailable",
    "backup_main",
]


async def backup_main(db_path: str | os.PathLike[str], dest: str | os.PathLike[str]) -> int:
    """``python -m bot backup PATH``: copy the live database to ``dest``; 0 on success, 1 on failure."""
    if not os.path.exists(db_path):
        print(f"backup failed: no database at {db_path}", file=sys.stderr)
        return 1
    store = SqliteStore(db_path)
    try:
        await store.open()
        await store.backup(dest)
        games = await store.count_games()
    except StoreError as err:
        print(f"backup failed: {err}", file=sys.stderr)
        return 1
    finally:
        await store.close()
    print(f"backed up {db_path} to {dest} ({games} games)")
    return 0
