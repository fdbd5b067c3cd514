"""Game replies as Components V2 (issue 35, point 3): one container accented by the state, the board in a gallery
after the picture's edit, and one live message per game in a channel — an older reply keeps its words and loses
its controls, after a press (its own message updated) and after a slash command (through its webhook)."""

from __future__ import annotations

import pytest
from play import button, export, pictured

from bot.games.seasons.embed import SEASON_COLOURS
from bot.standin.driver import pressable
from bot.standin.permissions import ATTACH_FILES, EMBED_LINKS
from bot.standin.protocol import EPHEMERAL, IS_COMPONENTS_V2
from conftest import running_bot
from tests.support.standin.world import deny

CONTAINER, TEXT_DISPLAY, SECTION, MEDIA_GALLERY, ACTION_ROW = 17, 10, 9, 12, 1


def live_controls(standin, channel: str = "table") -> list[int]:
    """The public messages of ``channel`` that still carry a control, by id."""
    channel_id = standin.world.channel(channel).id
    return [m_id for m_id, m in standin.messages.items()
            if int(m.payload["channel_id"]) == channel_id and not m.payload["flags"] & EPHEMERAL
            and pressable(m.payload)]


def kinds(components: list[dict]) -> list[int]:
    return [c["type"] for c in components]


@pytest.mark.parametrize("locale, now", [("en", "What to do now"), ("ja", "次にすること")])
async def test_a_reply_is_one_container_accented_by_the_season_with_the_board_in_it(driver, locale, now):
    start = await driver.slash("seasons start", {"difficulty": "wizard", "dice": "bot"}, locale=locale)
    message = start.original
    assert message is not None and message.v2 and message.payload["flags"] & IS_COMPONENTS_V2
    assert not message.payload.get("embeds") and not message.payload.get("content")
    components = message.payload["components"]
    assert kinds(components) == [CONTAINER]
    container = components[0]
    record = await export(driver)
    assert container["accent_color"] == SEASON_COLOURS[record["state"]["season"]]
    assert now in start.text and ("#" in message.text)
    assert kinds(container["components"])[-1] in (TEXT_DISPLAY, SECTION)  # the footer closes it
    assert ACTION_ROW in kinds(container["components"]) and start.buttons
    status = await driver.slash("game status", {}, locale=locale)
    pictured_reply = await pictured(status)
    assert [f.filename for f in pictured_reply.media] == ["board.png"]
    gallery = [c for c in pictured_reply.original.payload["components"][0]["components"] if c["type"] == MEDIA_GALLERY]
    assert [item["media"]["url"] for item in gallery[0]["items"]] == ["attachment://board.png"]


async def test_a_press_leaves_one_live_message_and_the_older_keeps_its_words(driver, standin):
    start = await driver.slash("volfyrion start", {"difficulty": "normal"})
    first = start.original
    words = first.text
    pressed = await driver.press(button(start, "end"))
    assert not pressed.ephemeral, pressed.text
    older = standin.messages[first.id]
    assert not pressable(older.payload)  # its controls are gone …
    assert older.payload["flags"] & IS_COMPONENTS_V2
    kept = next(m for m in pressed.messages if m.id == first.id)
    assert kept.text == words  # … its words are not
    assert pressed.response_type == 7  # UPDATE_MESSAGE on its own message, the new reply a followup
    assert live_controls(standin) == [pressed.messages[-1].id]
    assert standin.live_controls("table") == 1 and standin.most_live_controls("table") == 1  # never two


@pytest.mark.parametrize("locale", ["en", "ja"])
async def test_a_slash_command_retires_the_previous_reply_through_its_webhook(driver, standin, locale):
    start = await driver.slash("volfyrion start", {"difficulty": "normal"}, locale=locale)
    words = start.original.text
    turn = await driver.slash("volfyrion end", {}, locale=locale)
    assert not turn.ephemeral, turn.text
    older = standin.messages[start.original.id]
    assert not pressable(older.payload)
    assert start.original.text == words  # the message as it is now reads as it did
    assert live_controls(standin) == [turn.original.id]
    look = await driver.press(button(turn, "state"), locale=locale) if any(
        "state" in b.get("custom_id", "") for b in turn.buttons) else None
    if look is not None:  # a private look is nobody's live message
        assert look.ephemeral and live_controls(standin) == [turn.original.id]
    status = await driver.slash("game status", {}, locale=locale)
    assert live_controls(standin) == [status.original.id]
    assert not pressable(standin.messages[turn.original.id].payload)
    assert standin.most_live_controls("table") == 1  # the older lost its controls before the newer came


async def test_abandoning_takes_the_last_controls_away(driver, standin):
    await driver.slash("volfyrion start", {"difficulty": "normal"})
    asked = await driver.slash("game abandon", {})
    confirmed = await driver.press(button(asked, "abandon"))
    assert not confirmed.ephemeral or confirmed.text
    assert live_controls(standin) == []


async def test_after_a_restart_a_press_on_the_live_reply_still_works(standin, db_path):
    """The controls are DynamicItems in the V2 layout's rows and sections: a press on a reply sent before a
    restart is dispatched by the new process (and answered by taking that message's controls away)."""
    async with running_bot(standin, db_path) as driver:
        start = await driver.slash("volfyrion start", {"difficulty": "normal"})
    async with running_bot(standin, db_path) as driver:
        pressed = await driver.press(button(start, "end"))
        assert not pressed.ephemeral, pressed.text
        undone = await driver.press(button(pressed, "undo"))  # the footer section's accessory
        assert not undone.ephemeral, undone.text
    assert live_controls(standin) == [undone.messages[-1].id]
    assert standin.most_live_controls("table") == 1


@pytest.mark.parametrize("locale", ["en", "ja"])
async def test_after_a_clean_restart_a_slash_command_still_retires_the_last_reply(standin, db_path, locale):
    """The stop keeps each game's live reply in the store: the next process's first reply of the game takes the
    older one's controls away (through the channel: the webhook's interaction is the old process's), its words
    and its picture kept."""
    async with running_bot(standin, db_path) as driver:
        start = await pictured(await driver.slash("volfyrion start", {"difficulty": "normal"}, locale=locale))
        words = start.original.text
    async with running_bot(standin, db_path) as driver:
        turn = await driver.slash("volfyrion end", {}, locale=locale)
        assert not turn.ephemeral, turn.text
    older = standin.messages[start.original.id]
    assert not pressable(older.payload) and start.original.text == words
    assert [f.filename for f in start.media] == ["board.png"]  # the gallery stays, its file with it
    assert live_controls(standin) == [turn.original.id] and standin.most_live_controls("table") == 1


@pytest.mark.parametrize("locale, said", [("en", "Attach Files"), ("ja", "ファイルを添付")])
async def test_without_attach_files_the_reply_says_so_and_has_no_gallery(standin, db_path, locale, said):
    lobby = standin.world.channel("lobby")
    deny(lobby, standin.world.guilds[0].role("automaton"), ATTACH_FILES)
    async with running_bot(standin, db_path) as driver:
        reply = await driver.slash("volfyrion start", {"difficulty": "normal"}, channel="lobby", locale=locale)
        status = await driver.slash("game status", {}, channel="lobby", locale=locale)
    for shown in (reply, status):
        assert not shown.ephemeral and not shown.files and not shown.media
        assert shown.original.v2 and said in shown.text
        assert MEDIA_GALLERY not in kinds(shown.original.payload["components"][0]["components"])


async def test_without_embed_links_the_v2_reply_goes_whole(standin, db_path):
    """A V2 message has no embed: Embed Links changes nothing of it (the text, the controls, the picture)."""
    lobby = standin.world.channel("lobby")
    deny(lobby, standin.world.guilds[0].role("automaton"), EMBED_LINKS)
    async with running_bot(standin, db_path) as driver:
        reply = await driver.slash("volfyrion start", {"difficulty": "normal"}, channel="lobby")
        assert reply.original.v2 and reply.buttons and "Tylaris" in reply.text
        status = await pictured(await driver.slash("game status", {}, channel="lobby"))
        assert [f.filename for f in status.media] == ["board.png"]


async def test_a_deleted_older_reply_is_logged_not_raised(driver, standin, caplog):
    """The older reply is gone (a moderator deleted it): its edit fails, the new reply still goes, a line is logged."""
    start = await driver.slash("volfyrion start", {"difficulty": "normal"})
    standin._delete(standin.messages[start.original.id])
    turn = await driver.slash("volfyrion end", {})
    assert not turn.ephemeral and turn.buttons, turn.text
    assert driver.bot.controller.live.failed == 1
    assert any("could not take the controls off" in r.getMessage() for r in caplog.records)
    # What Discord answered the edits of the deleted message (its picture's too): expected here, and only those.
    refused = [v for v in standin.violations if v.kind == "unknown_message"]
    assert refused and {v.interaction_id for v in refused} == {start.interaction_id}
    standin.violations[:] = [v for v in standin.violations if v not in refused]


@pytest.mark.parametrize("locale, refused", [("en", "moved on"), ("ja", "ゲームが進んでいます")])
async def test_after_a_crash_a_press_on_a_reply_left_live_takes_its_controls_away(standin, db_path, locale, refused):
    """A crash keeps no live reply (they are saved at a clean stop): the next process's reply cannot retire the one
    before it, which still shows its controls. A press on it is refused as stale, privately, and takes its controls
    away, so the channel is back to one live message."""
    import sqlite3

    async with running_bot(standin, db_path) as driver:
        start = await driver.slash("volfyrion start", {"difficulty": "normal"}, locale=locale)
    with sqlite3.connect(db_path) as db:  # what a crash leaves: the stop never wrote the live replies
        db.execute("DELETE FROM settings WHERE key = 'live_replies'")
    async with running_bot(standin, db_path) as driver:
        turn = await driver.slash("volfyrion end", {}, locale=locale)
        assert sorted(live_controls(standin)) == sorted([start.original.id, turn.original.id])
        stale = await driver.press(button(start, "end"), message=start.original.id, locale=locale)
        refusal = stale.messages[-1]
        assert refusal.ephemeral and refused in refusal.text, stale.text
    assert live_controls(standin) == [turn.original.id]
    assert standin.messages[start.original.id].sent and start.original.text  # its words stay
