"""The store on SQLite, through aiosqlite.

Two aiosqlite connections per ``SqliteStore``: a writer and a read-only reader (and, for a moment, one for
the integrity check or a backup's target). Writes are explicit ``BEGIN IMMEDIATE … COMMIT`` so the write lock
is taken up front (a busy file waits ``busy_timeout`` on the connection's thread, then fails cleanly instead of
deadlocking half-way); the writes waiting at one moment share that transaction, each in a savepoint of its own
(group commit, bot/store/group_commit.py), and any failure rolls a write back whole.

Durability: WAL with ``synchronous=FULL``. The bot writes at the pace of people pressing buttons,
so one fsync per commit costs nothing noticeable, and an acknowledged action then survives not only
a ``kill -9`` of the process (WAL with NORMAL would already) but also an OS crash or power loss,
which NORMAL does not promise for the last commits.
"""

from __future__ import annotations

import asyncio
import contextlib
import json
import logging
import os
import sqlite3
from collections.abc import AsyncIterator, Awaitable, Callable, Mapping, Sequence
from datetime import UTC, datetime
from pathlib import Path
from typing import Any, TypeVar

import aiosqlite

from .base import (
    JSON,
    ActionRow,
    AlreadyApplied,
    ChannelBusy,
    FinishInfo,
    GameNotFound,
    GameRow,
    Ranking,
    ResultRow,
    SchemaTooNew,
    StaleVersion,
    StoreCorrupt,
    StoreError,
    StoreUnavailable,
    ranking_sql,
)
from .group_commit import GroupCommit, rollback
from .messages import described
from .rows import (
    action_row,
    action_texts,
    dumps,
    game_row,
    new_game_options,
    print_problems,
    refusal_for,
    result_row,
    signed,
)
from .schema import MIGRATIONS, SCHEMA_VERSION, step

log = logging.getLogger(__name__)
T = TypeVar("T")
Db = aiosqlite.Connection
SQLITE_HEADER = b"SQLite format 3\x00"
# Files up to this size get PRAGMA quick_check before the store opens (a few ms); larger ones only a read of
# the header and the schema, the full check following in the background (issue 12: ready in under 100 ms).
QUICK_CHECK_BYTES = 8 << 20
# A write reads its row back with RETURNING (one statement, not two).
MIN_SQLITE = (3, 35, 0)

# Primary result codes (the low byte of an extended code).
_BUSY, _LOCKED, _READONLY, _IOERR, _CORRUPT, _FULL, _CANTOPEN, _NOTADB = 5, 6, 8, 10, 11, 13, 14, 26

_GAME_COLUMNS = (
    "id, guild_id, channel_id, parent_channel_id, owner_id, kind, options, seed, status, ply, "
    "created_at, updated_at, revision"
)
_ACTION_COLUMNS = "seq, game_id, ply, action, user_id, created_at, undone"
_RESULT_COLUMNS = (
    "game_id, guild_id, user_id, kind, outcome, difficulty, player_score, opponent_score, length, result, "
    "finished_at, ended_by"
)


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
    if primary in (_CORRUPT, _NOTADB) or "malformed" in text or "not a database" in text:
        return StoreCorrupt("malformed", detail=str(exc))
    if primary == _CANTOPEN or "unable to open" in text:
        return StoreUnavailable("cannot_open")
    return exc



def _utc_now() -> str:
    return datetime.now(UTC).isoformat(timespec="microseconds")


class SqliteStore:
    """``Store`` on one SQLite file. ``open()`` before use, ``close()`` after."""

    def __init__(
        self,
        path: str | os.PathLike[str],
        *,
        busy_timeout: float = 5.0,
        synchronous: str = "FULL",
        clock: Callable[[], str] = _utc_now,
        background_check: bool = True,
        quick_check_bytes: int = QUICK_CHECK_BYTES,
    ) -> None:
        if synchronous.upper() not in ("OFF", "NORMAL", "FULL", "EXTRA"):
            raise ValueError(f"unknown synchronous setting {synchronous!r}")
        self.path = Path(path)
        self.busy_timeout = busy_timeout
        self.synchronous = synchronous.upper()
        self._clock = clock
        self._open_lock = asyncio.Lock()
        # The writer: every write, grouped into one transaction with the others waiting (group_commit.py).
        self._writer: GroupCommit | None = None
        # Reads have a connection of their own: in WAL mode they never wait for a writer, so one channel's
        # write stuck behind another process's lock does not hold up every other channel's reads.
        self._reader: Db | None = None
        # How many action rows ``live_actions`` has returned: a resume must read only the tail (issue 12).
        self.action_rows_read = 0
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
        async with self._open_lock:
            if self._writer is None:
                self._writer = GroupCommit(await self._connect_writer())
            if self._reader is None:
                self._reader = await self._connect_reader()
            if self.background_check and self._checking is None:
                self._checking = asyncio.create_task(self._check_in_background(), name=f"integrity check {self.path}")

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
            # Under the lock: an open() under way (a SIGTERM while logging in) starts the check as it ends.
            await self._stop_checking()
            reader, self._reader = self._reader, None
            writer, self._writer = self._writer, None
            if reader is not None:
                await reader.close()
            if writer is not None:
                await writer.drained()  # what was given runs first
                await writer.db.close()

    async def __aenter__(self) -> SqliteStore:
        await self.open()
        return self

    async def __aexit__(self, *exc: object) -> None:
        await self.close()

    # -- plumbing ----------------------------------------------------------------------------------------
    async def _read(self, work: Callable[[Db], Awaitable[T]]) -> T:
        if self._reader is None:
            raise RuntimeError("the store is not open")
        try:
            return await work(self._reader)
        except sqlite3.Error as exc:
            raise translate(exc) from exc

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
    async def create_game(
        self,
        *,
        guild_id: int | None,
        channel_id: int,
        parent_channel_id: int | None,
        owner_id: int,
        kind: str,
        options: JSON,
        seed: int,
    ) -> GameRow:
        options_text = new_game_options(kind, options, seed)
        now = self._clock()

        async def create(db: Db) -> GameRow:
            try:
                cursor = await db.execute(
                    "INSERT INTO games (guild_id, channel_id, parent_channel_id, owner_id, kind, options,"
                    " seed, status, ply, created_at, updated_at)"
                    " VALUES (?, ?, ?, ?, ?, ?, ?, 'active', 0, ?, ?)",
                    (guild_id, channel_id, parent_channel_id, owner_id, kind, options_text, signed(seed), now, now),
                )
            except sqlite3.IntegrityError as exc:
                raise await _channel_busy(db, channel_id) from exc
            assert cursor.lastrowid is not None  # an INSERT into a rowid table
            return await _game(db, cursor.lastrowid)

        return await self._write(create)

    async def active_game(self, channel_id: int) -> GameRow | None:
        row = await self._read(lambda db: _one(
            db, f"SELECT {_GAME_COLUMNS} FROM games WHERE channel_id = ? AND status = 'active'", (channel_id,)))
        return game_row(row) if row else None

    async def game(self, game_id: int) -> GameRow:
        return await self._read(lambda db: _game(db, game_id))

    async def last_game(self, channel_id: int) -> GameRow | None:
        """The channel's most recent game, whatever its status."""
        row = await self._read(lambda db: _one(
            db, f"SELECT {_GAME_COLUMNS} FROM games WHERE channel_id = ? ORDER BY id DESC LIMIT 1", (channel_id,)))
        return game_row(row) if row else None

    async def count_games(self, status: str | None = None) -> int:
        row = await self._read(lambda db: _only(
            db, "SELECT count(*) FROM games WHERE ? IS NULL OR status = ?", (status, status)))
        return int(row[0])

    async def ping(self) -> None:
        """A cheap query that the database answers (``/readyz``); raises when it does not (a closed store)."""
        if self._reader is None:
            raise StoreUnavailable("cannot_open", detail="the store is closed")
        await self._read(lambda db: _one(db, "SELECT 1 FROM sqlite_master LIMIT 1"))

    # -- actions -----------------------------------------------------------------------------------
    async def live_actions(self, game_id: int, after_ply: int = 0) -> list[ActionRow]:
        rows = await self._read(lambda db: _all(
            db, f"SELECT {_ACTION_COLUMNS} FROM actions WHERE game_id = ? AND undone = 0 AND ply > ? ORDER BY ply",
            (game_id, after_ply)))
        self.action_rows_read += len(rows)
        return [action_row(r) for r in rows]

    async def history(self, game_id: int, limit: int) -> list[ActionRow]:
        """The latest ``limit`` log entries, newest first, undone ones included (``undone=True``)."""
        rows = await self._read(lambda db: _all(
            db, f"SELECT {_ACTION_COLUMNS} FROM actions WHERE game_id = ? ORDER BY seq DESC LIMIT ?",
            (game_id, limit)))
        return [action_row(r) for r in rows]

    async def latest_snapshot(self, game_id: int, at_most_ply: int) -> tuple[int, JSON] | None:
        row = await self._read(lambda db: _one(
            db, "SELECT ply, state FROM snapshots WHERE game_id = ? AND ply <= ? ORDER BY ply DESC LIMIT 1",
            (game_id, at_most_ply)))
        return (int(row[0]), json.loads(row[1])) if row else None

    async def append_action(
        self,
        game_id: int,
        *,
        expected_ply: int,
        action: JSON,
        user_id: int,
        snapshot: JSON | None = None,
        finish: FinishInfo | None = None,
        expected_revision: int | None = None,
        interaction_id: int | None = None,
    ) -> GameRow:
        """Record one action at ``expected_ply + 1``, all or nothing.

        ``snapshot`` is the state JSON at the new ply; ``finish`` ends the game and records its result in the same transaction.
        ``expected_revision`` (when given) must be the game's revision too; ``interaction_id`` is kept
        with the action, and an interaction whose action is already stored raises ``AlreadyApplied``.
        """
        action_text, snapshot_text, status = action_texts(action, snapshot, finish)
        now = self._clock()

        async def append(db: Db) -> GameRow:
            # The game's UPDATE and the action's INSERT (and a snapshot's) go to aiosqlite side by side, so its
            # thread runs them one after the other without waiting for the loop in between: the INSERT's ply is
            # known beforehand. No read before them: an interaction applied already either finds the game moved
            # on (checked on that path only) or, after an undo brought the game back, trips the unique index on
            # its id when its action is inserted. When the UPDATE touches no row, the INSERT's outcome does not
            # matter: the write fails and the group commit rolls it back.
            ply = expected_ply + 1
            statements = [
                _all(db, "UPDATE games SET ply = ply + 1, revision = revision + 1, status = ?, updated_at = ?"
                     " WHERE id = ? AND ply = ? AND status = 'active' AND (? IS NULL OR revision = ?)"
                     f" RETURNING {_GAME_COLUMNS}",
                     (status, now, game_id, expected_ply, expected_revision, expected_revision)),
                db.execute("INSERT INTO actions (game_id, ply, action, user_id, created_at, interaction_id)"
                           " VALUES (?, ?, ?, ?, ?, ?)", (game_id, ply, action_text, user_id, now, interaction_id)),
            ]
            if snapshot_text is not None:
                statements.append(db.execute(
                    "INSERT OR REPLACE INTO snapshots (game_id, ply, state, created_at) VALUES (?, ?, ?, ?)",
                    (game_id, ply, snapshot_text, now)))
            outcomes: list[Any] = await asyncio.gather(*statements, return_exceptions=True)
            rows, *inserted = outcomes
            if isinstance(rows, BaseException):
                raise rows
            if not rows:
                # An INSERT that went through shows the interaction's id was not stored before (it is unique).
                if interaction_id is not None and isinstance(inserted[0], sqlite3.IntegrityError):
                    seen = await _one(db, "SELECT game_id FROM actions WHERE interaction_id = ?", (interaction_id,))
                    if seen is not None:
                        raise AlreadyApplied(game_id=seen[0], interaction_id=interaction_id)
                raise await _refusal(db, game_id, expected_ply, allowed=("active",),
                                     expected_revision=expected_revision)
            game = game_row(rows[0])
            for outcome in inserted:
                if isinstance(outcome, sqlite3.IntegrityError) and "actions.interaction_id" in str(outcome):
                    # A second delivery racing the first.
                    raise AlreadyApplied(game_id=game_id, interaction_id=interaction_id) from outcome
                if isinstance(outcome, BaseException):
                    raise outcome
            if finish is not None:
                await _insert_result(db, game, finish, ended_by=user_id, now=now)
            return game

        return await self._write(append)

    async def undo_action(
        self, game_id: int, *, expected_ply: int, user_id: int,
        expected_revision: int | None = None, interaction_id: int | None = None,
    ) -> GameRow:
        """Take back the last live action: marked undone (never deleted), ply − 1, snapshots above the
        new ply dropped; a game that action had finished is active again and its result is gone."""
        now = self._clock()

        async def undo(db: Db) -> GameRow:
            if interaction_id is not None:
                seen = await _one(db, "SELECT game_id FROM actions WHERE undone_interaction_id = ?",
                                  (interaction_id,))
                if seen is not None:
                    raise AlreadyApplied(game_id=seen[0], interaction_id=interaction_id)
            try:
                cursor = await db.execute(
                    "UPDATE games SET ply = ply - 1, revision = revision + 1, status = 'active',"
                    " updated_at = ? WHERE id = ? AND ply = ? AND ply > 0 AND status IN ('active', 'finished')"
                    " AND (? IS NULL OR revision = ?)",
                    (now, game_id, expected_ply, expected_revision, expected_revision),
                )
            except sqlite3.IntegrityError as exc:
                # Reopening a finished game in a channel that has started another one since.
                raise await _channel_busy(db, (await _game(db, game_id)).channel_id) from exc
            if cursor.rowcount != 1:
                raise await _refusal(db, game_id, expected_ply, allowed=("active", "finished"),
                                     expected_revision=expected_revision)
            cursor = await db.execute(
                "UPDATE actions SET undone = 1, undone_at = ?, undone_by = ?, undone_interaction_id = ?"
                " WHERE game_id = ? AND ply = ? AND undone = 0",
                (now, user_id, interaction_id, game_id, expected_ply),
            )
            if cursor.rowcount != 1:
                raise StoreCorrupt("log_mismatch", game_id=game_id, ply=expected_ply)
            await db.execute("DELETE FROM snapshots WHERE game_id = ? AND ply > ?", (game_id, expected_ply - 1))
            await db.execute("DELETE FROM results WHERE game_id = ?", (game_id,))
            return await _game(db, game_id)

        return await self._write(undo)

    async def abandon(
        self, game_id: int, *, expected_ply: int | None, by_user: int, expected_revision: int | None = None
    ) -> GameRow:
        """End an active game without a score; its result (outcome abandoned) is on no leaderboard."""
        now = self._clock()

        async def abandon(db: Db) -> GameRow:
            cursor = await db.execute(
                "UPDATE games SET status = 'abandoned', revision = revision + 1, updated_at = ?"
                " WHERE id = ? AND status = 'active' AND (? IS NULL OR ply = ?) AND (? IS NULL OR revision = ?)",
                (now, game_id, expected_ply, expected_ply, expected_revision, expected_revision),
            )
            if cursor.rowcount != 1:
                raise await _refusal(db, game_id, expected_ply, allowed=("active",),
                                     expected_revision=expected_revision)
            game = await _game(db, game_id)
            await _insert_result(db, game, FinishInfo(status="abandoned", outcome="abandoned"), ended_by=by_user,
                                 now=now)
            return game

        return await self._write(abandon)

    # -- result posts ------------------------------------------------------------------------------
    async def add_result_post(self, game_id: int, channel_id: int, message_id: int) -> None:
        """Remember a public result post of ``game_id`` (to mark it withdrawn if the ending is undone)."""
        await self._write(lambda db: db.execute(
            "INSERT OR IGNORE INTO result_posts (game_id, channel_id, message_id) VALUES (?, ?, ?)",
            (game_id, channel_id, message_id)))

    async def take_result_posts(self, game_id: int) -> list[tuple[int, int]]:
        """The result posts of ``game_id`` as (channel_id, message_id), forgotten once read."""

        async def take(db: Db) -> list[tuple[int, int]]:
            rows = await db.execute_fetchall(
                "SELECT channel_id, message_id FROM result_posts WHERE game_id = ? ORDER BY message_id", (game_id,))
            await db.execute("DELETE FROM result_posts WHERE game_id = ?", (game_id,))
            return [(int(r[0]), int(r[1])) for r in rows]

        return await self._write(take)

    # -- results -----------------------------------------------------------------------------------
    async def result(self, game_id: int) -> ResultRow | None:
        row = await self._read(lambda db: _one(db, f"SELECT {_RESULT_COLUMNS} FROM results WHERE game_id = ?",
                                               (game_id,)))
        return result_row(row) if row else None

    async def leaderboard(
        self, guild_id: int | None, kind: str, difficulty: str | None = None, limit: int = 10, *, ranking: Ranking
    ) -> list[ResultRow]:
        """Each player's best result in this server, best first (rank = position + 1), in the order of the
        game's ``ranking`` (from its registry entry). ``difficulty`` None ranks all difficulties together.
        """
        where, order = ranking_sql(ranking)
        rows = await self._read(lambda db: db.execute_fetchall(
            f"SELECT {_RESULT_COLUMNS} FROM ("
            f" SELECT *, row_number() OVER (PARTITION BY user_id ORDER BY {order}) AS nth FROM results"
            f" WHERE guild_id IS ? AND kind = ? AND (? IS NULL OR difficulty = ?) AND {where}"
            f") WHERE nth = 1 ORDER BY {order} LIMIT ?",
            (guild_id, kind, difficulty, difficulty, limit)))
        return [result_row(r) for r in rows]

    async def stats(self, guild_id: int | None, user_id: int, *,
                    rankings: Mapping[str, Ranking] | None = None) -> JSON:
        """A player's record in one server.

        ``{"games", "active", "wins", "losses", "abandoned"}`` (counts; games counts every game they
        started), ``"by_kind": {kind: the same counts}`` (every kind of ``rankings`` and every kind played),
        ``"best": {kind: ResultRow | None}`` for each kind of ``rankings``, ranked as on the leaderboard.
        """
        rankings = dict(rankings or {})

        async def read(db: Db) -> tuple[list[Any], list[Any], dict[str, ResultRow | None]]:
            started = await db.execute_fetchall(
                "SELECT kind, count(*), sum(status = 'active') FROM games"
                " WHERE guild_id IS ? AND owner_id = ? GROUP BY kind",
                (guild_id, user_id),
            )
            ended = await db.execute_fetchall(
                "SELECT kind, outcome, count(*) FROM results WHERE guild_id IS ? AND user_id = ?"
                " GROUP BY kind, outcome",
                (guild_id, user_id),
            )
            best: dict[str, ResultRow | None] = {}
            for kind, ranking in rankings.items():
                where, order = ranking_sql(ranking)
                row = await _one(
                    db,
                    f"SELECT {_RESULT_COLUMNS} FROM results WHERE guild_id IS ? AND user_id = ? AND kind = ?"
                    f" AND {where} ORDER BY {order} LIMIT 1",
                    (guild_id, user_id, kind),
                )
                best[kind] = result_row(row) if row else None
            return list(started), list(ended), best

        started, ended, best = await self._read(read)
        kinds = [*rankings, *(r[0] for r in started if r[0] not in rankings)]
        by_kind = {kind: {"games": 0, "active": 0, "wins": 0, "losses": 0, "abandoned": 0} for kind in kinds}
        for kind, games, active in started:
            by_kind[kind]["games"] = games
            by_kind[kind]["active"] = active or 0
        for kind, outcome, n in ended:
            by_kind[kind][{"won": "wins", "lost": "losses", "abandoned": "abandoned"}[outcome]] = n
        totals = {
            key: sum(k[key] for k in by_kind.values())
            for key in ("games", "active", "wins", "losses", "abandoned")
        }
        return {**totals, "by_kind": by_kind, "best": best}

    # -- settings (a small key/value table: the last command sync's hash, …) -------------------------------
    async def get_setting(self, key: str) -> str | None:
        row = await self._read(lambda db: _one(db, "SELECT value FROM settings WHERE key = ?", (key,)))
        return None if row is None else str(row[0])

    async def put_setting(self, key: str, value: str | None) -> None:
        """Set ``key`` to ``value`` (None deletes it), in one transaction."""
        now = _utc_now()

        async def put(db: Db) -> None:
            if value is None:
                await db.execute("DELETE FROM settings WHERE key = ?", (key,))
            else:
                await db.execute(
                    "INSERT INTO settings (key, value, updated_at) VALUES (?, ?, ?)"
                    " ON CONFLICT (key) DO UPDATE SET value = excluded.value, updated_at = excluded.updated_at",
                    (key, value, now),
                )

        await self._write(put)

    # -- a user's data (/game forget) -----------------------------------------------------------------
    async def user_data(self, user_id: int) -> JSON:
        """What the store holds about ``user_id``: counts of the games they started and of those games'
        actions, snapshots and results, of results of other games they ended, and a ``mark`` that changes
        whenever any of it does (a confirmation to delete is checked against it)."""
        return await self._read(lambda db: _user_data(db, user_id))

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
                    found = await _user_data(db, user_id)
                    if expected_mark is not None and found["mark"] != expected_mark:
                        raise StaleVersion(game_id=0, expected=expected_mark, actual=found["mark"])
                    ids = [r[0] for r in await db.execute_fetchall("SELECT id FROM games WHERE owner_id = ?",
                                                                   (user_id,))]
                    mine = "SELECT id FROM games WHERE owner_id = ?"
                    for table in ("snapshots", "actions", "results", "result_posts"):
                        await db.execute(f"DELETE FROM {table} WHERE game_id IN ({mine})", (user_id,))
                    await db.execute("DELETE FROM results WHERE user_id = ?", (user_id,))
                    await db.execute("UPDATE results SET ended_by = NULL WHERE ended_by = ?", (user_id,))
                    await db.execute("UPDATE actions SET undone_by = NULL WHERE undone_by = ?", (user_id,))
                    await db.execute("DELETE FROM games WHERE owner_id = ?", (user_id,))
            finally:
                await db.execute("PRAGMA secure_delete = OFF")
            with contextlib.suppress(sqlite3.Error):
                await db.execute("PRAGMA wal_checkpoint(TRUNCATE)")
            return found, ids

        found, ids = await self._on_writer(forget)
        return {k: v for k, v in found.items() if k != "mark"} | {"game_ids": ids}

    # -- backup ------------------------------------------------------------------------------------
    async def backup(self, path: str | os.PathLike[str]) -> None:
        """SQLite online backup into ``path``, written beside it first and renamed when complete."""
        dest = Path(path)
        partial = dest.with_name(dest.name + ".partial")
        try:
            dest.parent.mkdir(parents=True, exist_ok=True)
            partial.unlink(missing_ok=True)
        except OSError as exc:
            raise StoreUnavailable("cannot_open", detail=str(exc)) from exc

        async def copy(db: Db) -> None:
            try:
                async with aiosqlite.connect(partial, isolation_level=None) as target:
                    await db.backup(target)
                    await target.execute("PRAGMA journal_mode = DELETE")  # a single self-contained file
            except BaseException:
                partial.unlink(missing_ok=True)
                raise

        await self._read(copy)
        os.replace(partial, dest)


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


async def _user_data(db: Db, user_id: int) -> JSON:
    mine = "SELECT id FROM games WHERE owner_id = ?"
    row = await _only(db, "SELECT count(*), coalesce(max(id), 0), coalesce(max(updated_at), ''),"
                         " coalesce(sum(revision), 0) FROM games WHERE owner_id = ?", (user_id,))
    games, newest, updated, plies = row[0], row[1], row[2], row[3]
    counts = {"games": games}
    for table in ("actions", "snapshots", "results"):
        counted = await _only(db, f"SELECT count(*) FROM {table} WHERE game_id IN ({mine})", (user_id,))
        counts[table] = counted[0]
    ended = await _only(db, "SELECT count(*) FROM results WHERE ended_by = ? AND user_id != ?", (user_id, user_id))
    counts["ended_others"] = ended[0]
    counts["mark"] = f"{games}.{newest}.{plies}.{counts['actions']}.{counts['results']}.{ended[0]}.{updated}"
    return counts


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


async def _game(db: Db, game_id: int) -> GameRow:
    row = await _one(db, f"SELECT {_GAME_COLUMNS} FROM games WHERE id = ?", (game_id,))
    if row is None:
        raise GameNotFound(game_id=game_id)
    return game_row(row)


async def _refusal(
    db: Db, game_id: int, expected_ply: int | None, *, allowed: tuple[str, ...],
    expected_revision: int | None = None,
) -> StoreError:
    """Why a conditional UPDATE touched no row."""
    return refusal_for(await _game(db, game_id), expected_ply, allowed=allowed, expected_revision=expected_revision)


async def _channel_busy(db: Db, channel_id: int) -> ChannelBusy:
    row = await _one(db, "SELECT id FROM games WHERE channel_id = ? AND status = 'active'", (channel_id,))
    return ChannelBusy(channel_id=channel_id, game_id=row[0] if row else None)


async def _insert_result(
    db: Db, game: GameRow, finish: FinishInfo, *, ended_by: int, now: str
) -> None:
    difficulty = finish.difficulty if finish.difficulty is not None else game.options.get("difficulty")
    await db.execute(
        f"INSERT INTO results ({_RESULT_COLUMNS}) VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)",
        (
            game.id,
            game.guild_id,
            game.owner_id,
            game.kind,
            finish.outcome,
            difficulty,
            finish.player_score,
            finish.opponent_score,
            finish.length,
            dumps(finish.result if finish.result is not None else {"outcome": finish.outcome}),
            finish.finished_at or now,
            ended_by,
        ),
    )


async def check_main(db_path: str | os.PathLike[str], *, quick: bool = False) -> int:
    """``python -m bot check``: the full integrity check (``--quick``: the quick one) of the database, on
    demand, while the bot may be running (it only reads). 0 when the file is sound; 1 with what is wrong
    when it is damaged; 2 when there is no file or it cannot be read."""
    import sys

    path = Path(db_path)
    if not path.is_file():
        print(f"check failed: no database at {path}", file=sys.stderr)
        return 2
    store = SqliteStore(path, background_check=False)
    pragma = "quick_check" if quick else "integrity_check"
    try:
        problems = await store.check(full=not quick)
    except StoreCorrupt as err:
        what = "is not an SQLite database" if err.reason == "not_sqlite" else \
            f"cannot be read as a database ({err.params.get('detail') or err.reason})"
        print(f"The game database is damaged: {path} {what}. Restore a backup, or move the file away to start "
              "with an empty one.", file=sys.stderr)
        return 1
    except StoreError as err:
        print(f"check failed: {path} cannot be read ({described(err)}).", file=sys.stderr)
        return 2
    if problems:
        print(f"The game database is damaged: PRAGMA {pragma} of {path} found {len(problems)} problem(s):",
              file=sys.stderr)
        print_problems(problems)
        print("Stop the bot, keep a copy of the file, and restore a backup (python -m bot backup makes one).",
              file=sys.stderr)
        return 1
    print(f"ok: PRAGMA {pragma} of {path} found no problem")
    return 0
