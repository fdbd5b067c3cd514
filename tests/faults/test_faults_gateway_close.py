"""A stop while Discord is away: a gateway that never finishes closing (a half-open connection holds aiohttp's
websocket close for its handshake timeout) does not keep the store open past docker stop's grace (issue 37)."""

from __future__ import annotations

import asyncio

import pytest
from discord.ext import commands

from bot import app
from bot.config import Config


async def test_a_gateway_that_never_closes_does_not_keep_the_store_open(tmp_path, monkeypatch, caplog) -> None:
    monkeypatch.setattr(app, "GATEWAY_CLOSE_SECONDS", 0.2)
    bot = app.create_bot(Config(db_path=tmp_path / "bot.sqlite3"))
    await bot.store.open()
    await bot.store.active_game(1)  # the store answers while open
    never = asyncio.Event()

    async def gateway_that_hangs(self: commands.AutoShardedBot) -> None:
        await never.wait()  # discord.py's close, stuck in the websocket's closing handshake

    monkeypatch.setattr(commands.AutoShardedBot, "close", gateway_that_hangs)
    await asyncio.wait_for(bot.close(), 60)  # a guard against a hang, not a timing: the bound is 0.2 s
    assert "did not close" in caplog.text
    with pytest.raises(Exception):  # noqa: B017 - closed: any read is refused
        await bot.store.active_game(1)
