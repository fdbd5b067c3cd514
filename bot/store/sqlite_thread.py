"""One SQLite connection on a thread of its own, and group commit.

A driver like aiosqlite sends every statement to its thread and waits for the answer: a command's transaction
(BEGIN, a check, an UPDATE, an INSERT, a read back, COMMIT) cost a dozen trips between the event loop and the
thread, each a wake-up on both sides. Here a call is a whole function run on the connection's thread: one trip,
whatever it does.

Writes go one step further (issue 12). Every transaction waiting when the thread comes round runs inside ONE
``BEGIN IMMEDIATE … COMMIT``, each in a savepoint of its own: one fsync for all of them. A transaction that
fails rolls back to its savepoint and fails alone; a COMMIT that fails fails them all. Each caller hears back
only after the COMMIT that holds its work returned, so under ``synchronous=FULL`` nothing is acknowledged
before it is durable.

A caller cancelled while its function waits in the queue takes it out (it never runs); one cancelled while its
function runs cannot stop it, so it waits for that function to end (whole, or rolled back to its savepoint)
before it lets the cancellation through. Either way nothing is half written, and once a cancelled call has
returned its work is over: a read after it sees all of it or none of it.
"""

from __future__ import annotations

import asyncio
import collections
import contextlib
import logging
import sqlite3
import threading
from collections.abc import Callable
from dataclasses import dataclass, field
from typing import Any, TypeVar

from .rows import run_meanwhile

log = logging.getLogger(__name__)
T = TypeVar("T")
Work = Callable[[sqlite3.Connection], Any]

# A group is bounded so that one long queue does not make its first caller wait for everybody behind it.
MAX_GROUP = 64
# The longest a lone write's meanwhile() waits for its statements before running anyway (a busy database).
MEANWHILE_WAIT = 0.002


@dataclass(eq=False)
class _Job:
    work: Work
    future: asyncio.Future[Any]
    grouped: bool  # a transaction to run in the next group commit; else run as is (PRAGMAs, reads, a backup)
    # Both under the thread's lock: a job is either taken out (cancelled before it started) or run to its end.
    cancelled: bool = False
    started: bool = False
    settled: bool = False  # its caller's loop has heard the outcome
    ended: asyncio.Future[None] | None = None  # a cancelled caller waiting for the job under way to end
    outcome: tuple[bool, Any] = field(default=(False, None))  # (ok, result or exception)
    # Set by the thread once the job's statements ran (its COMMIT, and the fsync, may still be to come).
    worked: threading.Event | None = None


class ConnectionThread:
    """``connect()`` runs on a new thread, which then runs every function given to ``call`` and
    ``transaction`` against the connection, in order."""

    def __init__(self, connect: Callable[[], sqlite3.Connection], *, name: str, interruptible: bool = False) -> None:
        self._connect = connect
        self._name = name
        # A long read (the integrity check) that close must be able to stop, even if it had not begun when
        # asked to: SQLite's own interrupt only reaches a statement already running.
        self._interruptible = interruptible
        self._interrupted = False
        self._jobs: collections.deque[_Job | None] = collections.deque()  # None: stop
        self._ready = threading.Condition()
        self._thread: threading.Thread | None = None
        self._conn: sqlite3.Connection | None = None
        self.pending = 0  # functions given and not yet answered (a test waits on this, not on a clock)
        self.calls = 0  # functions given in all: trips to this thread
        self.commits = 0  # group commits, and the transactions they held: the bench shows the ratio
        self.grouped = 0

    # -- life ---------------------------------------------------------------------------------------
    async def open(self) -> None:
        if self._thread is not None:
            return
        self._thread = threading.Thread(target=self._serve, name=self._name, daemon=True)
        self._thread.start()
        try:
            await self.call(lambda _: self._connected())
        except BaseException:
            await self.close()  # a connection made all the same (the caller cancelled meanwhile) is closed too
            raise

    def _connected(self) -> None:
        conn = self._connect()
        if self._interruptible:
            conn.set_progress_handler(lambda: self._interrupted, 10_000)
        self._conn = conn  # on the thread: kept even if the caller who asked for it has gone

    async def close(self) -> None:
        """Run what is queued, close the connection, end the thread."""
        thread, self._thread = self._thread, None
        if thread is None:
            return
        with self._ready:
            self._jobs.append(None)
            self._ready.notify()
        await asyncio.get_running_loop().run_in_executor(None, thread.join)

    def interrupt(self) -> None:
        """Stop the statement running now at its next step (sqlite3 allows this from any thread); on an
        ``interruptible`` connection, every later statement too."""
        self._interrupted = True
        if self._conn is not None:
            self._conn.interrupt()

    # -- giving work --------------------------------------------------------------------------------
    async def call(self, work: Callable[[sqlite3.Connection], T]) -> T:
        """``work(connection)`` on the thread, as is: one trip."""
        return await self._submit(work, grouped=False)

    async def transaction(self, work: Callable[[sqlite3.Connection], T],
                          meanwhile: Callable[[], None] | None = None) -> T:
        """``work(connection)`` inside the next group commit: answered once that COMMIT returned; raising
        rolls back what ``work`` wrote, and only that. ``work`` must not BEGIN or COMMIT. ``meanwhile()`` runs on
        the event loop once ``work`` is queued, beside the thread's run and fsync (should it raise, the error is
        logged and the write goes on)."""
        return await self._submit(work, grouped=True, meanwhile=meanwhile)

    async def _submit(self, work: Work, *, grouped: bool, meanwhile: Callable[[], None] | None = None) -> Any:
        if self._thread is None:
            raise RuntimeError("the connection is closed")
        # Alone at the store: meanwhile() waits for the job's statements (the thread needs the GIL for them),
        # then runs beside the COMMIT's fsync. Behind other writes it runs at once: the thread is busy anyway.
        alone = meanwhile is not None and not self.pending
        job = _Job(work, asyncio.get_running_loop().create_future(), grouped,
                   worked=threading.Event() if alone else None)
        self.pending += 1
        self.calls += 1
        with self._ready:
            self._jobs.append(job)
            self._ready.notify()
        if meanwhile is not None:
            if job.worked is not None:
                job.worked.wait(MEANWHILE_WAIT)  # blocks the loop, briefly: the statements, not the fsync
            run_meanwhile(meanwhile)
        try:
            return await job.future
        except asyncio.CancelledError:
            with self._ready:
                job.cancelled = True  # still queued: it will not run
                running = job.started
            if running and not job.settled:  # under way: it ends first (whole or rolled back), unheard
                job.ended = asyncio.get_running_loop().create_future()
                while not job.ended.done():
                    with contextlib.suppress(asyncio.CancelledError):
                        await asyncio.shield(job.ended)
            raise
        finally:
            self.pending -= 1

    # -- the thread ---------------------------------------------------------------------------------
    def _serve(self) -> None:
        while True:
            with self._ready:
                while not self._jobs:
                    self._ready.wait()
                first = self._jobs.popleft()
                if first is None:
                    self._close_connection()
                    return
                group = [first]
                while first.grouped and len(group) < MAX_GROUP and self._jobs and self._jobs[0] is not None \
                        and self._jobs[0].grouped:
                    group.append(self._jobs.popleft())  # type: ignore[arg-type]
                group = [job for job in group if not job.cancelled]
                for job in group:
                    job.started = True
            if not group:
                continue
            if first.grouped:
                self._commit(group)
            else:
                self._run(group[0])
            _settle_soon(group)

    def _close_connection(self) -> None:
        conn, self._conn = self._conn, None
        if conn is not None:
            with contextlib.suppress(sqlite3.Error):  # closing: nothing is left to tell about it
                conn.close()

    def _run(self, job: _Job) -> None:
        try:
            job.outcome = (True, job.work(self._conn))  # type: ignore[arg-type]
        except BaseException as exc:  # noqa: BLE001 - handed to the caller
            job.outcome = (False, exc)

    def _commit(self, group: list[_Job]) -> None:
        try:
            self._commit_group(group)
        finally:
            _worked(group)  # a group that failed before its COMMIT: nobody waits for it longer

    def _commit_group(self, group: list[_Job]) -> None:
        conn = self._conn
        assert conn is not None
        try:
            conn.execute("BEGIN IMMEDIATE")
        except BaseException as exc:  # noqa: BLE001 - busy, read-only, I/O: every job hears it
            for job in group:
                job.outcome = (False, exc)
            return
        alone = len(group) == 1  # no savepoint needed: its failure rolls back the whole transaction
        for i, job in enumerate(group):
            if not alone:
                conn.execute("SAVEPOINT job")
            try:
                job.outcome = (True, job.work(conn))
                if not alone:
                    conn.execute("RELEASE job")
            except BaseException as exc:  # noqa: BLE001 - this job's own failure, handed to its caller
                job.outcome = (False, exc)
                if alone or not _rolled_back_to_savepoint(conn):
                    # Alone, or SQLite ended the whole transaction itself (a full disk may): nothing here holds.
                    rollback(conn)
                    for other in group[:i] + group[i + 1:]:
                        other.outcome = (False, exc)
                    return
        _worked(group)
        try:
            conn.execute("COMMIT")
        except BaseException as exc:  # noqa: BLE001 - not durable: nobody's work holds
            rollback(conn)
            for job in group:
                if job.outcome[0]:
                    job.outcome = (False, exc)
            return
        self.commits += 1
        self.grouped += len(group)


def _worked(group: list[_Job]) -> None:
    for job in group:
        if job.worked is not None:
            job.worked.set()


def _rolled_back_to_savepoint(conn: sqlite3.Connection) -> bool:
    if not conn.in_transaction:
        return False
    try:
        conn.execute("ROLLBACK TO job")
        conn.execute("RELEASE job")
    except sqlite3.Error:
        rollback(conn)
        return False
    return True


def rollback(conn: sqlite3.Connection) -> None:
    """Roll back whatever is open. SQLite may already have rolled back by itself (SQLITE_FULL, some I/O
    errors): then there is nothing to do."""
    if not conn.in_transaction:
        return
    try:
        conn.execute("ROLLBACK")
    except sqlite3.Error:
        log.exception("ROLLBACK failed")


def _settle_soon(group: list[_Job]) -> None:
    """Answer the group's callers with one wake-up of their loop."""
    loop = group[0].future.get_loop()
    with contextlib.suppress(RuntimeError):  # the loop closed meanwhile: nobody is waiting any more
        loop.call_soon_threadsafe(_settle, group)


def _settle(group: list[_Job]) -> None:
    for job in group:
        job.settled = True
        if job.ended is not None:
            job.ended.set_result(None)
        if job.future.done():  # cancelled meanwhile
            continue
        ok, value = job.outcome
        if ok:
            job.future.set_result(value)
        else:
            job.future.set_exception(value)
