"""The bot in a process of its own, logged into a stand-in that runs in the test process (loopback only).

As a script: `python bot_process.py DB API_BASE GATEWAY_URL TOKEN FIRST_SEED` points discord.py at the
stand-in (as `Driver.__aenter__` does), starts `bot.app.create_bot` under the bot's own run loop
(`bot.__main__.serve`: SIGTERM drains and closes), syncs the command tree (so the test's driver knows the
commands), prints `ready` and runs until killed or terminated. A store that cannot open ends it with
one line on stderr and exit code 3.

In the tests: `BotProcess(standin, db_path)` starts, kills (SIGKILL), terminates (SIGTERM) and restarts it; `driver_for(standin)`
is a `Driver` that plays interactions into whichever client is connected, without a client of its own.
"""

from __future__ import annotations

import asyncio
import itertools
import os
import sys
from pathlib import Path

HERE = Path(__file__).resolve()
REPO = HERE.parents[2]


async def _serve(db: str, api_base: str, gateway: str, token: str, first_seed: int) -> int:
    import logging

    import yarl
    from discord.gateway import DiscordWebSocket
    from discord.http import Route

    from bot.app import create_bot
    from bot.config import Config
    from bot.store import StoreError

    logging.basicConfig(level=logging.WARNING, format="%(levelname)s %(name)s: %(message)s")
    Route.BASE = api_base
    DiscordWebSocket.DEFAULT_GATEWAY = yarl.URL(gateway)
    seeds = itertools.count(first_seed)
    bot = create_bot(Config(db_path=Path(db)), seed=lambda: next(seeds))
    bot._connection.guild_ready_timeout = 0.05
    from bot.__main__ import serve
    from bot.health import Heartbeat

    async def when_ready() -> None:
        await bot.tree.sync()
        print("ready", flush=True)

    # The bot's own run loop (python -m bot): SIGTERM drains the commands under way and closes the store.
    try:
        await serve(bot, token, heartbeat=Heartbeat(Config(db_path=Path(db)).heartbeat_path, interval=0.5),
                    reconnect=False, when_ready=when_ready)
    except StoreError as err:
        print(f"store error: {err}", file=sys.stderr, flush=True)
        return 3
    return 0


class BotProcess:
    """The bot's process: `await start()`, `kill()` (SIGKILL, no goodbye), `await restart()`."""

    def __init__(self, standin, db_path: Path, *, first_seed: int = 500) -> None:
        self.standin = standin
        self.db_path = db_path
        self.first_seed = first_seed
        self.proc: asyncio.subprocess.Process | None = None
        self.starts = 0

    async def start(self, timeout: float = 30.0) -> None:
        self.starts += 1
        self.proc = await asyncio.create_subprocess_exec(
            sys.executable, str(HERE), str(self.db_path), self.standin.api_base, self.standin.gateway_url,
            self.standin.bot_token, str(self.first_seed + 1000 * self.starts),
            stdout=asyncio.subprocess.PIPE, stderr=asyncio.subprocess.PIPE, cwd=REPO,
            env={**os.environ, "PYTHONUNBUFFERED": "1"},
        )
        line = await asyncio.wait_for(self.proc.stdout.readline(), timeout)
        if line.strip() != b"ready":
            err = await self.proc.stderr.read()
            raise RuntimeError(f"the bot did not start: {line!r} {err.decode(errors='replace')[-2000:]}")
        # The stand-in now routes interactions to this process's session.
        await self.standin.wait_connected(timeout)

    def kill(self) -> None:
        if self.proc is not None and self.proc.returncode is None:
            self.proc.kill()

    def terminate(self) -> None:
        """SIGTERM, as `docker stop` sends it."""
        if self.proc is not None and self.proc.returncode is None:
            self.proc.terminate()

    async def wait(self) -> int:
        assert self.proc is not None
        return await self.proc.wait()

    async def restart(self) -> None:
        self.kill()
        await self.wait()
        await self.start()

    async def stop(self) -> None:
        self.kill()
        if self.proc is not None:
            await self.wait()


def driver_for(standin, **options):
    """A driver without a client of its own: the commands are those the bot process synced."""
    from bot.standin.driver import Driver

    driver = Driver(standin, None, **options)
    driver.refresh_schema()
    return driver


if __name__ == "__main__":
    db, api_base, gateway, token, first = sys.argv[1:6]
    raise SystemExit(asyncio.run(_serve(db, api_base, gateway, token, int(first))))
