"""A reply goes as discord.py's ``send_message`` would send it, without asking for the message back
(bot/respond.py, issue 12): the same bodies reach Discord (the stand-in), played both ways on one game in two
channels; only the ``with_response`` parameter differs. What ``answer`` is not sure of goes through discord.py."""

from __future__ import annotations

import io
import re

import discord

from bot import respond
from bot.buttons import ButtonSpec, view_of

PLAY = [("seasons start", {"difficulty": "wizard", "dice": "table"}), ("seasons die", {"face": "draw, 3 dots"}),
        ("seasons die", {"face": "nothing"}),  # refused: a private answer
        ("game status", {})]


def bodies(replies) -> list[dict]:
    """The first answer of each reply as Discord took it, the game's id taken out (each channel has its own)."""
    out = []
    for reply in replies:
        body = next(a.payload for a in reply.activities if a.kind == "response")
        text = re.sub(r"solo:\d+:", "solo:G:", repr(body))
        out.append(re.sub(r"#\d+", "#G", text))
    return out


async def play(driver, channel) -> list:
    return [await driver.slash(name, options, channel=channel) for name, options in PLAY]


async def test_a_reply_is_discord_py_s_own_body_without_the_message_asked_back(driver, monkeypatch):
    guild = driver.standin.world.guilds[0]
    lean, plain = guild.add_channel("lean"), guild.add_channel("plain")
    ours = await play(driver, lean)
    monkeypatch.setattr(respond, "AVAILABLE", False)  # discord.py's send_message itself
    theirs = await play(driver, plain)
    assert bodies(ours) == bodies(theirs)
    assert [r.record.asked_for_message for r in ours] == [False] * len(PLAY)
    assert [r.record.asked_for_message for r in theirs] == [True] * len(PLAY)
    assert [r.ephemeral for r in ours] == [False, False, True, False]  # the refusal, privately
    assert not any(r.rejections for r in ours + theirs)


async def test_a_reply_with_files_or_another_view_goes_through_discord_py(driver):
    """Files (a multipart body) and a view with items of its own (discord.py registers those for their
    presses) are left to ``send_message``."""
    await driver.slash("seasons start", {"difficulty": "wizard", "dice": "table"})
    export = await driver.slash("game export")  # a JSON file with the answer
    assert export.record.asked_for_message is True and export.messages[0].files
    assert respond._can_answer({"embed": discord.Embed(), "view": None})
    assert respond._can_answer({"embed": discord.Embed(), "view": view_of(1, 2, [ButtonSpec("undo", "Undo")])})
    assert not respond._can_answer({"files": [discord.File(io.BytesIO(b"png"), "board.png")]})
    assert not respond._can_answer({"view": discord.ui.View()})
