"""Group commit on one aiosqlite connection: the writes waiting at one moment share one transaction.

Every write waiting when the connection comes free runs inside ONE ``BEGIN IMMEDIATE … COMMIT``: one fsync
for all of them. Their statements go to aiosqlite side by side, so the connection's thread runs one after the
other without waiting for the event loop in between. A write that fails is left out and the others run again
in a new transaction (a write may therefore run more than once: it must depend on nothing but the database),
so a failed write leaves nothing and fails alone; a COMMIT that fails fails them all. Each caller hears back
only once the COMMIT that holds its work returned, so under ``synchronous=FULL`` nothing is acknowledged
before it is durable. Work that manages its own transaction (a PRAGMA, a migration, ``/game forget``) takes
its turn between groups, in the order given.

The connection must use sqlite3's implicit transactions (an ``isolation_level``, not None): should SQLite roll
a transaction back by itself (a full disk, an I/O error), a write's statement queued behind the failing one
then opens a new transaction instead of committing on its own, and that one is rolled back too.

A caller cancelled while its write waits takes it out (it never runs); one cancelled once its write began
waits for the end of the group before the cancellation goes through. Either way nothing is half written, and
once a cancelled call has returned its work is over: a read after it sees all of it or none of it.
"""

from __future__ import annotations

import asyncio
import collections
import contextlib
import logging
from collections.abc import Awaitable, Callable
from dataclasses import dataclass
from typing import Any, TypeVar

import aiosqlite

log = logging.getLogger(__name__)
T = TypeVar("T")
Work = Callable[[aiosqlite.Connection], Awaitable[Any]]

# A group is bounded so that one long queue does not make its first caller wait for everybody behind it.
MAX_GROUP = 64
# A passive checkpoint after this many commits, and once the writer has been idle this many seconds (issue 37):
# the commits that live only in the -wal stay few and recent, so a copy of the file without its -wal (an
# operator's mistake) or a lost -wal loses minutes, not everything since the start. SQLite's own automatic
# checkpoint waits for 1,000 pages (4 MB, weeks of a quiet server's actions).
CHECKPOINT_EVERY = 200
CHECKPOINT_IDLE = 2.0


@dataclass(eq=False)
class _Job:
    work: Work
    grouped: bool  # a write for the next group commit; else run as is, between groups
    future: asyncio.Future[Any]
    started: bool = False  # taken up: its caller waits for its end even when cancelled
    cancelled: bool = False  # its caller gave up before it was taken up: it never runs


class GroupCommit:
    """The writer's queue: ``transaction`` runs a write in the next group commit, ``call`` runs work alone."""

    def __init__(self, db: aiosqlite.Connection, *, checkpoint_every: int | None = CHECKPOINT_EVERY,
                 checkpoint_idle: float | None = CHECKPOINT_IDLE) -> None:
        self.db = db
        self._queue: collections.deque[_Job] = collections.deque()
        self._pumping: asyncio.Task[None] | None = None
        self.pending = 0  # given and not yet answered (a test waits on this, not on a clock)
        self.commits = 0  # group commits, and the writes they held: the bench shows the ratio
        self.grouped = 0
        # The WAL's checkpoints (None: not on that trigger): commits since the last one, how many ran, and an
        # event set by each (a test waits on it, not on a clock).
        self.checkpoint_every = checkpoint_every
        self.checkpoint_idle = checkpoint_idle
        self.uncheckpointed = 0
        self.checkpoints = 0
        self.checkpointed = asyncio.Event()
        self._idle_timer: asyncio.TimerHandle | None = None

    async def transaction(self, work: Callable[[aiosqlite.Connection], Awaitable[T]]) -> T:
        """``await work(db)`` inside the next group commit, answered once that COMMIT returned; raising rolls
        back what ``work`` wrote, and only that. ``work`` must not BEGIN or COMMIT."""
        done: T = await self._submit(work, grouped=True)
        return done

    async def call(self, work: Callable[[aiosqlite.Connection], Awaitable[T]]) -> T:
        """``await work(db)`` alone on the connection, outside any group."""
        done: T = await self._submit(work, grouped=False)
        return done

    async def drained(self) -> None:
        """Until everything given has run (closing waits for it); no idle checkpoint is started after it."""
        if self._idle_timer is not None:
            self._idle_timer.cancel()
            self._idle_timer = None
        self.checkpoint_idle = None
        while self._pumping is not None:
            await asyncio.shield(self._pumping)

    async def _checkpoint(self) -> None:
        """A passive checkpoint: copies what it can of the WAL into the file without waiting for any reader
        or writer (a reader's snapshot keeps its frames until the next one)."""
        self.uncheckpointed = 0
        try:
            await self.db.execute("PRAGMA wal_checkpoint(PASSIVE)")
        except Exception:
            log.debug("WAL checkpoint failed", exc_info=True)
        self.checkpoints += 1
        self.checkpointed.set()

    def _when_idle(self) -> None:
        self._idle_timer = None
        if self._pumping is None and not self._queue and self.uncheckpointed:
            # A job of the queue's own, nobody's call (not counted in ``pending``): a write given meanwhile
            # waits for it like for any other work.
            self._queue.append(_Job(lambda _db: self._checkpoint(), False, asyncio.get_running_loop().create_future()))
            self._pumping = asyncio.create_task(self._pump(), name="sqlite group commit")

    async def _submit(self, work: Work, *, grouped: bool) -> Any:
        job = _Job(work, grouped, asyncio.get_running_loop().create_future())
        self._queue.append(job)
        self.pending += 1
        if self._pumping is None:
            self._pumping = asyncio.create_task(self._pump(), name="sqlite group commit")
        try:
            return await asyncio.shield(job.future)
        except asyncio.CancelledError:
            if not job.started:
                job.cancelled = True
            else:  # under way: it ends first (whole or rolled back), unheard
                while not job.future.done():
                    with contextlib.suppress(asyncio.CancelledError):
                        await asyncio.wait([job.future])
                if not job.future.cancelled():
                    job.future.exception()  # heard: not logged as never retrieved
            raise
        finally:
            self.pending -= 1

    async def _pump(self) -> None:
        try:
            while self._queue:
                first = self._queue.popleft()
                if first.cancelled:
                    continue
                first.started = True
                if not first.grouped:
                    await self._alone(first)
                    continue
                group = [first]
                while len(group) < MAX_GROUP and self._queue and self._queue[0].grouped:
                    job = self._queue.popleft()
                    if not job.cancelled:
                        job.started = True
                        group.append(job)
                await self._commit(group)
                if self.checkpoint_every is not None and self.uncheckpointed >= self.checkpoint_every:
                    await self._checkpoint()
        finally:
            self._pumping = None
        if self.uncheckpointed and self.checkpoint_idle is not None and self._idle_timer is None:
            self._idle_timer = asyncio.get_running_loop().call_later(self.checkpoint_idle, self._when_idle)

    async def _alone(self, job: _Job) -> None:
        try:
            job.future.set_result(await job.work(self.db))
        except Exception as exc:
            job.future.set_exception(exc)

    async def _commit(self, group: list[_Job]) -> None:
        """The group's writes side by side in one transaction (aiosqlite runs their statements in the order
        given: the connection's thread goes from one to the next without waiting for the event loop). A write
        that fails is left out and the others run again in a new transaction, so that none commits beside a
        failed write's half, however far that one got."""
        outcomes: dict[_Job, tuple[bool, Any]] = {}
        todo = group
        while todo:
            try:
                await self.db.execute("BEGIN IMMEDIATE")  # waits busy_timeout for another connection, then fails
            except Exception as exc:
                outcomes.update(dict.fromkeys(todo, (False, exc)))
                break
            results = await asyncio.gather(*(job.work(self.db) for job in todo), return_exceptions=True)
            outcomes.update({job: (not isinstance(r, BaseException), r) for job, r in zip(todo, results, strict=True)})
            if any(isinstance(r, BaseException) for r in results):
                await rollback(self.db)
                todo = [job for job in todo if outcomes[job][0]]
                continue
            try:
                await self.db.execute("COMMIT")
            except Exception as exc:
                await rollback(self.db)
                outcomes.update(dict.fromkeys(todo, (False, exc)))
            else:
                self.commits += 1
                self.uncheckpointed += 1
                self.checkpointed.clear()
                self.grouped += len(todo)
            break
        for job in group:
            ok, value = outcomes[job]
            if ok:
                job.future.set_result(value)
            else:
                job.future.set_exception(value)


async def rollback(db: aiosqlite.Connection) -> None:
    """Roll back whatever is open. SQLite may already have rolled back by itself (SQLITE_FULL, some I/O
    errors): then there is nothing to do."""
    if not db.in_transaction:
        return
    try:
        await db.execute("ROLLBACK")
    except Exception:
        log.exception("ROLLBACK failed")
