"""A database the bot cannot write at start is said plainly, with what to do (issue 37): a read-only one says
"read-only" and how to make it writable (not chown, not "try again in a moment"); a full disk says the disk is
full (not "a disk read or write failed"). On a real tmpfs mounted read-only or filled up (root in a container);
skipped where this process may not mount one."""

from __future__ import annotations

import asyncio
import contextlib
import os
import subprocess
import sys
from collections.abc import Iterator
from pathlib import Path

import pytest
from store_helpers import new_game_args, play

from bot.standin import StandIn
from bot.store import SqliteStore, StoreUnavailable, at_start, described
from tests.support.disks import tmpfs

REPO = Path(__file__).resolve().parents[2]


@pytest.fixture
def disk(tmp_path: Path) -> Iterator[Path]:
    """A 2 MiB tmpfs of its own (skipped where none can be mounted)."""
    with tmpfs(tmp_path / "disk") as mount:
        yield mount


async def with_a_game(db: Path) -> None:
    async with SqliteStore(db) as store:
        await play(store, await store.create_game(**new_game_args()), 2)


def read_only(mount: Path) -> None:
    subprocess.run(["mount", "-o", "remount,ro", str(mount)], check=True)


def full(mount: Path) -> None:
    fd = os.open(mount / "filler", os.O_WRONLY | os.O_CREAT)
    try:
        for size in (65536, 4096, 512, 1):
            with contextlib.suppress(OSError):
                while True:
                    os.write(fd, b"\0" * size)
    finally:
        os.close(fd)


def run(*args: str, **env: str) -> tuple[int, str]:
    environ = {k: v for k, v in os.environ.items() if k != "DISCORD_TOKEN"} | env
    done = subprocess.run([sys.executable, "-m", "bot", *args], input="/game status\n", capture_output=True,
                          text=True, timeout=60, cwd=REPO, env=environ)
    return done.returncode, done.stdout + done.stderr


def no_wrong_advice(text: str) -> None:
    assert "Traceback" not in text and "chown" not in text, text
    assert "try again in a moment" not in text and "少し待って" not in text, text


def test_the_read_only_sentences_say_read_only_and_what_to_do():
    for said in (described(StoreUnavailable("read_only")), at_start(StoreUnavailable("read_only"), "en")):
        assert "read-only" in said and "chmod u+w" in said and "read-write" in said, said
        no_wrong_advice(said)
    said = at_start(StoreUnavailable("read_only"), "ja")
    assert "読み取り専用" in said and "chmod u+w" in said, said
    no_wrong_advice(said)


def test_the_bot_on_a_read_only_disk_says_so_at_start(disk):
    db = disk / "bot.sqlite3"
    asyncio.run(with_a_game(db))
    read_only(disk)
    code, output = run(DISCORD_TOKEN="any", SOLO_BOT_DB=str(db))
    assert code == 2, output
    assert "read-only" in output and "read-write" in output, output
    no_wrong_advice(output)


async def test_a_read_only_disk_refuses_writes_as_read_only(disk):
    db = disk / "bot.sqlite3"
    await with_a_game(db)
    read_only(disk)
    with pytest.raises(StoreUnavailable) as caught:
        async with SqliteStore(db) as store:
            game = await store.active_game(100)
            await store.append_action(game.id, expected_ply=game.ply, action={"type": "x"}, user_id=7)
    assert caught.value.reason in ("read_only", "cannot_open"), caught.value


async def test_opening_on_a_full_disk_says_the_disk_is_full(disk):
    db = disk / "bot.sqlite3"
    await with_a_game(db)
    full(disk)
    with pytest.raises(StoreUnavailable) as caught:
        async with SqliteStore(db):
            pass
    assert caught.value.reason == "disk_full", caught.value
    assert "disk is full" in described(caught.value)


def test_the_console_on_a_full_disk_says_the_disk_is_full(disk):
    db = disk / "bot.sqlite3"
    asyncio.run(with_a_game(db))
    full(disk)
    code, output = run("console", "--db", str(db))
    assert code != 0 and "disk is full" in output and "Free some space" in output, output
    no_wrong_advice(output)


async def test_the_bot_on_a_full_disk_says_the_disk_is_full(disk):
    db = disk / "bot.sqlite3"
    await with_a_game(db)
    full(disk)
    async with StandIn() as standin:
        # `python -m bot` with a token, pointed at the stand-in instead of discord.com (loopback only).
        proc = await asyncio.create_subprocess_exec(
            sys.executable, "-m", "bot", cwd=REPO, stdout=subprocess.PIPE, stderr=subprocess.PIPE,
            env={**os.environ, "DISCORD_TOKEN": standin.bot_token, "SOLO_BOT_DB": str(db),
                 "SOLO_BOT_DISCORD_API": standin.api_base, "SOLO_BOT_DISCORD_GATEWAY": standin.gateway_url})
        out, err = await asyncio.wait_for(proc.communicate(), 60)
    output = (out + err).decode(errors="replace")
    assert proc.returncode == 2 and "disk is full" in output, output
    no_wrong_advice(output)
