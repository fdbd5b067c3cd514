"""Where games live: the ``Store`` contract (base.py), its SQLite implementation (sqlite.py, the embedded
default) and its PostgreSQL one (postgres.py, for several processes); ``make_store`` picks by the target.
What the two say alike (the statements where the dialects agree, the transactions around them, the replay of
``python -m bot check``) is written once in sql.py (``SqlStore``); each of them keeps only its differences."""

from __future__ import annotations

import os
import sys
from pathlib import Path
from typing import Any

from .base import (
    PLACES,
    ActionRow,
    AlreadyApplied,
    ChannelBusy,
    FinishInfo,
    ForeignDatabase,
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
from .messages import at_start, described, unwritable
from .postgres import PostgresStore
from .sqlite import SqliteStore, backup_destination

__all__ = [
    "PLACES",
    "ActionRow",
    "AlreadyApplied",
    "ChannelBusy",
    "FinishInfo",
    "ForeignDatabase",
    "GameNotActive",
    "GameNotFound",
    "GameRow",
    "NothingToUndo",
    "PostgresStore",
    "Ranking",
    "ResultRow",
    "SchemaTooNew",
    "SqliteStore",
    "StaleVersion",
    "Store",
    "StoreCorrupt",
    "StoreError",
    "StoreUnavailable",
    "at_start",
    "backup_main",
    "described",
    "is_postgres",
    "make_store",
    "unwritable",
]



def is_postgres(target: str | os.PathLike[str]) -> bool:
    """Whether ``target`` (SOLO_BOT_DB) names a PostgreSQL database rather than an SQLite file."""
    return isinstance(target, str) and target.startswith(("postgresql://", "postgres://"))


def make_store(target: str | os.PathLike[str], *, busy_timeout: float | None = None, **options: Any) -> Store:
    """The store for ``target``, not opened yet: ``postgresql://…`` → PostgresStore, a path → SqliteStore.
    ``busy_timeout``: how long a write waits for a lock (SQLite's busy timeout, PostgreSQL's lock_timeout)."""
    if is_postgres(target):
        if busy_timeout is not None:
            options["lock_timeout"] = busy_timeout
        return PostgresStore(str(target), **options)
    if busy_timeout is not None:
        options["busy_timeout"] = busy_timeout
    return SqliteStore(target, **options)


async def backup_main(db_path: str | os.PathLike[str], dest: str | os.PathLike[str]) -> int:
    """``python -m bot backup PATH``: copy the live database to ``dest``; 0 on success, 1 on failure."""
    if is_postgres(str(db_path)):
        print("backup: SOLO_BOT_DB is a PostgreSQL database, which python -m bot backup does not copy (it copies "
              'the SQLite file): back it up with PostgreSQL\'s own tool, e.g. pg_dump --format=custom '
              '--file=solo.dump "$SOLO_BOT_DB" (restore with pg_restore)', file=sys.stderr)
        return 1
    if not os.path.exists(db_path):
        print(f"backup failed: no database at {db_path}", file=sys.stderr)
        return 1
    try:  # refused before the store opens: nothing of the live database is touched
        backup_destination(Path(db_path), Path(dest))
    except ValueError as err:
        print(f"backup refused: {err}", file=sys.stderr)
        return 1
    store = SqliteStore(db_path)
    try:
        await store.open()
        written = await store.backup(dest)
        games = await store.count_games()
    except StoreError as err:
        print(f"backup failed: {described(err)}", file=sys.stderr)
        return 1
    finally:
        await store.close()
    print(f"backed up {db_path} to {written} ({games} games)")
    return 0
