"""``/metrics``, ``/healthz`` and ``/readyz`` on ``SOLO_BOT_HTTP_PORT`` (off by default), served by aiohttp on
the bot's own event loop.

- ``/healthz``: 200 while the event loop answers (the handler runs on it: a stuck loop never answers).
- ``/readyz``: 200 when every shard of this process is connected and the database answers a cheap query
  (``Store.ping``) within ``READY_TIMEOUT`` seconds; else 503 with one line per problem.
- ``/metrics``: Prometheus' text format (bot.metrics).
"""

from __future__ import annotations

import asyncio
import logging
from typing import Any

from aiohttp import web

from .metrics import shards_of

log = logging.getLogger(__name__)

READY_TIMEOUT = 2.0


def connection_problems(bot: Any) -> list[str]:
    """What keeps this process's Discord connection from taking commands: [] when every shard is connected.
    (`is_ready()` alone is not that: discord.py sets it once and never clears it.)"""
    problems: list[str] = []
    if bot.is_closed():
        problems.append("the client is closed")
    elif not bot.is_ready():
        problems.append("not connected to Discord yet")
    shards = shards_of(bot)
    for shard_id in sorted(shards):
        if not bot.metrics.shard_is_up(shard_id, shards[shard_id]):
            problems.append(f"shard {shard_id} is disconnected")
    expected = getattr(bot, "shard_ids", None)
    if expected and not problems:
        missing = sorted(set(expected) - set(shards))
        problems += [f"shard {i} is not connected" for i in missing]
    return problems


async def readiness(bot: Any) -> list[str]:
    """What keeps this process from taking commands: [] when it is ready."""
    problems = connection_problems(bot)
    try:
        await asyncio.wait_for(bot.store.ping(), READY_TIMEOUT)
    except TimeoutError:
        problems.append(f"the database did not answer within {READY_TIMEOUT:.0f} s")
    except Exception as exc:
        problems.append(f"the database does not answer: {exc}")
    return problems


class HttpServer:
    def __init__(self, bot: Any, host: str, port: int) -> None:
        self.bot = bot
        self.host = host
        self.port = port  # 0: a free port, known once started
        self._runner: web.AppRunner | None = None

    async def start(self) -> None:
        app = web.Application()
        app.router.add_get("/healthz", self._healthz)
        app.router.add_get("/readyz", self._readyz)
        app.router.add_get("/metrics", self._metrics)
        self._runner = web.AppRunner(app, access_log=None, handle_signals=False)
        await self._runner.setup()
        site = web.TCPSite(self._runner, self.host, self.port)
        await site.start()
        self.port = site._server.sockets[0].getsockname()[1]  # type: ignore[union-attr]
        log.info("serving /metrics, /healthz and /readyz on http://%s:%d", self.host, self.port)

    async def close(self) -> None:
        runner, self._runner = self._runner, None
        if runner is not None:
            await runner.cleanup()

    async def _healthz(self, request: web.Request) -> web.Response:
        return web.Response(text="ok\n")

    async def _readyz(self, request: web.Request) -> web.Response:
        problems = await readiness(self.bot)
        if problems:
            return web.Response(status=503, text="\n".join(problems) + "\n")
        return web.Response(text="ready\n")

    async def _metrics(self, request: web.Request) -> web.Response:
        body, content_type = self.bot.metrics.render()
        response = web.Response(body=body)
        response.headers["Content-Type"] = content_type
        return response
