"""``python -m bot health`` — is the bot alive? For Docker's HEALTHCHECK: cheap, no Discord call, no write.

The running bot rewrites a small heartbeat file (``Config.heartbeat_path``: next to the database, or
``SOLO_BOT_HEARTBEAT``) every ``INTERVAL`` seconds from its event loop: the process is up, its loop is not
stuck, and whether it is connected to Discord (every shard of the process, as ``/readyz`` judges it). It is
also rewritten at once when the connection changes (``CHANGES``), so a lost connection is said without
waiting for the next beat.
``health`` reads it (healthy: written less than ``STALE_AFTER`` seconds ago, connected) and opens the database read-only for its schema version (the file is there, is a
database, and this code can read it). It exits 0 and prints one line, or exits 1 saying what is wrong.
A clean stop removes the heartbeat, so a stopped bot is never reported healthy.
"""

from __future__ import annotations

import asyncio
import contextlib
import json
import os
import sqlite3
import sys
import time
from pathlib import Path
from typing import Any

from .config import Config

INTERVAL = 10.0
STALE_AFTER = 60.0
# discord.py's events on which what ``connection_problems`` says changes: ready, a shard lost, back, resumed.
# bot.metrics registers its listeners for the shard events in the bot's constructor, before ``run`` adds these:
# discord.py schedules an event's listeners as tasks in the order they were added, and asyncio runs them in that
# order, so the beat an event wakes is written after bot.metrics has counted the change.
CHANGES = ("on_ready", "on_shard_connect", "on_shard_disconnect", "on_shard_resumed")


class Heartbeat:
    def __init__(self, path: Path, *, interval: float = INTERVAL) -> None:
        self.path = Path(path)
        self.interval = interval

    def write(self, bot: Any) -> None:
        from .http import connection_problems

        problems = connection_problems(bot)  # as /readyz says it: a lost shard is "not connected" at once
        data = {
            "pid": os.getpid(),
            "time": time.time(),
            "connected": not problems,
            "problems": problems,
            "guilds": len(getattr(bot, "guilds", ()) or ()),
        }
        self.path.parent.mkdir(parents=True, exist_ok=True)
        scratch = self.path.with_name(self.path.name + ".tmp")
        scratch.write_text(json.dumps(data), encoding="utf-8")
        os.replace(scratch, self.path)

    async def run(self, bot: Any) -> None:
        changed = asyncio.Event()

        async def on_change(*_: Any) -> None:
            changed.set()

        listens = hasattr(bot, "add_listener")
        for event in CHANGES if listens else ():
            bot.add_listener(on_change, event)
        try:
            while True:
                changed.clear()
                try:
                    self.write(bot)
                except OSError:  # a full or read-only volume: the health check will say the heartbeat is stale
                    pass
                with contextlib.suppress(TimeoutError):
                    await asyncio.wait_for(changed.wait(), self.interval)
        finally:
            for event in CHANGES if listens else ():
                bot.remove_listener(on_change, event)

    def clear(self) -> None:
        with contextlib.suppress(OSError):
            self.path.unlink()


def check(config: Config, *, now: float | None = None) -> tuple[bool, str]:
    """(healthy, one line saying why)."""
    from .store.schema import SCHEMA_VERSION

    now = time.time() if now is None else now
    path = config.heartbeat_path
    try:
        beat = json.loads(path.read_text(encoding="utf-8"))
    except FileNotFoundError:
        return False, f"not running: no heartbeat at {path}"
    except (OSError, ValueError) as exc:
        return False, f"unreadable heartbeat at {path}: {exc}"
    age = now - float(beat.get("time", 0))
    if age > STALE_AFTER:
        return False, f"stuck or stopped: the last heartbeat is {age:.0f} s old"
    if not beat.get("connected"):
        why = "; ".join(beat.get("problems") or ())
        return False, "running but not connected to Discord" + (f": {why}" if why else "")
    if config.db_url is not None:  # PostgreSQL: the database answers with a schema this version knows
        from .store.postgres import PG_SCHEMA_VERSION, probe

        try:
            version = probe(config.db_url)
        except Exception as exc:
            return False, f"the database does not answer: {type(exc).__name__}"
        if version > PG_SCHEMA_VERSION:
            return False, f"the database's schema {version} is newer than this bot's ({PG_SCHEMA_VERSION})"
        return True, f"ok: pid {beat.get('pid')}, heartbeat {age:.0f} s ago, {beat.get('guilds', 0)} server(s), schema {version}"
    if not config.db_path.is_file():
        return False, f"no database at {config.db_path}"
    try:
        db = sqlite3.connect(f"{config.db_path.resolve().as_uri()}?mode=ro", uri=True, timeout=2.0)
        try:
            version = db.execute("PRAGMA user_version").fetchone()[0]
            db.execute("SELECT count(*) FROM sqlite_master").fetchone()
        finally:
            db.close()
    except sqlite3.Error as exc:
        return False, f"the database does not open: {exc}"
    if version > SCHEMA_VERSION:
        return False, f"the database's schema {version} is newer than this bot's ({SCHEMA_VERSION})"
    return True, f"ok: pid {beat.get('pid')}, heartbeat {age:.0f} s ago, {beat.get('guilds', 0)} server(s), schema {version}"


def health_main(config: Config) -> int:
    healthy, line = check(config)
    print(line, file=sys.stdout if healthy else sys.stderr)
    return 0 if healthy else 1
