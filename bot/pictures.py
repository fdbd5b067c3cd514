"""Pictures that follow their reply (issue 12): the reply goes at once, without its picture; the picture is
drawn afterwards and added to the message by an edit.

One queue, bounded, and one worker that takes a picture at a time to the picture thread
(bot/render/picture.py): a burst of pictures waits here, never in front of a command, and never takes more
than one thread. When the queue is full a picture is dropped (logged and counted): its message keeps the
text, which is the authoritative record, and ``/game status`` draws it again.
"""

from __future__ import annotations

import asyncio
import contextlib
import logging
from collections.abc import Awaitable, Callable

from .render.picture import drawn

log = logging.getLogger(__name__)

QUEUE_SIZE = 256

Render = Callable[[], bytes]
Deliver = Callable[[bytes], Awaitable[object]]


class PictureQueue:
    """``submit(render, deliver)``: ``render()`` on the picture thread, then ``await deliver(png)``, in order."""

    def __init__(self, maxsize: int = QUEUE_SIZE) -> None:
        self.maxsize = maxsize
        self._queue: asyncio.Queue[tuple[Render, Deliver]] | None = None
        self._worker: asyncio.Task[None] | None = None
        self.submitted = self.delivered = self.dropped = self.failed = 0

    @property
    def pending(self) -> int:
        """Pictures submitted and not yet delivered (or given up)."""
        return self.submitted - self.delivered - self.dropped - self.failed

    def submit(self, render: Render, deliver: Deliver) -> bool:
        """Queue a picture; False (dropped) when the queue is full."""
        if self._queue is None:
            self._queue = asyncio.Queue(self.maxsize)
        if self._worker is None or self._worker.done():
            self._worker = asyncio.get_running_loop().create_task(self._work(self._queue), name="pictures")
        self.submitted += 1
        try:
            self._queue.put_nowait((render, deliver))
        except asyncio.QueueFull:
            self.dropped += 1
            log.warning("picture queue full (%d): a picture was dropped", self.maxsize)
            return False
        return True

    async def _work(self, queue: asyncio.Queue[tuple[Render, Deliver]]) -> None:
        while True:
            render, deliver = await queue.get()
            try:
                png = await drawn(render)
                await deliver(png)
                self.delivered += 1
            except asyncio.CancelledError:
                raise
            except Exception:  # a deleted message, an expired token, a broken picture: the text stays
                self.failed += 1
                log.warning("a picture could not follow its reply", exc_info=True)
            finally:
                queue.task_done()

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
        self._queue = None
