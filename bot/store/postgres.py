"""The store on PostgreSQL through asyncpg: the same ``Store`` contract as ``SqliteStore``, for several bot
processes on one database (``SOLO_BOT_DB=postgresql://…``).

A pool of connections; every write is one transaction (READ COMMITTED: the conditional UPDATE of the game's
row takes that row's lock and re-checks its ``revision`` and ``ply`` after any writer ahead of it, so of two
processes writing on one version exactly one wins). The rule "one active game per channel" is the same
partial unique index as in SQLite, and an action's interaction id is unique.

Migrations live in ``solo_schema`` and run in one transaction under a transaction-scoped advisory lock
(``pg_advisory_xact_lock``), so processes starting together migrate once.

Errors: PostgreSQL's errors become the same store errors as SQLite's (``translate``): a lock not granted
within ``lock_timeout`` → StoreUnavailable locked, disk full, read-only, and a server that is down or a
connection that was lost → StoreUnavailable unreachable ("try again in a moment"). A lost connection is closed
and the pool connects anew on the next use, so the bot recovers without a restart once the server is back; a
read whose connection was lost is tried once more. A write is never repeated: lost before its COMMIT, the
server rolled it back; lost during its COMMIT (``CommitLost``), the store asks the database on a new connection
whether it is there (an action or an undo by its interaction id, a new game or an abandon by the row it left)
and answers accordingly, or raises ``OutcomeUnknown`` when the database cannot be asked.
"""

from __future__ import annotations

import logging
from collections.abc import AsyncIterator, Awaitable, Callable
from contextlib import asynccontextmanager, suppress
from typing import TYPE_CHECKING, Any, NoReturn, TypeVar, cast

import asyncpg

from .base import (
    JSON,
    AlreadyApplied,
    ChannelBusy,
    GameRow,
    SchemaTooNew,
    StoreCorrupt,
    StoreError,
    StoreUnavailable,
)
from .rows import game_row, refusal_for
from .schema import V11, step
from .sql import (
    GAME_COLUMNS,
    RESULT_COLUMNS,
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
# The advisory lock migrations hold (any fixed 64-bit number: "solo-bot" in ASCII).
MIGRATION_LOCK = 0x736F6C6F2D626F74

# -- the schema ---------------------------------------------------------------------------------------------
# The final shape of the SQLite schema (its V1…V7: the registry issue's game-neutral results, issue 13's
# revision and interaction id) as PostgreSQL's first step. Append steps; never edit one that has shipped.
PG_V1 = (
    """
    CREATE TABLE games (
        id                BIGSERIAL PRIMARY KEY,
        guild_id          BIGINT,
        channel_id        BIGINT  NOT NULL,
        parent_channel_id BIGINT,
        owner_id          BIGINT  NOT NULL,
        kind              TEXT    NOT NULL,
        options           TEXT    NOT NULL,
        seed              BIGINT  NOT NULL,
        status            TEXT    NOT NULL DEFAULT 'active'
                                  CHECK (status IN ('active', 'finished', 'abandoned')),
        ply               INTEGER NOT NULL DEFAULT 0 CHECK (ply >= 0),
        revision          BIGINT  NOT NULL DEFAULT 0,
        created_at        TEXT    NOT NULL,
        updated_at        TEXT    NOT NULL,
        summary           TEXT
    )
    """,
    "CREATE UNIQUE INDEX games_one_active_per_channel ON games (channel_id) WHERE status = 'active'",
    "CREATE INDEX games_owner ON games (guild_id, owner_id)",
    "CREATE INDEX games_channel ON games (channel_id, id)",
    """
    CREATE TABLE actions (
        seq            BIGSERIAL PRIMARY KEY,
        game_id        BIGINT  NOT NULL REFERENCES games (id),
        ply            INTEGER NOT NULL CHECK (ply >= 1),
        action         TEXT    NOT NULL,
        user_id        BIGINT  NOT NULL,
        created_at     TEXT    NOT NULL,
        undone         BOOLEAN NOT NULL DEFAULT FALSE,
        undone_at      TEXT,
        undone_by      BIGINT,
        interaction_id BIGINT,
        undone_interaction_id BIGINT
    )
    """,
    "CREATE UNIQUE INDEX actions_live_ply ON actions (game_id, ply) WHERE NOT undone",
    "CREATE INDEX actions_game_seq ON actions (game_id, seq)",
    "CREATE UNIQUE INDEX actions_interaction ON actions (interaction_id) WHERE interaction_id IS NOT NULL",
    "CREATE UNIQUE INDEX actions_undone_interaction ON actions (undone_interaction_id)"
    " WHERE undone_interaction_id IS NOT NULL",
    """
    CREATE TABLE snapshots (
        game_id    BIGINT  NOT NULL REFERENCES games (id),
        ply        INTEGER NOT NULL CHECK (ply >= 0),
        state      TEXT    NOT NULL,
        created_at TEXT    NOT NULL,
        PRIMARY KEY (game_id, ply)
    )
    """,
    """
    CREATE TABLE results (
        game_id        BIGINT PRIMARY KEY REFERENCES games (id),
        guild_id       BIGINT,
        user_id        BIGINT NOT NULL,
        kind           TEXT   NOT NULL,
        outcome        TEXT   NOT NULL CHECK (outcome IN ('won', 'lost', 'abandoned')),
        difficulty     TEXT,
        player_score   INTEGER,
        opponent_score INTEGER,
        length         INTEGER,
        result         TEXT,
        finished_at    TEXT   NOT NULL,
        ended_by       BIGINT
    )
    """,
    "CREATE INDEX results_board ON results (guild_id, kind, outcome)",
    "CREATE INDEX results_user ON results (guild_id, user_id)",
    """
    CREATE TABLE settings (
        key        TEXT PRIMARY KEY,
        value      TEXT NOT NULL,
        updated_at TEXT NOT NULL
    )
    """,
    """
    CREATE TABLE result_posts (
        game_id    BIGINT NOT NULL REFERENCES games (id),
        channel_id BIGINT NOT NULL,
        message_id BIGINT NOT NULL,
        PRIMARY KEY (game_id, message_id)
    )
    """,
)
# A game's older records keep edition 1 of its rules (SQLite's V8): the game's own statements only.
PG_V2: tuple[str, ...] = ()
# -- issue 24, the store's part -----------------------------------------------------------------------------
# SQLite's V10: ``games.summary``, written on every action and never read, goes.
PG_V3 = ("ALTER TABLE games DROP COLUMN summary",)
# -- end of issue 24's store steps ---------------------------------------------------------------------------
# -- issue 36: where a game was played (SQLite's V11) ---------------------------------------------------------
PG_V4 = V11  # the same statements in both dialects
# -- end of issue 36's store steps ---------------------------------------------------------------------------
PG_MIGRATIONS: list[tuple[str, ...]] = [PG_V1, PG_V2, PG_V3, PG_V4]
PG_SCHEMA_VERSION = len(PG_MIGRATIONS)
# The tables in an order that respects their references (the copy from SQLite inserts in this order).
TABLES = ("games", "actions", "snapshots", "results", "result_posts", "settings")

# One action, in one statement (one round trip between BEGIN and COMMIT, where it took three): the game moves
# on by one ply if it is where the caller saw it, and the action (and the snapshot, when there is one) goes in
# at the new ply. A game that was not where the caller saw it returns no row, and nothing is written.
_APPEND = (
    "WITH game AS (UPDATE games SET ply = ply + 1, revision = revision + 1, status = $1,"
    " updated_at = $2 WHERE id = $3 AND ply = $4 AND status = 'active' AND ($5::bigint IS NULL OR revision = $5)"
    f" RETURNING {GAME_COLUMNS}),"
    " action AS (INSERT INTO actions (game_id, ply, action, user_id, created_at, interaction_id)"
    " SELECT id, ply, $6, $7, $2, $8 FROM game),"
    " snapshot AS (INSERT INTO snapshots (game_id, ply, state, created_at) SELECT id, ply, $9::text, $2 FROM game"
    " WHERE $9::text IS NOT NULL"
    " ON CONFLICT (game_id, ply) DO UPDATE SET state = excluded.state, created_at = excluded.created_at)"
    f" SELECT {GAME_COLUMNS} FROM game"
)

# -- errors -------------------------------------------------------------------------------------------------
_CONNECTION_LOST = (
    OSError,  # refused, reset, no route
    TimeoutError,  # connecting took too long
    asyncpg.PostgresConnectionError,  # SQLSTATE class 08
    asyncpg.CannotConnectNowError,  # 57P03: starting up or shutting down
    asyncpg.AdminShutdownError,  # 57P01
    asyncpg.CrashShutdownError,  # 57P02
    asyncpg.InterfaceError,  # "connection is closed", "pool is closing"
    # The protocol out of step with the server (an idle connection told of a shutdown, then used): raised
    # before anything is sent; the connection is unusable and is replaced.
    asyncpg.InternalClientError,
)

if TYPE_CHECKING:
    from asyncpg.pool import PoolConnectionProxy


def translate(exc: BaseException) -> BaseException:
    """The store error for an asyncpg (or connection) error; the error itself when it is a bug or needs the
    caller's context (a unique violation: which index says what it means)."""
    if isinstance(exc, StoreError):
        return exc
    if isinstance(exc, asyncpg.LockNotAvailableError | asyncpg.QueryCanceledError | asyncpg.DeadlockDetectedError
                  | asyncpg.SerializationError):
        return StoreUnavailable("locked")
    if isinstance(exc, asyncpg.DiskFullError):
        return StoreUnavailable("disk_full")
    if isinstance(exc, asyncpg.ReadOnlySQLTransactionError):
        return StoreUnavailable("read_only")
    if isinstance(exc, asyncpg.PostgresSystemError):  # class 58: I/O errors and the like
        return StoreUnavailable("io")
    if isinstance(exc, asyncpg.DataCorruptedError | asyncpg.IndexCorruptedError):
        return StoreCorrupt("malformed", detail=str(exc))
    if isinstance(exc, asyncpg.InsufficientResourcesError):  # out of memory, too many connections
        return StoreUnavailable("unreachable", detail=str(exc))
    if isinstance(exc, _CONNECTION_LOST):
        return StoreUnavailable("unreachable")
    return exc


def _lost(exc: BaseException) -> bool:
    return isinstance(exc, _CONNECTION_LOST)


class CommitLost(StoreUnavailable):
    """The connection was lost while COMMIT was under way: the transaction may or may not have committed. The
    writes that can ask afterwards settle it (``_settle_lost_commit``); any other tells the player so, never
    "nothing was changed"."""

    key = "refuse.internal_unknown"


class OutcomeUnknown(Exception):
    """A write whose COMMIT lost its answer, and the database could not be asked afterwards whether it took
    effect. Not a refusal: the bot tells the player that the change may or may not have been saved
    (``refuse.internal_unknown``), never "nothing was changed"."""

    def __init__(self, what: str) -> None:
        super().__init__(f"{what}: the outcome is unknown (the COMMIT lost its answer, the database cannot be asked)")
        self.what = what


class PgConn:
    """A pooled connection as the shared statements (sql.py) use it."""

    __slots__ = ("conn",)

    def __init__(self, conn: asyncpg.Connection) -> None:
        self.conn = conn

    async def all(self, sql: str, *params: Any) -> list[asyncpg.Record]:
        return list(await self.conn.fetch(sql, *params))

    async def one(self, sql: str, *params: Any) -> asyncpg.Record | None:
        return await self.conn.fetchrow(sql, *params)

    async def run(self, sql: str, *params: Any) -> int:
        status = str(await self.conn.execute(sql, *params))  # "UPDATE 1", "INSERT 0 1": the rows changed last
        count = status.rpartition(" ")[2]
        return int(count) if count.isdigit() else 0


class PostgresStore(SqlStore):
    """``Store`` on one PostgreSQL database. ``open()`` before use, ``close()`` after."""

    _RAW = "{}"
    _ACTION_COLUMNS = "seq, game_id, ply, action, user_id, created_at, undone"
    _STATE = "state"
    _SAME = "IS NOT DISTINCT FROM"
    _LIVE = "NOT undone"
    _BARE_RESULT = False

    def __init__(
        self,
        dsn: str,
        *,
        min_size: int = 1,
        max_size: int = 10,
        lock_timeout: float = 5.0,
        connect_timeout: float = 5.0,
        clock: Callable[[], str] = utc_now,
    ) -> None:
        self.dsn = dsn
        self.min_size = min_size
        self.max_size = max_size
        self.lock_timeout = lock_timeout
        self.connect_timeout = connect_timeout
        self._clock = clock
        self._pool: asyncpg.Pool | None = None
        self.action_rows_read = 0  # as SqliteStore's: rows ``live_actions`` returned

    def __repr__(self) -> str:  # never the password
        return f"PostgresStore({_without_password(self.dsn)!r})"

    # -- opening -----------------------------------------------------------------------------------------
    async def open(self) -> None:
        """Connect the pool and migrate. Loads no game. A server that cannot be reached: StoreUnavailable."""
        if self._pool is not None:
            return
        try:
            pool = await asyncpg.create_pool(
                self.dsn, min_size=self.min_size, max_size=self.max_size, timeout=self.connect_timeout,
                command_timeout=max(30.0, self.lock_timeout * 4),
                server_settings={"lock_timeout": str(int(self.lock_timeout * 1000)),
                                 "application_name": "solo-automaton-bot"},
                reset=_nothing_to_reset,
            )
        except BaseException as exc:
            _reraise(exc)
        try:
            async with pool.acquire(timeout=self.connect_timeout) as conn:
                await _migrate(cast(asyncpg.Connection, conn))  # a pool's proxy stands for its connection
        except BaseException as exc:
            await pool.close()
            _reraise(exc)
        self._pool = pool

    async def close(self) -> None:
        pool, self._pool = self._pool, None
        if pool is not None:
            try:
                await pool.close()
            except Exception:  # a server gone away: close what is left
                pool.terminate()

    async def check(self, *, full: bool = True) -> list[str]:
        """The database answers (PostgreSQL keeps its own files sound): [] when it does."""
        await self._read(lambda conn: conn.fetchval("SELECT 1"))
        return []

    # -- plumbing ----------------------------------------------------------------------------------------
    def _the_pool(self) -> asyncpg.Pool:
        if self._pool is None:
            raise RuntimeError("the store is not open")
        return self._pool

    async def _acquire(self, pool: asyncpg.Pool) -> asyncpg.Connection:
        try:
            return cast(asyncpg.Connection, await pool.acquire(timeout=self.connect_timeout))
        except BaseException as exc:
            _reraise(exc)

    async def _read(self, fn: Callable[[asyncpg.Connection], Awaitable[T]]) -> T:
        """Run ``fn`` on a pooled connection; once more on a fresh one if the connection was lost (a read
        repeated changes nothing). A lost connection is closed, so that the pool connects anew."""
        pool = self._the_pool()
        for attempt in (1, 2):
            conn = await self._acquire(pool)
            try:
                return await fn(conn)
            except BaseException as exc:
                if _lost(exc):
                    _drop(conn)
                    if attempt == 1:
                        continue
                _reraise(exc)
            finally:
                await _give_back(pool, conn)
        raise AssertionError("unreachable")

    async def _reading(self, work: Callable[[PgConn], Awaitable[T]]) -> T:
        return await self._read(lambda conn: work(PgConn(conn)))

    async def _writing(self, work: Callable[[PgConn], Awaitable[T]]) -> T:
        async with self._write() as conn:
            return await work(PgConn(conn))

    @asynccontextmanager
    async def _write(self) -> AsyncIterator[asyncpg.Connection]:
        """One transaction on a pooled connection; rolled back on any failure, cancellation included.

        A lost connection: replaced once when it was found lost at BEGIN (nothing was sent yet); lost later,
        before COMMIT, the server rolls the transaction back (StoreUnavailable: nothing was changed, true);
        lost during COMMIT, the outcome is unknown (``CommitLost``, a StoreUnavailable the callers that wrote
        an interaction id settle by reading it back). A write is never repeated here."""
        pool = self._the_pool()
        for attempt in (1, 2):
            conn = await self._acquire(pool)
            try:
                tx = conn.transaction()
                try:
                    await tx.start()
                except BaseException as exc:
                    if _lost(exc):
                        _drop(conn)
                        if attempt == 1:
                            continue
                    _reraise(exc)
                try:
                    yield conn
                except BaseException as exc:
                    if _lost(exc):
                        _drop(conn)  # the server rolls back by itself
                    else:
                        try:
                            await tx.rollback()
                        except BaseException:  # a lost connection: the server rolls back by itself
                            _drop(conn)
                    raise
                try:
                    await tx.commit()
                except BaseException as exc:
                    if _lost(exc):
                        _drop(conn)
                        _translated(exc)  # the log line
                        raise CommitLost("unreachable") from exc
                    _reraise(exc)
                return
            except asyncpg.UniqueViolationError:
                raise  # the caller says what it means
            except BaseException as exc:
                _reraise(exc)
            finally:
                await _give_back(pool, conn)

    # -- games -------------------------------------------------------------------------------------------
    async def _create(self, new: NewGame) -> GameRow:
        try:
            return await self._writing(lambda c: self._create_in(c, new))
        except asyncpg.UniqueViolationError as exc:
            raise await self._channel_busy(new.channel_id) from exc
        except CommitLost:
            # Ours if the channel's active game is the one this call inserted (owner, seed, creation time).
            row = await self._ask_after_lost_commit(
                f"a new game in channel {new.channel_id}", None, lambda conn: conn.fetchrow(
                    f"SELECT {GAME_COLUMNS} FROM games WHERE channel_id = $1 AND status = 'active'"
                    " AND owner_id = $2 AND seed = $3 AND created_at = $4",
                    new.channel_id, new.owner_id, new.seed, new.now))
            return game_row(row)

    async def _channel_busy(self, channel_id: int) -> ChannelBusy:
        return await self._reading(lambda c: channel_busy(c, channel_id))

    async def ping(self) -> None:
        """A cheap query that the server answers (``/readyz``); StoreUnavailable when it does not."""
        if self._pool is None:
            raise StoreUnavailable("cannot_open", detail="the store is closed")
        await self._read(lambda conn: conn.fetchval("SELECT 1"))

    # -- actions -----------------------------------------------------------------------------------------
    async def _append(self, a: Append) -> GameRow:
        try:
            async with self._write() as conn:
                # No read before the write (a round trip each command): an interaction applied already either
                # finds the game moved on (checked below, on that path only) or, after an undo brought the
                # game back, trips the unique index on its id when its action is inserted.
                row = await conn.fetchrow(_APPEND, a.status, a.now, a.game_id, a.expected_ply, a.expected_revision,
                                          a.action, a.user_id, a.interaction_id, a.snapshot)
                if row is None:
                    await already_applied(PgConn(conn), a.interaction_id, undo=False)
                    raise refusal_for(await load_game(PgConn(conn), a.game_id), a.expected_ply, allowed=("active",),
                                      expected_revision=a.expected_revision)
                game = game_row(row)
                if a.finish is not None:
                    await self._insert_result(PgConn(conn), game, a.finish, ended_by=a.user_id, now=a.now)
                return game
        except asyncpg.UniqueViolationError as exc:
            if exc.constraint_name == "actions_interaction":  # a second delivery racing the first
                raise AlreadyApplied(game_id=a.game_id, interaction_id=a.interaction_id) from exc
            raise StoreCorrupt("log_mismatch", game_id=a.game_id, detail=str(exc)) from exc
        except CommitLost:
            if a.interaction_id is None:
                raise
            return await self._settle_lost_commit(a.game_id, a.interaction_id, undo=False, ply=a.expected_ply + 1)

    async def _undo(self, u: Undo) -> GameRow:
        try:
            return await self._writing(lambda c: self._undo_in(c, u))
        except asyncpg.UniqueViolationError as exc:
            if exc.constraint_name == "actions_undone_interaction":  # a second delivery racing the first
                raise AlreadyApplied(game_id=u.game_id, interaction_id=u.interaction_id) from exc
            # Reopening a finished game in a channel that has started another one since.
            game = await self.game(u.game_id)
            raise await self._channel_busy(game.channel_id) from exc
        except CommitLost:
            if u.interaction_id is None:
                raise
            return await self._settle_lost_commit(u.game_id, u.interaction_id, undo=True, ply=u.expected_ply)

    async def _abandon(self, a: Abandon) -> GameRow:
        try:
            return await self._writing(lambda c: self._abandon_in(c, a))
        except CommitLost:
            # Ours if the game was abandoned at this call's time.
            row = await self._ask_after_lost_commit(
                f"abandoning game {a.game_id}", a.game_id, lambda conn: conn.fetchrow(
                    f"SELECT {GAME_COLUMNS} FROM games WHERE id = $1 AND status = 'abandoned' AND updated_at = $2",
                    a.game_id, a.now))
            return game_row(row)

    async def _ask_after_lost_commit(self, what: str, lock_game_id: int | None,
                                     probe: Callable[[asyncpg.Connection], Awaitable[Any]]) -> Any:
        """A write lost its COMMIT's answer: ``probe`` reads, on a new connection,
        the row that write would have left (the game's row locked first when there is one, so a transaction
        still finishing on the server's side ends before). Found: it (the write took effect, once). Not found:
        StoreUnavailable (nothing was changed, now known). The database cannot be asked: ``OutcomeUnknown``."""
        try:
            async with self._write() as conn:
                if lock_game_id is not None:
                    await conn.execute("SELECT 1 FROM games WHERE id = $1 FOR UPDATE", lock_game_id)
                found = await probe(conn)
        except StoreUnavailable as exc:
            raise OutcomeUnknown(what) from exc
        log.warning("%s: %s although its commit lost the connection", what, "stored" if found else "not stored")
        if found is None:
            raise StoreUnavailable("unreachable")
        return found

    async def _settle_lost_commit(self, game_id: int, interaction_id: int, *, undo: bool, ply: int) -> GameRow:
        """A write with an interaction id lost its COMMIT's answer: ask the database, on a new connection,
        whether it took effect. The game's row is locked first, so a transaction still finishing on the
        server's side (a lost connection, a live backend) ends before the question is asked.

        Took effect, and the game is still where that write left it: its row (the write is acknowledged,
        once). Did not: StoreUnavailable (nothing was changed, now known). Cannot tell (the server is away,
        or the game has moved on since): ``OutcomeUnknown``. The write itself is never repeated."""
        column = "undone_interaction_id" if undo else "interaction_id"
        what = f"game {game_id}, interaction {interaction_id}"

        async def probe(conn: asyncpg.Connection) -> tuple[Any, GameRow] | None:
            found = await conn.fetchrow(f"SELECT ply, undone FROM actions WHERE {column} = $1", interaction_id)
            return None if found is None else (found, await load_game(PgConn(conn), game_id))

        checked: tuple[Any, GameRow] = await self._ask_after_lost_commit(what, game_id, probe)
        found, game = checked
        where = ply - 1 if undo else ply  # where the write left the game
        if game.ply != where or (not undo and found["undone"]):
            raise OutcomeUnknown(what)
        return game

    # -- a user's data (/game forget) ---------------------------------------------------------------------
    async def forget_user(self, user_id: int, *, expected_mark: str | None = None) -> JSON:
        """As ``SqliteStore.forget_user``: every game ``user_id`` started, deleted in one transaction."""

        async def forget(c: PgConn) -> tuple[JSON, list[int]]:
            # The games' rows locked first: no write to them can slip in between the count and the delete.
            await c.all("SELECT id FROM games WHERE owner_id = $1 ORDER BY id FOR UPDATE", user_id)
            return await forget_rows(c, user_id, expected_mark)

        found, ids = await self._writing(forget)
        return {k: v for k, v in found.items() if k != "mark"} | {"game_ids": ids}

    # -- backup ------------------------------------------------------------------------------------------
    async def backup(self, path: str) -> None:
        """Not this store's job: PostgreSQL's own tools back it up (``pg_dump``, base backups)."""
        raise NotImplementedError("back up a PostgreSQL database with pg_dump (python -m bot backup is for SQLite)")


# -- helpers ------------------------------------------------------------------------------------------------
def _reraise(exc: BaseException) -> NoReturn:
    """Raise ``exc`` as its store error (the error itself when it has none)."""
    error = _translated(exc)
    if error is exc:
        raise exc
    raise error from exc


def _translated(exc: BaseException) -> BaseException:
    error = translate(exc)
    if isinstance(error, StoreUnavailable) and error.reason == "unreachable":
        log.warning("the database cannot be reached (%s: %s)", type(exc).__name__, exc)
    return error


def _drop(conn: asyncpg.Connection) -> None:
    """Close a connection found lost (the pool connects anew); asyncpg may have closed and released it
    already, when the server's goodbye arrived first."""
    with suppress(asyncpg.InterfaceError):
        conn.terminate()


async def _nothing_to_reset(conn: asyncpg.Connection) -> None:
    """A connection given back to the pool. asyncpg has already rolled back a transaction left open (it always
    does); its default reset would then send ``SELECT pg_advisory_unlock_all(); CLOSE ALL; UNLISTEN *; RESET
    ALL`` — a round trip and four statements at every release, a write's or a read's. The store leaves nothing
    for them to undo: its settings are the connection's own (``server_settings``, which RESET ALL keeps), its one
    advisory lock (migrations) is transaction-scoped, and it neither listens nor keeps a cursor."""


async def _give_back(pool: asyncpg.Pool, conn: asyncpg.Connection) -> None:
    """Return ``conn`` to the pool. Resetting a connection the server has dropped fails: asyncpg closes it and
    connects anew on the next acquire; that failure is no failure of the work done (a write may have committed)."""
    try:
        await pool.release(cast("PoolConnectionProxy[asyncpg.Record]", conn))
    except Exception as exc:  # asyncpg has closed it already
        log.info("a pooled connection was dropped on release (%s: %s)", type(exc).__name__, exc)


def _without_password(dsn: str) -> str:
    head, at, tail = dsn.rpartition("@")
    if not at or ":" not in head.split("//", 1)[-1]:
        return dsn
    scheme, _, user_password = head.partition("//")
    return f"{scheme}//{user_password.split(':', 1)[0]}:***@{tail}"


async def _migrate(conn: asyncpg.Connection) -> None:
    """Bring the schema to PG_SCHEMA_VERSION in one transaction under the advisory lock: of processes starting
    together, one migrates and the others wait for it, then find nothing left to do."""
    found = await schema_version(conn)
    if found > PG_SCHEMA_VERSION:
        raise SchemaTooNew(found=found, supported=PG_SCHEMA_VERSION)
    if found == PG_SCHEMA_VERSION:  # nothing to do, nothing written (a read-only database still opens)
        return
    async with conn.transaction():
        await conn.execute("SELECT pg_advisory_xact_lock($1)", MIGRATION_LOCK)
        await conn.execute("CREATE TABLE IF NOT EXISTS solo_schema (version INTEGER NOT NULL)")
        version = await conn.fetchval("SELECT max(version) FROM solo_schema") or 0
        if version > PG_SCHEMA_VERSION:
            raise SchemaTooNew(found=version, supported=PG_SCHEMA_VERSION)
        if version == PG_SCHEMA_VERSION:
            return
        for number, shared in enumerate(PG_MIGRATIONS[version:], version + 1):
            for statement in step(shared, number, "postgresql"):
                await (statement(conn) if callable(statement) else conn.execute(statement))
        await conn.execute("DELETE FROM solo_schema")
        await conn.execute("INSERT INTO solo_schema (version) VALUES ($1)", PG_SCHEMA_VERSION)
    log.info("PostgreSQL store schema at version %d", PG_SCHEMA_VERSION)


async def schema_version(conn: asyncpg.Connection) -> int:
    if not await conn.fetchval("SELECT to_regclass('solo_schema') IS NOT NULL"):
        return 0
    version: int = await conn.fetchval("SELECT coalesce(max(version), 0) FROM solo_schema")
    return version


def probe(dsn: str, timeout: float = 3.0) -> int:
    """The schema version of the database at ``dsn``, read on a connection of its own in a thread of its own
    (callable from anywhere, an event loop included); raises when the database does not answer."""
    import asyncio
    import concurrent.futures

    async def read() -> int:
        conn = await asyncpg.connect(dsn, timeout=timeout)
        try:
            return await schema_version(conn)
        finally:
            await conn.close()

    with concurrent.futures.ThreadPoolExecutor(1) as pool:
        return pool.submit(asyncio.run, read()).result(timeout * 2)


# == results ==================================================================================================
# The results table's columns (the game-neutral shape of schema V6) and its statements are in sql.py; the copy
# from SQLite (bot/store/transfer.py) takes them from here.
_RESULT_COLUMNS = RESULT_COLUMNS


def result_from_sqlite(row: dict[str, Any]) -> tuple[Any, ...]:
    """An SQLite results row as a PostgreSQL one (the same columns), for ``python -m bot migrate``."""
    return tuple(row[column.strip()] for column in _RESULT_COLUMNS.split(","))


# == end of results ===========================================================================================
