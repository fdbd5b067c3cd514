"""Issue 35, point 1: no reply notifies anyone. The result card and `/game leaderboard` name players as
`<@id>`, a refusal names a game's owner, a reply echoes what a player typed: every reply is a Components V2
message (with or without Embed Links), whose text displays notify whomever `allowed_mentions` lets them. The
stand-in computes whom each message would notify (tests/support/standin/mentions.py); every bot test ends
asserting nobody was (tests/bot/conftest.py), and this one makes sure there were mentions to ping."""

from __future__ import annotations

import pytest

from bot.standin.permissions import EMBED_LINKS
from conftest import running_bot
from tests.support.standin import mentions
from tests.support.standin.world import deny


@pytest.mark.parametrize("embed_links", [True, False], ids=["embed_links", "no_embed_links"])
async def test_no_reply_pings_anyone(standin, db_path, embed_links):
    world = standin.world
    player, haruka = world.user("player"), world.user("haruka")
    if not embed_links:
        deny(world.channel("lobby"), world.guilds[0].role("automaton"), EMBED_LINKS)
    typed = f"<@{haruka.id}> @everyone @here <@&{world.guilds[0].id}>"
    async with running_bot(standin, db_path) as driver:
        start = await driver.slash("volfyrion start", {"difficulty": "normal"}, channel="lobby")
        echoed = await driver.slash("volfyrion play", {"card": typed}, channel="lobby")
        refused = await driver.slash("game abandon", {}, channel="lobby", user="haruka")
        await driver.slash("volfyrion end", {}, channel="lobby")
        end = await driver.slash("volfyrion win", {"how": "attack"}, channel="lobby")
        board = await driver.slash("game leaderboard", {"game": "volfyirion"}, channel="lobby")
    replies = (start, echoed, refused, end, board)
    messages = [m for reply in replies for m in reply.messages]
    assert messages and all(m.v2 and not m.payload.get("embeds") for m in messages)
    # the text itself mentions players, and would notify them were mentions allowed
    assert f"<@{player.id}>" in board.text and f"<@{player.id}>" in end.text
    assert f"<@{player.id}>" in refused.text
    assert "@everyone" in echoed.text, echoed.text
    would = [mentions.pings({"components": m.payload.get("components") or []}) for m in messages]
    assert any(player.id in w.users for w in would) and any(w.everyone for w in would)
    assert standin.pinged() == {}
    stored = [m.payload for m in standin.messages.values()]  # as Discord answers a message: nobody mentioned
    assert len(stored) >= len(messages)
    assert all(m["mentions"] == [] and m["mention_roles"] == [] and not m["mention_everyone"] for m in stored)
