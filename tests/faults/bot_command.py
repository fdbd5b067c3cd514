"""The bot as it is deployed: `python -m bot` in a process of its own, configured only by its environment,
talking to a stand-in that runs in the test process (loopback only).

`BotCommand(standin, db, shards="0-1/4", home=tmp)`: `await start()` launches `python -m bot` with
DISCORD_TOKEN (the stand-in's), SOLO_BOT_DB=`db` (a SQLite path today; a postgresql:// DSN works the same
once the PostgreSQL store is there), SOLO_BOT_SHARDS, SOLO_BOT_DISCORD_API/_GATEWAY (the stand-in) and
SOLO_BOT_HTTP_PORT=0; it learns the HTTP port from the bot's log line and waits until `/readyz` answers 200
(its shards connected, its database answering). `kill()` is SIGKILL; `metrics()` and `get(path)` ask the
bot's HTTP endpoints. The process's stderr is read all along (kept in `log`), so it never blocks on a pipe.
"""

from __future__ import annotations

import asyncio
import os
import re
import sys
from pathlib import Path

import aiohttp

REPO = Path(__file__).resolve().parents[2]
SERVING = re.compile(rb"serving /metrics, /healthz and /readyz on http://[\d.]+:(\d+)")


class BotCommand:
    def __init__(self, standin, db: str, *, shards: str, home: Path, name: str = "bot",
                 env: dict[str, str] | None = None) -> None:
        self.standin = standin
        self.db = db
        self.shards = shards
        self.home = home
        self.name = name
        self.extra_env = env or {}
        self.proc: asyncio.subprocess.Process | None = None
        self.port: int | None = None
        self.log: list[str] = []
        self.starts = 0
        self._reader: asyncio.Task | None = None

    def env(self) -> dict[str, str]:
        keep = {k: v for k, v in os.environ.items() if not k.startswith("SOLO_BOT_") and k != "DISCORD_TOKEN"}
        return {**keep, "PYTHONUNBUFFERED": "1", "DISCORD_TOKEN": self.standin.bot_token, "SOLO_BOT_DB": self.db,
                "SOLO_BOT_SHARDS": self.shards, "SOLO_BOT_HTTP_PORT": "0", "SOLO_BOT_HTTP_HOST": "127.0.0.1",
                "SOLO_BOT_DISCORD_API": self.standin.api_base, "SOLO_BOT_DISCORD_GATEWAY": self.standin.gateway_url,
                "SOLO_BOT_HEARTBEAT": str(self.home / f"{self.name}.heartbeat"), "SOLO_BOT_LOG_LEVEL": "INFO",
                **self.extra_env}

    async def start(self, timeout: float = 60.0) -> None:
        self.starts += 1
        self.port = None
        self.proc = await asyncio.create_subprocess_exec(
            sys.executable, "-m", "bot", cwd=REPO, env=self.env(),
            stdout=asyncio.subprocess.DEVNULL, stderr=asyncio.subprocess.PIPE)
        port: asyncio.Future[int] = asyncio.get_running_loop().create_future()
        self._reader = asyncio.create_task(self._read(self.proc, port))
        exited = asyncio.create_task(self.proc.wait())
        done, _ = await asyncio.wait({port, exited}, timeout=timeout, return_when=asyncio.FIRST_COMPLETED)
        if port not in done:
            exited.cancel()
            raise RuntimeError(f"{self.name} did not start serving HTTP: {self.tail()}")
        exited.cancel()
        self.port = port.result()
        await self.until_ready(timeout)

    async def _read(self, proc: asyncio.subprocess.Process, port: asyncio.Future[int]) -> None:
        assert proc.stderr is not None
        async for line in proc.stderr:
            self.log.append(line.decode(errors="replace").rstrip())
            match = SERVING.search(line)
            if match and not port.done():
                port.set_result(int(match[1]))

    def tail(self, lines: int = 30) -> str:
        return "\n".join(self.log[-lines:])

    async def get(self, path: str) -> tuple[int, str]:
        async with aiohttp.ClientSession() as http, http.get(f"http://127.0.0.1:{self.port}{path}") as response:
            return response.status, await response.text()

    async def until_ready(self, timeout: float = 60.0) -> None:
        """Ask /readyz until it answers 200 (the event awaited); fail if the process dies or `timeout` passes."""
        loop = asyncio.get_running_loop()
        give_up = loop.time() + timeout
        while True:
            assert self.proc is not None
            if self.proc.returncode is not None:
                raise RuntimeError(f"{self.name} exited ({self.proc.returncode}): {self.tail()}")
            try:
                code, said = await self.get("/readyz")
            except aiohttp.ClientError:
                code, said = 0, "no answer"
            if code == 200:
                return
            if loop.time() > give_up:
                raise RuntimeError(f"{self.name} never became ready ({code} {said!r}): {self.tail()}")
            await asyncio.sleep(0.05)

    async def metrics(self) -> str:
        code, text = await self.get("/metrics")
        assert code == 200, text
        return text

    def kill(self) -> None:
        if self.proc is not None and self.proc.returncode is None:
            self.proc.kill()

    async def wait(self) -> int:
        assert self.proc is not None
        code = await self.proc.wait()
        if self._reader is not None:
            await self._reader
        return code

    async def stop(self) -> None:
        self.kill()
        if self.proc is not None:
            await self.wait()
