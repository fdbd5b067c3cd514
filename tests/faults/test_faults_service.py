"""Issue 11, point 6: the bot stops and starts like a service.

- SIGTERM (`docker stop`) lets the command under way commit and answer, closes the gateway and the store
  (no WAL file left behind, the heartbeat removed) and exits 0 — with the bot in a real process of its own.
- Without a token and without a terminal (a container), `python -m bot` is a clear error with a non-zero
  exit, not a console reading an empty stdin; on a terminal (`make run`) it is still the console.
- `python -m bot health` (the Dockerfile's HEALTHCHECK) is 0 while the bot runs and 1 once it stopped.
"""

from __future__ import annotations

import asyncio
import os
import pty
import sqlite3
import subprocess
import sys
from pathlib import Path

from tests.support.standin import StandIn

sys.path.insert(0, str(Path(__file__).resolve().parent))
from bot_process import REPO, BotProcess, driver_for


def _env(**extra: str) -> dict[str, str]:
    env = {k: v for k, v in os.environ.items() if k not in ("DISCORD_TOKEN", "SOLO_BOT_DB", "SOLO_BOT_HEARTBEAT")}
    return {**env, "PYTHONUNBUFFERED": "1", **extra}


async def _health(db: Path) -> tuple[int, str]:
    proc = await asyncio.create_subprocess_exec(
        sys.executable, "-m", "bot", "health", cwd=REPO, env=_env(SOLO_BOT_DB=str(db)),
        stdout=asyncio.subprocess.PIPE, stderr=asyncio.subprocess.PIPE)
    out, err = await proc.communicate()
    return proc.returncode, (out + err).decode()


async def _until(condition, limit: float = 60.0) -> None:
    loop = asyncio.get_running_loop()
    give_up = loop.time() + limit
    while not await condition():
        assert loop.time() < give_up, "the awaited event never came"
        await asyncio.sleep(0.05)


async def test_sigterm_drains_the_command_under_way_closes_the_store_and_exits_0(tmp_path: Path) -> None:
    db = tmp_path / "bot.sqlite3"
    async with StandIn() as standin:
        process = BotProcess(standin, db)
        await process.start()
        try:
            driver = driver_for(standin)
            await driver.slash("seasons start", {"difficulty": "wizard", "dice": "table"})

            async def healthy() -> bool:
                return (await _health(db))[0] == 0

            await _until(healthy)  # the heartbeat is written once the bot is ready
            # 1.5 s old on arrival: the bot says "thinking…" first, then commits and edits its answer.
            command = asyncio.create_task(driver.slash("seasons crystals", {"change": 5}, late=1.5, timeout=30))

            async def acknowledged() -> bool:  # the only interaction answered "thinking…"
                return any(r.response_type == 5 for r in standin.interactions.values())

            await _until(acknowledged)
            process.terminate()  # docker stop: SIGTERM while the command is under way
            reply = await command
            assert reply.edits and not reply.rejections, reply.text
            assert await process.wait() == 0
        finally:
            await process.stop()
    stderr = (await process.proc.stderr.read()).decode()
    assert "Traceback" not in stderr, stderr
    # The store was closed: SQLite removes the WAL file when the last connection closes cleanly.
    assert not Path(f"{db}-wal").exists()
    with sqlite3.connect(db) as conn:
        assert conn.execute("SELECT count(*) FROM actions").fetchone()[0] == 1
    code, said = await _health(db)
    assert code == 1 and "not running" in said


async def test_sigkill_leaves_health_failing_at_once(tmp_path: Path) -> None:
    """A killed bot cannot remove its heartbeat; the check fails at once, its process being gone (issue 37: it
    used to wait for the file to go stale), and later for its age too."""
    from bot.config import Config
    from bot.health import STALE_AFTER, check

    db = tmp_path / "bot.sqlite3"
    async with StandIn() as standin:
        process = BotProcess(standin, db)
        await process.start()
        config = Config(db_path=db)

        async def beating() -> bool:  # the heartbeat is written from the start, "connected" once it is
            return check(config)[0]

        await _until(beating)
        process.kill()
        await process.wait()
    assert config.heartbeat_path.is_file()
    healthy, why = check(config)
    assert not healthy and "is not running" in why, why
    stale, why = check(config, now=config.heartbeat_path.stat().st_mtime + STALE_AFTER + 1)
    assert not stale and "heartbeat" in why


def test_no_token_without_a_terminal_is_a_clear_error_not_a_console(tmp_path: Path) -> None:
    done = subprocess.run([sys.executable, "-m", "bot"], cwd=REPO, env=_env(SOLO_BOT_DB=str(tmp_path / "b.sqlite3")),
                          stdin=subprocess.DEVNULL, capture_output=True, text=True, timeout=120)
    assert done.returncode == 2
    assert "DISCORD_TOKEN is not set" in done.stderr and "python -m bot console" in done.stderr
    assert done.stdout == ""  # no console session ran


def test_no_token_on_a_terminal_is_the_console_as_make_run_needs(tmp_path: Path) -> None:
    master, slave = pty.openpty()
    try:
        proc = subprocess.Popen([sys.executable, "-m", "bot"], cwd=REPO, env=_env(SOLO_BOT_DB=str(tmp_path / "b.sqlite3")),
                                stdin=slave, stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True)
        os.write(master, b"/game help\n")
        os.write(master, b"\x04")  # Ctrl-D on an empty line: the end of input
        out, err = proc.communicate(timeout=180)
    finally:
        os.close(master)
        os.close(slave)
    assert proc.returncode == 0, err
    assert "starting the local console" in err
    assert "/seasons start" in out  # the help the console printed


def test_the_console_runs_when_asked_for_even_without_a_terminal(tmp_path: Path) -> None:
    done = subprocess.run([sys.executable, "-m", "bot", "console", "--lang", "en"], cwd=REPO, env=_env(),
                          input="/game help\n", capture_output=True, text=True, timeout=180)
    assert done.returncode == 0 and "/seasons start" in done.stdout


def test_health_without_a_running_bot_fails(tmp_path: Path) -> None:
    done = subprocess.run([sys.executable, "-m", "bot", "health"], cwd=REPO, env=_env(SOLO_BOT_DB=str(tmp_path / "x.sqlite3")),
                          capture_output=True, text=True, timeout=60)
    assert done.returncode == 1 and "not running" in done.stderr
