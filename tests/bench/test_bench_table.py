"""How bench_table decides a step: a control of the latest reply when one says the step, else a typed line.

The whole games run in tests/bench/test_bench_smoke.py (quick) and in ``python -m bench --only table``; here the
choice itself, on components shaped as the bot sends them or as issue 35 is to make them (a die-face select, forms
of Label-wrapped selects, radio groups and checkboxes): the bench must take them the day they come. And the
bench's counts on a short game of each kind, against what the stand-in received and the console was given.
"""

from __future__ import annotations

import sys
from pathlib import Path

import pytest

ROOT = str(Path(__file__).resolve().parents[2])
if ROOT not in sys.path:
    sys.path.insert(0, ROOT)

from bench.bench_table import (  # noqa: E402
    button_fits,
    differences,
    fill_form,
    ply_of,
    select_choice,
    select_fits,
    typed_line,
    values_of,
)
from engine.core import Action  # noqa: E402
from engine.seasons import face_text  # noqa: E402

FACE = {"energy": {"water": 2}, "crystals": 0, "star": 1, "draw": 0, "transmute": False, "dots": 2}
OTHER = {"energy": {"air": 1}, "crystals": 3, "star": 0, "draw": 0, "transmute": False, "dots": 1}


def button(op: str, arg: object = None, label: str = "…") -> dict:
    custom_id = f"solo:1:5:{op}" + ("" if arg is None else f":{arg}")
    return {"type": 2, "custom_id": custom_id, "label": label}


def select(options: list[tuple[str, str]], max_values: int = 1) -> dict:
    return {"type": 3, "custom_id": "solo:1:5:die", "max_values": max_values,
            "options": [{"label": label, "value": value} for label, value in options]}


def test_a_die_face_select_is_chosen_by_the_words_the_die_shows_in_either_language():
    die = Action("die", face=FACE)
    by_label = select([(f"Die 4: {face_text(OTHER)}", "0"), (f"Die 4: {face_text(FACE)}", "1")])
    assert select_choice(by_label, die) == ["1"]
    in_japanese = select([(face_text(OTHER, "ja"), "a"), (face_text(FACE, "ja"), "b")])
    assert select_choice(in_japanese, die) == ["b"]
    reordered = select([("Die 4: 2 dots, 2 water, star", "x"), ("1 air, 3 crystals, 1 dot", "y")])
    assert select_choice(reordered, die) == ["x"]
    assert select_choice(select([(face_text(OTHER), "0")]), die) is None  # not offered: typed instead


def test_a_select_of_one_choice_takes_the_option_that_names_most_of_the_step():
    remove = Action("remove", card="War Academy", city="Alantar")
    menu = select([("Guard (Alantar)", "g"), ("War Academy (Vahylea)", "wv"), ("War Academy (Alantar)", "wa")])
    assert select_choice(menu, remove) == ["wa"]  # the card and its city, not the first that names one of them
    towers = select([("Guard Tower", "t"), ("Guard", "g")])
    assert select_choice(towers, Action("play", card="Guard")) == ["g"]  # the name itself before a mention
    cities = select([("Vahylea", "v"), ("Alantar", "a")])
    assert select_choice(cities, remove) is None  # the city alone does not say which card
    assert select_choice(cities, remove, {"war academy"}) == ["a"]  # a picker's second menu, the card given
    hand = select([("Bank → Alantar", "1.2"), ("Bank → Vahylea", "1.1")])
    assert select_choice(hand, Action("play", card="Guard", city="Vahylea")) is None  # not the card played
    reveal = select([("3 — Amulet of Air", "3"), ("32 — Crystal Orb", "32"), ("48", "48")], max_values=3)
    assert select_choice(reveal, Action("reveal", cards=["48", "3"])) == ["3", "48"]


def test_a_select_made_for_another_action_is_not_chosen_in():
    kinds = {"play", "remove", "redeploy", "end"}
    remove_menu = {"type": 3, "custom_id": "solo:1:5:pick:remove", "options": [{"label": "Guard → Vahylea", "value": "1"}]}
    play = Action("play", card="Guard", city="Vahylea")
    assert select_choice(remove_menu, play) == ["1"]  # its options alone would say so
    assert not select_fits(remove_menu, play, kinds)
    assert select_fits(remove_menu, Action("remove", card="Guard", city="Vahylea"), kinds)
    assert select_fits({"type": 3, "custom_id": "solo:1:5:pick:played"}, play, kinds)  # a menu of no one action


def test_a_step_is_done_when_the_controls_belong_to_a_later_action():
    assert ply_of([button("take", 1), button("end")]) == 5
    assert ply_of([{"type": 2, "custom_id": "solo:1:7:end"}, {"type": 2, "url": "https://x"}]) == 7
    assert ply_of([{"type": 2, "custom_id": "rules:help"}]) is None  # not a game's control: nothing to compare


def test_the_final_check_tells_a_different_game_from_the_same_cards_in_another_order():
    engine = {"put_aside": ["Guard", "Bank", "Scholar"], "rage": {"count": 3}}
    assert differences(engine, engine) == {"value": [], "order": []}
    reordered = {"put_aside": ["Bank", "Guard", "Scholar"], "rage": {"count": 3}}
    assert differences(reordered, engine) == {"value": [], "order": ["state.put_aside"]}
    other = {"put_aside": ["Bank", "Guard", "Guard"], "rage": {"count": 4}}
    assert differences(other, engine) == {"value": ["state.put_aside", "state.rage.count"], "order": []}


def test_a_button_does_the_step_only_when_its_op_and_arg_say_it():
    assert button_fits(button("take", 1), Action("take", index=1))
    assert not button_fits(button("take", 0), Action("take", index=1))
    assert button_fits(button("end"), Action("end", reshuffled=False))
    assert not button_fits(button("end"), Action("end", reshuffled=True))
    assert button_fits(button("end", "reshuffled"), Action("end", reshuffled=True))
    assert button_fits(button("choose", 2, "Vahylea"), Action("choose", city="Vahylea"))  # a city by its name
    assert button_fits(button("fx", "crystals"), Action("effect", kind="crystals"))
    assert not button_fits(button("roll"), Action("die", face=FACE))


def test_what_is_typed_when_no_control_does_the_step():
    assert values_of(Action("reveal", cards=["3", "32"])) == {"3", "32"}
    typed = fill_form(text_form("cards"), Action("reveal", cards=["3", "32"]))
    assert (typed.fields, typed.typed, typed.choices) == ({"cards": "3, 32"}, 5, 0)
    line = typed_line(_game("Seasons, table dice"), Action("die", face=FACE))
    assert line == f"/seasons die face:{face_text(FACE)}"
    assert typed_line(_game("Volfyirion"), Action("play", card="Iron Wings")) == '/volfyrion play card:"Iron Wings"'


def _game(name: str):
    from bench.bench_table import Game

    return Game(name, "", [], {}, 0)


def test_a_refused_step_stops_the_bench_instead_of_skewing_it(tmp_path):
    import asyncio

    from bench.bench_table import table

    async def play() -> None:
        async with table(tmp_path / "games.sqlite3", 21) as at:
            await at.type("/seasons start difficulty:apprentice dice:table")
            with pytest.raises(AssertionError, match="was refused"):
                await at.type("/seasons take index:9")  # the console's error: there is no such command
            with pytest.raises(AssertionError, match="was refused"):
                await at.type("/seasons roll")  # the bot's private refusal: a table-dice game waits for a face

    asyncio.run(play())


def text_form(*names: str, labelled: bool = False) -> dict:
    inputs = [{"type": 4, "custom_id": name, "label": name.title(), "style": 1} for name in names]
    rows = [{"type": 18, "label": i["label"], "component": i} if labelled else {"type": 1, "components": [i]}
            for i in inputs]
    return {"custom_id": "solo:1:5:form_reveal", "title": "Reveal", "components": rows}


def label(component: dict) -> dict:
    return {"type": 18, "label": component["custom_id"].title(), "component": component}


def chooser(kind: int, custom_id: str, options: list[tuple[str, str]], **extra: object) -> dict:
    return {"type": kind, "custom_id": custom_id, "options": [{"label": lb, "value": v} for lb, v in options]} | extra


def test_a_form_of_labelled_selects_is_filled_by_choosing_and_only_what_no_select_offers_is_typed():
    known = chooser(3, "known", [("3 — Amulet of Air", "3"), ("32 — Crystal Orb", "32")], max_values=3)
    rest = chooser(3, "more", [("#48 Potion of Life", "c48"), ("3 — Amulet of Air", "3")], max_values=3)
    modal = {"custom_id": "f", "title": "Reveal",
             "components": [label(known), label(rest), *text_form("cards", labelled=True)["components"]]}
    filled = fill_form(modal, Action("reveal", cards=["3", "48", "7"]))
    # 3 is offered twice and chosen once; 48 by the number its label starts with; 7 nowhere: typed
    assert filled.fields == {"known": "3", "more": "c48", "cards": "7"}
    assert (filled.typed, filled.choices) == (1, 2)
    assert filled.line() == 'form known="3" more="c48" cards="7"'


def test_yes_no_questions_in_a_form_are_answered_by_a_checkbox_or_a_radio_group():
    modal = {"custom_id": "f", "title": "End", "components": [
        label({"type": 23, "custom_id": "reshuffled"}),
        label(chooser(21, "confirm", [("Yes", "yes"), ("No", "no")])),
        label(chooser(22, "cities", [("Vahylea", "v"), ("Alantar", "a"), ("Tylaris", "t")])),
    ]}
    filled = fill_form(modal, Action("end", reshuffled=True, confirm=False, cities=["Alantar", "Tylaris"]))
    assert filled.fields == {"confirm": "no", "cities": "a,t", "reshuffled": "true"}
    assert (filled.typed, filled.choices) == (0, 4)
    unticked = fill_form(modal, Action("end", reshuffled=False, confirm=True))
    assert unticked.fields == {"confirm": "yes", "reshuffled": "false"} and unticked.choices == 1
    unasked = fill_form(modal, Action("refill"))  # a required yes/no the step names no flag for: confirmed
    assert unasked.fields == {"confirm": "yes", "reshuffled": "false"} and unasked.choices == 1


def test_a_score_form_of_text_fields_is_typed_whole():
    modal = text_form("crystals", "prestige", "hand")
    filled = fill_form(modal, Action("score", crystals=12, prestige=140, hand=0))
    assert filled.fields == {"crystals": "12", "prestige": "140", "hand": "0"} and filled.typed == 6


# -- the counts, on a short game of each kind, against other witnesses ------------------------------------------

CONTROL_TYPES = {2, 3, 5, 6, 7, 8}


def live_now(components: list) -> bool:
    """The test's own walk: an enabled control with a custom_id anywhere in the message."""
    stack = list(components)
    while stack:
        comp = stack.pop()
        if comp.get("type") in CONTROL_TYPES and comp.get("custom_id") and not comp.get("disabled"):
            return True
        stack += comp.get("components") or []
        stack += [comp[k] for k in ("accessory", "component") if isinstance(comp.get(k), dict)]
    return False


def submitted_values(components: list) -> list[dict]:
    found = []
    for comp in components:
        if "custom_id" in comp:
            found.append(comp)
        found += submitted_values(comp.get("components") or [])
        if isinstance(comp.get("component"), dict):
            found += submitted_values([comp["component"]])
    return found


@pytest.mark.parametrize("lang", ["en", "ja"])
def test_the_bench_counts_what_the_stand_in_received_and_the_console_was_given(lang):
    import asyncio

    from bench.bench_table import games, play

    short = {"Seasons, table dice": 6, "Volfyirion": 9}  # a select, forms, presses, typed lines among them
    for game in [g for g in games(quick=True, lang=lang) if g.name in short]:
        game.actions = game.actions[:short[game.name]]
        seen: dict = {"live": 0, "posted": set(), "table": None}

        def watch(at, seen=seen) -> None:
            seen["table"] = at
            channel = at.standin.world.channel("table").id
            mine = [m for m in at.standin.messages.values()
                    if int(m.payload["channel_id"]) == channel and not m.payload["flags"] & 64]
            seen["posted"] |= {m.id for m in mine}
            seen["live"] = max(seen["live"], sum(live_now(m.payload.get("components") or []) for m in mine))

        tally = asyncio.run(play(game, quick=True, watch=watch))
        at = seen["table"]
        lines = at.transcript[1:]  # after the start line
        typed = [x for x in lines if x.startswith("/")]
        assert tally.lines == len(typed) and tally.line_chars == sum(len(x) for x in typed)
        assert tally.presses == sum(x.startswith("press ") for x in lines)
        assert tally.selects == sum(x.startswith("select ") for x in lines)
        assert tally.forms == sum(x.startswith("form ") for x in lines)
        assert tally.lines + tally.presses + tally.selects >= len(game.actions)  # a step takes one or more
        # What reached Discord's side: one interaction per line, of the kind the line says.
        received = sorted(at.standin.interactions.values(), key=lambda r: r.id)
        kinds = [(r.type, r.payload["data"].get("component_type")) for r in received][1:]
        assert kinds.count((2, None)) == tally.lines
        assert kinds.count((3, 2)) == tally.presses and kinds.count((3, 3)) == tally.selects
        assert kinds.count((5, None)) == tally.forms
        answers = [c for r in received if r.type == 5 for c in submitted_values(r.payload["data"]["components"])]
        assert tally.form_chars == sum(len(c.get("value") or "") for c in answers if c.get("type") == 4)
        assert tally.form_choices == sum(len(c.get("values") or []) for c in answers if c.get("type") in (3, 22)) \
            + sum(c.get("value") is not None for c in answers if c.get("type") == 21) \
            + sum(c.get("value") is True for c in answers if c.get("type") == 23)
        assert tally.posted == len(seen["posted"]) and tally.most_live == seen["live"]
        assert tally.presses and tally.forms and (tally.lines or tally.selects), game.name  # the short game has them
