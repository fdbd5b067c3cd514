"""The store's faults seen from Discord: a file locked by another process, a full disk, a damaged file.

Each time the player must get a clear ephemeral answer, nothing may be half written (the game equals the
replay of its acknowledged commands), other channels go on being served where they can, and once the
fault is gone the same command works.
"""

from __future__ import annotations

import asyncio
import contextlib
import os
import sqlite3
import subprocess
import sys
from collections.abc import Iterator
from pathlib import Path

import pytest

from bot.app import create_bot
from bot.config import Config
from bot.store.sqlite import APPLICATION_ID
from tests.support.disks import tmpfs
from tests.support.standin import StandIn

sys.path.insert(0, str(Path(__file__).resolve().parents[1] / "load"))
sys.path.insert(0, str(Path(__file__).resolve().parents[1] / "store"))
from load_helpers import (
    Tally,
    acknowledged,
    check_record,
    command_for,
    crowded_world,
    export,
    game_seeds,
    plan,
    refused,
    send,
    start,
    step,
)
from store_helpers import Locker, on_writer

REPO = Path(__file__).resolve().parents[2]


def says(text: str, *ways: str) -> bool:
    """The text names the fault one of these ways (its code, or the words for it)."""
    return any(way in text for way in ways)


async def two_games(driver, places, tally: Tally, *, played: int = 3):
    """A Seasons game (table dice) with `played` actions in one channel and a Volfyirion game in another."""
    games = [plan(0, *places[0]), plan(2, *places[2])]
    for game in games:
        await start(driver, game, tally, length=40)
        for _ in range(played):
            await step(driver, game, tally, by_button=False)
    return games


# -- a file locked by another process ---------------------------------------------------------------------
async def test_a_locked_file_refuses_clearly_writes_nothing_and_the_command_works_after(tmp_path):
    # A lenient stand-in (10 s to answer) so this checks the store's side; the deadline has its own test.
    db = tmp_path / "locked.sqlite3"
    world, places = crowded_world(3)
    async with StandIn(world, deadline=10.0) as standin:
        async with standin.connect(create_bot(Config(db_path=db), seed=game_seeds(40)), timeout=20.0) as driver:
            tally = Tally()
            seasons, volf = await two_games(driver, places, tally)
            action = seasons.script[seasons.pos]
            async with Locker(db):
                no = await send(driver, seasons, action, by_button=False)
                # Reading goes on while another process holds the write lock (WAL).
                other = await driver.slash("game status", {}, settle=False, **volf.who)
                during = await export(driver, seasons)
            assert refused(no), no.text
            assert "unavailable" in no.text and "locked" in no.text, no.text
            assert acknowledged(other) and other.text
            check_record(seasons, during)  # nothing of the refused command was written
            again = await send(driver, seasons, action, by_button=False)
            assert acknowledged(again), again.text
            seasons.log.append(action)
            check_record(seasons, await export(driver, seasons))
            check_record(volf, await export(driver, volf))
        assert standin.violations == []


async def test_a_locked_file_is_answered_within_discords_deadline(tmp_path):
    # The write waits out the busy timeout (5 s): the bot says "thinking…" in time, then refuses privately.
    db = tmp_path / "locked.sqlite3"
    world, places = crowded_world(3)
    async with StandIn(world) as standin:
        async with standin.connect(create_bot(Config(db_path=db), seed=game_seeds(41)), timeout=20.0) as driver:
            seasons, _ = await two_games(driver, places, Tally(), played=1)
            async with Locker(db):
                reply = await send(driver, seasons, seasons.script[seasons.pos], by_button=False)
            assert reply.rejections == [], reply.rejections
            assert "unavailable" in reply.text and "locked" in reply.text, reply.text
        assert standin.violations == []


async def test_other_channels_are_served_while_a_write_waits_for_the_lock(tmp_path):
    # Reads have their own connection: a write waiting out the busy timeout holds up no other channel.
    db = tmp_path / "locked.sqlite3"
    world, places = crowded_world(3)
    async with StandIn(world, deadline=10.0) as standin:
        bot = create_bot(Config(db_path=db), seed=game_seeds(42))
        bot.store.busy_timeout = 120.0  # the write waits for as long as the file is locked
        async with standin.connect(bot, timeout=20.0) as driver:
            seasons, volf = await two_games(driver, places, Tally(), played=1)
            async with Locker(db):
                stuck = asyncio.ensure_future(send(driver, seasons, seasons.script[seasons.pos], by_button=False))
                while not bot.store._writer.pending:  # an event, not a time: the write is now waiting
                    await asyncio.sleep(0.01)
                other = await driver.slash("game status", {}, settle=False, **volf.who)
                # Served while the write is still stuck behind the lock (the order of events, not a time).
                still_stuck = not stuck.done()
            reply = await stuck
            assert acknowledged(other) and still_stuck
            assert acknowledged(reply), reply.text  # once the file is free, the write goes through


# -- a full disk ------------------------------------------------------------------------------------------
async def test_a_full_disk_refuses_clearly_writes_nothing_and_other_channels_read(tmp_path):
    db = tmp_path / "full.sqlite3"
    world, places = crowded_world(3)
    async with StandIn(world) as standin:
        bot = create_bot(Config(db_path=db), seed=game_seeds(50))
        async with standin.connect(bot, timeout=20.0) as driver:
            tally = Tally()
            seasons, volf = await two_games(driver, places, tally, played=2)
            # No page beyond those the file has now: the next write that needs one fails as a full disk.
            pages = await on_writer(bot.store, "PRAGMA page_count")
            await on_writer(bot.store, f"PRAGMA max_page_count = {pages}")
            no = None
            for _ in range(40):
                action = seasons.script[seasons.pos]
                reply = await send(driver, seasons, action, by_button=False)
                if refused(reply):
                    no = reply
                    break
                seasons.log.append(action)
                seasons.reply = reply
            assert no is not None, "the store never ran out of pages"
            assert "unavailable" in no.text and says(no.text, "disk_full", "disk is full"), no.text
            check_record(seasons, await export(driver, seasons))  # nothing half written
            other = await driver.slash("game status", {}, settle=False, **volf.who)
            assert acknowledged(other) and other.text
            check_record(volf, await export(driver, volf))
            await on_writer(bot.store, "PRAGMA max_page_count = 1073741823")
            again = await send(driver, seasons, action, by_button=False)
            assert acknowledged(again), again.text
            seasons.log.append(action)
            check_record(seasons, await export(driver, seasons))
        assert standin.violations == []


async def test_a_full_disk_is_explained_in_japanese_without_codes(tmp_path):
    world, places = crowded_world(3)
    async with StandIn(world) as standin:
        bot = create_bot(Config(db_path=tmp_path / "full.sqlite3"), seed=game_seeds(51))
        async with standin.connect(bot, timeout=20.0) as driver:
            seasons, _ = await two_games(driver, places, Tally(), played=1)
            pages = await on_writer(bot.store, "PRAGMA page_count")
            await on_writer(bot.store, f"PRAGMA max_page_count = {pages}")
            for _ in range(40):
                action = seasons.script[seasons.pos]
                reply = await driver.slash(*command_for(seasons, action), settle=False, locale="ja", **seasons.who)
                if refused(reply):
                    break
                seasons.log.append(action)
            assert refused(reply) and "保存できません" in reply.text, reply.text
            assert "disk_full" not in reply.text and "ディスクがいっぱい" in reply.text, reply.text


@pytest.fixture
def small_disk(tmp_path: Path) -> Iterator[Path]:
    """A 2 MiB tmpfs (skipped where none can be mounted)."""
    with tmpfs(tmp_path / "small") as mount:
        yield mount


async def test_a_really_full_disk_refuses_clearly_and_recovers(small_disk):
    world, places = crowded_world(3)
    async with StandIn(world) as standin:
        bot = create_bot(Config(db_path=small_disk / "bot.sqlite3"), seed=game_seeds(60))
        async with standin.connect(bot, timeout=20.0) as driver:
            seasons, volf = await two_games(driver, places, Tally(), played=2)
            filler = small_disk / "filler"
            with filler.open("wb", buffering=0) as f, contextlib.suppress(OSError):  # fill the disk to the last block
                while True:
                    f.write(b"\0" * 4096)
            no = None
            for _ in range(len(seasons.script) - seasons.pos - 1):
                action = seasons.script[seasons.pos]
                reply = await send(driver, seasons, action, by_button=False)
                if refused(reply):
                    no = reply
                    break
                seasons.log.append(action)
                seasons.reply = reply
            assert no is not None, "the disk never filled up"
            assert "unavailable" in no.text, no.text
            assert says(no.text, "disk_full", "disk is full", "(io)", "read or write failed"), no.text
            other = await driver.slash("game status", {}, settle=False, **volf.who)
            assert acknowledged(other) and other.text
            check_record(seasons, await export(driver, seasons))  # nothing half written
            filler.unlink()
            again = await send(driver, seasons, action, by_button=False)
            assert acknowledged(again), again.text
            seasons.log.append(action)
            check_record(seasons, await export(driver, seasons))
        assert standin.violations == []


# -- a damaged file at start ------------------------------------------------------------------------------
def junk_file(path: Path) -> Path:
    path.write_bytes(os.urandom(8192))
    return path


def damaged_database(path: Path) -> Path:
    """A real SQLite file of the bot's (right header, its application id) whose pages were overwritten with noise."""
    conn = sqlite3.connect(path)
    conn.execute(f"PRAGMA application_id = {APPLICATION_ID}")
    conn.execute("CREATE TABLE t (x)")
    conn.executemany("INSERT INTO t VALUES (?)", [("x" * 500,)] * 200)
    conn.commit()
    conn.close()
    data = bytearray(path.read_bytes())
    for i in range(4096, len(data), 1024):
        data[i:i + 100] = os.urandom(100)
    path.write_bytes(bytes(data))
    return path


@pytest.mark.parametrize("damage", [junk_file, damaged_database], ids=["not_sqlite", "malformed"])
def test_a_damaged_file_stops_the_console_with_one_clear_line(tmp_path, damage):
    db = damage(tmp_path / "bot.sqlite3")
    before = db.read_bytes()
    env = {k: v for k, v in os.environ.items() if k != "DISCORD_TOKEN"}
    done = subprocess.run([sys.executable, "-m", "bot", "console", "--db", str(db)], input="/game status\n",
                          capture_output=True, text=True, timeout=60, cwd=REPO, env=env)
    output = done.stdout + done.stderr
    assert done.returncode != 0, output
    assert "could not start" in output and says(output, "corrupt", "damaged"), output
    assert "Traceback" not in output, output
    assert db.read_bytes() == before  # refused without writing to it


def test_the_console_says_what_is_wrong_with_the_file_in_words(tmp_path):
    db = junk_file(tmp_path / "bot.sqlite3")
    env = {k: v for k, v in os.environ.items() if k != "DISCORD_TOKEN"}
    done = subprocess.run([sys.executable, "-m", "bot", "console", "--db", str(db)], input="/game status\n",
                          capture_output=True, text=True, timeout=60, cwd=REPO, env=env)
    output = done.stdout + done.stderr
    assert "The game database is damaged" in output, output
    assert "store.corrupt(" not in output, output


async def test_a_damaged_file_stops_the_bot_with_one_clear_line(tmp_path):
    db = junk_file(tmp_path / "bot.sqlite3")
    async with StandIn() as standin:
        # `python -m bot` with a token, pointed at the stand-in instead of discord.com (loopback only).
        code = ("import yarl; from discord.http import Route; from discord.gateway import DiscordWebSocket;"
                f"Route.BASE = {standin.api_base!r};"
                f"DiscordWebSocket.DEFAULT_GATEWAY = yarl.URL({standin.gateway_url!r});"
                "from bot.__main__ import main; raise SystemExit(main([]))")
        proc = await asyncio.create_subprocess_exec(
            sys.executable, "-c", code, cwd=REPO, stdout=subprocess.PIPE, stderr=subprocess.PIPE,
            env={**os.environ, "DISCORD_TOKEN": standin.bot_token, "SOLO_BOT_DB": str(db)})
        out, err = await asyncio.wait_for(proc.communicate(), 60)
    output = (out + err).decode(errors="replace")
    assert proc.returncode not in (0, None), output
    assert says(output, "corrupt", "damaged"), output
    assert "Traceback" not in output, output
