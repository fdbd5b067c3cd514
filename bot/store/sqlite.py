"""The store on SQLite, through aiosqlite.

Two aiosqlite connections per ``SqliteStore``: a writer and a read-only reader (and, for a moment, one for
the integrity check or a backup's target). Writes are explicit ``BEGIN IMMEDIATE … COMMIT`` so the write lock
is taken up front (a busy file waits ``busy_timeout`` on the connection's thread, then fails cleanly instead of
deadlocking half-way); the writes waiting at one moment share that transaction, each in a savepoint of its own
(group commit, bot/store/group_commit.py), and any failure rolls a write back whole.

Durability: WAL with ``synchronous=FULL``. The bot writes at the pace of people pressing buttons,
so one fsync per commit costs nothing noticeable, and an acknowledged action then survives not only
a ``kill -9`` of the process (WAL with NORMAL would already) but also an OS crash or power loss,
which NORMAL does not promise for the last commits. A passive checkpoint every CHECKPOINT_EVERY commits and after
CHECKPOINT_IDLE seconds without a write (group_commit.py) keeps the commits that live only in the -wal few and
recent (issue 37).
"""

from __future__ import annotations

import asyncio
import contextlib
import functools
import logging
import os
import re
import sqlite3
import tempfile
from collections.abc import AsyncIterator, Awaitable, Callable, Sequence
from datetime import UTC, datetime
from pathlib import Path
from typing import Any, TypeVar

import aiosqlite

from .base import (
    JSON,
    AlreadyApplied,
    ForeignDatabase,
    GameRow,
    SchemaTooNew,
    StoreCorrupt,
    StoreError,
    StoreUnavailable,
)
from .group_commit import CHECKPOINT_EVERY, CHECKPOINT_IDLE, GroupCommit, rollback
from .messages import described, disk_full
from .rows import (
    game_row,
    print_problems,
    refusal_for,
)
from .schema import MIGRATIONS, SCHEMA_VERSION, step
from .sql import (
    GAME_COLUMNS,
    Abandon,
    Append,
    NewGame,
    SqlStore,
    Undo,
    already_applied,
    channel_busy,
    forget_rows,
    load_game,
    utc_now,
)

log = logging.getLogger(__name__)
T = TypeVar("T")
Db = aiosqlite.Connection
SQLITE_HEADER = b"SQLite format 3\x00"
# Files up to this size get PRAGMA quick_check before the store opens (a few ms); larger ones only a read of
# the header and the schema, the full check following in the background (issue 12: ready in under 100 ms).
QUICK_CHECK_BYTES = 8 << 20
# A write reads its row back with RETURNING (one statement, not two).
MIN_SQLITE = (3, 35, 0)
# PRAGMA application_id of the bot's databases ("solo"): another application's SQLite file is told apart before
# anything is written to it. A file of the bot's from before the mark is known by its tables and user_version.
APPLICATION_ID = 0x736F6C6F
_BOT_TABLES = frozenset({"games", "actions", "snapshots"})

# Primary result codes (the low byte of an extended code).
_BUSY, _LOCKED, _READONLY, _IOERR, _CORRUPT, _FULL, _CANTOPEN, _NOTADB = 5, 6, 8, 10, 11, 13, 14, 26



def translate(exc: sqlite3.Error) -> Exception:
    """The store error for a sqlite3 error; the error itself when it is a bug rather than a fault."""
    code = getattr(exc, "sqlite_errorcode", None)
    primary = code & 0xFF if isinstance(code, int) else None
    text = str(exc).lower()
    if primary in (_BUSY, _LOCKED) or "database is locked" in text or "is busy" in text:
        return StoreUnavailable("locked")
    if primary == _FULL or "database or disk is full" in text:
        return StoreUnavailable("disk_full")
    if primary == _READONLY or "readonly database" in text:
        return StoreUnavailable("read_only")
    if primary == _IOERR or "disk i/o error" in text:
        return StoreUnavailable("io")
    if primary in (_CORRUPT, _NOTADB) or "malformed" in text or "not a database" in text \
            or "could not decode" in text:  # a text column that is not UTF-8: a damaged row
        return StoreCorrupt("malformed", detail=str(exc))
    if primary == _CANTOPEN or "unable to open" in text:
        return StoreUnavailable("cannot_open")
    return exc


class SqliteConn:
    """A connection as the shared statements (sql.py) use it: their ``$1`` is SQLite's numbered ``?1``."""

    __slots__ = ("db",)

    def __init__(self, db: Db) -> None:
        self.db = db

    async def all(self, sql: str, *params: Any) -> list[sqlite3.Row]:
        return await _all(self.db, _numbered(sql), params)

    async def one(self, sql: str, *params: Any) -> sqlite3.Row | None:
        return await _one(self.db, _numbered(sql), params)

    async def run(self, sql: str, *params: Any) -> int:
        cursor = await self.db.execute(_numbered(sql), params)
        return int(cursor.rowcount)


@functools.lru_cache(maxsize=512)
def _numbered(sql: str) -> str:
    return re.sub(r"\$(\d+)", r"?\1", sql)


class SqliteStore(SqlStore):
    """``Store`` on one SQLite file. ``open()`` before use, ``close()`` after."""

    # The action and the snapshot as bytes: a row that is not UTF-8 text is then refused as damaged
    # (rows.action_row, rows.snapshot_of), not met as a decoding error inside sqlite3.
    _RAW = "CAST({} AS BLOB)"
    _ACTION_COLUMNS = "seq, game_id, ply, CAST(action AS BLOB) AS action, user_id, created_at, undone"
    _STATE = "CAST(state AS BLOB)"
    _SAME = "IS"
    _LIVE = "undone = 0"
    _BARE_RESULT = True

    def __init__(
        self,
        path: str | os.PathLike[str],
        *,
        busy_timeout: float = 5.0,
        synchronous: str = "FULL",
        clock: Callable[[], str] = utc_now,
        background_check: bool = True,
        quick_check_bytes: int = QUICK_CHECK_BYTES,
        checkpoint_every: int | None = CHECKPOINT_EVERY,
        checkpoint_idle: float | None = CHECKPOINT_IDLE,
    ) -> None:
        if synchronous.upper() not in ("OFF", "NORMAL", "FULL", "EXTRA"):
            raise ValueError(f"unknown synchronous setting {synchronous!r}")
        self.path = Path(path)
        self.busy_timeout = busy_timeout
        self.synchronous = synchronous.upper()
        self._clock = clock
        self.checkpoint_every, self.checkpoint_idle = checkpoint_every, checkpoint_idle
        self._open_lock = asyncio.Lock()
        # The writer: every write, grouped into one transaction with the others waiting (group_commit.py).
        self._writer: GroupCommit | None = None
        # Reads have a connection of their own: in WAL mode they never wait for a writer, so one channel's
        # write stuck behind another process's lock does not hold up every other channel's reads.
        self._reader: Db | None = None
        self.action_rows_read = 0  # rows ``live_actions`` returned: a resume must read only the tail (issue 12)
        # Opening runs the quick check (page structure); the full integrity check (indexes against their
        # tables too) runs after it on a connection of its own, without holding up any command, and a
        # damaged file it finds is logged. ``integrity`` is its finding: None until it has run, then the
        # problems ([] when the file is sound). ``python -m bot check`` runs it on demand.
        self.background_check = background_check
        self.quick_check_bytes = quick_check_bytes
        self.integrity: list[str] | None = None
        self._checking: asyncio.Task[None] | None = None
        self._checker: Db | None = None
        self._interrupted = False  # close() stopping the check: every later statement of it stops too

    # -- opening -----------------------------------------------------------------------------------
    async def open(self) -> None:
        """Connect, check the file, migrate. Loads no game."""
        if sqlite3.sqlite_version_info < MIN_SQLITE:
            raise RuntimeError(f"SQLite {sqlite3.sqlite_version} is too old: the store needs "
                               f"{'.'.join(map(str, MIN_SQLITE))} or newer")
        async with self._open_lock, self._full_disk_said():
            if self._writer is None:
                self._writer = GroupCommit(await self._connect_writer(), checkpoint_every=self.checkpoint_every,
                                           checkpoint_idle=self.checkpoint_idle)
            if self._reader is None:
                self._reader = await self._connect_reader()
            if self.background_check and self._checking is None:
                self._checking = asyncio.create_task(self._check_in_background(), name=f"integrity check {self.path}")

    @contextlib.asynccontextmanager
    async def _full_disk_said(self) -> AsyncIterator[None]:
        """Opening on a full disk fails as an I/O error or a file SQLite cannot open (its -wal and -shm cannot
        be made): said as the full disk it is."""
        try:
            yield
        except StoreUnavailable as err:
            if err.reason in ("io", "cannot_open") and disk_full(self.path.parent):
                raise StoreUnavailable("disk_full", detail=str(err.params.get("detail", ""))) from err
            raise

    async def _connect(self, prepare: Callable[[Db], Awaitable[None]], *, isolation_level: str | None = None) -> Db:
        """A connection, ``prepare``d, or closed again. The store says BEGIN itself; ``isolation_level`` (the
        writer's) only opens a transaction for a write that SQLite left outside one (group_commit.py)."""
        try:
            db = await aiosqlite.connect(self.path, timeout=self.busy_timeout, isolation_level=isolation_level)
        except sqlite3.Error as exc:
            raise translate(exc) from exc
        db.row_factory = sqlite3.Row
        try:
            await db.execute(f"PRAGMA busy_timeout = {int(self.busy_timeout * 1000)}")
            await prepare(db)
        except BaseException as exc:
            await db.close()
            if isinstance(exc, sqlite3.Error):
                raise translate(exc) from exc
            raise
        return db

    async def _connect_writer(self) -> Db:
        try:
            self.path.parent.mkdir(parents=True, exist_ok=True)
        except OSError as exc:
            raise StoreUnavailable("cannot_open", detail=str(exc)) from exc
        _check_header(self.path)
        if not self.path.exists():
            pass  # a new database
        elif _size(self.path) == 0:  # said, not taken silently: a truncated copy looks the same
            log.warning("the game database %s is an empty (0-byte) file: starting a new database in it (if it "
                        "should hold games, stop the bot and restore a backup)", self.path)
        else:
            _check_ours(self.path)
        return await self._connect(self._prepare, isolation_level="IMMEDIATE")

    async def _connect_reader(self) -> Db:
        return await self._connect(_query_only)

    async def _prepare(self, db: Db) -> None:
        if _size(self.path) <= self.quick_check_bytes:
            await _integrity_check(db, "quick_check")  # the full check runs afterwards, in the background
        else:
            # A large file: quick_check reads every page too (about 115 ms for 10,000 games), so the start
            # reads the header and the schema only; the background check covers the rest and logs damage,
            # and a command that meets a damaged page is refused in words meanwhile.
            await _one(db, "SELECT count(*) FROM sqlite_master")
        mode = (await _only(db, "PRAGMA journal_mode = WAL"))[0]
        if str(mode).lower() != "wal":
            log.warning("SQLite journal mode is %s, not WAL, for %s", mode, self.path)
        await db.execute(f"PRAGMA synchronous = {self.synchronous}")
        await db.execute("PRAGMA foreign_keys = ON")
        await _migrate(db)
        if (await _only(db, "PRAGMA application_id"))[0] != APPLICATION_ID:
            await db.execute(f"PRAGMA application_id = {APPLICATION_ID}")  # a new file, or one from before the mark

    # -- checking ------------------------------------------------------------------------------------
    async def check(self, *, full: bool = True) -> list[str]:
        """What ``PRAGMA integrity_check`` (``quick_check`` when not ``full``) finds wrong with the file, on
        a read-only connection of its own: [] when the file is sound. A file that cannot be read at all is
        a ``StoreUnavailable``; one that is not SQLite, a ``StoreCorrupt``."""
        if self._writer is None:  # an open store checked the header when it opened (see _check_header)
            _check_header(self.path)

        async def interruptible(db: Db) -> None:
            await _query_only(db)
            # SQLite's own interrupt only reaches a statement already running: close() must also stop one
            # that had not begun when it asked.
            await db.set_progress_handler(lambda: self._interrupted, 10_000)

        checker = self._checker = await self._connect(interruptible)
        try:
            return await _problems(checker, "integrity_check" if full else "quick_check")
        except sqlite3.Error as exc:
            raise translate(exc) from exc
        finally:
            self._checker = None
            await checker.close()

    async def _check_in_background(self) -> None:
        try:
            found = await self.check(full=True)
        except StoreCorrupt as err:
            found = [str(err)]
        except Exception as exc:  # a check that could not run must not kill anything: say so
            if self._interrupted:
                return  # closing stopped it
            if isinstance(exc, StoreError):  # locked, unreadable…: not a finding about the file's health
                log.warning("the background integrity check of %s could not run (%s): run python -m bot check "
                            "later", self.path, exc)
                return
            log.exception("the background integrity check of %s could not run", self.path)
            self.integrity = [f"the check could not run: {exc}"]
            return
        if self._interrupted:
            return  # closing stopped it half-way: what it found so far is no finding
        self.integrity = found
        if found:
            log.error(
                "THE GAME DATABASE IS DAMAGED: PRAGMA integrity_check of %s found %d problem(s): %s. "
                "Games may be lost or refused. Stop the bot, keep a copy of the file, and restore a backup "
                "(python -m bot backup makes one; python -m bot check lists the problems).",
                self.path, len(found), "; ".join(found[:5]),
            )
        else:
            log.info("background integrity check of %s: ok", self.path)

    async def _stop_checking(self) -> None:
        task, self._checking = self._checking, None
        if task is None or task.done():
            return
        self._interrupted = True  # the check's next statement stops at once (its progress handler)
        checker = self._checker
        if checker is not None:
            await checker.interrupt()  # the PRAGMA stops at its next step instead of reading to the end
        # Not cancelled: a connection being opened would be left to close itself after the loop is gone. The
        # check ends by itself now, and closes its connection.
        await task

    async def close(self) -> None:
        async with self._open_lock:
            # Under the lock: an open still under way (a SIGTERM while the bot starts) finishes first, and the
            # check it starts is stopped with the rest instead of outliving the event loop.
            await self._stop_checking()
            reader, self._reader = self._reader, None
            writer, self._writer = self._writer, None
            if reader is not None:
                await reader.close()
            if writer is not None:
                await writer.drained()  # what was given runs first
                await writer.db.close()

    # -- plumbing ----------------------------------------------------------------------------------------
    async def _read(self, work: Callable[[Db], Awaitable[T]]) -> T:
        if self._reader is None:
            raise RuntimeError("the store is not open")
        try:
            return await work(self._reader)
        except sqlite3.Error as exc:
            raise translate(exc) from exc

    async def _reading(self, work: Callable[[SqliteConn], Awaitable[T]]) -> T:
        return await self._read(lambda db: work(SqliteConn(db)))

    async def _writing(self, work: Callable[[SqliteConn], Awaitable[T]]) -> T:
        return await self._write(lambda db: work(SqliteConn(db)))

    async def _write(self, work: Callable[[Db], Awaitable[T]]) -> T:
        """``work`` in one transaction (grouped with the others waiting): all of it, or none of it."""
        return await self._on_writer(work, grouped=True)

    async def _on_writer(self, work: Callable[[Db], Awaitable[T]], *, grouped: bool = False) -> T:
        """``work`` on the writer's connection; outside any group unless ``grouped`` (it then manages no
        transaction of its own)."""
        if self._writer is None:
            raise RuntimeError("the store is not open")
        try:
            return await (self._writer.transaction(work) if grouped else self._writer.call(work))
        except sqlite3.Error as exc:
            raise translate(exc) from exc

    def commits(self) -> tuple[int, int]:
        """(group commits, transactions they held) since the store opened: the bench's group-commit figure."""
        return (self._writer.commits, self._writer.grouped) if self._writer is not None else (0, 0)

    # -- games -------------------------------------------------------------------------------------
    async def _create(self, new: NewGame) -> GameRow:
        async def create(c: SqliteConn) -> GameRow:
            try:
                return await self._create_in(c, new)
            except sqlite3.IntegrityError as exc:
                raise await channel_busy(c, new.channel_id) from exc

        return await self._writing(create)

    async def ping(self) -> None:
        """A cheap query that the database answers (``/readyz``); raises when it does not (a closed store)."""
        if self._reader is None:
            raise StoreUnavailable("cannot_open", detail="the store is closed")
        await self._read(lambda db: _one(db, "SELECT 1 FROM sqlite_master LIMIT 1"))

    # -- actions -----------------------------------------------------------------------------------
    async def _append(self, a: Append) -> GameRow:
        async def append(db: Db) -> GameRow:
            # The game's UPDATE and the action's INSERT (and a snapshot's) go to aiosqlite side by side, so its
            # thread runs them one after the other without waiting for the loop in between: the INSERT's ply is
            # known beforehand. No read before them: an interaction applied already either finds the game moved
            # on (checked on that path only) or, after an undo brought the game back, trips the unique index on
            # its id when its action is inserted. When the UPDATE touches no row, the INSERT's outcome does not
            # matter: the write fails and the group commit rolls it back.
            ply = a.expected_ply + 1
            statements = [
                _all(db, "UPDATE games SET ply = ply + 1, revision = revision + 1, status = ?, updated_at = ?"
                     " WHERE id = ? AND ply = ? AND status = 'active' AND (? IS NULL OR revision = ?)"
                     f" RETURNING {GAME_COLUMNS}",
                     (a.status, a.now, a.game_id, a.expected_ply, a.expected_revision, a.expected_revision)),
                db.execute("INSERT INTO actions (game_id, ply, action, user_id, created_at, interaction_id)"
                           " VALUES (?, ?, ?, ?, ?, ?)", (a.game_id, ply, a.action, a.user_id, a.now, a.interaction_id)),
            ]
            if a.snapshot is not None:
                statements.append(db.execute(
                    "INSERT OR REPLACE INTO snapshots (game_id, ply, state, created_at) VALUES (?, ?, ?, ?)",
                    (a.game_id, ply, a.snapshot, a.now)))
            outcomes: list[Any] = await asyncio.gather(*statements, return_exceptions=True)
            rows, *inserted = outcomes
            if isinstance(rows, BaseException):
                raise rows
            if not rows:
                # An INSERT that went through shows the interaction's id was not stored before (it is unique).
                if isinstance(inserted[0], sqlite3.IntegrityError):
                    await already_applied(SqliteConn(db), a.interaction_id, undo=False)
                raise await _refusal(db, a.game_id, a.expected_ply, allowed=("active",),
                                     expected_revision=a.expected_revision)
            game = game_row(rows[0])
            for outcome in inserted:
                if isinstance(outcome, sqlite3.IntegrityError) and "actions.interaction_id" in str(outcome):
                    # A second delivery racing the first.
                    raise AlreadyApplied(game_id=a.game_id, interaction_id=a.interaction_id) from outcome
                if isinstance(outcome, BaseException):
                    raise outcome
            if a.finish is not None:
                await self._insert_result(SqliteConn(db), game, a.finish, ended_by=a.user_id, now=a.now)
            return game

        return await self._write(append)

    async def _undo(self, u: Undo) -> GameRow:
        async def undo(c: SqliteConn) -> GameRow:
            try:
                return await self._undo_in(c, u)
            except sqlite3.IntegrityError as exc:
                if "games." not in str(exc):
                    raise
                # Reopening a finished game in a channel that has started another one since.
                raise await channel_busy(c, (await load_game(c, u.game_id)).channel_id) from exc

        return await self._writing(undo)

    async def _abandon(self, a: Abandon) -> GameRow:
        return await self._writing(lambda c: self._abandon_in(c, a))

    # -- a user's data (/game forget) -----------------------------------------------------------------
    async def forget_user(self, user_id: int, *, expected_mark: str | None = None) -> JSON:
        """Delete every game ``user_id`` started (in every server, a game in progress included) with its
        actions, snapshots and result, and remove their id from what remains (``ended_by`` of a game they
        abandoned as a server manager, ``undone_by``). One transaction; the freed pages are overwritten
        (``secure_delete``) and the WAL truncated afterwards, so the rows do not linger in the file.
        ``expected_mark`` (from ``user_data``): raise StaleVersion instead if the data changed since.
        Returns the counts deleted and ``game_ids``."""

        async def forget(db: Db) -> tuple[JSON, list[int]]:
            # Its own transaction, outside any group: secure_delete can only change between transactions.
            await db.execute("PRAGMA secure_delete = ON")
            try:
                async with _transaction(db):
                    forgotten = await forget_rows(SqliteConn(db), user_id, expected_mark)
            finally:
                await db.execute("PRAGMA secure_delete = OFF")
            with contextlib.suppress(sqlite3.Error):
                await db.execute("PRAGMA wal_checkpoint(TRUNCATE)")
            return forgotten

        found, ids = await self._on_writer(forget)
        return {k: v for k, v in found.items() if k != "mark"} | {"game_ids": ids}

    # -- backup ------------------------------------------------------------------------------------
    async def backup(self, path: str | os.PathLike[str]) -> Path:
        """SQLite online backup into ``path`` (a folder: a dated file inside it), written beside it under a name
        of its own and renamed when complete: a failure leaves no partial copy. Never onto the live file, its
        ``-wal`` or ``-shm`` (``backup_destination``). Returns the file written."""
        dest = backup_destination(self.path, Path(path))
        try:
            dest.parent.mkdir(parents=True, exist_ok=True)
            fd, name = tempfile.mkstemp(dir=dest.parent, prefix=f".{dest.name}.", suffix=".partial")
            os.close(fd)
        except OSError as exc:
            raise StoreUnavailable("cannot_open", detail=str(exc)) from exc
        partial = Path(name)

        async def copy(db: Db) -> None:
            async with aiosqlite.connect(partial, isolation_level=None) as target:
                await db.backup(target)
                await target.execute("PRAGMA journal_mode = DELETE")  # a single self-contained file

        try:
            await self._read(copy)
            os.replace(partial, dest)
        except BaseException as exc:
            for leftover in (partial, Path(f"{partial}-journal"), Path(f"{partial}-wal"), Path(f"{partial}-shm")):
                leftover.unlink(missing_ok=True)
            if isinstance(exc, OSError):
                raise StoreUnavailable("cannot_open", detail=str(exc)) from exc
            raise
        return dest


def backup_destination(live: Path, dest: Path, now: datetime | None = None) -> Path:
    """Where a backup of the database ``live`` asked to go to ``dest`` is written: ``dest`` itself, or a dated
    file inside it when it is a folder. ValueError (one sentence) when that is the live file, its ``-wal``,
    ``-shm`` or ``-journal``, by any name (a link, a relative path): a copy there destroys what it copies."""
    if dest.is_dir() or str(dest).endswith(os.sep):
        stamp = (now or datetime.now(UTC)).strftime("%Y%m%d-%H%M%S")
        dest = dest / f"{live.stem}-{stamp}{live.suffix or '.sqlite3'}"
    source = os.path.realpath(live)
    kept = {source + tail for tail in ("", "-wal", "-shm", "-journal")}
    target = os.path.realpath(dest)
    same = target in kept or any(os.path.exists(k) and os.path.exists(target) and os.path.samefile(k, target)
                                 for k in kept)
    if same:
        raise ValueError(f"{dest} is the live database or one of its files ({os.path.basename(target)}): a "
                         "backup there would destroy what it copies; give another file or a folder")
    return dest


# -- helpers (module level so a transaction reads top to bottom) ------------------------------------------
async def _query_only(db: Db) -> None:
    await db.execute("PRAGMA query_only = ON")


@contextlib.asynccontextmanager
async def _transaction(db: Db) -> AsyncIterator[None]:
    """BEGIN IMMEDIATE … COMMIT, rolled back on any failure (migrations and /game forget; the commands'
    writes go through the group commit of group_commit.py)."""
    await db.execute("BEGIN IMMEDIATE")
    try:
        yield
        await db.execute("COMMIT")
    except BaseException:
        await rollback(db)
        raise


async def _all(db: Db, sql: str, params: Sequence[Any] = ()) -> list[sqlite3.Row]:
    return list(await db.execute_fetchall(sql, params))


async def _one(db: Db, sql: str, params: Sequence[Any] = ()) -> sqlite3.Row | None:
    """The first row of ``sql`` (every row is read, so the statement is done once this returns)."""
    rows = await _all(db, sql, params)
    return rows[0] if rows else None


async def _only(db: Db, sql: str, params: Sequence[Any] = ()) -> sqlite3.Row:
    """The row of a statement that always gives one (a PRAGMA's, an aggregate's)."""
    row = await _one(db, sql, params)
    if row is None:
        raise StoreCorrupt("malformed", detail=f"no row from {sql[:60]!r}")
    return row


def _size(path: Path) -> int:
    try:
        return path.stat().st_size
    except OSError:
        return 0


def _check_header(path: Path) -> None:
    """Refuse a file that is not SQLite before SQLite touches it (an empty file is a new database).

    Only while this process has no SQLite connection open on the file: closing any descriptor of a file drops
    every POSIX lock the process holds on it, SQLite's included. Another program closing the database then
    takes itself for the last user, checkpoints and deletes the WAL under the running bot, and the bot's next
    reads fail (``SQLITE_IOERR_SHORT_READ``) until it restarts (tests/store/test_store_check.py)."""
    try:
        with path.open("rb") as f:
            head = f.read(len(SQLITE_HEADER))
    except FileNotFoundError:
        return
    except OSError as exc:
        raise StoreUnavailable("cannot_open", detail=str(exc)) from exc
    if head and head != SQLITE_HEADER:
        raise StoreCorrupt("not_sqlite", path=str(path))


def _check_ours(path: Path) -> None:
    """Refuse another application's SQLite file before any write or pragma of ours touches it (WAL mode, the
    schema): read only, on a connection that changes nothing. The bot's files carry APPLICATION_ID; one from
    before the mark is known by its tables and its schema version; a file with no table is a new one."""
    try:
        conn = sqlite3.connect(f"{path.resolve().as_uri()}?mode=ro", uri=True)
    except sqlite3.Error as exc:
        raise translate(exc) from exc
    try:
        mark = conn.execute("PRAGMA application_id").fetchone()[0]
        if mark == APPLICATION_ID:
            return
        version = conn.execute("PRAGMA user_version").fetchone()[0]
        tables = {r[0] for r in conn.execute("SELECT name FROM sqlite_master WHERE type = 'table'")}
    except sqlite3.Error as exc:
        raise translate(exc) from exc
    finally:
        conn.close()
    if mark == 0 and (not tables or (version >= 1 and tables >= _BOT_TABLES)):
        return
    raise ForeignDatabase(path=str(path))


async def _integrity_check(db: Db, pragma: str = "integrity_check") -> None:
    problems = await _problems(db, pragma)
    if problems:
        raise StoreCorrupt("integrity", detail="; ".join(problems[:5]))


async def _problems(db: Db, pragma: str) -> list[str]:
    """The lines of ``PRAGMA integrity_check``/``quick_check`` that are not "ok" (a file too damaged to
    check is one problem, its error); a locked or unreadable file raises ``StoreUnavailable``."""
    try:
        rows = await db.execute_fetchall(f"PRAGMA {pragma}")
    except sqlite3.DatabaseError as exc:
        error = translate(exc)
        if isinstance(error, StoreUnavailable):
            raise error from exc
        return [str(exc)]
    return [str(r[0]) for r in rows if str(r[0]).lower() != "ok"]


async def _migrate(db: Db) -> None:
    version = (await _only(db, "PRAGMA user_version"))[0]
    if version > SCHEMA_VERSION:
        raise SchemaTooNew(found=version, supported=SCHEMA_VERSION)
    if version == SCHEMA_VERSION:
        return
    # A step may rebuild a table others refer to (V6): SQLite's way is foreign keys off (only possible outside
    # a transaction) and PRAGMA foreign_key_check before the commit, so the step still keeps every reference.
    await db.execute("PRAGMA foreign_keys = OFF")
    try:
        while version < SCHEMA_VERSION:
            async with _transaction(db):
                # Read again under the write lock: another process may have migrated meanwhile.
                version = (await _only(db, "PRAGMA user_version"))[0]
                if version < SCHEMA_VERSION:
                    before = len(await _all(db, "PRAGMA foreign_key_check"))
                    for statement in step(MIGRATIONS[version], version + 1, "sqlite"):
                        if callable(statement):  # a step written in Python (it must not commit)
                            await statement(db)
                        else:
                            await db.execute(statement)
                    broken = await _all(db, "PRAGMA foreign_key_check")
                    if len(broken) > before:  # the step lost a reference (what was dangling before stays)
                        raise StoreCorrupt("foreign_key", detail=f"step {version + 1}: {[tuple(r) for r in broken[:5]]}")
                    version += 1
                    await db.execute(f"PRAGMA user_version = {version}")
            log.info("store schema at version %d", version)
    finally:
        await db.execute("PRAGMA foreign_keys = ON")
    # The steps' pages (a rebuilt table is written twice) need not stay in the WAL: give the room back.
    with contextlib.suppress(sqlite3.Error):
        await db.execute("PRAGMA wal_checkpoint(TRUNCATE)")


async def _refusal(
    db: Db, game_id: int, expected_ply: int | None, *, allowed: tuple[str, ...],
    expected_revision: int | None = None,
) -> StoreError:
    """Why a conditional UPDATE touched no row."""
    return refusal_for(await load_game(SqliteConn(db), game_id), expected_ply, allowed=allowed,
                       expected_revision=expected_revision)


async def replay_problems(path: Path) -> tuple[int, list[str]]:
    """Every game of the file replayed from its log and compared with its latest snapshot (``replay_games``), on
    a read-only connection: (games replayed, problems). Reads only, so it runs beside the bot."""
    try:
        async with aiosqlite.connect(f"{path.resolve().as_uri()}?mode=ro", uri=True) as db:
            return await SqliteStore.replay_games(SqliteConn(db))
    except sqlite3.Error as exc:
        error = translate(exc)
        if isinstance(error, StoreError):
            raise error from exc
        return 0, [f"the games cannot be read: {exc}"]


async def check_main(db_path: str | os.PathLike[str], *, quick: bool = False) -> int:
    """``python -m bot check``: the full integrity check (``--quick``: the quick one) of the database and every
    game replayed from its log against its latest snapshot (not with ``--quick``), on demand, while the bot may
    be running (it only reads). 0 when the file is sound; 1 with what is wrong when it is damaged (or empty);
    2 when there is no file or it cannot be read."""
    import sys

    path = Path(db_path)
    if not path.is_file():
        print(f"check failed: no database at {path}", file=sys.stderr)
        return 2
    if _size(path) == 0:
        print(f"The game database {path} is an empty (0-byte) file: it holds no game (the bot would start a new "
              "database in it). If it should hold games, restore a backup.", file=sys.stderr)
        return 1
    store = SqliteStore(path, background_check=False)
    pragma = "quick_check" if quick else "integrity_check"
    try:
        _check_header(path)
        _check_ours(path)
        problems = await store.check(full=not quick)
        if not problems and not quick:
            replayed, problems = await replay_problems(path)
    except StoreCorrupt as err:
        what = "is not an SQLite database" if err.reason == "not_sqlite" else \
            f"cannot be read as a database ({err.params.get('detail') or err.reason})"
        print(f"The game database is damaged: {path} {what}. Restore a backup, or move the file away to start "
              "with an empty one.", file=sys.stderr)
        return 1
    except StoreError as err:
        print(f"check failed: {described(err)}" if isinstance(err, ForeignDatabase) else
              f"check failed: {path} cannot be read ({described(err)}).", file=sys.stderr)
        return 2
    if problems:
        print(f"The game database is damaged: {path} has {len(problems)} problem(s):", file=sys.stderr)
        print_problems(problems)
        print("Stop the bot, keep a copy of the file, and restore a backup (python -m bot backup makes one).",
              file=sys.stderr)
        return 1
    games = "" if quick else f"; every game ({replayed}) replays from its log to its latest snapshot and ply"
    print(f"ok: PRAGMA {pragma} of {path} found no problem{games}")
    return 0
