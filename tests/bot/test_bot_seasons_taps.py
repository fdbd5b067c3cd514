"""Seasons' reports as selects (issue 35, point 4), through the stand-in (which refuses what Discord refuses):
with table dice the round's prompt offers the faces of the season's two chosen dice (S-1.4, S-3.2), die by die,
and a pick applies exactly the action `/seasons die` applies; "Report a card…" applies `/seasons played` (S-8)
and the time menu `/seasons time`. A menu on a message the game has moved past is refused like a stale button."""

from __future__ import annotations

import discord
import pytest
from play import as_shown, export, press_shown, seasons_command

from bot.buttons import ButtonSpec, SelectSpec, view_of
from bot.games.seasons.front import pickers
from conftest import BOT_SEED
from engine.seasons import face_text
from engine.seasons.autoplay import play_game as seasons_game
from engine.seasons.faces import die_faces

DIE_NAMED = {"en": "On the die with “{face}”", "ja": "「{face}」の面があるダイス"}


def menu(reply, arg: str) -> dict:
    """The reply's select for ``pick:<arg>``."""
    found = [c for c in reply.buttons if c.get("type") == 3 and c["custom_id"].endswith(f":pick:{arg}")]
    assert found, [c.get("custom_id") for c in reply.buttons]
    return found[0]


@pytest.mark.parametrize("lang", ["en", "ja"])
async def test_s1_4_s3_2_the_round_prompt_offers_the_two_dice_faces_and_a_pick_applies_the_die(driver, lang):
    actions, steps = seasons_game("wizard", "table", BOT_SEED, extras=False)
    reply = await driver.slash("seasons start", {"difficulty": "wizard", "dice": "table"}, locale=lang)
    picked = 0
    for action, before in zip(actions, steps, strict=False):
        if picked == 4:
            break
        if action.type != "die":
            reply = await driver.slash(*seasons_command(action), locale=lang)
            assert not reply.ephemeral, reply.text
            continue
        state = before.state
        dice = state.round_dice
        options = menu(reply, "die")["options"]
        # Die by die: the first die's six faces, then the second's, each in the die's words, the die named.
        want = [face_text(f, lang) for d in dice for f in die_faces(state.dice_season, d)]
        assert [o["label"] for o in options] == want
        descriptions = [o["description"] for o in options]
        assert len(set(descriptions[:6])) == len(set(descriptions[6:])) == 1 and descriptions[0] != descriptions[6]
        assert descriptions[0].startswith(DIE_NAMED[lang].split("{face}")[0])
        value = next(o["value"] for o in options if o["label"] == face_text(action.args["face"], lang))
        reply = await driver.press(menu(reply, "die")["custom_id"], values=[value], locale=lang)
        assert not reply.ephemeral, reply.text
        # The very action the typed command makes: replay, export and undo cannot tell them apart.
        assert (await export(driver))["actions"][-1] == {"type": "die", "face": action.args["face"]}
        picked += 1
    assert picked == 4


async def test_a_die_menu_the_game_has_moved_past_is_refused_and_changes_nothing(driver):
    start = await driver.slash("seasons start", {"difficulty": "wizard", "dice": "table"})
    old, shown = menu(start, "die"), as_shown(driver, start)
    moved = await driver.slash("seasons time", {"steps": 1})
    assert not moved.ephemeral, moved.text
    assert not start.buttons  # the start's menu is gone; a screen that still showed it picks a face
    stale = await press_shown(driver, shown, old["custom_id"], values=[old["options"][0]["value"]])
    refusal = stale.messages[-1]  # private; the menu's message, updated first, still shows no controls
    assert refusal.ephemeral and "moved on" in refusal.text and not start.buttons
    assert [a["type"] for a in (await export(driver))["actions"]] == ["time"]
    # The current reply's menu still works.
    done = await driver.press(menu(moved, "die")["custom_id"], values=[menu(moved, "die")["options"][0]["value"]])
    assert not done.ephemeral, done.text
    assert (await export(driver))["actions"][-1]["type"] == "die"


@pytest.mark.parametrize("lang", ["en", "ja"])
async def test_s8_report_a_card_and_a_time_move_from_their_menus(driver, lang):
    start = await driver.slash("seasons start", {"difficulty": "wizard", "dice": "table"}, locale=lang)
    cards = menu(start, "played")
    from engine.seasons import S8_CARDS

    assert sorted(o["value"] for o in cards["options"]) == sorted(S8_CARDS)  # the cards `/seasons played` acts on
    reply = await driver.press(cards["custom_id"], values=["16"], locale=lang)  # Kairn the Destroyer
    assert not reply.ephemeral, reply.text
    assert (await export(driver))["actions"][-1] == {"type": "played", "card": "16"}
    times = menu(reply, "time")
    assert [o["value"] for o in times["options"]] == ["1", "2", "3", "-1", "-2", "-3"]
    reply = await driver.press(times["custom_id"], values=["2"], locale=lang)
    assert not reply.ephemeral, reply.text
    assert (await export(driver))["actions"][-1] == {"type": "time", "steps": 2}
    # Kairn's activation is a button beside the three menus: all within Discord's five rows.
    assert any(c.get("custom_id", "").endswith(":fx:kairn") for c in reply.buttons)
    assert {menu(reply, arg)["custom_id"].rsplit(":", 1)[1] for arg in ("die", "played", "time")} == {
        "die", "played", "time"}


def test_a_crowded_reply_drops_the_least_needed_controls_first_and_fits_discord():
    """Three menus and more buttons than two rows hold: the forecast goes first, then the time menu; what is
    left (with the "State" button the controller adds) is laid out by discord.py within five rows."""
    die, played, time = (SelectSpec("pick", op, (("a", "a", None),), arg=op) for op in ("die", "played", "time"))
    effects = [ButtonSpec("fx", f"effect {i}", arg=str(i)) for i in range(9)]
    forecast, undo = ButtonSpec("forecast", "Forecast"), ButtonSpec("undo", "Undo")
    specs = [die, *effects, played, time, forecast, undo]
    kept = pickers.fit(specs, [forecast, time, played, *reversed(effects)])
    assert forecast not in kept and time not in kept and die in kept and played in kept and undo in kept
    assert pickers.rows_needed(kept) <= 5
    view = view_of(1, 0, [*kept, ButtonSpec("state", "State")])
    assert isinstance(view, discord.ui.View)
    assert len(view.to_components()) <= 5
