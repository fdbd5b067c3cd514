"""A reply's buttons and menus (bot/buttons.py ``view_of``): a ``discord.ui.View`` of ``DynamicItem``s, laid out
by discord.py's own ``View.add_item`` (the first row with room, or the spec's row), and nothing of it kept in
memory: a press, after a restart too, is answered from its custom_id alone."""

from __future__ import annotations

import asyncio

import discord

from bot.buttons import CUSTOM_ID, ButtonSpec, GameButton, GameSelect, SelectSpec, view_of


def outcome(build) -> object:
    async def run() -> object:  # a View needs a running loop
        try:
            return build().to_components()
        except ValueError:
            return ValueError
    return asyncio.run(run())


def test_a_typical_reply() -> None:
    specs = [ButtonSpec("take", "Take", arg=1), ButtonSpec("pick", "Pick", row=2, style=discord.ButtonStyle.primary),
             SelectSpec("reveal", "Reveal…", (("Amulet", "amulet", None),)), ButtonSpec("undo", "Undo")]
    rows = outcome(lambda: view_of(42, 17, specs))
    assert [[c["custom_id"] for c in r["components"]] for r in rows] == [
        ["solo:42:17:take:1", "solo:42:17:undo"], ["solo:42:17:reveal"], ["solo:42:17:pick"]]
    assert view_of(42, 17, []) is None


def test_explicit_rows_and_rows_that_are_full() -> None:
    five = [ButtonSpec("take", str(i), arg=i, row=1) for i in range(5)]
    rows = outcome(lambda: view_of(1, 2, [*five, ButtonSpec("undo", "Undo")]))
    assert [len(r["components"]) for r in rows] == [1, 5]  # row 0 (Undo, first with room), then row 1
    assert outcome(lambda: view_of(1, 2, [*five, ButtonSpec("undo", "Undo", row=1)])) is ValueError
    menus = [SelectSpec("pick", "Pick", (("a", "a", None),)) for _ in range(6)]
    assert outcome(lambda: view_of(1, 2, menus)) is ValueError  # five menus fill the five rows


def test_labels_and_options_are_cut_to_discord_s_limits() -> None:
    options = tuple((f"{'x' * 120}{i}", f"v{i}", "d" * 120) for i in range(30))
    rows = outcome(lambda: view_of(1, 2, [ButtonSpec("take", "L" * 90), SelectSpec("pick", "P" * 160, options,
                                                                                  max_values=30)]))
    button, menu = rows[0]["components"][0], rows[1]["components"][0]
    assert len(button["label"]) == 80 and len(menu["placeholder"]) == 150
    assert len(menu["options"]) == 25 and menu["max_values"] == 25
    assert {len(o["label"]) for o in menu["options"]} == {100} and {len(o["description"]) for o in menu["options"]} == {100}


async def test_replies_leave_no_view_in_memory_and_their_buttons_still_answer(driver) -> None:
    """discord.py stores a sent view only for items that are not DynamicItems: after replies with buttons,
    nothing is kept; a press is answered through the template registered at start."""
    start = await driver.slash("seasons start", {"difficulty": "wizard", "dice": "table"})
    assert start.buttons
    die = await driver.slash("seasons die", {"face": "draw, 3 dots"})
    assert driver.bot.persistent_views == []  # the LayoutViews of V2 replies included
    pressed = await driver.press(next(b["custom_id"] for b in die.buttons if ":forecast" in b["custom_id"]))
    assert pressed.answered and not pressed.rejections


def test_the_menu_class_makes_a_pressed_button_too() -> None:
    """discord.py registers the classes of a sent view's items for their template (``ViewStore.add_view``): after
    a reply whose view ends with a menu, ``GameSelect`` is the class a press goes to, and a button still works."""
    async def run() -> object:
        pressed = discord.ui.Button(label="Take", custom_id="solo:4:2:take:0")
        return await GameSelect.from_custom_id(None, pressed, CUSTOM_ID.fullmatch("solo:4:2:take:0"))

    made = asyncio.run(run())
    assert isinstance(made, GameButton) and (made.game_id, made.ply, made.op, made.arg) == (4, 2, "take", "0")
