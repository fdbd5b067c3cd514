"""A real discord.py client logs into the stand-in, resolves its world, syncs, and restarts."""

from __future__ import annotations

import aiohttp
import discord
import pytest
import yarl
from discord.gateway import DiscordWebSocket
from discord.http import Route

from bench.echo import EchoBot
from tests.support.standin import StandIn


async def test_login_ready_and_world(standin):
    bot = EchoBot()
    async with standin.connect(bot) as driver:
        assert bot.is_ready()
        assert bot.user.id == standin.world.bot.id
        assert bot.application_id == standin.world.application_id
        guild = bot.get_guild(standin.world.guilds[0].id)
        assert guild is not None and guild.name == "Solo Table"
        thread = guild.get_thread(standin.world.channel("session").id)
        assert isinstance(thread, discord.Thread)
        assert thread.parent is not None and thread.parent.name == "table"
        assert "echo say" in driver.command_names()
    assert not standin.violations and not standin.unknown_routes


async def test_route_base_and_gateway_are_restored(standin):
    before = (Route.BASE, DiscordWebSocket.DEFAULT_GATEWAY)
    async with standin.connect(EchoBot()):
        assert standin.api_base == Route.BASE
        assert yarl.URL(standin.gateway_url) == DiscordWebSocket.DEFAULT_GATEWAY
    assert before == (Route.BASE, DiscordWebSocket.DEFAULT_GATEWAY)


async def test_wrong_token_is_refused(standin):
    with pytest.raises(discord.LoginFailure):
        async with standin.connect(EchoBot(), token="not-the-bot-token"):
            pass


async def test_sync_is_stored_and_becomes_the_schema(standin):
    bot = EchoBot()
    async with standin.connect(bot) as driver:
        synced = await bot.tree.sync()
        assert [c.name for c in synced] == ["echo"]
        assert standin.synced[None][0]["name"] == "echo"
        driver.refresh_schema()
        assert driver.schema[0]["id"] == standin.commands[None][0]["id"]
        reply = await driver.slash("echo say", {"text": "after sync"})
        assert reply.text.startswith("after sync")


async def test_unknown_route_is_404_in_discords_format_and_recorded(standin):
    async with aiohttp.ClientSession() as session:
        headers = {"Authorization": f"Bot {standin.bot_token}"}
        async with session.get(standin.api_base + "/users/@me/guilds/nothing", headers=headers) as response:
            assert response.status == 404
            assert response.headers["Content-Type"] == "application/json"
            assert (await response.json())["code"] == 0
        async with session.get(standin.api_base + "/users/@me", headers=headers) as response:
            assert response.headers["Content-Type"] == "application/json"  # exactly, no charset
    assert standin.unknown_routes == [("GET", "/api/v10/users/@me/guilds/nothing")]


async def test_a_restarted_client_carries_on(standin):
    async with standin.connect(EchoBot()) as driver:
        first = await driver.slash("echo buttons")
        pressed = await driver.press("echo:count:0", message=first.original)
        assert pressed.text.startswith("count 1")
    # A new process: a new client, the same Discord. The button on the old message still works.
    async with standin.connect(EchoBot()) as driver:
        again = await driver.press("echo:count:1", message=first.original)
        assert again.response_type == 7
        assert again.original.payload["content"] == "count 2"
        assert again.original.id == first.original.id
    assert not standin.violations


async def test_two_stand_ins_one_after_the_other():
    for _ in range(2):
        async with StandIn() as server, server.connect(EchoBot()) as driver:
            assert (await driver.slash("echo noop")).text == "ok"


async def test_a_dropped_gateway_connection_is_resumed(standin):
    bot = EchoBot()
    async with standin.connect(bot) as driver:
        session_id = bot.ws.session_id
        await standin.drop_connection()
        reply = await driver.slash("echo say", {"text": "after the drop"})
        assert reply.text == "after the drop (en-US)"
        assert standin.resumes == 1
        assert bot.ws.session_id == session_id
