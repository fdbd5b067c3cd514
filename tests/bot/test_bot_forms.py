"""Forms made of Labels (issue 35, points 4 and 5): the reveals and the prelude as selects of the cards that can be
there, Volfyirion's turn reports as selects of its reply, the Rage Pile's reveal by type, the refill's checkbox —
each submitted through the stand-in as Discord's client submits it, in both languages."""

from __future__ import annotations

import pytest
from play import button, export, written_by_the_store
from test_bot_pick import until_reveal

from bot.standin import DriverError
from conftest import BOT_SEED
from engine.seasons.autoplay import play_game as seasons_game

RANGE_SELECT, CHECKBOX, LABEL = 3, 23, 18


def fields(modal: dict) -> dict[str, dict]:
    """A form's fields by custom_id; each is held in a Label (no bare text input)."""
    assert all(row["type"] == LABEL for row in modal["components"]), modal
    return {row["component"]["custom_id"]: row | {"inner": row["component"]} for row in modal["components"]}


def pick(modal: dict, cards: list[str]) -> dict[str, str]:
    """The answers that tell ``cards`` from the form's selects (a known copy by its own value), the rest typed."""
    answers: dict[str, list[str]] = {}
    typed = []
    for card in cards:
        for name, field in fields(modal).items():
            values = [o["value"] for o in field["inner"].get("options", [])]
            free = [v for v in values if v.split("~")[0] == card and v not in answers.get(name, [])]
            if free and len(answers.get(name, [])) < field["inner"]["max_values"]:
                answers.setdefault(name, []).append(free[0])
                break
        else:
            typed.append(card)
    told = {name: ", ".join(values) for name, values in answers.items()}
    return told | ({"cards": ", ".join(typed)} if typed else {})


def menu(reply, arg: str) -> dict:
    return next(c for c in reply.buttons if c.get("type") == 3 and c["custom_id"].endswith(f":pick:{arg}"))


@pytest.mark.parametrize("locale", ["en-US", "ja"])
async def test_s2_4_a_seasons_reveal_is_told_from_its_selects_known_cards_first(driver, locale):
    reply, action = await until_reveal(driver, known=True, locale=locale)
    opened = await driver.press(button(reply, "reveal"), locale=locale)
    form = fields(opened.modal)
    names = list(form)
    assert names[0] == "known" and names[-1] == "cards", names  # known first, "or type them" last
    known_label = {"en-US": "Known in Dummbot's hand", "ja": "ダムボットの手札にあるとわかっているカード"}[locale]
    assert form["known"]["label"] == known_label
    ranges = [n for n in names if n.startswith("cards_")]
    offered = [o["value"] for n in ranges for o in form[n]["inner"]["options"]]
    assert len(ranges) == 2 and len(offered) == len(set(offered)) and all(
        len(form[n]["inner"]["options"]) <= 25 for n in ranges)
    answers = pick(opened.modal, list(action.args["cards"]))
    assert "cards" not in answers or len(action.args["cards"]) > len(set(action.args["cards"]))
    done = await driver.submit(opened.modal["custom_id"], answers, locale=locale)
    assert not done.ephemeral, done.text
    assert sorted((await export(driver))["actions"][-1]["cards"]) == sorted(action.args["cards"])


@pytest.mark.parametrize("locale", ["en-US", "ja"])
async def test_s2_4_the_prelude_hand_is_told_from_the_selects(driver, locale):
    started = await driver.slash("seasons start", {"difficulty": "wizard", "dice": "table"}, locale=locale)
    opened = await driver.press(button(started, "prelude"), locale=locale)
    form = fields(opened.modal)
    assert [n for n in form if n.startswith("cards_")] == ["cards_1", "cards_26"]
    assert form["cards_1"]["inner"]["max_values"] == 6  # the prelude's six cards (S-2.2)
    done = await driver.submit(opened.modal["custom_id"], {"cards_1": "1, 2, 3", "cards_26": "30, 31",
                                                           "cards": "4"}, locale=locale)
    assert not done.ephemeral, done.text
    assert (await export(driver))["actions"][-1] == {"type": "prelude", "cards": ["1", "2", "3", "30", "31", "4"]}


async def test_a_bad_select_value_or_too_many_is_refused_before_anything_is_sent(driver):
    started = await driver.slash("seasons start", {"difficulty": "wizard", "dice": "table"})
    opened = await driver.press(button(started, "prelude"))
    with pytest.raises(DriverError) as bad:
        await driver.submit(opened.modal["custom_id"], {"cards_1": "99"})
    assert bad.value.key == "console.error.bad_option"
    with pytest.raises(DriverError) as many:
        await driver.submit(opened.modal["custom_id"], {"cards_1": "1, 2, 3, 4, 5, 6, 7"})
    assert many.value.key == "console.error.bad_count"
    # A form with nothing told is the game's refusal, in words, and changes nothing.
    empty = await driver.submit(opened.modal["custom_id"], {})
    assert empty.ephemeral and "cards" in empty.text
    assert (await export(driver))["actions"] == []


@pytest.mark.parametrize("locale", ["en-US", "ja"])
async def test_v3_1_play_acquire_remove_redeploy_from_the_turns_selects(driver, locale):
    await driver.slash("volfyrion start", {"difficulty": "normal"}, locale=locale)
    reply = await driver.slash("volfyrion acquire", {"card": "Elite Trooper"}, locale=locale)
    play = menu(reply, "play")
    tylaris = next(o for o in play["options"] if "Tylaris" in o["label"] and "Elite Trooper" in o["label"])
    reply = await driver.press(play["custom_id"], values=[tylaris["value"]], locale=locale)
    assert not reply.ephemeral, reply.text
    assert (await export(driver))["actions"][-1] == {"type": "play", "card": "Elite Trooper", "city": "Tylaris"}
    yours = menu(reply, "yours")  # removing and moving share a select
    to = next(o for o in yours["options"] if o["value"].startswith("redeploy:"))
    reply = await driver.press(yours["custom_id"], values=[to["value"]], locale=locale)
    moved = (await export(driver))["actions"][-1]
    assert moved["type"] == "redeploy" and moved["troop"] == "Elite Trooper" and moved["city"] in to["label"]
    wonders = menu(reply, "acquire")
    assert all(o["label"] for o in wonders["options"]) and len(wonders["options"]) <= 25
    reply = await driver.press(wonders["custom_id"], values=[wonders["options"][0]["value"]], locale=locale)
    assert (await export(driver))["actions"][-1] == {"type": "acquire", "card": wonders["options"][0]["label"]}
    remove = menu(reply, "yours")
    gone = next(o for o in remove["options"] if "Elite Trooper" in o["label"] and o["value"].startswith("remove:"))
    await driver.press(remove["custom_id"], values=[gone["value"]], locale=locale)
    removed = (await export(driver))["actions"][-1]
    assert removed["type"] == "remove" and removed["card"] == "Elite Trooper"


@pytest.mark.parametrize("locale", ["en-US", "ja"])
async def test_v3_3_the_rage_reveal_from_selects_grouped_by_type(driver, locale):
    await driver.slash("volfyrion start", {"difficulty": "easy"}, locale=locale)
    await driver.slash("volfyrion end", {}, locale=locale)
    await driver.slash("volfyrion reshuffle", {}, locale=locale)
    asked = await driver.slash("volfyrion end", {}, locale=locale)
    opened = await driver.press(button(asked, "reveal"), locale=locale)
    form = fields(opened.modal)
    assert list(form) == ["rage_command", "rage_troop", "rage_building", "cards"]
    assert {"en-US": "Command cards", "ja": "コマンドカード"}[locale] == form["rage_command"]["label"]
    assert all(len(f["inner"].get("options", [])) <= 25 for f in form.values())
    assert form["rage_command"]["inner"]["max_values"] == 2  # the two cards the pile reveals here
    done = await driver.submit(opened.modal["custom_id"], {"rage_command": "Book of Wisdom, Stab"}, locale=locale)
    assert not done.ephemeral, done.text
    assert (await export(driver))["actions"][-1] == {"type": "reveal", "cards": ["Book of Wisdom", "Stab"]}


@pytest.mark.parametrize("locale", ["en-US", "ja"])
async def test_v3_5_the_refill_confirm_is_a_checkbox(driver, locale):
    await driver.slash("volfyrion start", {"difficulty": "normal"}, locale=locale)
    await driver.slash("volfyrion play", {"card": "Elite Trooper", "city": "Tylaris"}, locale=locale)
    reply = await driver.slash("volfyrion putaside", {"paid": "battle"}, locale=locale)
    opened = await driver.press(button(reply, "refill_ask"), locale=locale)
    form = fields(opened.modal)
    assert form["confirm"]["inner"]["type"] == CHECKBOX
    with pytest.raises(DriverError) as bad:
        await driver.submit(opened.modal["custom_id"], {"confirm": "maybe"}, locale=locale)
    assert bad.value.key == "console.error.bad_checkbox"
    unticked = await driver.submit(opened.modal["custom_id"], {"confirm": "no"}, locale=locale)
    assert unticked.ephemeral  # the rules' confirmation, asked again in words (V-3.5)
    assert (await export(driver))["actions"][-1]["type"] == "putaside"
    ticked = await driver.submit(opened.modal["custom_id"], {"confirm": "はい" if locale == "ja" else "yes"},
                                 locale=locale)
    assert not ticked.ephemeral, ticked.text
    assert (await export(driver))["actions"][-1] == {"type": "refill", "confirm": True}


@pytest.mark.parametrize(("locale", "refused"), [("en-US", "“12a” in “crystals” is not a whole number."),
                                                 ("ja", "「crystals」の「12a」は整数ではありません。")])
async def test_s7_the_final_score_is_a_form_of_numbers_and_a_word_is_refused(driver, locale, refused):
    actions, steps = seasons_game("wizard", "table", BOT_SEED, extras=False)
    at = next(i for i, (action, _) in enumerate(zip(actions, steps, strict=False)) if action.type == "score")
    await driver.slash("seasons start", {"difficulty": "wizard", "dice": "table"}, locale=locale)
    await written_by_the_store(driver, actions[:at])
    status = await driver.slash("game status", {}, locale=locale)
    opened = await driver.press(button(status, "score"), locale=locale)
    form = fields(opened.modal)
    assert list(form) == ["crystals", "prestige", "bonuses", "hand", "extra"]
    assert all(f["inner"]["type"] == 4 and f.get("description") for f in form.values())
    score = {k: str(v) for k, v in actions[at].args.items()}
    before = (await export(driver))["actions"]
    bad = await driver.submit(opened.modal["custom_id"], score | {"crystals": "12a"}, locale=locale)
    assert bad.ephemeral and refused in bad.text
    assert (await export(driver))["actions"] == before
    done = await driver.submit(opened.modal["custom_id"], score, locale=locale)
    assert not done.ephemeral, done.text
    assert (await export(driver))["actions"][-1]["type"] == "score"


def test_two_copies_of_a_wonder_in_play_are_one_choice_in_the_remove_select():
    """Discord refuses a select whose options repeat a value: two Void Fluids in play are one "remove" option."""
    from bot.games.volfyirion.front.pickers import turn_pickers
    from engine.volfyirion.rules import RULES

    state = RULES.new_game({"difficulty": "normal"}, seed=1).state
    state.wonders = [{"name": "Void Fluid", "cost": 4, "sealed": False}, {"name": "Void Fluid", "cost": 4, "sealed": False}]
    remove = next(spec for spec in turn_pickers(state, "en") if spec.arg == "yours")
    values = [value for _, value, _ in remove.options]
    assert len(values) == len(set(values))
    assert [label for label, _, _ in remove.options].count("Removed Void Fluid") == 1
