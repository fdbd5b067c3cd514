"""The stand-in's model of what Discord refuses and sends (issue 11, point 11): permissions from roles and
overwrites with Discord's codes, forum and media channels, archived and locked threads, DM contexts, RESUME
replay, 429s, the allowed response types, and several shards."""

from __future__ import annotations

import asyncio
import json

import aiohttp
import pytest
from test_standin_enforcement import callback_path, live_interaction, post

from bench.echo import EchoBot
from bot.standin import permissions as p
from tests.support.standin import (
    APPLICATION_COMMAND,
    MODAL_SUBMIT,
    DriverError,
    StandIn,
    World,
    channel_posts,
)
from tests.support.standin.world import add_forum, add_role, deny, dm, group_dm

# -- the permission algorithm ----------------------------------------------------------------------------------

def compute(world: World, user: str, channel: str) -> int:
    who = world.bot if user == "bot" else world.user(user)
    return world.permissions(who, world.channel(channel))


def test_permissions_follow_discords_order_of_overwrites():
    world = World.default()
    guild = world.guilds[0]
    table = world.channel("table")
    member = p.VIEW_CHANNEL | p.SEND_MESSAGES | p.EMBED_LINKS
    assert compute(world, "player", "table") & member == member
    helpers = add_role(guild, "helpers", 0)
    world.user("player").role_names.append("helpers")
    deny(table, guild.everyone, p.EMBED_LINKS)  # @everyone: no embeds ...
    deny(table, helpers, 0, allow=p.EMBED_LINKS)  # ... but a role allows them back ...
    assert compute(world, "player", "table") & p.EMBED_LINKS
    assert not compute(world, "haruka", "table") & p.EMBED_LINKS
    deny(table, world.user("player"), p.EMBED_LINKS)  # ... and the member's own overwrite comes last
    assert not compute(world, "player", "table") & p.EMBED_LINKS


def test_no_view_means_nothing_and_no_send_means_no_embeds_or_files():
    world = World.default()
    lobby = world.channel("lobby")
    deny(lobby, world.guilds[0].role("automaton"), p.SEND_MESSAGES)
    granted = compute(world, "bot", "lobby")
    assert granted & p.VIEW_CHANNEL and not granted & (p.SEND_MESSAGES | p.EMBED_LINKS | p.ATTACH_FILES)
    deny(lobby, world.guilds[0].everyone, p.VIEW_CHANNEL)
    assert compute(world, "bot", "lobby") == 0


def test_administrator_and_owner_have_everything_and_threads_take_the_parents_overwrites():
    world = World.default()
    guild = world.guilds[0]
    deny(world.channel("table"), guild.role("automaton"), p.ATTACH_FILES)
    assert not compute(world, "bot", "session") & p.ATTACH_FILES  # the thread under #table
    add_role(guild, "admins", p.ADMINISTRATOR)
    world.user("player").role_names.append("admins")
    deny(world.channel("table"), world.user("player"), p.VIEW_CHANNEL)
    assert compute(world, "player", "table") == p.ALL
    guild.owner_id = world.user("haruka").id
    assert compute(world, "haruka", "table") == p.ALL


# -- refusals with Discord's codes ------------------------------------------------------------------------------

async def test_channel_posts_are_refused_with_50001_and_50013(standin):
    world = standin.world
    lobby, table = world.channel("lobby"), world.channel("table")
    deny(lobby, world.guilds[0].everyone, p.VIEW_CHANNEL)
    status, body = await post(standin, f"/channels/{lobby.id}/messages", {"content": "hi"}, bot_auth=True)
    assert (status, body["code"]) == (403, 50001)
    deny(table, world.guilds[0].role("automaton"), p.EMBED_LINKS)
    status, body = await post(standin, f"/channels/{table.id}/messages", {"content": "ok"}, bot_auth=True)
    assert status == 200
    status, body = await post(standin, f"/channels/{table.id}/messages", {"embeds": [{"title": "no"}]},
                              bot_auth=True)
    assert (status, body["code"], body["message"]) == (403, 50013, "Missing Permissions")
    assert [v.kind for v in standin.violations] == ["missing_access", "missing_permissions"]
    standin.violations.clear()


async def test_interactions_carry_app_permissions_and_member_permissions(standin):
    world = standin.world
    table = world.channel("table")
    deny(table, world.guilds[0].role("automaton"), p.ATTACH_FILES)
    record = standin.new_interaction(APPLICATION_COMMAND, {"name": "echo", "type": 1}, user=world.user("admin"),
                                     channel=table)
    app = int(record.payload["app_permissions"])
    assert app & p.EMBED_LINKS and not app & p.ATTACH_FILES
    assert int(record.payload["member"]["permissions"]) & p.MANAGE_GUILD
    assert record.payload["context"] == 0 and record.payload["guild_id"] == str(table.guild_id)


async def test_an_interaction_reply_with_files_where_the_app_may_not_attach_is_refused(standin):
    world = standin.world
    deny(world.channel("table"), world.guilds[0].role("automaton"), p.ATTACH_FILES)
    async with standin.connect(EchoBot()) as driver:
        reply = await driver.slash("echo files", {"text": "x"}, channel="table")
        assert reply.rejections and reply.rejections[0]["code"] == 50013
        fine = await driver.slash("echo files", {"text": "x"}, channel="lobby")
        assert fine.files
    standin.violations.clear()


async def test_forum_and_media_channels_take_no_messages_but_their_posts_do(standin):
    guild = standin.world.guilds[0]
    for media in (False, True):
        forum = add_forum(guild, f"forum-{media}", media=media)
        post_thread = guild.add_channel(f"post-{media}", parent=forum)
        assert forum.payload()["type"] == (16 if media else 15)
        status, body = await post(standin, f"/channels/{forum.id}/messages", {"content": "x"}, bot_auth=True)
        assert (status, body["code"]) == (400, 50008)
        status, _ = await post(standin, f"/channels/{post_thread.id}/messages", {"content": "x"}, bot_auth=True)
        assert status == 200
    standin.violations.clear()


async def test_archived_and_locked_threads_refuse_public_messages(standin):
    world = standin.world
    thread = world.channel("session")
    thread.archived = True
    status, body = await post(standin, f"/channels/{thread.id}/messages", {"content": "x"}, bot_auth=True)
    assert (status, body["code"]) == (400, 50083)
    record = live_interaction(standin)
    record.channel = thread
    status, body = await post(standin, callback_path(record), {"type": 4, "data": {"content": "x"}})
    assert (status, body["code"]) == (400, 50083)
    record = live_interaction(standin)
    record.channel = thread
    status, _ = await post(standin, callback_path(record), {"type": 4, "data": {"content": "x", "flags": 64}})
    assert status == 200  # an ephemeral answer is fine
    thread.archived, thread.locked = False, True
    deny(world.channel("table"), world.guilds[0].role("automaton"), p.MANAGE_THREADS)
    status, body = await post(standin, f"/channels/{thread.id}/messages", {"content": "x"}, bot_auth=True)
    assert (status, body["code"]) == (403, 160005)
    standin.violations.clear()


async def test_dm_and_group_dm_interactions_have_their_context(standin):
    world = standin.world
    direct = dm(world, "player")
    group = group_dm(world, "friends", ["player", "haruka"])
    world.user("player").installed = True  # a group DM reaches an app only through its user install
    async with standin.connect(EchoBot()) as driver:
        reply = await driver.slash("echo say", {"text": "in a dm"}, channel=direct)
        assert reply.text.startswith("in a dm")
        payload = reply.record.payload
        assert payload["context"] == 1 and "member" not in payload and "guild_id" not in payload
        assert payload["user"]["id"] == str(world.user("player").id)
        # The echo bot registers no user install, so Discord's client would not offer it in a group DM:
        with pytest.raises(DriverError):
            await driver.slash("echo say", {"text": "in a group"}, channel=group)
        group_reply = await driver.slash("echo say", {"text": "in a group"}, channel=group, anywhere=True)
        assert group_reply.record.payload["context"] == 2
        assert group_reply.record.payload["authorizing_integration_owners"] == {"1": str(world.user("player").id)}
        assert group_reply.text.startswith("in a group")


# -- the response types each interaction type allows --------------------------------------------------------

@pytest.mark.parametrize(("type_", "callback", "from_message"), [
    (APPLICATION_COMMAND, 7, False),  # no UPDATE_MESSAGE for a slash command
    (APPLICATION_COMMAND, 8, False),
    (MODAL_SUBMIT, 9, True),  # no form in answer to a form
    (MODAL_SUBMIT, 7, False),  # a form opened by a slash command has no message to update
])
async def test_response_types_are_allowed_per_interaction_type(standin, type_, callback, from_message):
    record = live_interaction(standin, type_)
    if from_message:
        record.message_id = 1
    data = {"custom_id": "m", "title": "T", "components": []} if callback == 9 else {"content": "x"}
    status, body = await post(standin, callback_path(record), {"type": callback, "data": data})
    assert (status, body["code"]) == (400, 50035)
    assert "INTERACTION_RESPONSE_TYPE_INVALID" in json.dumps(body)
    standin.violations.clear()


# -- RESUME replays, 429s ---------------------------------------------------------------------------------------

async def test_resume_replays_what_was_dispatched_while_disconnected(standin):
    bot = EchoBot()
    async with standin.connect(bot) as driver:
        standin.resume_gate.clear()  # the client reconnects, but its RESUME waits ...
        await standin.drop_connection()
        record = standin.new_interaction(APPLICATION_COMMAND, driver._command_data("echo noop", {}, focused=None),
                                         user=standin.world.user(), channel=standin.world.channel())
        answered = asyncio.Event()
        record.observers.append(lambda r, a: answered.set())
        await standin.dispatch(record, wait=False)  # the shard is down: the event waits for the RESUME
        assert not answered.is_set()
        standin.resume_gate.set()  # ... until now: RESUME replays the interaction
        await asyncio.wait_for(answered.wait(), 10)
        assert standin.resumes == 1 and standin.replayed == 1
        assert record.response_type == 4
    assert [v for v in standin.violations if v.kind == "double_response"] == []


async def test_a_rate_limited_route_answers_429_and_discord_py_retries(standin):
    async with standin.connect(EchoBot()) as driver:
        standin.rate_limit("channel_message", times=2, retry_after=0.01)
        reply = await driver.slash("echo post", {"text": "after a 429"}, channel="session")
        assert [a.payload.get("embeds", [{}])[0].get("description") for a in channel_posts(reply)] == ["after a 429"]
    assert len(standin.rate_limited) == 2
    with pytest.raises(ValueError, match="channel_message"):
        standin.rate_limit("everything")


# -- shards --------------------------------------------------------------------------------------------------------

def sharded_world(n: int) -> World:
    world = World.default()
    for i in range(n - 1):
        world.add_guild(f"server {i}")
    return world


async def gateway(standin: StandIn, shard: list[int]) -> tuple[list[dict], int | None]:
    """Identify on a raw websocket: READY and the GUILD_CREATE of each guild it lists (counted, not timed),
    or the close code when the stand-in refuses."""
    frames: list[dict] = []
    async with aiohttp.ClientSession() as session, session.ws_connect(standin.gateway_url) as ws:
        await ws.receive_json()  # hello
        await ws.send_json({"op": 2, "d": {"token": standin.bot_token, "intents": 1, "shard": shard,
                                           "properties": {}}})
        expected = 1
        while len(frames) < expected:
            msg = await ws.receive()
            if msg.type != aiohttp.WSMsgType.TEXT:
                return frames, ws.close_code
            frames.append(json.loads(msg.data))
            if frames[0]["t"] == "READY":
                expected = 1 + len(frames[0]["d"]["guilds"])
        return frames, None


async def test_each_shard_gets_ready_and_its_own_guilds():
    world = sharded_world(6)
    async with StandIn(world) as standin:
        seen = []
        for shard_id in range(3):
            frames, _ = await gateway(standin, [shard_id, 3])
            ready = frames[0]
            assert ready["t"] == "READY" and ready["d"]["shard"] == [shard_id, 3]
            guilds = {int(f["d"]["id"]) for f in frames if f["t"] == "GUILD_CREATE"}
            assert guilds == {g.id for g in world.guilds if (g.id >> 22) % 3 == shard_id}
            assert {int(g["id"]) for g in ready["d"]["guilds"]} == guilds
            seen += guilds
        assert sorted(seen) == sorted(g.id for g in world.guilds)


async def test_too_few_shards_close_4011_and_a_bad_shard_4010():
    async with StandIn(sharded_world(5), max_guilds_per_shard=2) as standin:
        _, code = await gateway(standin, [0, 1])
        assert code == 4011
        _, code = await gateway(standin, [3, 2])
        assert code == 4010
        assert standin.gateway_closes == [4011, 4010]
        recommended = standin.recommended_shards()
        for shard_id in range(recommended):
            frames, code = await gateway(standin, [shard_id, recommended])
            assert frames and frames[0]["t"] == "READY"
