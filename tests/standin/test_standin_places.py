"""The stand-in's model of the places a user install reaches (issue 36, point 6): the payloads Discord sends
from the DM with the bot, a group DM and a server that never added the bot, and what it refuses there — a
message or a read with the bot's token where the bot is not, a 6th followup of an interaction that only a user
install authorized."""

from __future__ import annotations

import time

from test_standin_enforcement import callback_path, post

from bot.standin import permissions as p
from tests.support.standin import APPLICATION_COMMAND, StandIn, World
from tests.support.standin.world import deny


def user_install_world() -> World:
    world = World.default()
    world.user("player").installed = True
    elsewhere = world.add_guild("Elsewhere", bot_member=False)
    elsewhere.add_channel("general")
    world.group_dm("friends", ["player", "haruka"])
    return world


def live(standin: StandIn, channel, user: str = "player"):
    record = standin.new_interaction(APPLICATION_COMMAND, {"name": "echo", "type": 1},
                                     user=standin.world.user(user), channel=standin.world.channel(channel))
    record.created = time.monotonic()
    return record


async def test_each_place_sends_its_context_owners_and_app_permissions():
    world = user_install_world()
    player = world.user("player")
    async with StandIn(world) as standin:
        in_dm = live(standin, world.dm("player")).payload
        assert in_dm["context"] == 1 and "guild_id" not in in_dm and in_dm["user"]["id"] == str(player.id)
        assert in_dm["authorizing_integration_owners"] == {"0": "0", "1": str(player.id)}
        in_group = live(standin, "friends").payload
        assert in_group["context"] == 2 and in_group["channel"]["type"] == 3
        assert in_group["authorizing_integration_owners"] == {"1": str(player.id)}
        in_table = live(standin, "table", "haruka").payload  # a server that has the bot, no user install
        assert in_table["authorizing_integration_owners"] == {"0": str(world.guilds[0].id)}
        general = world.channel("general")
        deny(general, world.guilds[1].everyone, p.EMBED_LINKS | p.ATTACH_FILES | p.SEND_MESSAGES)
        elsewhere = live(standin, general).payload
        assert elsewhere["context"] == 0 and elsewhere["guild_id"] == str(general.guild_id) and "member" in elsewhere
        assert elsewhere["authorizing_integration_owners"] == {"1": str(player.id)}
        # @everyone's permissions in the channel, and always Embed Links and Attach Files for the answer.
        app = int(elsewhere["app_permissions"])
        assert app & p.EMBED_LINKS and app & p.ATTACH_FILES and not app & p.SEND_MESSAGES and app & p.VIEW_CHANNEL
        assert [g.name for g in world.bot_guilds()] == ["Solo Table"]  # no GUILD_CREATE for "Elsewhere"


async def test_the_bots_token_does_not_reach_a_group_dm_or_a_server_without_it():
    world = user_install_world()
    async with StandIn(world) as standin:
        for channel in (world.channel("friends"), world.channel("general")):
            status, body = await post(standin, f"/channels/{channel.id}/messages", {"content": "hi"}, bot_auth=True)
            assert (status, body["code"]) == (403, 50001), channel.name
        status, _ = await post(standin, f"/channels/{world.dm('player').id}/messages", {"content": "hi"},
                               bot_auth=True)
        assert status == 200  # its own DM it reaches
        assert [v.kind for v in standin.violations] == ["missing_access", "missing_access"]


async def test_a_sixth_followup_of_a_user_install_interaction_is_refused():
    world = user_install_world()
    async with StandIn(world) as standin:
        for channel, limited in (("friends", True), ("general", True), ("table", False)):
            record = live(standin, channel)
            status, _ = await post(standin, callback_path(record), {"type": 4, "data": {"content": "first"}})
            assert status == 200
            path = f"/webhooks/{world.application_id}/{record.token}?wait=true"
            codes = [(await post(standin, path, {"content": f"more {n}"}))[0] for n in range(6)]
            assert codes == ([200] * 5 + [400] if limited else [200] * 6), channel
        assert [v.kind for v in standin.violations] == ["followup_limit", "followup_limit"]
