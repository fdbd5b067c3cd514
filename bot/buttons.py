"""Buttons and forms that survive restarts.

A button's ``custom_id`` carries the game id, the game's version (ply) when the button was drawn, an
operation and an argument: ``solo:42:17:take:0``. Nothing is kept in memory for it: a press after a
restart is parsed by ``GameButton`` (a ``DynamicItem``) and handled from the store like a command; a
press on a finished game, or on a game that has moved on, is refused as stale.
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any

import discord

if TYPE_CHECKING:
    from .app import SoloBot

# 18 digits: every game id fits SQLite's signed 64-bit INTEGER.
CUSTOM_ID = re.compile(r"solo:(?P<game>\d{1,18}):(?P<ply>\d{1,9}):(?P<op>[a-z_]{1,20})(?::(?P<arg>[\w.-]{0,40}))?")


MENU_OPTIONS = 25  # a select menu's options, at most (Discord's limit)


def custom_id(game_id: int, ply: int, op: str, arg: str | int | None = None) -> str:
    base = f"solo:{game_id}:{ply}:{op}"
    return base if arg is None else f"{base}:{arg}"


@dataclass(frozen=True)
class ButtonSpec:
    op: str
    label: str
    arg: str | int | None = None
    style: discord.ButtonStyle = discord.ButtonStyle.secondary
    row: int | None = None


class GameButton(discord.ui.DynamicItem[discord.ui.Button], template=CUSTOM_ID):
    def __init__(self, game_id: int, ply: int, op: str, arg: str | None, *, label: str = "…",
                 style: discord.ButtonStyle = discord.ButtonStyle.secondary) -> None:
        super().__init__(discord.ui.Button(label=label[:80], style=style, custom_id=custom_id(game_id, ply, op, arg)))
        self.game_id, self.ply, self.op, self.arg = game_id, ply, op, arg

    @classmethod
    async def from_custom_id(
        cls, interaction: discord.Interaction, item: discord.ui.Item, match: re.Match[str], /
    ) -> GameButton | GameSelect:
        if isinstance(item, discord.ui.Select):  # one template for both: a select menu is answered the same way
            return GameSelect(int(match["game"]), int(match["ply"]), match["op"], match["arg"],
                              placeholder=item.placeholder or "…", options=list(item.options),
                              min_values=item.min_values, max_values=item.max_values)
        return cls(int(match["game"]), int(match["ply"]), match["op"], match["arg"], label=getattr(item, "label", None)
                   or "…")

    async def callback(self, interaction: discord.Interaction[SoloBot]) -> None:  # type: ignore[override]
        async with interaction.client.metrics.command(f"button {self.op}"):
            await interaction.client.controller.on_button(interaction, self.game_id, self.ply, self.op, self.arg)


@dataclass(frozen=True)
class SelectSpec:
    """A select menu (a picker): ``options`` are (label, value, description or None)."""

    op: str
    placeholder: str
    options: tuple[tuple[str, str, str | None], ...]
    arg: str | int | None = None
    min_values: int = 1
    max_values: int = 1
    row: int | None = None


class GameSelect(discord.ui.DynamicItem[discord.ui.Select], template=CUSTOM_ID):
    """A select menu that survives restarts like the buttons (same ``custom_id`` form, so never registered
    itself: ``GameButton.from_custom_id`` builds it when the pressed component is a select)."""

    def __init__(self, game_id: int, ply: int, op: str, arg: str | None, *, placeholder: str,
                 options: list[discord.SelectOption], min_values: int = 1, max_values: int = 1) -> None:
        options = options[:MENU_OPTIONS]
        super().__init__(discord.ui.Select(custom_id=custom_id(game_id, ply, op, arg), placeholder=placeholder[:150],
                                           options=options, min_values=min_values,
                                           max_values=max(min_values, min(max_values, len(options)))))
        self.game_id, self.ply, self.op, self.arg = game_id, ply, op, arg

    async def callback(self, interaction: discord.Interaction[SoloBot]) -> None:  # type: ignore[override]
        async with interaction.client.metrics.command(f"select {self.op}"):
            await interaction.client.controller.on_select(interaction, self.game_id, self.ply, self.op, self.arg,
                                                          list(self.item.values))


ROWS, ROW_WIDTH = 5, 5  # a message's action rows, and the room in each (a button takes 1, a menu a whole row)


class Components(discord.ui.View):
    """One reply's buttons and menus, as Discord takes them, without an ``Item`` object for each (making those
    was most of the cost of a reply's view): a press is answered from its custom_id by ``GameButton``, the
    ``DynamicItem`` registered at start, never through this view. Laid out as discord.py lays out a ``View``."""

    def __init__(self, rows: list[list[dict[str, Any]]]) -> None:
        super().__init__(timeout=None)
        self.rows = rows

    def to_components(self) -> list[dict[str, Any]]:
        return [{"type": 1, "components": row} for row in self.rows if row]


def view_of(game_id: int, ply: int, specs: list[ButtonSpec | SelectSpec]) -> Components | None:
    """The buttons and menus ``specs`` ask for, in rows as discord.py's ``View.add_item`` places them: the
    first row with room (ValueError when there is none), or the spec's own ``row``. (discord.py itself loses
    that row for a ``DynamicItem``; no reply asks for one.)"""
    if not specs:
        return None
    rows: list[list[dict[str, Any]]] = [[] for _ in range(ROWS)]
    used = [0] * ROWS
    for spec in specs[:25]:
        arg = None if spec.arg is None else str(spec.arg)
        if isinstance(spec, SelectSpec):
            if not spec.options:
                continue
            component, width = _select(game_id, ply, spec, arg), ROW_WIDTH
        else:
            component, width = {"type": 2, "style": int(spec.style), "disabled": False, "label": spec.label[:80],
                                "custom_id": custom_id(game_id, ply, spec.op, arg)}, 1
        row = spec.row
        if row is None:
            row = 0
            while row < ROWS and used[row] + width > ROW_WIDTH:
                row += 1
        if row >= ROWS or used[row] + width > ROW_WIDTH:
            raise ValueError(f"no room for {spec.op} in the reply's rows")
        used[row] += width
        rows[row].append(component)
    return Components(rows)


def _layout(component: dict[str, Any], *drop: str) -> dict[str, Any]:
    """discord.py's own dict of a component, as the layout ours fill in (the keys it sends, in its order)."""
    return {key: value for key, value in component.items() if key not in drop}


# A select menu and an option as this discord.py sends them (its keys vary between versions), filled in by
# ``_select`` without an Item or a SelectOption object for each: a picker has up to MENU_OPTIONS options.
_MENU = _layout(discord.ui.Select(custom_id="_", placeholder="_", options=[discord.SelectOption(label="_")])
                .to_component_dict(), "placeholder", "options")
_OPTION = _layout(discord.SelectOption(label="_", value="_").to_dict())


def _select(game_id: int, ply: int, spec: SelectSpec, arg: str | None) -> dict[str, Any]:
    options = spec.options[:MENU_OPTIONS]
    menu = {**_MENU, "custom_id": custom_id(game_id, ply, spec.op, arg), "min_values": spec.min_values,
            "max_values": max(spec.min_values, min(spec.max_values, len(options)))}
    if spec.placeholder[:150]:
        menu["placeholder"] = spec.placeholder[:150]
    menu["options"] = [_option(label[:100], value[:100], description and description[:100])
                       for label, value, description in options]
    return menu


def _option(label: str, value: str, description: str | None) -> dict[str, Any]:
    option = {**_OPTION, "label": label, "value": value}
    if description:
        option["description"] = description
    return option


@dataclass(frozen=True)
class FieldSpec:
    name: str
    label: str
    placeholder: str = ""
    required: bool = True
    long: bool = False
    default: str | None = None


class Form(discord.ui.Modal):
    """A form a button opened. Its submission is handled by the bot's interaction listener (which also
    works after a restart, when this object is long gone), so ``on_submit`` does nothing itself."""

    def __init__(self, *, title: str, form_id: str, fields: list[FieldSpec], timeout: float = 900.0) -> None:
        # discord.py keeps an open form in memory until it is submitted or times out; a form closed without
        # submitting must not stay for weeks. A submission after the timeout still works (see above).
        super().__init__(title=title[:45], custom_id=form_id, timeout=timeout)
        for f in fields[:5]:
            self.add_item(discord.ui.TextInput(
                label=f.label[:45], custom_id=f.name, placeholder=f.placeholder[:100] or None, required=f.required,
                style=discord.TextStyle.paragraph if f.long else discord.TextStyle.short, default=f.default,
                max_length=1000,
            ))

    async def on_submit(self, interaction: discord.Interaction) -> None:
        return None


def form_values(data: dict[str, Any]) -> dict[str, str]:
    """The text inputs of a modal-submit payload, by custom_id (rows of inputs, or labels holding one)."""
    values: dict[str, str] = {}

    def walk(components: Any) -> None:
        if not isinstance(components, list):
            return
        for c in components:
            if not isinstance(c, dict):
                continue  # Discord never sends these; a garbage form is simply empty
            if "custom_id" in c and "value" in c:
                values[str(c["custom_id"])] = str(c.get("value") or "")
            walk(c.get("components", []))
            if isinstance(c.get("component"), dict):
                walk([c["component"]])

    walk(data.get("components", []))
    return values
