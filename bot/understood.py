"""Which card a forgiving name was read as: 「ナリア」 → 女預言者ナリア (#12), "Elite Troper" → Elite Trooper.

A card named by part of its name or with a typo is accepted when exactly one card fits (the catalogs'
``resolve``); the reply then says which card was understood, so a wrong guess is seen and undone at once.
Seasons' commands turn names into ids before the engine sees them (``note`` records what they read);
Volfyirion's engine reads the typed names itself (``from_action`` reads them back from the action).
"""

from __future__ import annotations

from contextvars import ContextVar
from typing import Any

from engine.core import Action

from .i18n import t

_NOTES: ContextVar[list[tuple[str, str, str]] | None] = ContextVar("understood", default=None)
CARD_ARGS = ("card", "cards", "troop")


def collecting() -> list[tuple[str, str, str]]:
    """Start collecting for the command being handled (the list is shared with the tasks it starts)."""
    notes: list[tuple[str, str, str]] = []
    _NOTES.set(notes)
    return notes


def note(game: str, typed: str, card_id: str) -> None:
    notes = _NOTES.get()
    if notes is not None and (game, typed, card_id) not in notes:
        notes.append((game, typed, card_id))


def from_action(kind: str, action: Action | None) -> list[tuple[str, str, str]]:
    """Names in a Volfyirion action that were not exact: (game, typed, card)."""
    if kind != "volfyirion" or action is None:
        return []
    from engine.core import split_list
    from engine.volfyirion.cards import CATALOG

    found = []
    for name in CARD_ARGS:
        value: Any = action.args.get(name)
        typed = split_list(value) if isinstance(value, str) else value if isinstance(value, list) else []
        for text in typed:
            if not isinstance(text, str) or text in CATALOG:
                continue
            resolved = CATALOG.resolve(text)
            if resolved is not None and not resolved[1]:
                found.append((kind, text, resolved[0].name))
    return found


def text(lang: str, notes: list[tuple[str, str, str]]) -> str | None:
    """One line per card read from a partial name or a typo, or None when every name was exact."""
    lines = []
    for game, typed, card_id in notes:
        line = "🔎 " + t(lang, "card.understood", game=game, query=typed, card=card_id)
        if line not in lines:
            lines.append(line)
    return "\n".join(lines) or None
