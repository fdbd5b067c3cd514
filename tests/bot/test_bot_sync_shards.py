"""Commands appear without a manual step, from one process only (issue 11, point 5), and the bot runs as
several shards (point 7) — end to end through the stand-in with a real client and a real store."""

from __future__ import annotations

import contextlib
import dataclasses
import json

import discord
import pytest
import yarl
from discord.gateway import DiscordWebSocket
from discord.http import Route

from bot.__main__ import _sync, main
from bot.app import create_bot
from bot.config import Config, ConfigError, Shards
from bot.store import SqliteStore
from bot.sync import SETTING
from tests.support.standin import StandIn, World

NAMES = {"seasons", "volfyrion", "game"}


def puts(standin: StandIn) -> list[str]:
    return [path for method, path in standin.requests if method == "PUT" and path.endswith("/commands")]


@contextlib.asynccontextmanager
async def started(standin: StandIn, config: Config):
    bot = create_bot(config, seed=lambda: 7)
    async with standin.connect(bot) as driver:
        yield driver


async def test_commands_sync_at_start_up_only_when_their_payload_changed(standin, db_path):
    config = Config(db_path=db_path, auto_sync=True)
    async with started(standin, config) as driver:
        help_ = await driver.slash("game help", {})  # the driver types from what was synced
        assert help_.answered and "/seasons" in help_.text
    assert {c["name"] for c in standin.synced[None]} == NAMES and len(puts(standin)) == 1
    async with started(standin, config):
        pass
    assert len(puts(standin)) == 1  # the same payload: no second sync
    async with SqliteStore(db_path) as store:  # an upgrade changed the commands: the hash no longer matches
        stored = json.loads(await store.get_setting(SETTING))
        await store.put_setting(SETTING, json.dumps(stored | {"hash": "0" * 64}))
    async with started(standin, config):
        pass
    assert len(puts(standin)) == 2
    assert None in standin.synced and all(k is None for k in standin.synced)  # never into a guild


async def test_sync_can_be_turned_off(standin, db_path):
    async with started(standin, Config(db_path=db_path, auto_sync=False)):
        pass
    assert puts(standin) == []
    token = {"DISCORD_TOKEN": "t"}
    assert Config.from_env(token | {"SOLO_BOT_SYNC": "off"}).auto_sync is False
    assert Config.from_env(token).auto_sync is True
    assert Config.from_env({}).auto_sync is False  # the local console: no Discord to sync with
    with pytest.raises(ConfigError, match="SOLO_BOT_SYNC"):
        Config.from_env({"SOLO_BOT_SYNC": "sometimes"})


async def test_a_development_guild_gets_the_commands_and_the_global_set_is_cleared(standin, db_path):
    guild = standin.world.guilds[0].id
    async with started(standin, Config(db_path=db_path, auto_sync=True)):
        pass
    assert {c["name"] for c in standin.synced[None]} == NAMES
    dev = Config(db_path=db_path, auto_sync=True, dev_guild=guild)
    async with started(standin, dev) as driver:
        reply = await driver.slash("game help", {})
        assert reply.answered and "/seasons" in reply.text
    assert {c["name"] for c in standin.synced[guild]} == NAMES
    assert standin.synced[None] == []  # not registered twice
    async with started(standin, dev):
        pass
    assert len(puts(standin)) == 3  # global, guild, global cleared — and nothing on the second start
    async with started(standin, Config(db_path=db_path, auto_sync=True)):  # back to global
        pass
    assert {c["name"] for c in standin.synced[None]} == NAMES and standin.synced[guild] == []
    other = standin.world.add_guild("another server").id
    async with started(standin, dev):
        pass
    async with started(standin, dataclasses.replace(dev, dev_guild=other)):  # from one dev server to another
        pass
    assert standin.synced[guild] == [] and {c["name"] for c in standin.synced[other]} == NAMES
    assert standin.synced[None] == []
    assert Config.from_env({"SOLO_BOT_GUILD": str(guild)}).dev_guild == guild
    with pytest.raises(ConfigError, match="SOLO_BOT_GUILD"):
        Config.from_env({"SOLO_BOT_GUILD": "my server"})


async def test_the_sync_goes_through_the_tree_and_a_server_the_bot_left_is_refused(standin, db_path, caplog):
    """Issue 35: the scopes are emptied through discord.py's public tree (`fetch_commands`, `sync` with the
    scope's commands set aside and put back), and Discord's 50001 for a server the bot left is only logged."""
    guild = standin.world.guilds[0].id
    left = standin.world.add_guild("a server the bot left").id
    async with started(standin, Config(db_path=db_path, auto_sync=True)):
        pass
    async with started(standin, Config(db_path=db_path, auto_sync=True, dev_guild=left)):
        pass
    standin.world.guilds = [g for g in standin.world.guilds if g.id != left]
    async with started(standin, Config(db_path=db_path, auto_sync=True, dev_guild=guild)) as driver:
        tree = driver.bot.tree
        assert {c.name for c in tree.get_commands()} == NAMES  # the global set, put back after the clear
        assert {c.name for c in tree.get_commands(guild=discord.Object(guild))} == NAMES
        reply = await driver.slash("game help", {})
        assert reply.answered and "/seasons" in reply.text
    assert {c["name"] for c in standin.synced[guild]} == NAMES and standin.synced[None] == []
    assert [(v.kind, v.code, v.path.endswith(f"/guilds/{left}/commands")) for v in standin.violations] == [
        ("missing_access", 50001, True)]
    assert f"could not clear the commands of guild {left}" in caplog.text
    standin.violations.clear()


async def test_identify_buckets_come_from_the_session_start_limits(db_path):
    """Issue 35: `max_concurrency` read through `fetch_session_start_limits` (GET /gateway/bot)."""
    async with StandIn(many_guilds(3), max_concurrency=4) as standin:
        async with started(standin, Config(db_path=db_path, shards=Shards.parse("2"))) as driver:
            assert driver.bot._identify_concurrency == 4
        assert ("GET", "/api/v10/gateway/bot") in standin.requests


async def test_only_the_process_holding_shard_0_syncs(db_path):
    world = World.default()
    for i in range(3):
        world.add_guild(f"server {i}")
    async with StandIn(world) as standin:
        other = Config(db_path=db_path, auto_sync=True, shards=Shards.parse("1/2"))
        async with started(standin, other):
            pass
        assert puts(standin) == []
        first = Config(db_path=db_path, auto_sync=True, shards=Shards.parse("0/2"))
        async with started(standin, first):
            pass
        assert len(puts(standin)) == 1


async def test_the_sync_command_stays_and_records_what_it_synced(standin, db_path, capsys):
    saved = Route.BASE, DiscordWebSocket.DEFAULT_GATEWAY
    Route.BASE, DiscordWebSocket.DEFAULT_GATEWAY = standin.api_base, yarl.URL(standin.gateway_url)
    guild = standin.world.guilds[0].id
    try:
        config = Config(token=standin.bot_token, db_path=db_path)
        assert await _sync(config, None) == 0
        assert await _sync(config, guild) == 0
    finally:
        Route.BASE, DiscordWebSocket.DEFAULT_GATEWAY = saved
    assert "(cleared: global)" in capsys.readouterr().out
    assert standin.synced[None] == [] and {c["name"] for c in standin.synced[guild]} == NAMES
    async with started(standin, Config(db_path=db_path, auto_sync=True, dev_guild=guild)):
        pass
    assert len(puts(standin)) == 3  # the start-up found the hash `sync` recorded


def many_guilds(n: int) -> World:
    world = World.default()
    for i in range(n - 1):
        guild = world.add_guild(f"server {i}")
        guild.add_channel("general")
    return world


async def test_shards_follow_discords_recommendation_and_each_guild_reaches_its_shard(db_path):
    world = many_guilds(6)
    async with StandIn(world, max_guilds_per_shard=3) as standin:
        count = standin.recommended_shards()
        assert count >= 2
        async with started(standin, Config(db_path=db_path)) as driver:
            bot = driver.bot
            assert bot.shard_count == count and sorted(bot.shards) == list(range(count))
            assert {g.id for g in bot.guilds} == {g.id for g in world.guilds}
            for guild in world.guilds:
                channel = guild.channels[-1]
                reply = await driver.slash("game status", {}, channel=channel)
                assert reply.ephemeral and "no game" in reply.text.lower()
                assert reply.record.shard == (guild.id >> 22) % count
                assert bot.get_guild(guild.id).shard_id == reply.record.shard
        assert standin.gateway_closes == []


async def test_too_few_shards_is_closed_with_4011(db_path):
    async with StandIn(many_guilds(4), max_guilds_per_shard=1) as standin:
        with pytest.raises(discord.ConnectionClosed) as closed:
            async with started(standin, Config(db_path=db_path, shards=Shards.parse("2"))):
                pass
        assert closed.value.code == 4011 and 4011 in standin.gateway_closes


async def test_a_process_runs_only_its_shard_range(db_path):
    world = many_guilds(8)
    async with StandIn(world) as standin:
        config = Config(db_path=db_path, shards=Shards.parse("0-1/3"))
        async with started(standin, config) as driver:
            bot = driver.bot
            assert bot.shard_count == 3 and sorted(bot.shards) == [0, 1]
            mine = {g.id for g in world.guilds if (g.id >> 22) % 3 in (0, 1)}
            assert {g.id for g in bot.guilds} == mine
            assert standin.shard_count == 3


def test_shard_ranges_from_the_environment():
    assert Shards.parse("") == Shards()
    assert Shards.parse("0-3/8") == Shards(8, (0, 1, 2, 3))
    assert Shards.parse("4,6/8") == Shards(8, (4, 6))
    assert Shards.parse("0-1,5/8") == Shards(8, (0, 1, 5))
    assert Shards.parse("4") == Shards(4, (0, 1, 2, 3))
    assert Shards.parse("3/8").holds_first is False and Shards().holds_first
    for bad in ("0-8/8", "3-1/8", "a/8", "0-3/0", "/8", "1-/4", "-1/4", "0-3/x"):
        with pytest.raises(ConfigError, match="SOLO_BOT_SHARDS"):
            Shards.parse(bad)


def test_a_malformed_shard_range_is_a_clear_error(monkeypatch, capsys):
    monkeypatch.setenv("SOLO_BOT_SHARDS", "0..3 of 8")
    monkeypatch.setenv("DISCORD_TOKEN", "x")
    assert main([]) == 2
    err = capsys.readouterr().err
    assert "SOLO_BOT_SHARDS='0..3 of 8'" in err and "0-3/8" in err


def test_config_is_frozen_and_keeps_shards():
    config = dataclasses.replace(Config(), shards=Shards.parse("1/2"))
    assert config.shards.ids == (1,)
