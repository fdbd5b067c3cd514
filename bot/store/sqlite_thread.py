"""One SQLite connection on a thread of its own, and group commit.

A driver like aiosqlite sends every statement to its thread and waits for the answer: a command's transaction
(BEGIN, a check, an UPDATE, an INSERT, a read back, COMMIT) cost a dozen trips between the event loop and the
thread, each a wake-up on both sides. Here a call is a whole function run on the connection's thread: one trip,
whatever it does.

Writes go further (issue 12). Every transaction waiting when the connection comes free runs inside ONE
``BEGIN IMMEDIATE … COMMIT``, each in a savepoint of its own: one fsync for all of them. A transaction that
fails rolls back to its savepoint and fails alone; a COMMIT that fails fails them all. Each caller hears back
only after the COMMIT that holds its work returned, so under ``synchronous=FULL`` nothing is acknowledged
before it is durable.

Where a transaction's statements run depends on the load. A write given while no other is in flight runs whole
on the thread, and its caller's loop waits for its statements (a few hundred microseconds: the thread needs the
GIL for them) and then does its own work, the reply, beside the fsync. Writes given while others are in flight
(queued behind a COMMIT, or from callers just answered, gathered for one turn of the loop) run as one group
whose statements run on the event loop, and only its COMMIT on the thread: run on the thread, each of SQLite's
calls waited for the GIL while the busy loop held it, and at 200 channels a group of 64 writes took 120 ms, 14
of them its own work. What may wait on the disk or on another process stays off the loop: every fsync, the
functions given to ``call`` (PRAGMAs, migrations, a backup), and a group whose BEGIN found the file locked by
another connection (the loop never waits for a lock: it hands that group, statements and all, to the thread,
which waits ``busy_timeout`` there).

The event loop alone decides what the connection does next (``_pump``): a group or a call, one at a time, in
the order given. A caller cancelled while its function waits takes it out (it never runs); one cancelled once
its function ran waits for the COMMIT that holds it (whole, or rolled back to its savepoint) before it lets the
cancellation through. Either way nothing is half written, and once a cancelled call has returned its work is
over: a read after it sees all of it or none of it.
"""

from __future__ import annotations

import asyncio
import collections
import contextlib
import logging
import queue
import sqlite3
import threading
from collections.abc import Callable
from dataclasses import dataclass, field
from typing import Any, Literal, TypeVar

from .rows import run_meanwhile

log = logging.getLogger(__name__)
T = TypeVar("T")
Work = Callable[[sqlite3.Connection], Any]

# A group is bounded so that one long queue does not make its first caller wait for everybody behind it.
MAX_GROUP = 64
# The longest a lone write's meanwhile() waits for its statements on the thread before running anyway (a busy
# database), and the longest the loop waits, once it handed a group's COMMIT to the thread, for the thread to
# have begun it. The thread needs the GIL for either, and a loop that went straight on to work of its own would
# keep it from it until the interpreter's switch interval (5 ms) forced a handover; waiting lets it in at once,
# then the loop works beside the fsync.
MEANWHILE_WAIT = 0.002
COMMIT_START_WAIT = 0.002


@dataclass(eq=False)
class _Job:
    work: Work
    future: asyncio.Future[Any]
    grouped: bool  # a transaction for the next group commit; else run as is on the thread (PRAGMAs, a backup)
    cancelled: bool = False  # its caller gave up before it ran: it never will
    started: bool = False  # it ran, or is running: its caller waits for its end even when cancelled
    settled: bool = False  # its caller's loop has heard the outcome
    ended: asyncio.Future[None] | None = None  # a cancelled caller waiting for the job under way to end
    outcome: tuple[bool, Any] = field(default=(False, None))  # (ok, result or exception)


@dataclass(eq=False)
class _Handed:
    """What the loop gives the thread: a call to run, a group's COMMIT, or a whole group (statements too)."""
    kind: Literal["call", "commit", "group"]
    jobs: list[_Job]
    begun: threading.Event = field(default_factory=threading.Event)  # the thread took it up
    worked: threading.Event = field(default_factory=threading.Event)  # a group's statements ran (COMMIT to come)


class ConnectionThread:
    """``connect()`` runs on a new thread. ``call`` runs a function against the connection on that thread;
    ``transaction`` runs one in the next group commit. Both in the order given."""

    def __init__(self, connect: Callable[[], sqlite3.Connection], *, name: str, interruptible: bool = False) -> None:
        self._connect = connect
        self._name = name
        # A long read (the integrity check) that close must be able to stop, even if it had not begun when
        # asked to: SQLite's own interrupt only reaches a statement already running.
        self._interruptible = interruptible
        self._interrupted = False
        self._queue: collections.deque[_Job] = collections.deque()  # given, not yet run (the loop's only)
        self._busy: _Handed | None = None  # what the thread has now (the loop's only)
        self._inbox: queue.SimpleQueue[_Handed | None] = queue.SimpleQueue()  # None: stop
        self._drained: asyncio.Future[None] | None = None  # close() waiting for the queue to run out
        self._pump_soon = False  # a pump is due once this turn of the loop has given what it will
        self._thread: threading.Thread | None = None
        self._conn: sqlite3.Connection | None = None
        self._busy_timeout_ms = 0  # the connection's own, restored after the loop's BEGIN that does not wait
        self.pending = 0  # functions given and not yet answered (a test waits on this, not on a clock)
        self.calls = 0  # functions given in all
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
        self._busy_timeout_ms = int(conn.execute("PRAGMA busy_timeout").fetchone()[0])
        self._conn = conn  # on the thread: kept even if the caller who asked for it has gone

    async def close(self) -> None:
        """Run what is queued, close the connection, end the thread."""
        thread, self._thread = self._thread, None
        if thread is None:
            return
        if self._busy is not None or self._queue:
            self._drained = asyncio.get_running_loop().create_future()
            await asyncio.shield(self._drained)
        self._inbox.put(None)
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
        the event loop once ``work`` ran (alone at the store: beside the COMMIT's fsync) or, behind other writes,
        at once (should it raise, the error is logged and the write goes on)."""
        return await self._submit(work, grouped=True, meanwhile=meanwhile)

    async def _submit(self, work: Work, *, grouped: bool, meanwhile: Callable[[], None] | None = None) -> Any:
        if self._thread is None:
            raise RuntimeError("the connection is closed")
        loop = asyncio.get_running_loop()
        job = _Job(work, loop.create_future(), grouped)
        alone = not self.pending  # else other callers, just answered, are about to give theirs: one group
        self.pending += 1
        self.calls += 1
        self._queue.append(job)
        handed = None
        if alone:
            handed = self._pump(queued_meanwhile=False)  # the connection idle: the thread takes this job now
        elif self._busy is None and not self._pump_soon:
            self._pump_soon = True
            loop.call_soon(self._pump_now)
        if meanwhile is not None:
            if handed is not None and handed.kind == "group" and job in handed.jobs:
                handed.worked.wait(MEANWHILE_WAIT)  # blocks the loop, briefly: the statements, not the fsync
            run_meanwhile(meanwhile)
        try:
            return await job.future
        except asyncio.CancelledError:
            job.cancelled = True  # still queued: it will not run
            if job.started and not job.settled:  # under way: it ends first (whole or rolled back), unheard
                job.ended = asyncio.get_running_loop().create_future()
                while not job.ended.done():
                    with contextlib.suppress(asyncio.CancelledError):
                        await asyncio.shield(job.ended)
            raise
        finally:
            self.pending -= 1

    # -- the loop's side: what runs next --------------------------------------------------------------
    def _pump(self, *, queued_meanwhile: bool) -> _Handed | None:
        """While the thread has nothing: the next call goes to it, and so does a lone transaction; transactions
        that ``queued_meanwhile`` (while others were in flight) run their statements here as one group, and
        only its COMMIT goes to the thread. Returns what the thread has now."""
        while self._busy is None and self._queue:
            first = self._queue.popleft()
            if first.cancelled:
                continue
            first.started = True
            if not first.grouped:
                self._hand(_Handed("call", [first]))
                break
            group = [first]
            while len(group) < MAX_GROUP and self._queue and self._queue[0].grouped:
                job = self._queue.popleft()
                if not job.cancelled:
                    job.started = True
                    group.append(job)
            if queued_meanwhile:
                self._run_group(group)
            else:
                self._hand(_Handed("group", group))
        if self._busy is None and self._drained is not None and not self._drained.done():
            self._drained.set_result(None)
        return self._busy

    def _pump_now(self) -> None:
        self._pump_soon = False
        self._pump(queued_meanwhile=True)

    def _run_group(self, group: list[_Job]) -> None:
        conn = self._conn
        assert conn is not None
        try:
            began = _begin_without_waiting(conn, self._busy_timeout_ms)
        except BaseException as exc:  # noqa: BLE001 - read-only, I/O: every job hears it
            for job in group:
                job.outcome = (False, exc)
            _settle(group)
            return
        if not began:  # another connection holds the file: the thread waits for it, not the loop
            self._hand(_Handed("group", group))
            return
        if _work(conn, group):
            self._hand(_Handed("commit", group), wait_for_start=True)  # the callers answered go on meanwhile
        else:
            _settle(group)  # nothing of it holds, and nothing is left open: no COMMIT to wait for

    def _hand(self, handed: _Handed, *, wait_for_start: bool = False) -> None:
        self._busy = handed
        self._inbox.put(handed)
        if wait_for_start:
            handed.begun.wait(COMMIT_START_WAIT)  # blocks the loop, briefly: see COMMIT_START_WAIT

    def _ended(self, handed: _Handed) -> None:
        """On the loop: the thread is done with ``handed``; its callers hear, and the next work goes."""
        self._busy = None
        _settle(handed.jobs)
        self._pump(queued_meanwhile=True)

    # -- the thread ---------------------------------------------------------------------------------
    def _serve(self) -> None:
        while True:
            handed = self._inbox.get()
            if handed is None:
                self._close_connection()
                return
            handed.begun.set()
            if handed.kind == "call":
                self._run(handed.jobs[0])
            elif handed.kind == "commit":
                self._commit(handed.jobs)
            else:
                self._begin_work_commit(handed)
            loop = handed.jobs[0].future.get_loop()
            with contextlib.suppress(RuntimeError):  # the loop closed meanwhile: nobody is waiting any more
                loop.call_soon_threadsafe(self._ended, handed)

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

    def _begin_work_commit(self, handed: _Handed) -> None:
        conn, group = self._conn, handed.jobs
        assert conn is not None
        try:
            try:
                conn.execute("BEGIN IMMEDIATE")  # waits busy_timeout for another connection, then fails
            except BaseException as exc:  # noqa: BLE001 - busy, read-only, I/O: every job hears it
                for job in group:
                    job.outcome = (False, exc)
                return
            held = _work(conn, group)
        finally:
            handed.worked.set()  # a lone write's meanwhile() goes on, beside the COMMIT (or at once)
        if held:
            self._commit(group)

    def _commit(self, group: list[_Job]) -> None:
        conn = self._conn
        assert conn is not None
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


def _begin_without_waiting(conn: sqlite3.Connection, busy_timeout_ms: int) -> bool:
    """BEGIN IMMEDIATE if the file's write lock is free now; False, with nothing begun, if another connection
    holds it (SQLite's busy timeout set to nothing for this one statement)."""
    conn.execute("PRAGMA busy_timeout = 0")
    try:
        conn.execute("BEGIN IMMEDIATE")
    except sqlite3.OperationalError as exc:
        if exc.sqlite_errorcode & 0xFF not in (sqlite3.SQLITE_BUSY, sqlite3.SQLITE_LOCKED):  # primary code
            raise
        return False
    finally:
        conn.execute(f"PRAGMA busy_timeout = {busy_timeout_ms}")
    return True


def _work(conn: sqlite3.Connection, group: list[_Job]) -> bool:
    """Each job's function in a savepoint of its own, inside the transaction begun. True when the transaction
    is still open with work to commit; False when it was rolled back whole (every job then failed)."""
    alone = len(group) == 1  # no savepoint needed: its failure rolls back the whole transaction
    for i, job in enumerate(group):
        try:
            if not alone:
                conn.execute("SAVEPOINT job")
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
                return False
    if not any(job.outcome[0] for job in group):
        rollback(conn)  # every job rolled back to its savepoint: nothing to make durable
        return False
    return True


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


def _settle(group: list[_Job]) -> None:
    """On the loop: each caller hears its job's outcome (a cancelled one that waited, that it ended)."""
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
