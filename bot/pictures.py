"""Pictures that follow their reply (issue 12): the reply goes at once, without its picture; the picture is
drawn afterwards and added to the message by an edit.

One queue, bounded, and one worker that takes a picture at a time to the picture thread
(bot/render/picture.py): a burst of pictures waits here, never in front of a command, and never takes more
than one thread. Before each picture the worker lets every command already waiting on the event loop run
first. When the queue is full a picture is dropped (counted, and logged at most once a minute): its message
keeps the text, which is the authoritative record, and ``/game status`` draws it again.

No work for what did not change: only the newest picture matters, so a picture still waiting when a newer one
for the same message (the same ``key``), or of the same game (the same ``group``: the pictures a game's moves
bring), is submitted is replaced by it, never drawn — under load the newest board goes out, not a queue of
older ones, and the older reply keeps its text; and a picture whose bytes are those the message already shows
is not uploaded again.

While no picture waits, the worker draws the static layers (bot/render/picture.py, ``prepare``) one small
step at a time; the few every game's first picture needs are drawn on the picture thread as soon as the queue
is made, before any command can ask for a picture.
"""

from __future__ import annotations

import asyncio
import contextlib
import hashlib
import logging
import time
from collections import OrderedDict
from collections.abc import Awaitable, Callable, Hashable, Iterator
from typing import Any

from .render import picture
from .render.picture import drawn

log = logging.getLogger(__name__)

QUEUE_SIZE = 256
DROP_LOG_EVERY = 60.0  # seconds between two warnings about dropped pictures
SHOWN = 1024  # messages whose last picture is remembered (by its digest), to skip an identical upload

Render = Callable[[], bytes]
Deliver = Callable[[bytes], Awaitable[object]]


def picture_key(interaction: Any, sent: Any) -> Hashable:
    """The message a reply's picture goes to: the followup ``sent``, else the interaction's original response."""
    if sent is not None and getattr(sent, "id", None) is not None:
        return ("message", sent.id)
    return ("original", getattr(interaction, "id", None) or id(interaction))


def _next_step(steps: Iterator[picture.Step]) -> bool:
    """Draw the next static-layer step (on the picture thread); False when there is none left."""
    step = next(steps, None)
    if step is None:
        return False
    step()
    return True


class _Picture:
    __slots__ = ("deliver", "key", "render", "slot")

    def __init__(self, render: Render, deliver: Deliver, key: Hashable | None, slot: Hashable | None) -> None:
        self.render, self.deliver, self.key = render, deliver, key
        self.slot = slot  # what a newer picture replaces it by: its group, else its message


class PictureQueue:
    """``submit(render, deliver, key, group=…)``: ``render()`` on the picture thread, then ``await deliver(png)``,
    in order; the newest picture of a ``group`` (a game), else of a ``key`` (a message), replaces one still
    waiting."""

    def __init__(self, maxsize: int = QUEUE_SIZE) -> None:
        self.maxsize = maxsize
        self._queue: asyncio.Queue[_Picture] | None = None
        self._worker: asyncio.Task[None] | None = None
        self._waiting: dict[Hashable, _Picture] = {}  # by key: submitted, not yet taken by the worker
        self._shown: OrderedDict[Hashable, bytes] = OrderedDict()  # by key: the digest of the picture delivered
        self._steps: Iterator[picture.Step] | None = None  # static layers still to draw while idle
        self.submitted = self.delivered = self.dropped = self.failed = 0
        self.superseded = 0  # replaced by a newer picture of the same message before being drawn
        self.unchanged = 0  # drawn, and the same bytes as the message already shows: not uploaded
        self.rendered = 0  # pictures drawn (rendered) by the worker
        self.prepared = 0  # static-layer steps drawn while idle
        self._drop_logged_at: float | None = None  # when a drop was last logged, and the count by then
        self._drops_logged = 0
        picture.prepare_first()  # on the picture thread, now: before any command can ask for a picture

    @property
    def pending(self) -> int:
        """Pictures submitted and not yet delivered (or given up, replaced, or found unchanged)."""
        return (self.submitted - self.delivered - self.dropped - self.failed - self.superseded
                - self.unchanged)

    def submit(self, render: Render, deliver: Deliver, key: Hashable | None = None, *,
               group: Hashable | None = None) -> bool:
        """Queue a picture for the message ``key``; False (dropped) when the queue is full."""
        if self._queue is None:
            self._queue = asyncio.Queue(self.maxsize)
        if self._worker is None or self._worker.done():
            self._worker = asyncio.get_running_loop().create_task(self._work(self._queue), name="pictures")
        self.submitted += 1
        slot = group if group is not None else key
        waiting = self._waiting.get(slot) if slot is not None else None
        if waiting is not None:  # an older picture of this game or message, not drawn yet: the newer one instead
            waiting.render, waiting.deliver, waiting.key = render, deliver, key
            self.superseded += 1
            return True
        item = _Picture(render, deliver, key, slot)
        try:
            self._queue.put_nowait(item)
        except asyncio.QueueFull:
            self.dropped += 1
            self._log_drop()
            return False
        if slot is not None:
            self._waiting[slot] = item
        return True

    def _log_drop(self) -> None:
        """One warning for a run of drops (at most one a minute, with how many), not one per picture."""
        now = time.monotonic()
        if self._drop_logged_at is not None and now - self._drop_logged_at < DROP_LOG_EVERY:
            return
        log.warning("picture queue full (%d): %d picture(s) dropped since the last warning (%d in all)",
                    self.maxsize, self.dropped - self._drops_logged, self.dropped)
        self._drop_logged_at, self._drops_logged = now, self.dropped

    async def _work(self, queue: asyncio.Queue[_Picture]) -> None:
        while True:
            if queue.empty() and await self._prepare_one():
                continue
            item = await queue.get()
            try:
                await asyncio.sleep(0)  # the commands already waiting on the loop go first
                if item.slot is not None and self._waiting.get(item.slot) is item:
                    del self._waiting[item.slot]  # from now on a newer picture of this game or message queues anew
                png = await drawn(item.render)
                self.rendered += 1
                digest = hashlib.blake2b(png, digest_size=16).digest()
                if item.key is not None and self._shown.get(item.key) == digest:
                    self.unchanged += 1
                    continue
                await item.deliver(png)
                self._remember_shown(item.key, digest)
                self.delivered += 1
            except asyncio.CancelledError:
                raise
            except Exception:  # a deleted message, an expired token, a broken picture: the text stays
                self.failed += 1
                log.warning("a picture could not follow its reply", exc_info=True)
            finally:
                queue.task_done()

    async def _prepare_one(self) -> bool:
        """Draw one static-layer step on the picture thread (listing them there too: the card data, the
        fonts); False when there is none left."""
        if self._steps is None:
            if picture.is_prepared():
                return False
            self._steps = picture.steps_to_draw()  # the first ones again (remembered: nothing to draw), the rest
        try:
            if not await drawn(_next_step, self._steps):
                self._steps = None  # listed anew if a language is added (a first Japanese picture)
                return False
            self.prepared += 1
        except asyncio.CancelledError:
            raise
        except Exception:  # a layer that cannot be drawn now is drawn when a picture needs it
            log.warning("a static picture layer could not be prepared", exc_info=True)
        return True

    def _remember_shown(self, key: Hashable | None, digest: bytes) -> None:
        if key is None:
            return
        self._shown[key] = digest
        self._shown.move_to_end(key)
        while len(self._shown) > SHOWN:
            self._shown.popitem(last=False)

    async def idle(self) -> None:
        """Wait until every picture queued so far has been delivered (or given up)."""
        if self._queue is not None:
            await self._queue.join()

    async def drain(self, timeout: float = 6.0) -> None:
        """Deliver what is queued (for a while), then stop the worker (the bot is closing)."""
        if self._queue is not None:
            with contextlib.suppress(TimeoutError):
                await asyncio.wait_for(self._queue.join(), timeout)
        if self._worker is not None:
            self._worker.cancel()
            with contextlib.suppress(asyncio.CancelledError, Exception):
                await self._worker
            self._worker = None
            with contextlib.suppress(Exception):  # a step still running on the picture thread ends first
                await drawn(bytes)
        self._queue = None
        self._waiting.clear()
        self._steps = None
