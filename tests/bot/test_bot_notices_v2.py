"""Everything the bot says besides a game's reply is Components V2 too (issue 35, point 3): a refusal with its
candidates, the result card with its picture (and without it where Attach Files is denied), the leaderboard and
the difficulty question — one container in the notice's colour, its title a heading, its controls in rows inside
it, in both languages; nobody pinged (tests/bot/conftest.py asserts it after every test)."""

from __future__ import annotations

import io
import re

import discord
import pytest
from play import export

from bot import games
from bot.render.embeds import COLOURS
from bot.standin.driver import message_text
from bot.standin.permissions import ATTACH_FILES
from bot.standin.protocol import IS_COMPONENTS_V2
from conftest import running_bot
from tests.support.standin.world import deny

CONTAINER, TEXT_DISPLAY, MEDIA_GALLERY, ACTION_ROW = 17, 10, 12, 1


def container_of(message) -> dict:
    """The one container a V2 notice is (no content, no embeds beside it)."""
    payload = message.payload
    assert payload["flags"] & IS_COMPONENTS_V2, payload
    assert not payload.get("embeds") and not payload.get("content")
    components = payload["components"]
    assert [c["type"] for c in components] == [CONTAINER], components
    return components[0]


def inside(container: dict) -> list[int]:
    return [c["type"] for c in container["components"]]


async def win(driver, locale: str, channel: str = "table"):
    await driver.slash("volfyrion start", {"difficulty": "normal"}, channel=channel, locale=locale)
    await driver.slash("volfyrion end", {}, channel=channel, locale=locale)  # no win on turn 1
    won = await driver.slash("volfyrion win", {"how": "attack"}, channel=channel, locale=locale)
    await won.until(lambda r: any("result-card.png" in str(m.payload) or "Attach Files" in m.text
                                  or "ファイルを添付" in m.text for m in r.messages[1:]))
    return won


@pytest.mark.parametrize("locale, words", [("en", r"No card called"), ("ja", r"[\u3040-\u30ff]")])
async def test_a_refusal_is_one_red_container_with_its_candidates_inside(driver, locale, words):
    await driver.slash("volfyrion start", {"difficulty": "normal"}, locale=locale)
    refused = await driver.slash("volfyrion play", {"card": "Elite Tropr", "city": "Tylaris"}, locale=locale)
    assert refused.ephemeral and len(refused.messages) == 1
    container = container_of(refused.original)
    assert container["accent_color"] == COLOURS["error"]
    assert inside(container)[0] == TEXT_DISPLAY and ACTION_ROW in inside(container)
    assert any(b.get("label") == "Elite Trooper" for b in refused.buttons), refused.buttons
    assert "Elite Tropr" in refused.text and re.search(words, refused.text), refused.text  # in the reader's language


@pytest.mark.parametrize("locale, title", [("en", "## 🏆"), ("ja", "## 🏆")])
async def test_the_result_card_is_green_with_its_picture_in_a_gallery(driver, locale, title):
    won = await win(driver, locale)
    card = next(m for m in won.messages if "result-card.png" in str(m.payload))
    container = container_of(card)
    assert container["accent_color"] == COLOURS["won"]
    assert MEDIA_GALLERY in inside(container)
    assert [f.filename for f in card.media] == ["result-card.png"]
    player = driver.standin.world.user("player").id
    assert card.text.startswith(title) and f"<@{player}>" in card.text  # named, not pinged
    assert card.text.splitlines()[-1].startswith("-# 20")  # the date, small


@pytest.mark.parametrize("locale, missing", [("en", "Attach Files"), ("ja", "ファイルを添付")])
async def test_without_attach_files_the_result_card_says_its_picture_is_missing(standin, db_path, locale, missing):
    lobby = standin.world.channel("lobby")
    deny(lobby, standin.world.guilds[0].role("automaton"), ATTACH_FILES)
    async with running_bot(standin, db_path) as driver:
        won = await win(driver, locale, channel="lobby")
    card = next(m for m in won.messages[1:] if missing in m.text)
    container = container_of(card)
    assert container["accent_color"] == COLOURS["won"]
    assert MEDIA_GALLERY not in inside(container) and not card.files and not card.media
    assert standin.violations == []


@pytest.mark.parametrize("locale, heading", [("en", "## "), ("ja", "## ")])
async def test_the_leaderboard_is_one_container_in_the_games_colour(driver, locale, heading):
    await win(driver, locale)
    board = await driver.slash("game leaderboard", {"game": "volfyirion"}, locale=locale)
    container = container_of(board.original)
    assert container["accent_color"] == games.get("volfyirion").colour
    player = driver.standin.world.user("player").id
    assert board.text.startswith(heading) and f"**1.** <@{player}>" in board.text


@pytest.mark.parametrize("locale, asked", [("en", "Which difficulty"), ("ja", "難易度を下から選んで")])
async def test_the_difficulty_question_is_a_container_with_its_buttons_inside(driver, locale, asked):
    question = await driver.slash("volfyrion start", {}, locale=locale)
    assert question.ephemeral and asked in question.text
    container = container_of(question.original)
    assert container["accent_color"] == games.get("volfyirion").colour
    assert inside(container) == [TEXT_DISPLAY, ACTION_ROW]
    easy = next(b for b in question.buttons if b.get("label") == {"en": "easy", "ja": "イージー"}[locale])
    started = await driver.press(easy["custom_id"], message=question.original, locale=locale)
    assert not started.ephemeral and started.original.v2, started.text  # the game, public (the question stays)


@pytest.mark.parametrize("locale, withdrawn", [("en", "## Withdrawn — "), ("ja", "## 取り消し")])
async def test_a_result_post_made_as_an_embed_before_v2_is_withdrawn_as_v2(driver, locale, withdrawn):
    """A result card posted before this change (an embed with its picture) is still marked withdrawn when the end
    of its game is undone: the edit clears its content, embeds and picture and makes it one grey container."""
    won = await win(driver, locale)
    table = driver.standin.world.channel("table")
    channel = driver.bot.get_channel(table.id) or await driver.bot.fetch_channel(table.id)
    old = await channel.send(content="result", embed=discord.Embed(title="🏆 old card"),
                             file=discord.File(io.BytesIO(b"png"), filename="result-card.png"))
    game_id = (await export(driver))["game_id"]
    await driver.bot.store.add_result_post(game_id, table.id, old.id)
    undone = await driver.slash("game undo", {}, locale=locale)
    assert not undone.ephemeral and won.messages
    edited = driver.standin.messages[old.id].payload
    assert edited["flags"] & IS_COMPONENTS_V2 and not edited.get("embeds") and not edited.get("content")
    assert not edited.get("attachments")
    assert [c["type"] for c in edited["components"]] == [CONTAINER]
    assert edited["components"][0]["accent_color"] == COLOURS["lost"]
    assert "\n".join(message_text(edited)).startswith(withdrawn), message_text(edited)
    assert driver.standin.violations == []
