"""Forms in the console (issue 35, point 5): a form's fields shown with their kind and options, and `form name=value`
filling a select by option value or label, a checkbox by yes/no/はい/いいえ; a bad value refused in the console's own
words and nothing submitted — in both languages."""

from __future__ import annotations

import io
import json

import pytest
from console_session import console_session, refusals, text_of

from bot.console import Printer
from bot.standin import World
from bot.standin.driver import pressable

FORM = {"custom_id": "solo:1:2:form_refill", "title": "The Asset Deck ran out", "components": [
    {"type": 18, "label": "Command cards", "component": {
        "type": 3, "custom_id": "rage_command", "min_values": 0, "max_values": 2, "required": False,
        "options": [{"label": "Book of Wisdom", "value": "Book of Wisdom"}, {"label": "Stab", "value": "Stab"}]}},
    {"type": 18, "label": "Sure?", "component": {"type": 23, "custom_id": "confirm", "default": False}},
    {"type": 18, "label": "Cards", "component": {"type": 4, "custom_id": "cards", "style": 2, "required": False}},
]}


@pytest.mark.parametrize(("lang", "select", "checkbox"), [
    ("en", "(Command cards, select, optional, up to 2, comma separated) [Book of Wisdom | Stab]",
     "confirm=… (Sure?, checkbox: yes or no)"),
    ("ja", "（Command cards、選択、任意、「、」区切りで2個まで） [Book of Wisdom | Stab]",
     "confirm=… （Sure?、チェックボックス: はい／いいえ）"),
])
def test_a_forms_fields_are_printed_with_their_kind_and_options(lang, select, checkbox):
    out = io.StringIO()
    Printer(out, lang, False, World.default()).modal(FORM)
    printed = out.getvalue()
    assert f"rage_command=… {select}" in printed
    assert checkbox in printed


def opened_form(items: list[dict]) -> dict:
    return next(item["modal"] for item in reversed(items) if "modal" in item)


def numbered(items: list[dict], ending: str) -> int:
    """The console's number of the control whose custom_id ends with ``ending``, in the last reply with controls."""
    for item in reversed(items):
        controls = pressable(item)
        if controls:
            return next(n for n, c in enumerate(controls, 1) if c.get("custom_id", "").endswith(ending))
    raise AssertionError("no controls")


@pytest.mark.parametrize(("lang", "refused", "yes"), [
    ("en", "`confirm` is a checkbox: answer yes or no, not “maybe”", "yes"),
    ("ja", "`confirm` はチェックボックスです。「はい」か「いいえ」で答えてください（「maybe」は指定できません）", "はい"),
])
async def test_the_refill_checkbox_and_the_rage_selects_by_form_lines(tmp_path, lang, refused, yes):
    async with console_session(tmp_path / "g.sqlite3", lang=lang) as session:
        await session.type("/volfyrion start difficulty:normal")
        await session.type("/volfyrion play card:Elite Trooper city:Tylaris")
        items = await session.type("/volfyrion putaside paid:battle")
        items = await session.type(f"press {numbered(items, ':refill_ask')}")
        assert opened_form(items)["components"][0]["component"]["type"] == 23
        items = await session.type("form confirm=maybe")
        assert refusals(items) == [refused]
        items = await session.type(f"form confirm={yes}")
        assert refusals(items) == [], text_of(items)


@pytest.mark.parametrize(("lang", "refused"), [
    ("en", "`rage_command` has no option “Dragonfire”. Options: "),
    ("ja", "`rage_command` に「Dragonfire」という選択肢はありません。選択肢: "),
])
async def test_a_select_is_filled_by_label_and_a_bad_option_is_refused(tmp_path, lang, refused):
    async with console_session(tmp_path / "g.sqlite3", lang=lang) as session:
        await session.type("/volfyrion start difficulty:easy")
        await session.type("/volfyrion end")
        await session.type("/volfyrion reshuffle")
        items = await session.type("/volfyrion end")
        await session.type(f"press {numbered(items, ':reveal')}")
        items = await session.type('form rage_command="Dragonfire"')
        assert len(refusals(items)) == 1 and refusals(items)[0].startswith(refused)
        items = await session.type('form rage_command="book of wisdom, Stab"')
        assert refusals(items) == [], text_of(items)


async def _export(session) -> dict:
    items = await session.type("/game export")
    files = [f for item in items for f in item.get("files", []) if f["filename"].endswith(".json")]
    return json.loads(files[-1]["text"])


@pytest.mark.parametrize(("lang", "names"), [("en", "Amulet of Air, Balance of Ishtar"), ("ja", "大気の護符、イシュターの天秤")])
async def test_s2_4_the_prelude_hand_from_the_forms_selects(tmp_path, lang, names):
    async with console_session(tmp_path / "g.sqlite3", lang=lang) as session:
        items = await session.type("/seasons start difficulty:wizard dice:table")
        items = await session.type(f"press {numbered(items, ':prelude')}")
        assert [row["component"]["custom_id"] for row in opened_form(items)["components"]] == [
            "cards_1", "cards_26", "cards"]
        too_many = await session.type('form cards_1="1, 2, 3, 4, 5, 6, 7"')
        assert len(refusals(too_many)) == 1 and (await _export(session))["actions"] == []
        items = await session.type(f'form cards_1="{names}, 3" cards_26="30, 31" cards=31')
        assert refusals(items) == [], text_of(items)
        assert (await _export(session))["actions"] == [
            {"type": "prelude", "cards": ["1", "5", "3", "30", "31", "31"]}]
