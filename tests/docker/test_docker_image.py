"""Issue 27: the Docker image as a user runs it, against the stand-in for Discord (marked `docker`: not in
`make test`; `deploy/check-image.sh` builds the image and runs these, `.ci/run` runs that script).

Every container is on the host's network and talks to a stand-in and a PostgreSQL listening on 127.0.0.1
only. The image is `SOLO_BOT_CHECK_IMAGE` (what the script built from the Dockerfile, unchanged); compose is
`SOLO_BOT_CHECK_COMPOSE` (`docker-compose` or `docker compose`), with deploy/compose.check.yaml over
deploy/compose.yaml.
"""

from __future__ import annotations

import asyncio
import os
import shlex
import socket
import subprocess
import sys
import time
import uuid
from pathlib import Path

import pytest

from tests.support.standin import StandIn

sys.path.insert(0, str(Path(__file__).resolve().parents[1] / "faults"))
from bot_process import driver_for

pytestmark = pytest.mark.docker
ROOT = Path(__file__).resolve().parents[2]
IMAGE = os.environ.get("SOLO_BOT_CHECK_IMAGE", "solo-automaton-bot")
COMPOSE = shlex.split(os.environ.get("SOLO_BOT_CHECK_COMPOSE", "docker-compose"))
STOP_LIMIT = 10.0  # docker stop's default grace period


def docker(*args: str, check: bool = True, timeout: float = 120) -> subprocess.CompletedProcess[str]:
    done = subprocess.run(["docker", *args], capture_output=True, text=True, timeout=timeout)
    if check and done.returncode != 0:
        raise AssertionError(f"docker {' '.join(args)}: {done.returncode}\n{done.stdout}\n{done.stderr}")
    return done


async def _until(condition, limit: float = 90.0, what: str = "the awaited event") -> None:
    loop = asyncio.get_running_loop()
    give_up = loop.time() + limit
    while not await asyncio.to_thread(condition):
        assert loop.time() < give_up, f"{what} never came"
        await asyncio.sleep(0.5)


def _healthy(name: str) -> bool:
    return docker("exec", name, "python", "-m", "bot", "health", check=False).returncode == 0


def _stop(name: str) -> tuple[int, float]:
    """`docker stop` (SIGTERM, SIGKILL after 10 s): the exit code and how long it took."""
    began = time.monotonic()
    docker("stop", "-t", str(int(STOP_LIMIT)), name)
    took = time.monotonic() - began
    return int(docker("inspect", "-f", "{{.State.ExitCode}}", name).stdout), took


def _run(name: str, standin: StandIn, volume: str, *extra: str) -> None:
    docker("run", "-d", "--name", name, "--network", "host", "-v", f"{volume}:/data",
           "-e", f"DISCORD_TOKEN={standin.bot_token}", "-e", "SOLO_BOT_SHARDS=1",
           "-e", f"SOLO_BOT_DISCORD_API={standin.api_base}", "-e", f"SOLO_BOT_DISCORD_GATEWAY={standin.gateway_url}",
           *extra, IMAGE)


@pytest.fixture
def names():
    """Fresh container and volume names, all removed afterwards."""
    tag = uuid.uuid4().hex[:8]
    made: dict[str, str] = {}

    def name(kind: str) -> str:
        return made.setdefault(kind, f"solo-check-{kind}-{tag}")

    yield name
    containers = [value for kind, value in made.items() if not kind.startswith("volume")]
    for value in containers:
        docker("rm", "-f", "-v", value, check=False)
    for value in set(made.values()) - set(containers):  # once no container holds them
        docker("volume", "rm", "-f", value, check=False)


def test_without_a_token_the_container_exits_2_with_the_message() -> None:
    done = docker("run", "--rm", IMAGE, check=False)
    assert done.returncode == 2
    assert "DISCORD_TOKEN is not set" in done.stderr, done.stderr


def test_a_database_folder_the_bot_cannot_write_is_said_at_start(tmp_path: Path) -> None:
    data = tmp_path / "data"
    data.mkdir(mode=0o755)  # owned by root; the image runs as uid 10001
    os.chmod(data, 0o755)
    done = docker("run", "--rm", "--network", "none", "-e", "DISCORD_TOKEN=x", "-v", f"{data}:/data", IMAGE, check=False)
    assert done.returncode == 2, done.stderr
    lines = done.stderr.strip().splitlines()
    assert len(lines) == 1 and "cannot write the game database /data/bot.sqlite3" in lines[0], done.stderr
    assert "chown -R 10001" in lines[0]


async def test_the_image_runs_answers_keeps_its_database_and_stops_cleanly(names) -> None:
    standin = StandIn()
    await standin.start()
    try:
        volume = names("volume")
        first = names("first")
        _run(first, standin, volume)
        await _until(lambda: _healthy(first), what="healthy (connected)")
        # Non-root, python as PID 1 (docker stop's SIGTERM reaches the bot itself).
        assert docker("exec", first, "id", "-u").stdout.strip() == "10001"
        assert docker("exec", first, "cat", "/proc/1/cmdline").stdout.split("\0")[:3] == ["python", "-m", "bot"]
        # The running code is the installed package, once.
        where = docker("exec", first, "python", "-c", "import bot; print(bot.__file__)").stdout.strip()
        assert where == "/opt/solo/bot/__init__.py"
        driver = driver_for(standin)
        reply = await driver.slash("seasons start", {"difficulty": "wizard", "dice": "table"})
        assert reply.text and not reply.rejections, reply.text
        code, took = _stop(first)
        assert code == 0 and took < STOP_LIMIT, (code, took, docker("logs", first).stderr[-2000:])
        docker("rm", first)

        second = names("second")  # a new container on the same volume: the game is still there
        _run(second, standin, volume)
        await _until(lambda: _healthy(second), what="healthy again")
        status = await driver.slash("game status")
        assert "Dummbot" in status.text and "Year 1" in status.text, status.text  # the game, read back
        count = docker("exec", second, "python", "-c", "import sqlite3; print(sqlite3.connect('/data/bot.sqlite3')"
                       ".execute('select count(*) from games').fetchone()[0])").stdout.strip()
        assert count == "1"

        await standin.close()  # Discord goes away
        began = time.monotonic()
        await _until(lambda: not _healthy(second), limit=60, what="unhealthy within a minute")
        unhealthy_after = time.monotonic() - began
        said = docker("exec", second, "python", "-m", "bot", "health", check=False).stderr
        assert "not connected to Discord" in said, said
        code, took = _stop(second)  # while discord.py sleeps in its reconnect backoff
        logs = docker("logs", second).stderr
        assert code == 0 and took < STOP_LIMIT, (code, took, logs[-2000:])
        assert "Traceback" not in logs, logs[-3000:]
        print(f"\ndocker check: unhealthy {unhealthy_after:.0f} s after Discord went away; "
              f"docker stop while away took {took:.1f} s")
    finally:
        await standin.close()


def _free_ports(count: int) -> list[int]:
    socks = [socket.socket() for _ in range(count)]
    try:
        for sock in socks:
            sock.bind(("127.0.0.1", 0))
        return [sock.getsockname()[1] for sock in socks]
    finally:
        for sock in socks:
            sock.close()


def _without_ports(config: str) -> str:
    """compose.yaml's merged configuration without its published ports: on the host's network they mean nothing,
    and compose refuses them there (an override file cannot remove a list in compose 1.29)."""
    kept: list[str] = []
    skipping: int | None = None
    for line in config.splitlines():
        indent = len(line) - len(line.lstrip())
        if skipping is not None and (indent > skipping or line.lstrip().startswith("- ")) and line.strip():
            continue
        skipping = indent if line.strip() == "ports:" else None
        if skipping is None:
            kept.append(line)
    return "\n".join(kept) + "\n"


async def test_compose_brings_postgresql_and_two_bots_up_healthy_and_stores_a_game_in_postgresql(tmp_path: Path) -> None:
    project = f"solocheck{uuid.uuid4().hex[:6]}"
    pg_port, http_a, http_b = _free_ports(3)
    async with StandIn() as standin:
        env = {**os.environ, "DISCORD_TOKEN": standin.bot_token, "POSTGRES_PASSWORD": "check: p@ss/w#rd%",
               "CHECK_PG_PORT": str(pg_port), "CHECK_HTTP_A": str(http_a), "CHECK_HTTP_B": str(http_b),
               "SOLO_BOT_DISCORD_API": standin.api_base, "SOLO_BOT_DISCORD_GATEWAY": standin.gateway_url,
               "SOLO_BOT_IMAGE": IMAGE}
        merged = subprocess.run([*COMPOSE, "-f", str(ROOT / "deploy" / "compose.yaml"), "-f",
                                 str(ROOT / "deploy" / "compose.check.yaml"), "config"],
                                env=env, capture_output=True, text=True, timeout=120, check=True).stdout
        config = tmp_path / "compose.yaml"
        config.write_text(_without_ports(merged), encoding="utf-8")
        compose = [*COMPOSE, "-p", project, "-f", str(config)]

        def run(*args: str) -> subprocess.CompletedProcess[str]:
            done = subprocess.run([*compose, *args], env=env, capture_output=True, text=True, timeout=600)
            assert done.returncode == 0, f"{' '.join(args)}\n{done.stdout}\n{done.stderr}"
            return done

        try:
            await asyncio.to_thread(run, "up", "-d", "--build")
            for service in ("bot-a", "bot-b"):
                container = f"{project}_{service}_1" if COMPOSE[0] == "docker-compose" else f"{project}-{service}-1"

                def healthy(name: str = container) -> bool:
                    return docker("inspect", "-f", "{{.State.Health.Status}}", name).stdout.strip() == "healthy"

                await _until(healthy, what=f"{service} healthy")
            assert sorted(standin.shards_connected()) == [0, 1, 2, 3]
            driver = driver_for(standin)
            reply = await driver.slash("seasons start", {"difficulty": "wizard", "dice": "table"})
            assert reply.text and not reply.rejections, reply.text
            pg = f"{project}_postgres_1" if COMPOSE[0] == "docker-compose" else f"{project}-postgres-1"
            count = docker("exec", "-e", f"PGPASSWORD={env['POSTGRES_PASSWORD']}", pg, "psql", "-h", "127.0.0.1",
                           "-p", str(pg_port), "-U", "solo", "-d", "solo", "-tAc", "select count(*) from games")
            assert count.stdout.strip() == "1", count.stdout + count.stderr
        finally:
            subprocess.run([*compose, "down", "-v", "--remove-orphans"], env=env, capture_output=True, timeout=300)
