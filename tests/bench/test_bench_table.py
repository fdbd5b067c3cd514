"""How bench_table decides a step: a control of the latest reply when one says the step, else a typed line.

The whole games run in tests/bench/test_bench_smoke.py (quick) and in ``python -m bench --only table``; here the
choice itself, on components shaped as the bot sends them, including a die-face select the bot does not send yet
(issue 35 point 4): the bench must take it the day it comes.
"""

from __future__ import annotations

import sys
from pathlib import Path

ROOT = str(Path(__file__).resolve().parents[2])
if ROOT not in sys.path:
    sys.path.insert(0, ROOT)

from bench.bench_table import button_fits, form_fields, select_choice, typed_line, values_of  # noqa: E402
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
    assert form_fields(Action("reveal", cards=["3", "32"])) == {"cards": "3, 32"}
    line = typed_line(_game("Seasons, table dice"), Action("die", face=FACE))
    assert line == f"/seasons die face:{face_text(FACE)}"
    assert typed_line(_game("Volfyirion"), Action("play", card="Iron Wings")) == '/volfyrion play card:"Iron Wings"'


def _game(name: str):
    from bench.bench_table import Game

    return Game(name, "", [], {}, 0)


def test_a_refused_step_stops_the_bench_instead_of_skewing_it(tmp_path):
    import asyncio

    import pytest

    from bench.bench_table import table

    async def play() -> None:
        async with table(tmp_path / "games.sqlite3", 21) as at:
            await at.type("/seasons start difficulty:apprentice dice:table")
            with pytest.raises(AssertionError, match="was refused"):
                await at.type("/seasons take index:9")  # the console's error: there is no such command
            with pytest.raises(AssertionError, match="was refused"):
                await at.type("/seasons roll")  # the bot's private refusal: a table-dice game waits for a face

    asyncio.run(play())
