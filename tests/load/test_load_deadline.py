"""Discord's 3 s: under load a reply can be slow to build (a busy event loop, a picture to draw); the bot
must then answer "thinking…" in time and edit it afterwards, on every path."""

from __future__ import annotations

import asyncio
import sys
import time
from pathlib import Path

from bot.app import create_bot
from bot.config import Config
from tests.support.standin import StandIn

sys.path.insert(0, str(Path(__file__).resolve().parent))
from load_helpers import acknowledged, crowded_world, game_seeds


def slow_pictures(bot, seconds: float) -> None:
    """Every board picture takes `seconds` to draw, as it does when many channels draw at once."""
    for ui in bot.controller.uis.values():
        draw = ui.board

        def slow(summary, *args, draw=draw):
            time.sleep(seconds)
            return draw(summary, *args)

        ui.board = slow


async def test_a_slow_picture_does_not_hold_the_start_s_reply(tmp_path):
    # A slow picture no longer holds the reply (issue 12): the reply goes at once, the picture follows by an
    # edit, however late.
    world, places = crowded_world(1)
    channel, user = places[0]
    async with StandIn(world) as standin:
        bot = create_bot(Config(db_path=tmp_path / "slow.sqlite3"), seed=game_seeds(9))
        async with standin.connect(bot, timeout=20.0) as driver:
            slow_pictures(bot, 3.2)
            reply = await driver.slash("seasons start", {"difficulty": "wizard", "dice": "table"},
                                       channel=channel, user=user)
            assert not reply.deferred and reply.rejections == [] and acknowledged(reply)
            await reply.until(lambda r: bool(r.files))
        assert standin.violations == []


async def test_a_slow_command_waiting_on_its_channel_is_deferred(tmp_path):
    # A command queued behind a slow one in the same channel: act() measures the wait and defers.
    world, places = crowded_world(1)
    channel, user = places[0]
    async with StandIn(world) as standin:
        bot = create_bot(Config(db_path=tmp_path / "slow.sqlite3"), seed=game_seeds(9))
        async with standin.connect(bot, timeout=20.0) as driver:
            await driver.slash("volfyrion start", {"difficulty": "easy"}, channel=channel, user=user)
            lock = bot.service.lock(channel.id)
            await lock.acquire()  # another command holds the channel for 2 s
            try:
                pending = asyncio.ensure_future(driver.slash("volfyrion end", {}, channel=channel, user=user))
                await asyncio.sleep(2.0)
            finally:
                lock.release()
            reply = await pending
            assert reply.deferred and reply.rejections == [] and acknowledged(reply), reply.text
        assert standin.violations == []
