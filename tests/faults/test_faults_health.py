"""Issue 37 point 6: `python -m bot health` trusts a heartbeat only from the process still running, written in
the past. A heartbeat from the future (the clock set back an hour) used to be healthy for that hour; a killed
bot's heartbeat, healthy for a minute (or longer, its pid taken by another process)."""

from __future__ import annotations

import json
import os
import subprocess
import sys
import time
from pathlib import Path

import pytest

from bot.config import Config
from bot.health import check
from bot.store import SqliteStore


@pytest.fixture
async def config(tmp_path: Path) -> Config:
    db = tmp_path / "bot.sqlite3"
    async with SqliteStore(db, background_check=False):
        pass
    return Config(db_path=db)


def _beat(config: Config, *, pid: int, at: float) -> None:
    config.heartbeat_path.write_text(json.dumps({"pid": pid, "time": at, "connected": True, "problems": [],
                                                 "guilds": 1}), encoding="utf-8")


def test_a_fresh_heartbeat_of_the_running_process_is_healthy(config: Config) -> None:
    _beat(config, pid=os.getpid(), at=time.time())
    healthy, line = check(config)
    assert healthy and line.startswith(f"ok: pid {os.getpid()}"), line


def test_a_heartbeat_from_the_future_is_stale(config: Config) -> None:
    now = time.time()
    _beat(config, pid=os.getpid(), at=now + 3600)  # written, then the clock was set back an hour
    healthy, line = check(config, now=now)
    assert not healthy and "in the future" in line and "set back" in line, line


def test_a_heartbeat_whose_process_is_gone_is_stale_at_once(config: Config) -> None:
    gone = subprocess.Popen([sys.executable, "-c", "pass"])
    gone.wait()
    _beat(config, pid=gone.pid, at=time.time())
    healthy, line = check(config)
    assert not healthy and f"process {gone.pid} is not running" in line, line


def test_a_heartbeat_whose_pid_a_later_process_took_is_stale(config: Config) -> None:
    later = subprocess.Popen([sys.executable, "-c", "import sys; sys.stdin.read()"], stdin=subprocess.PIPE)
    try:
        # Written 30 s before this process began: another process of the same pid wrote it, then died.
        _beat(config, pid=later.pid, at=time.time() - 30)
        healthy, line = check(config)
    finally:
        later.communicate(b"")
    assert not healthy and "started after the heartbeat" in line, line


def test_a_heartbeat_that_names_no_process_is_stale(config: Config) -> None:
    _beat(config, pid=0, at=time.time())
    healthy, line = check(config)
    assert not healthy and "names no process" in line, line
