"""A reply's buttons and menus (bot/buttons.py ``view_of``) come out exactly as discord.py's own ``View`` would
send them, laid out in the same rows, for any list of buttons and menus — and are refused alike when they do
not fit (issue 12: the reply's view is built without an ``Item`` for each). An explicit row is compared with
examples: discord.py loses it for a ``DynamicItem`` (its ``row`` reads what its setter does not write)."""

from __future__ import annotations

import asyncio

import discord
from hypothesis import given, settings
from hypothesis import strategies as st

from bot.buttons import ButtonSpec, GameButton, GameSelect, SelectSpec, view_of

OPS = st.sampled_from(["take", "state", "undo", "pick", "reveal", "edit", "danger"])
STYLES = st.sampled_from([discord.ButtonStyle.primary, discord.ButtonStyle.secondary, discord.ButtonStyle.success,
                          discord.ButtonStyle.danger])
ARG = st.none() | st.integers(0, 99) | st.from_regex(r"[a-z0-9_.-]{0,12}", fullmatch=True)
BUTTON = st.builds(ButtonSpec, op=OPS, label=st.text(min_size=1, max_size=90), arg=ARG, style=STYLES)
OPTION = st.tuples(st.text(min_size=1, max_size=110), st.text(min_size=1, max_size=110),
                   st.none() | st.text(max_size=110))
SELECT = st.builds(SelectSpec, op=OPS, placeholder=st.text(min_size=1, max_size=160),
                   options=st.lists(OPTION, max_size=27).map(tuple), arg=ARG, min_values=st.integers(1, 2),
                   max_values=st.integers(1, 30))


def discord_view(game_id: int, ply: int, specs: list) -> discord.ui.View:
    """The same specs through discord.py's View and an Item each (how view_of built them before)."""
    view = discord.ui.View(timeout=None)
    for spec in specs[:25]:
        arg = None if spec.arg is None else str(spec.arg)
        if isinstance(spec, SelectSpec):
            if not spec.options:
                continue
            options = [discord.SelectOption(label=label[:100], value=value[:100],
                                            description=(description or None) and description[:100])
                       for label, value, description in spec.options[:25]]
            view.add_item(GameSelect(game_id, ply, spec.op, arg, placeholder=spec.placeholder, options=options,
                                     min_values=spec.min_values, max_values=spec.max_values))
            continue
        view.add_item(GameButton(game_id, ply, spec.op, arg, label=spec.label, style=spec.style))
    return view


def outcome(build) -> object:  # noqa: ANN001
    async def run() -> object:
        try:
            return build().to_components()
        except ValueError:
            return ValueError
    return asyncio.run(run())


@settings(max_examples=300, deadline=None)
@given(specs=st.lists(BUTTON | SELECT, min_size=1, max_size=30), game_id=st.integers(1, 10**18 - 1),
       ply=st.integers(0, 10**9 - 1))
def test_the_same_components_as_discord_py_lays_out(specs: list, game_id: int, ply: int) -> None:
    assert outcome(lambda: view_of(game_id, ply, specs)) == outcome(lambda: discord_view(game_id, ply, specs))


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
