"""The local console in-process: lines typed one at a time, each reply read back before the next line.

It is the console's own code (``bot.console.Console`` and its ``--json`` printer) on the stand-in, so a test
can decide what to type next from what the bot said (play on until the bot asks for 4 cards, say).
"""

from __future__ import annotations

import contextlib
import io
import json
from collections.abc import AsyncIterator
from pathlib import Path

from bot.console import Console
from bot.render.embeds import COLOURS
from bot.standin.driver import pressable, text_displays
from tests.support.console import console_at

# A seed whose game chose dice 4 and 5 of every season (S-1.4): table-dice tests that give Dummbot "6 crystals,
# 2 dots" or "6 crystals, 3 dots" in any season use it.
SIX_CRYSTALS_SEED = 8623


class Session:
    def __init__(self, console: Console, out: io.StringIO) -> None:
        self.console, self.out = console, out
        self._read = 0

    async def type(self, line: str) -> list[dict]:
        """Type one line; the JSON items printed for it."""
        await self.console.line(line)
        text = self.out.getvalue()
        items = [json.loads(x) for x in text[self._read:].splitlines() if x.strip()]
        self._read = len(text)
        return items


def refusals(items: list[dict]) -> list[str]:
    """The console's errors and the bot's private refusals (ephemeral, in the error colour) among ``items``."""
    found = [item["error"] for item in items if "error" in item]
    for item in items:
        if item.get("flags", 0) & 64:  # a V2 notice: one container, its accent the error colour
            found += ["\n".join(text_displays(c.get("components") or [])) for c in item.get("components") or []
                      if c.get("type") == 17 and c.get("accent_color") == COLOURS["error"]]
    return found


def text_of(items: list[dict]) -> str:
    """What the items say: content, embeds (a field as "name: value"), every Text Display of a Components V2
    reply (bot.standin.driver's reading; a state field reads "name: value" there too, bold marks left out) and
    the controls' labels."""
    parts = []
    for item in items:
        parts.append(item.get("content") or "")
        for e in item.get("embeds") or []:
            parts += [e.get("title") or "", e.get("description") or ""]
            parts += [f"{f.get('name')}: {f.get('value')}" for f in e.get("fields") or []]
        parts += [text.replace("**", "") for text in text_displays(item.get("components") or [])]  # bold: no words
        parts += [c.get("label") or "" for c in pressable(item)]
    return "\n".join(p for p in parts if p)


def buttons(items: list[dict]) -> list[str]:
    """The labels of the last message with components, in the console's numbering (1 first)."""
    for item in reversed(items):
        controls = pressable(item)
        if controls:
            return [c.get("label") or c.get("placeholder") or "" for c in controls]
    return []


def press_line(items: list[dict], label: str) -> str:
    """The console line that presses the button labelled ``label`` of the last message with components."""
    labels = buttons(items)
    assert label in labels, f"no “{label}” among {labels}"
    return f"press {labels.index(label) + 1}"


@contextlib.asynccontextmanager
async def console_session(db_path: Path, *, lang: str = "en", seed: int = 7) -> AsyncIterator[Session]:
    async with console_at(db_path, lang=lang, seed=seed) as (console, out, _standin):
        yield Session(console, out)


async def type_all(session, lines: list[str]) -> list[dict]:
    """Each line typed in turn, none refused; the last line's reply."""
    items: list[dict] = []
    for line in lines:
        items = await session.type(line)
        assert refusals(items) == [], (line, text_of(items))
    return items
