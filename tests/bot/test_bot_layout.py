"""Components V2's limits, measured on the bot's own replies (issue 35, point 3): the largest reply each game can
make — the step of whole games with the most controls, its state in full, its events many times over, the
picture — fits 40 components and 4,000 characters of text, its events clipped with "…", none of its controls lost.
And the guard itself: over the limits, the layout gives way (text first, then the last rows), never Discord."""

from __future__ import annotations

import asyncio
import dataclasses
from types import SimpleNamespace
from typing import Any

import discord
import pytest

from bench.bench_reply import LOCALES, changes, controller
from bot.buttons import ButtonSpec, SelectSpec, item_of, rows_of
from bot.render.layout import MAX_COMPONENTS, MAX_TEXT, Card, layout

SECTION, TEXT_DISPLAY = 9, 10


def counted(components: list[dict[str, Any]]) -> int:
    """Components as Discord counts them: each one, those nested in containers, rows and sections included."""
    total = 0
    for c in components:
        total += 1 + counted(c.get("components") or [])
        if isinstance(c.get("accessory"), dict):
            total += 1
    return total


def text_length(components: list[dict[str, Any]]) -> int:
    total = 0
    for c in components:
        if c.get("type") == TEXT_DISPLAY:
            total += len(c["content"])
        total += text_length(c.get("components") or [])
    return total


def controls(components: list[dict[str, Any]]) -> list[str]:
    found = []
    for c in components:
        if "custom_id" in c:
            found.append(c["custom_id"])
        found += controls(c.get("components") or [])
        if isinstance(c.get("accessory"), dict):
            found += controls([c["accessory"]])
    return found


def largest(kind: str, lg: str) -> tuple[Any, Any]:
    """The change of whole games of ``kind`` whose full reply has the most controls, and the controller."""
    ctl = controller()
    interaction = SimpleNamespace(locale=LOCALES[lg])
    best = max((p for p in changes(quick=False) if p.row.kind == kind),
               key=lambda p: sum(map(len, ctl.compose(interaction, p, picture=True).controls)))
    return ctl, best


@pytest.mark.parametrize("lg", ["en", "ja"])
@pytest.mark.parametrize("kind", ["seasons", "volfyirion"])
def test_the_largest_reply_of_each_game_fits_discords_limits(kind: str, lg: str) -> None:
    async def build() -> None:
        ctl, played = largest(kind, lg)
        events = played.step.events * 200  # far more than a step makes: the events must give way
        step = dataclasses.replace(played.step, events=events)
        many = dataclasses.replace(played, step=step)
        interaction = SimpleNamespace(locale=LOCALES[lg])
        composed = ctl.compose(interaction, many, picture=True, note="!" * 300)
        assert events and composed.card.state  # the state in full
        payload = composed.view(picture=True).to_components()
        assert counted(payload) <= MAX_COMPONENTS
        assert text_length(payload) <= MAX_TEXT
        head = payload[0]["components"][0]["content"]
        assert head.endswith("…")  # the events clipped, with a mark
        wanted = [item.custom_id for row in composed.controls for item in row]
        wanted += [composed.undo.custom_id] if composed.undo is not None else []
        assert sorted(controls(payload)) == sorted(wanted) and wanted  # every control is there
        state_shown = composed.card.state.split("\n")[0][:20]
        assert any(state_shown in c.get("content", "") for c in payload[0]["components"])
    asyncio.run(build())


def test_over_the_limits_the_layout_gives_way_not_discord() -> None:
    """A card of 13,000 characters, 25 buttons in five rows, undo beside the footer and a sixth row (more than any
    game sends): the text is clipped to 4,000 characters, the last row goes so that 40 components remain, and what
    is left is still a valid layout."""
    async def build() -> None:
        card = Card(accent=0x123456, title="T", events="• e\n" * 2500, now="**Now**\n" + "n" * 500,
                    state="s" * 3000, footer="Game #1 · action 2", notice="no picture")
        specs: list[ButtonSpec | SelectSpec] = [ButtonSpec(f"b{i}", f"B{i}") for i in range(25)]
        rows = rows_of(1, 2, specs)
        assert len(rows) == 5
        undo = item_of(1, 2, ButtonSpec("undo", "Undo"))
        assert isinstance(undo, discord.ui.DynamicItem)
        menu = item_of(1, 2, SelectSpec("more", "More", (("a", "a", None),)))
        payload = layout(card, [*rows, [menu]], undo=undo, picture=True).to_components()  # type: ignore[arg-type,list-item]
        assert counted(payload) <= MAX_COMPONENTS
        assert text_length(payload) <= MAX_TEXT
        kept = controls(payload)
        # 5 rows of 5 buttons and undo fit with the rest (39), the sixth row (the menu) would make 41: it went
        assert "solo:1:2:undo" in kept and len(kept) == 26 and "solo:1:2:more" not in kept
        assert payload[0]["components"][0]["content"].endswith("…")
    asyncio.run(build())


def test_a_field_whose_value_has_a_colon_of_its_own_goes_below_its_name():
    """One colon a line at most (docs/japanese.md): "When Volfyirion comes next: Cannot be known for now: …" reads as
    two labels, so such a value takes its own line; a plain value stays beside its name."""
    from bot.render.layout import field_text

    for value in ("Cannot be known for now: you reshuffled during the turn", "今はわかりません：ターン中に作り直しました"):
        assert all(line.count(":") + line.count("：") <= 1 for line in field_text("Next", value).splitlines())
    assert field_text("Turn", "2") == "**Turn**: 2"
