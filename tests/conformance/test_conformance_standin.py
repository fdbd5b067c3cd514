"""The stand-in's own answers are checked too (issue 11, point 11): REST responses against the responses the
OpenAPI description documents, gateway events by their parts (users, guilds, channels, members, messages).
Each check can fail: broken answers are caught; the stand-in's real answers pass."""

from __future__ import annotations

import copy

import pytest

from tests.openapi import load_spec
from tests.support.conformance import event_validator, response_validator
from tests.support.standin import World
from tests.support.standin.world import add_forum


@pytest.fixture(scope="module")
def responses():
    return response_validator(load_spec())


@pytest.fixture(scope="module")
def events():
    return event_validator(load_spec())


def test_the_stand_ins_guild_create_conforms_and_a_broken_one_does_not(events):
    world = World.default()
    guild = world.guilds[0]
    add_forum(guild, "forum")
    add_forum(guild, "media", media=True)
    payload = guild.payload(world.bot)
    assert events("GUILD_CREATE", payload) == []
    broken = copy.deepcopy(payload)
    del broken["roles"][0]["permissions"]
    broken["threads"][0]["thread_metadata"]["archived"] = "no"
    broken["members"][0]["user"]["id"] = 5
    problems = " ".join(events("GUILD_CREATE", broken))
    assert "roles[0]: missing required 'permissions'" in problems
    assert "threads[0]" in problems and "members[0]" in problems


def test_interaction_parts_are_checked(events):
    world = World.default()
    channel = world.channel("session")
    data = {"channel": channel.payload(), "member": world.users[0].member_payload(world.guilds[0]),
            "user": world.users[0].payload()}
    assert events("INTERACTION_CREATE", data) == []
    data["channel"].pop("thread_metadata")
    data["user"].pop("username")
    problems = " ".join(events("INTERACTION_CREATE", data))
    assert "channel" in problems and "user: missing required 'username'" in problems


def test_rest_responses_are_checked_against_the_documented_response(responses):
    world = World.default()
    good = world.channel("table").payload()
    assert responses("GET", "/api/v10/channels/1", 200, good) == []
    assert responses("GET", "/api/v10/channels/1", 200, {"id": "1"})
    user = world.bot.payload() | {"mfa_enabled": False, "locale": "en-US"}
    assert responses("GET", "/api/v10/users/@me", 200, user) == []
    user.pop("locale")
    assert "locale" in " ".join(responses("GET", "/api/v10/users/@me", 200, user))
    limited = {"message": "You are being rate limited.", "retry_after": 0.5, "global": False, "code": 0}
    assert responses("POST", "/api/v10/channels/1/messages", 429, limited) == []
    assert responses("POST", "/api/v10/channels/1/messages", 429, {"message": "slow down"})
