"""Buttons and forms that survive restarts.

A button's ``custom_id`` carries the game id, the game's version (ply) when the button was drawn, an
operation and an argument: ``solo:42:17:take:0``. Nothing is kept in memory for it: a press after a
restart is parsed by ``GameButton`` (a ``DynamicItem``) and handled from the store like a command; a
press on a finished game, or on a game that has moved on, is refused as stale.

A press reaches its bot's controller through ``interaction.client``, the one place the bot is still looked up
from an interaction, because discord.py offers no other: a ``DynamicItem`` is made by discord.py from the
class alone (``from_custom_id`` gets only the interaction, the pressed item and the match), and every view a
reply sends registers its items' classes again under their template (``ViewStore.add_view``), replacing any
class bound to one bot at ``add_dynamic_items``. Binding would hold only if every view of every command were
built from that bot's own classes, and a class attribute set at install would be one bot per process.
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from typing import Any, Protocol, cast

import discord

from .metrics import Metrics


class Pressed(Protocol):
    """Where a press goes: the bot's controller (bot/controller.py)."""

    async def on_button(self, interaction: discord.Interaction, game_id: int, ply: int, op: str,
                        arg: str | None) -> None: ...
    async def on_select(self, interaction: discord.Interaction, game_id: int, ply: int, op: str, arg: str | None,
                        values: list[str]) -> None: ...


class Answering(Protocol):
    """What a press reads of the bot that made its reply (bot/app.py): its metrics and its controller."""

    metrics: Metrics
    controller: Pressed


def answering(interaction: discord.Interaction) -> Answering:
    return cast(Answering, interaction.client)

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


class GameButton(discord.ui.DynamicItem[discord.ui.Button[discord.ui.View]], template=CUSTOM_ID):
    def __init__(self, game_id: int, ply: int, op: str, arg: str | None, *, label: str = "…",
                 style: discord.ButtonStyle = discord.ButtonStyle.secondary) -> None:
        super().__init__(discord.ui.Button(label=label[:80], style=style, custom_id=custom_id(game_id, ply, op, arg)))
        self.game_id, self.ply, self.op, self.arg = game_id, ply, op, arg

    @classmethod
    async def from_custom_id(  # type: ignore[override]  # one template for both kinds: a menu makes a GameSelect
        cls, interaction: discord.Interaction, item: discord.ui.Item[Any], match: re.Match[str], /
    ) -> GameButton | GameSelect:
        if isinstance(item, discord.ui.Select):  # one template for both: a select menu is answered the same way
            return GameSelect(int(match["game"]), int(match["ply"]), match["op"], match["arg"],
                              placeholder=item.placeholder or "…", options=list(item.options),
                              min_values=item.min_values, max_values=item.max_values)
        return cls(int(match["game"]), int(match["ply"]), match["op"], match["arg"], label=getattr(item, "label", None)
                   or "…")

    async def callback(self, interaction: discord.Interaction) -> None:
        # interaction.client: the bot, the only way to it discord.py gives an item (see the module's doc).
        async with answering(interaction).metrics.command(f"button {self.op}"):
            await answering(interaction).controller.on_button(interaction, self.game_id, self.ply, self.op, self.arg)


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


class GameSelect(discord.ui.DynamicItem[discord.ui.Select[discord.ui.View]], template=CUSTOM_ID):
    """A select menu that survives restarts like the buttons (same ``custom_id`` form, so not registered itself:
    ``GameButton.from_custom_id`` builds it when the pressed component is a select)."""

    def __init__(self, game_id: int, ply: int, op: str, arg: str | None, *, placeholder: str,
                 options: list[discord.SelectOption], min_values: int = 1, max_values: int = 1) -> None:
        options = options[:MENU_OPTIONS]
        super().__init__(discord.ui.Select(custom_id=custom_id(game_id, ply, op, arg), placeholder=placeholder[:150],
                                           options=options, min_values=min_values,
                                           max_values=max(min_values, min(max_values, len(options)))))
        self.game_id, self.ply, self.op, self.arg = game_id, ply, op, arg

    @classmethod
    async def from_custom_id(  # type: ignore[override]  # a button pressed makes a GameButton
        cls, interaction: discord.Interaction, item: discord.ui.Item[Any], match: re.Match[str], /
    ) -> GameButton | GameSelect:
        """As ``GameButton``'s: a reply whose view ends with a menu registers this class for the template."""
        return await GameButton.from_custom_id(interaction, item, match)

    async def callback(self, interaction: discord.Interaction) -> None:
        async with answering(interaction).metrics.command(f"select {self.op}"):
            await answering(interaction).controller.on_select(interaction, self.game_id, self.ply, self.op, self.arg,
                                                          list(self.item.values))


ROWS = 5  # a reply's rows of controls, as a View lays them out (Discord's limit for a View)


def item_of(game_id: int, ply: int, spec: ButtonSpec | SelectSpec) -> GameButton | GameSelect | None:
    """The ``DynamicItem`` a spec asks for (None for a select with no options)."""
    arg = None if spec.arg is None else str(spec.arg)
    if isinstance(spec, ButtonSpec):
        return GameButton(game_id, ply, spec.op, arg, label=spec.label, style=spec.style)
    if not spec.options:
        return None
    options = [discord.SelectOption(label=label[:100], value=value[:100],
                                    description=(description or None) and description[:100])
               for label, value, description in spec.options[:MENU_OPTIONS]]
    return GameSelect(game_id, ply, spec.op, arg, placeholder=spec.placeholder, options=options,
                      min_values=spec.min_values, max_values=spec.max_values)


def rows_of(game_id: int, ply: int, specs: list[ButtonSpec | SelectSpec]) -> list[list[GameButton | GameSelect]]:
    """The controls ``specs`` ask for, in rows as discord.py's ``View.add_item`` lays them out: the first row
    with room (five buttons, or one menu), or the spec's own ``row`` (ValueError when it is full). Empty rows
    left out, the rest in order."""
    rows: list[list[GameButton | GameSelect]] = [[] for _ in range(ROWS)]
    weights = [0] * ROWS
    for spec in specs[:25]:
        item = item_of(game_id, ply, spec)
        if item is None:
            continue
        width = item.width
        if spec.row is not None:
            if not 0 <= spec.row < ROWS or weights[spec.row] + width > 5:
                raise ValueError(f"row {spec.row} has no room for {spec.op}")
            index = spec.row
        else:
            for index in range(ROWS):  # the first row with room
                if weights[index] + width <= 5:
                    break
            else:
                raise ValueError(f"no room left for {spec.op}")
        weights[index] += width
        rows[index].append(item)
    return [row for row in rows if row]


def view_of(game_id: int, ply: int, specs: list[ButtonSpec | SelectSpec]) -> discord.ui.View | None:
    """The buttons and menus ``specs`` ask for, as a ``View`` of ``DynamicItem``s (discord.py's persistent-view
    pattern): discord.py keeps nothing of a view made only of them, a press is answered from its custom_id.
    Laid out by ``rows_of``. For a message with embeds (a notice, a confirmation); a game's reply lays the same
    rows out in its ``LayoutView`` (bot/render/layout.py)."""
    rows = rows_of(game_id, ply, specs)
    if not rows:
        return None
    view = discord.ui.View(timeout=None)
    for index, row in enumerate(rows):
        for item in row:
            item.row = index
            view.add_item(item)
    return view


ROWS = 5  # a reply's action rows, at most (Discord's limit)
PER_ROW = 5  # buttons in one row


def rows_needed(specs: list[ButtonSpec | SelectSpec], extra_buttons: int = 1) -> int:
    """The rows ``specs`` take laid out as ``view_of`` lays them (first fit), with ``extra_buttons`` added."""
    buttons = sum(isinstance(s, ButtonSpec) for s in specs) + extra_buttons
    return sum(isinstance(s, SelectSpec) for s in specs) + -(-buttons // PER_ROW)


def fit(specs: list[ButtonSpec | SelectSpec],
        droppable: list[ButtonSpec | SelectSpec]) -> list[ButtonSpec | SelectSpec]:
    """``specs`` less the first of ``droppable`` (least needed first) until they fit in a reply's rows."""
    kept = list(specs)
    for spec in droppable:
        if rows_needed(kept) <= ROWS:
            break
        kept.remove(spec)
    return kept


# The kinds of a form's field: a text input, a string select, a checkbox (a yes or no) and a radio group (one of a
# few). Each is held in a ``ui.Label`` (discord.py 2.6 deprecated ``TextInput(label=…)``), whose description says
# what the field wants.
TEXT, SELECT, CHECKBOX, RADIO = "text", "select", "checkbox", "radio"
FORM_ITEMS = 5  # a form's top-level components, at most (Discord's limit)
RADIO_OPTIONS = 10  # a radio group's options, at most
TRUE, FALSE = "true", "false"  # a checkbox's answer, as ``form_action`` reads it


@dataclass(frozen=True)
class FieldSpec:
    """A field of a form. ``default`` is a string whatever the kind: a text's words, a select's chosen values
    comma-joined, a checkbox's "true", a radio's value (so a refused form's values come back as they went)."""

    name: str
    label: str
    placeholder: str = ""
    required: bool = True
    long: bool = False
    default: str | None = None
    kind: str = TEXT
    description: str | None = None
    options: tuple[tuple[str, str, str | None], ...] = ()  # (label, value, description or None)
    min_values: int = 1
    max_values: int = 1
    max_length: int = 1000


def _chosen(default: str | None) -> set[str]:
    return {v.strip() for v in (default or "").split(",") if v.strip()}


def field_item(f: FieldSpec) -> discord.ui.Item[Any]:
    """The component of one field (what its Label holds)."""
    chosen = _chosen(f.default)
    if f.kind == SELECT:
        options = [discord.SelectOption(label=label[:100], value=value[:100], default=value in chosen,
                                        description=(description or None) and description[:100])
                   for label, value, description in f.options[:MENU_OPTIONS]]
        high = max(1, min(f.max_values, len(options)))
        return discord.ui.Select(custom_id=f.name, placeholder=f.placeholder[:150] or None, options=options,
                                 min_values=min(f.min_values, high) if f.required else 0, max_values=high,
                                 required=f.required)
    if f.kind == CHECKBOX:
        return discord.ui.Checkbox(custom_id=f.name, default=f.default == TRUE)
    if f.kind == RADIO:
        return discord.ui.RadioGroup(custom_id=f.name, required=f.required, options=[
            discord.RadioGroupOption(label=label[:100], value=value[:100], default=value in chosen,
                                     description=(description or None) and description[:100])
            for label, value, description in f.options[:RADIO_OPTIONS]])
    return discord.ui.TextInput(
        custom_id=f.name, placeholder=f.placeholder[:100] or None, required=f.required,
        style=discord.TextStyle.paragraph if f.long else discord.TextStyle.short, default=f.default,
        max_length=f.max_length)


class Form(discord.ui.Modal):
    """A form a button opened. Its submission is handled by the bot's interaction listener (which also
    works after a restart, when this object is long gone), so ``on_submit`` does nothing itself."""

    def __init__(self, *, title: str, form_id: str, fields: list[FieldSpec], timeout: float = 900.0) -> None:
        # discord.py keeps an open form in memory until it is submitted or times out; a form closed without
        # submitting must not stay for weeks. A submission after the timeout still works (see above).
        super().__init__(title=title[:45], custom_id=form_id, timeout=timeout)
        for f in fields[:FORM_ITEMS]:
            self.add_item(discord.ui.Label(text=f.label[:45], description=(f.description or None) and f.description[:100],
                                           component=field_item(f)))

    async def on_submit(self, interaction: discord.Interaction) -> None:
        return None


def form_values(data: dict[str, Any]) -> dict[str, str]:
    """The fields of a modal-submit payload, by custom_id (rows of inputs, or labels holding one), each as a
    string: a text's value, a select's or a checkbox group's values comma-joined, a checkbox's "true"/"false",
    a radio group's value ("" when none)."""
    values: dict[str, str] = {}

    def walk(components: Any) -> None:
        if not isinstance(components, list):
            return
        for c in components:
            if not isinstance(c, dict):
                continue  # Discord never sends these; a garbage form is simply empty
            if "custom_id" in c and isinstance(c.get("values"), list):
                values[str(c["custom_id"])] = ", ".join(str(v) for v in c["values"])
            elif "custom_id" in c and isinstance(c.get("value"), bool):
                values[str(c["custom_id"])] = TRUE if c["value"] else FALSE
            elif "custom_id" in c and "value" in c:
                values[str(c["custom_id"])] = str(c.get("value") or "")
            walk(c.get("components", []))
            if isinstance(c.get("component"), dict):
                walk([c["component"]])

    walk(data.get("components", []))
    return values
