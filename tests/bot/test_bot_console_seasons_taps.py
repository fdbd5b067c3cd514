"""A table-dice game played by taps in the console (issue 35, point 4): after the start line, only `select` and
`press` — Dummbot's die from the round's menu of faces (S-1.4, S-3.2), by its words (an English face has commas
in it and is still one choice), the reveals from their menu — in both languages."""

from __future__ import annotations

import pytest
from console_session import console_session, refusals, text_of

from bot.standin.driver import pressable

DIE_SAID = {"en": "Dummbot's die: {face}.", "ja": "ダムボットのダイスは「{face}」です。"}


def controls(items: list[dict]) -> list[dict]:
    """The last message's controls, numbered as the console numbers them (rows top to bottom, left to right)."""
    for item in reversed(items):
        found = pressable(item)  # nested in a V2 reply's container, rows and sections
        if found:
            return found
    return []


def numbered_menu(items: list[dict], arg: str) -> tuple[int, dict] | None:
    for number, comp in enumerate(controls(items), 1):
        if comp.get("type") == 3 and comp["custom_id"].endswith(f":pick:{arg}"):
            return number, comp
    return None


@pytest.mark.parametrize("lang", ["en", "ja"])
async def test_s3_2_table_dice_rounds_by_select_and_press_alone(tmp_path, lang):
    async with console_session(tmp_path / "g.sqlite3", lang=lang, seed=1) as session:
        items = await session.type("/seasons start difficulty:wizard dice:table")
        dice = 0
        for turn in range(12):
            if dice == 4:
                break
            die = numbered_menu(items, "die")
            reveal = numbered_menu(items, "reveal")
            if die:
                number, comp = die
                face = comp["options"][(turn * 5) % len(comp["options"])]["label"]  # by its words, as shown
                items = await session.type(f"select {number} {face}")
                assert DIE_SAID[lang].format(face=face) in text_of(items)
                dice += 1
            elif reveal:
                number, comp = reveal
                values = [o["value"] for o in comp["options"][: comp["max_values"]]]
                items = await session.type(f"select {number} {','.join(values)}")
            else:
                raise AssertionError(f"no menu to go on with: {text_of(items)}")
            assert refusals(items) == [], refusals(items)
        assert dice == 4
        # Undo by its button: the last die is taken back, and its menu is offered again.
        undo = next(n for n, c in enumerate(controls(items), 1) if c.get("custom_id", "").endswith(":undo"))
        items = await session.type(f"press {undo}")
        assert refusals(items) == [] and numbered_menu(items, "die")
