"""``python -m bot migrate --to postgresql://… [--db PATH]``: copy an SQLite database into PostgreSQL.

Every row is copied with its id (games, the action log with undone actions, snapshots, results, result posts,
settings) in one transaction, the sequences are set past the highest ids, and then every game is read back
from PostgreSQL and replayed by the engine: its row, its log, its snapshots, its result and the replayed state
must be those of the source. The target must be empty (a schema without rows); a copy that does not check out
is removed again, so the command can be run once more.

The SQLite file is first brought to the current schema (as the bot does when it starts), then only read.
"""

from __future__ import annotations

import json
import sqlite3
import sys
from pathlib import Path
from typing import Any

import asyncpg

from . import replay_check
from .base import StoreError
from .messages import described
from .postgres import (
    PG_SCHEMA_VERSION,
    TABLES,
    PgConn,
    PostgresStore,
    _without_password,
    result_from_sqlite,
    schema_version,
)
from .rows import print_problems
from .sqlite import SqliteStore

# The columns copied as they are, per table (results go through the results mapping in postgres.py).
_COLUMNS = {
    "games": ("id", "guild_id", "channel_id", "parent_channel_id", "owner_id", "kind", "options", "seed", "status",
              "ply", "revision", "created_at", "updated_at", "place"),
    "actions": ("seq", "game_id", "ply", "action", "user_id", "created_at", "undone", "undone_at", "undone_by",
                "interaction_id", "undone_interaction_id"),
    "snapshots": ("game_id", "ply", "state", "created_at"),
    "result_posts": ("game_id", "channel_id", "message_id"),
    "settings": ("key", "value", "updated_at"),
}
_ORDER = {"games": "id", "actions": "seq", "snapshots": "game_id, ply", "results": "game_id",
          "result_posts": "game_id, message_id", "settings": "key"}
_SEQUENCES = (("games", "id"), ("actions", "seq"))


class TargetNotEmpty(Exception):
    """The PostgreSQL database already holds rows (``table``: the first found): the copy is refused."""

    def __init__(self, table: str) -> None:
        super().__init__(table)
        self.table = table


def _read_source(path: Path) -> dict[str, list[tuple[Any, ...]]]:
    """Every row of the source, table by table, as the PostgreSQL columns want them."""
    conn = sqlite3.connect(f"{path.resolve().as_uri()}?mode=ro", uri=True)
    conn.row_factory = sqlite3.Row
    try:
        rows: dict[str, list[tuple[Any, ...]]] = {}
        for table in TABLES:
            found = conn.execute(f"SELECT * FROM {table} ORDER BY {_ORDER[table]}").fetchall()
            if table == "results":
                rows[table] = [result_from_sqlite(dict(r)) for r in found]
            elif table == "actions":
                rows[table] = [tuple(bool(r[c]) if c == "undone" else r[c] for c in _COLUMNS[table]) for r in found]
            else:
                rows[table] = [tuple(r[c] for c in _COLUMNS[table]) for r in found]
        return rows
    finally:
        conn.close()


async def copy_database(source: Path, target: str) -> dict[str, int]:
    """Copy ``source`` (SQLite) into ``target`` (an empty PostgreSQL database): the row counts per table."""
    async with SqliteStore(source, background_check=False):  # the current schema, as the bot would open it
        pass
    rows = _read_source(source)
    async with PostgresStore(target, min_size=1, max_size=1):  # its schema, under the advisory lock
        pass
    conn = await asyncpg.connect(target)
    try:
        async with conn.transaction():
            # Nobody else may write meanwhile: a bot started early would take ids the copy needs.
            await conn.execute(f"LOCK TABLE {', '.join(TABLES)} IN EXCLUSIVE MODE")
            for table in TABLES:
                if await conn.fetchval(f"SELECT EXISTS (SELECT 1 FROM {table})"):
                    raise TargetNotEmpty(table=table)
            for table in TABLES:
                if rows[table]:
                    columns = _COLUMNS.get(table) or _results_columns()
                    await conn.copy_records_to_table(table, records=rows[table], columns=list(columns))
            for table, column in _SEQUENCES:
                await conn.execute(
                    f"SELECT setval(pg_get_serial_sequence('{table}', '{column}'),"
                    f" coalesce((SELECT max({column}) FROM {table}), 0) + 1, false)")
    finally:
        await conn.close()
    return {table: len(found) for table, found in rows.items()}


def _results_columns() -> tuple[str, ...]:
    from .postgres import _RESULT_COLUMNS

    return tuple(c.strip() for c in _RESULT_COLUMNS.split(","))


async def check_copy(source: Path, target: str) -> tuple[int, list[str]]:
    """Read every game back from both stores and replay it: (games checked, differences found)."""
    from engine.core import Action, GameRecord


    problems: list[str] = []
    checked = 0
    async with SqliteStore(source, background_check=False) as src, PostgresStore(target) as dst:
        ids = _ids(source)
        if await dst.count_games() != len(ids):
            problems.append(f"{len(ids)} games in the source, {await dst.count_games()} in the copy")
        for game_id in ids:
            checked += 1
            a, b = await src.game(game_id), await dst.game(game_id)
            if a != b:
                problems.append(f"game {game_id}: the row differs ({a} / {b})")
                continue
            log_a, log_b = await src.history(game_id, 1 << 30), await dst.history(game_id, 1 << 30)
            if log_a != log_b:
                problems.append(f"game {game_id}: the action log differs")
                continue
            if await src.result(game_id) != await dst.result(game_id):
                problems.append(f"game {game_id}: the result differs")
            for ply in sorted({0, *(x.ply for x in log_a)}):
                if await src.latest_snapshot(game_id, ply) != await dst.latest_snapshot(game_id, ply):
                    problems.append(f"game {game_id}: the snapshot at ply {ply} differs")
                    break
            states: list[tuple[str, Any, str]] = []  # (what, ply or error type, state or message)
            for store in (src, dst):
                actions = [Action.from_json(x.action) for x in await store.live_actions(game_id)]
                try:
                    record = GameRecord.replay(replay_check.rules_for(b.kind), b.options, b.seed, actions)
                    states.append(("state", record.ply, json.dumps(record.state.to_json(), sort_keys=True)))
                except Exception as exc:  # a log today's rules refuse (kept as stored): it must fail alike
                    states.append(("refused", type(exc).__name__, str(exc)))
            if states[0] != states[1]:
                problems.append(f"game {game_id}: replays to a different state on PostgreSQL")
            elif states[0][0] == "state" and states[0][1] != b.ply:
                problems.append(f"game {game_id}: replays to ply {states[0][1]}, the row says {b.ply}")
        for key in await _settings(source):
            if await src.get_setting(key) != await dst.get_setting(key):
                problems.append(f"setting {key!r} differs")
    return checked, problems


def _ids(source: Path) -> list[int]:
    conn = sqlite3.connect(f"{source.resolve().as_uri()}?mode=ro", uri=True)
    try:
        return [r[0] for r in conn.execute("SELECT id FROM games ORDER BY id")]
    finally:
        conn.close()


async def _settings(source: Path) -> list[str]:
    conn = sqlite3.connect(f"{source.resolve().as_uri()}?mode=ro", uri=True)
    try:
        return [r[0] for r in conn.execute("SELECT key FROM settings ORDER BY key")]
    finally:
        conn.close()


async def _empty_again(target: str) -> None:
    conn = await asyncpg.connect(target)
    try:
        await conn.execute(f"TRUNCATE {', '.join(TABLES)} RESTART IDENTITY")
    finally:
        await conn.close()


async def migrate_main(source: str | Path, target: str) -> int:
    """The command: 0 when the copy is complete and every game replays the same; 1 when it was refused or did
    not check out (the target is then left empty); 2 when a database cannot be opened."""
    source = Path(source)
    shown = _without_password(target)
    if not target.startswith(("postgresql://", "postgres://")):
        print(f"migrate: --to must be a PostgreSQL URL (postgresql://user:password@host:5432/db), not {shown}",
              file=sys.stderr)
        return 2
    if not source.is_file():
        print(f"migrate: no SQLite database at {source} (give it with --db)", file=sys.stderr)
        return 2
    try:
        counts = await copy_database(source, target)
    except TargetNotEmpty as err:
        print(f"migrate refused: {shown} already holds rows (table {err.table}); copy into an empty "
              "database only. Nothing was changed.", file=sys.stderr)
        return 1
    except StoreError as err:
        print(f"migrate failed: {described(err)}. Nothing was copied.", file=sys.stderr)
        return 2
    print(f"copied {source} to {shown}: " + ", ".join(f"{n} {t}" for t, n in counts.items()))
    try:
        checked, problems = await check_copy(source, target)
    except StoreError as err:
        problems, checked = [f"the check could not run: {described(err)}"], 0
    if problems:
        await _empty_again(target)
        print(f"migrate failed: the copy does not match the source ({len(problems)} problem(s)); the target was "
              "emptied again.", file=sys.stderr)
        print_problems(problems)
        return 1
    print(f"checked: {checked} games replayed on PostgreSQL to the same state as on SQLite")
    return 0


# -- python -m bot check on PostgreSQL ------------------------------------------------------------------------
async def check_postgres(target: str, *, quick: bool = False) -> tuple[dict[str, int], list[str]]:
    """Check a PostgreSQL database as the bot will read it, reading only (a read-only transaction, no
    migration): the schema version is this bot's, every table reads to its end (``quick``: its first row),
    and (unless ``quick``) every game's log replays from the seed to its ply and its latest snapshot is the
    state the log gives there (replay_check.py, as on SQLite). Returns (what was read, problems)."""
    problems: list[str] = []
    counts: dict[str, int] = {}
    conn = await asyncpg.connect(target, timeout=10)
    try:
        async with conn.transaction(readonly=True, isolation="repeatable_read"):  # one consistent picture
            version = await schema_version(conn)
            if version != PG_SCHEMA_VERSION:
                problems.append(
                    "no bot schema in this database (is it the right one?)" if version == 0 else
                    f"schema version {version}, this bot's is {PG_SCHEMA_VERSION}"
                    + (" (written by a newer bot)" if version > PG_SCHEMA_VERSION else " (the bot migrates it)"))
                return counts, problems
            for table in TABLES:
                try:
                    async with conn.transaction():  # a savepoint: one unreadable table does not end the check
                        counts[table] = int(await conn.fetchval(
                            f"SELECT count(*) FROM (SELECT 1 FROM {table}{' LIMIT 1' if quick else ''}) AS t"))
                except asyncpg.PostgresError as exc:
                    problems.append(f"table {table} cannot be read: {type(exc).__name__}: {exc}")
            if quick or problems:
                return counts, problems
            counts["games replayed"], found = await PostgresStore.replay_games(PgConn(conn))
            problems += found
    finally:
        await conn.close()
    return counts, problems


async def check_main_postgres(target: str, *, quick: bool = False) -> int:
    """``python -m bot check`` when SOLO_BOT_DB is a postgresql:// URL: 0 when sound, 1 with the problems,
    2 when the database cannot be reached."""
    shown = _without_password(target)
    try:
        counts, problems = await check_postgres(target, quick=quick)
    except (OSError, TimeoutError, asyncpg.PostgresError, asyncpg.InterfaceError) as exc:
        print(f"check failed: {shown} cannot be reached ({type(exc).__name__}: {exc}).", file=sys.stderr)
        return 2
    if problems:
        print(f"The game database {shown} has {len(problems)} problem(s):", file=sys.stderr)
        print_problems(problems)
        return 1
    read = ", ".join(f"{n} {what}" for what, n in counts.items())
    print(f"ok: {shown} at schema version {PG_SCHEMA_VERSION}{' (quick: first rows only)' if quick else ''};"
          f" read {read}")
    return 0

