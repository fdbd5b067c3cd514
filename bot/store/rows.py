"""What both stores write and read alike: JSON text, the seed's bits, the checks before a write, the rows
read back, and why a conditional write touched no row. The SQL differs per store; these do not."""

from __future__ import annotations

import json
import sqlite3
import sys
from collections.abc import Mapping
from typing import TYPE_CHECKING, Any, TypeAlias

from .base import (
    JSON,
    OUTCOMES,
    ActionRow,
    FinishInfo,
    GameNotActive,
    GameRow,
    NothingToUndo,
    ResultRow,
    StaleVersion,
    StoreCorrupt,
    StoreError,
)

if TYPE_CHECKING:
    import asyncpg

_U64 = (1 << 64) - 1

# A row read by column name: SQLite's ``sqlite3.Row`` or asyncpg's ``Record`` (neither a typing ``Mapping``).
Columns: TypeAlias = "Mapping[str, Any] | sqlite3.Row | asyncpg.Record"


def signed(seed: int) -> int:
    """An unsigned 64-bit seed in SQLite's (and PostgreSQL's) signed 64-bit INTEGER, same bits."""
    return seed - (1 << 64) if seed >= 1 << 63 else seed


def dumps(value: Any) -> str:
    return json.dumps(value, ensure_ascii=False, separators=(",", ":"), allow_nan=False)


def refusal_for(
    game: GameRow, expected_ply: int | None, *, allowed: tuple[str, ...], expected_revision: int | None = None
) -> StoreError:
    """Why a conditional UPDATE of ``game`` (as it is now) touched no row."""
    if game.status not in allowed:
        return GameNotActive(game_id=game.id, status=game.status)
    if expected_ply is not None and game.ply != expected_ply:
        return StaleVersion(game_id=game.id, expected=expected_ply, actual=game.ply)
    if expected_revision is not None and game.revision != expected_revision:
        # Same ply over a different history (an undo and another action since): the ABA case.
        return StaleVersion(game_id=game.id, expected=expected_ply, actual=game.ply,
                            expected_revision=expected_revision, revision=game.revision)
    return NothingToUndo(game_id=game.id)


def check_finish(finish: FinishInfo) -> None:
    if finish.status not in ("finished", "abandoned"):
        raise ValueError(f"a game ends finished or abandoned, not {finish.status!r}")
    if finish.outcome not in OUTCOMES:
        raise ValueError(f"unknown outcome {finish.outcome!r}")


def game_row(row: Columns) -> GameRow:
    return GameRow(
        id=row["id"],
        guild_id=row["guild_id"],
        channel_id=row["channel_id"],
        parent_channel_id=row["parent_channel_id"],
        owner_id=row["owner_id"],
        kind=row["kind"],
        options=json.loads(row["options"]),
        seed=row["seed"] & _U64,
        status=row["status"],
        ply=row["ply"],
        created_at=row["created_at"],
        updated_at=row["updated_at"],
        revision=row["revision"],
        place=row["place"],
    )


def action_row(row: Columns) -> ActionRow:
    action = stored_json(row["action"])
    if action is None:  # the log is the game: a damaged row is no snapshot to go around (issue 37)
        raise StoreCorrupt("malformed", detail=f"game {row['game_id']}: the action at ply {row['ply']} is not "
                                               "readable JSON")
    return ActionRow(
        seq=row["seq"],
        game_id=row["game_id"],
        ply=row["ply"],
        action=action,
        user_id=row["user_id"],
        created_at=row["created_at"],
        undone=bool(row["undone"]),
    )


def stored_json(raw: str | bytes | None) -> JSON | None:
    """A stored JSON object (text, or the bytes of text that is not UTF-8), or None when it is not one: a
    damaged row is said by its reader, not by a decoding error deep in a command."""
    try:
        value = json.loads(raw.decode("utf-8") if isinstance(raw, bytes) else raw) if raw is not None else None
    except (UnicodeDecodeError, ValueError, TypeError):
        return None
    return value if isinstance(value, dict) else None


def snapshot_of(row: Any) -> tuple[int, JSON | None] | None:
    """A snapshot row (ply, state) as ``latest_snapshot`` gives it: the state None when it is unreadable."""
    return None if row is None else (int(row[0]), stored_json(row[1]))


def result_row(row: Columns) -> ResultRow:
    values = {key: row[key] for key in ResultRow.__dataclass_fields__}
    values["result"] = None if values["result"] is None else json.loads(values["result"])
    return ResultRow(**values)


def new_game_options(kind: str, options: JSON, seed: int) -> str:
    """A new game's options as stored, once its kind and seed are checked (nothing is written otherwise)."""
    if not isinstance(kind, str) or not kind:
        raise ValueError(f"unknown game kind {kind!r}")
    if not 0 <= seed < 1 << 64:
        raise ValueError("the seed must be an unsigned 64-bit integer")
    return dumps(dict(options))


def action_texts(action: JSON, snapshot: JSON | None, finish: FinishInfo | None) -> tuple[str, str | None, str]:
    """An action's write, serialised and checked before any transaction (a value that is not JSON writes
    nothing): the action and snapshot as text, and the game's status after it."""
    if finish is not None:
        check_finish(finish)
    return (dumps(action), None if snapshot is None else dumps(snapshot),
            "active" if finish is None else finish.status)


def print_problems(problems: list[str], shown: int = 20) -> None:
    """The first ``shown`` problems a command-line check found, on stderr, and how many more there are."""
    for line in problems[:shown]:
        print(f"  {line}", file=sys.stderr)
    if len(problems) > shown:
        print(f"  … and {len(problems) - shown} more", file=sys.stderr)
