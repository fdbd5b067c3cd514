"""Volfyirion's turn selects offer every card the bot can know (issue 35, points 4 and 6): what each select holds
in a situation, that every option is a report the engine takes, that a pick completes the command exactly as
typing it does, and the labels in both languages."""

from __future__ import annotations

import pytest
from play import export

from bot.games.volfyirion.front.pickers import picked_action, turn_pickers
from engine.core import Action
from engine.volfyirion import CATALOG
from engine.volfyirion.rules import RULES
from engine.volfyirion.state import VolfState

WONDERS = [n for n in CATALOG.ids() if CATALOG[n].type == "wonder" and CATALOG[n].solo]
HOUSE = ["Prospector", "Captain", "Diviner"]  # V-1.5's House Deck


def played(*actions: Action) -> VolfState:
    state = RULES.new_game({"difficulty": "normal"}, seed=1).state
    for action in actions:
        state = RULES.apply(state, action).state
    return state


def offered(state: VolfState, lg: str = "en") -> dict[str, list[tuple[str, str]]]:
    """Each select's options as (label, value), by the select's kind."""
    return {spec.arg or "": [(label, value) for label, value, _ in spec.options] for spec in turn_pickers(state, lg)}


def labels(state: VolfState, kind: str, lg: str = "en") -> list[str]:
    return [label for label, _ in offered(state, lg).get(kind, [])]


def test_before_any_reshuffle_the_hand_holds_starting_cards_so_nothing_is_offered_to_play():
    state = played()
    assert "play" not in offered(state)  # V-1.5: no card acquired, none reshuffled into the hand yet
    assert labels(state, "acquire") == WONDERS
    assert labels(state, "yours") == [f"Removed {name}" for name in HOUSE]  # thinning the House Deck (V-3.4's count)


def test_after_a_reshuffle_an_unreported_wonder_can_be_in_hand_and_is_offered_to_play():
    state = played(Action("reshuffle"))
    assert labels(state, "play") == WONDERS


def test_v3_4_a_card_acquired_since_the_last_reshuffle_comes_after_the_cards_that_can_be_in_hand():
    state = played(Action("reshuffle"), Action("acquire", card="Bank"))
    play = labels(state, "play")
    assert play[:len(WONDERS)] == WONDERS  # Bank waits in the discard pile until the next reshuffle
    assert play[len(WONDERS):] == ["Bank → Tylaris", "Bank → Vahylea", "Bank → Alantar"]
    state = played(Action("acquire", card="Bank"), Action("reshuffle"))  # acquired, then reshuffled into the deck
    assert labels(state, "play")[:3] == ["Bank → Tylaris", "Bank → Vahylea", "Bank → Alantar"]


def test_a_troop_goes_to_an_empty_slot_first_and_moves_only_to_an_empty_one():
    state = played(Action("acquire", card="Guard"), Action("acquire", card="Guard"), Action("reshuffle"),
                   Action("play", card="Guard", city="Tylaris"))
    assert labels(state, "play")[:3] == ["Guard → Vahylea", "Guard → Alantar", "Guard → Tylaris"]
    state = RULES.apply(state, Action("play", card="Novice", city="Vahylea")).state
    assert [x for x in labels(state, "yours") if x.startswith("Moved")] == [
        "Moved Guard to Alantar", "Moved Novice to Alantar"]  # Tylaris and Vahylea each hold a Troop


def test_v2_1_a_command_card_is_not_played_but_removed_and_the_house_deck_thins_until_its_copies_are_gone():
    state = played(Action("acquire", card="Stab"), Action("reshuffle"))
    assert "Stab" not in " ".join(labels(state, "play"))  # a Command card played is not reported
    assert "Removed Stab" in labels(state, "yours")
    state = played(Action("remove", card="Captain"))
    assert labels(state, "yours") == ["Removed Prospector", "Removed Diviner"]  # one Captain (V-1.5)


def test_every_option_offered_is_a_report_the_engine_takes_and_no_value_repeats():
    from engine.volfyirion.autoplay import play_game

    record = play_game(12, max_actions=400)
    state = played()
    for action in record.actions:
        for spec in turn_pickers(state, "en", state.waiting.legal):
            values = [value for _, value, _ in spec.options]
            assert len(values) == len(set(values)) and len(values) <= 25, spec
            for value in values:
                picked = picked_action(spec.arg, value, state)
                assert picked is not None and picked.type in state.waiting.legal, (spec.arg, value)
                RULES.apply(state, picked)  # refused: a RuleError fails the test
        state = RULES.apply(state, action).state


def select(reply, kind: str) -> dict:
    return next(c for c in reply.buttons if c.get("type") == 3 and c["custom_id"].endswith(f":pick:{kind}"))


async def pick_then_type(driver, reply, kind: str, label: str, command: str, options: dict, locale: str):
    """Pick ``label`` in the reply's ``kind`` select, take it back, type the command: both record one action."""
    menu = select(reply, kind)
    value = next(o["value"] for o in menu["options"] if o["label"] == label)
    pressed = await driver.press(menu["custom_id"], values=[value], locale=locale)
    assert not pressed.ephemeral, pressed.text
    by_pick = (await export(driver))["actions"][-1]
    await driver.slash("game undo", {}, locale=locale)
    typed = await driver.slash(command, options, locale=locale)
    assert not typed.ephemeral, typed.text
    assert (await export(driver))["actions"][-1] == by_pick
    return typed


@pytest.mark.parametrize(("locale", "placeholder", "removed", "moved", "prospector"), [
    ("en-US", "You removed one of your cards, or moved a Troop…", "Removed Elite Trooper from Tylaris",
     "Moved Elite Trooper to Vahylea", "Removed Prospector"),
    ("ja", "自分のカードを除去した・部隊を移した…", "Elite Trooper（Tylaris）を除去した", "Elite TrooperをVahyleaに移した",
     "Prospectorを除去した")])
async def test_a_pick_completes_the_command_as_typing_it_does(driver, locale, placeholder, removed, moved,
                                                              prospector):
    await driver.slash("volfyrion start", {"difficulty": "normal"}, locale=locale)
    await driver.slash("volfyrion reshuffle", {}, locale=locale)
    reply = await driver.slash("volfyrion play", {"card": "Elite Trooper", "city": "Tylaris"}, locale=locale)
    yours = select(reply, "yours")
    assert yours["placeholder"] == placeholder
    assert {removed, moved, prospector} <= {o["label"] for o in yours["options"]}
    reply = await pick_then_type(driver, reply, "play", WONDERS[0], "volfyrion play", {"card": WONDERS[0]}, locale)
    reply = await pick_then_type(driver, reply, "yours", moved, "volfyrion redeploy",
                                 {"troop": "Elite Trooper", "city": "Vahylea"}, locale)
    reply = await pick_then_type(driver, reply, "yours", prospector, "volfyrion remove", {"card": "Prospector"},
                                 locale)
    await pick_then_type(driver, reply, "yours", removed.replace("Tylaris", "Vahylea"), "volfyrion remove",
                         {"card": "Elite Trooper", "city": "Vahylea"}, locale)
