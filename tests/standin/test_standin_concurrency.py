"""Many interactions in many channels at once, as the load tests and benchmarks drive them."""

from __future__ import annotations

import asyncio

from bench.echo import EchoBot
from tests.support.standin import StandIn, World


def crowded_world(channels: int) -> World:
    world = World.default()
    guild = world.guilds[0]
    for i in range(channels):
        guild.add_channel(f"table-{i}")
    for i in range(channels):
        world.add_user(f"player-{i}")
    return world


async def test_200_concurrent_interactions_in_50_channels():
    world = crowded_world(50)
    # Discord's deadline a busy machine cannot miss: this counts answers, not how fast 200 come (the deadline
    # itself is tests/load/test_load_deadline.py's).
    async with StandIn(world, deadline=60.0) as standin, standin.connect(EchoBot()) as driver:
        async def one(i: int):
            kind = i % 4
            channel, user = f"table-{i % 50}", f"player-{i % 50}"
            if kind == 0:
                return i, await driver.slash("echo say", {"text": f"n{i}"}, channel=channel, user=user, settle=False)
            if kind == 1:
                return i, await driver.slash("echo later", {"text": f"n{i}"}, channel=channel, user=user)
            if kind == 2:
                return i, await driver.slash("echo edit", {"text": f"n{i}"}, channel=channel, user=user)
            return i, await driver.slash("echo noop", channel=channel, user=user, settle=False)

        replies = await asyncio.gather(*(one(i) for i in range(200)))

        for i, reply in replies:
            text = reply.text
            expected = {0: f"n{i} (en-US)", 1: f"later n{i}", 2: f"edited n{i}", 3: "ok"}[i % 4]
            assert text.startswith(expected), (i, text)
            assert reply.original.channel_id == world.channel(f"table-{i % 50}").id
        assert len({reply.interaction_id for _, reply in replies}) == 200
        assert not standin.violations and not standin.unknown_routes


async def test_concurrent_presses_on_different_messages():
    async with StandIn() as standin, standin.connect(EchoBot()) as driver:
        cards = await asyncio.gather(*(driver.slash("echo buttons") for _ in range(20)))
        pressed = await asyncio.gather(*(driver.press("echo:count:0", message=c.original) for c in cards))
        assert all(p.original.payload["content"] == "count 1" for p in pressed)
        assert {p.original.id for p in pressed} == {c.original.id for c in cards}
        assert not standin.violations
