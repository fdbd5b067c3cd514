"""``python -m bot health`` — is the bot alive? For Docker's HEALTHCHECK: cheap, no Discord call, no write.

The running bot rewrites a small heartbeat file (``Config.heartbeat_path``: next to the database, or
``SOLO_BOT_HEARTBEAT``) every ``INTERVAL`` seconds from its event loop: the process is up, its loop is not
stuck, and whether it is connected to Discord (every shard of the process, as ``/readyz`` judges it). It is
also rewritten at once when the connection changes (``CHANGES``), so a lost connection is said without
waiting for the next beat.
``health`` reads it (healthy: written less than ``STALE_AFTER`` seconds ago, by a process still running,
connected) and opens the database read-only for its schema version (the file is there, is a database, and this
code can read it). It exits 0 and prints one line, or exits 1 saying what is wrong. A clean stop removes the
heartbeat; a killed bot's is stale at once (its pid is gone, or is another process's, started after it), and so
is one dated in the future (the clock set back: its age would say nothing until the clock caught up). Run it
where the bot runs (the container: ``docker exec``, the image's HEALTHCHECK), where its pid means that process.
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
# A heartbeat dated later than now by more than this is from before the clock was set back. (The process's
# start, read from /proc, is whole seconds: the same slack there.)
CLOCK_SLACK = 2.0
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
                with contextlib.suppress(OSError):  # a full or read-only volume: health says the heartbeat is stale
                    self.write(bot)
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
    if age < -CLOCK_SLACK:
        return False, (f"stale: the last heartbeat is dated {-age:.0f} s in the future (the clock was set back); "
                       f"a running bot rewrites it within {INTERVAL:.0f} s")
    if (why := _not_its_writer(beat)) is not None:
        return False, why
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


def _not_its_writer(beat: dict[str, Any]) -> str | None:
    """Why the heartbeat's process cannot have written it (gone, or its pid taken by a later process), or None."""
    pid = beat.get("pid")
    if not isinstance(pid, int) or isinstance(pid, bool) or pid <= 0:
        return "stale: the heartbeat names no process"
    try:
        os.kill(pid, 0)  # signal 0: is there such a process (nothing is sent)
    except ProcessLookupError:
        return f"stopped: the heartbeat's process {pid} is not running (killed?)"
    except PermissionError:
        pass  # another user's process: it exists
    started = _process_start(pid)
    if started is not None and started > float(beat.get("time", 0)) + CLOCK_SLACK:
        return f"stopped: process {pid} started after the heartbeat was written (its writer is gone)"
    return None


def _process_start(pid: int) -> float | None:
    """When process ``pid`` started, on the wall clock, from /proc (Linux); None where it cannot be read."""
    try:
        stat = Path(f"/proc/{pid}/stat").read_text(encoding="utf-8")
        ticks = int(stat.rsplit(")", 1)[1].split()[19])  # field 22, starttime: clock ticks after boot
        boot = next(int(line.split()[1]) for line in Path("/proc/stat").read_text(encoding="utf-8").splitlines()
                    if line.startswith("btime "))
    except (OSError, ValueError, IndexError, StopIteration):
        return None
    return boot + ticks / os.sysconf("SC_CLK_TCK")


def health_main(config: Config) -> int:
    healthy, line = check(config)
    print(line, file=sys.stdout if healthy else sys.stderr)
    return 0 if healthy else 1
