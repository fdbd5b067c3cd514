"""Which card a forgiving name was read as: 「ナリア」 → 女預言者ナリア (#12), "Elite Troper" → Elite Trooper.

A card named by part of its name or with a typo is accepted when exactly one card fits (the catalogs'
``resolve``); the reply then says which card was understood, so a wrong guess is seen and undone at once.
The engines take card ids only: a game's commands turn names into ids and record what they read with ``note``.
"""

from __future__ import annotations

from contextvars import ContextVar

from .i18n import t

_NOTES: ContextVar[list[tuple[str, str, str]] | None] = ContextVar("understood", default=None)


def collecting() -> list[tuple[str, str, str]]:
    """Start collecting for the command being handled (the list is shared with the tasks it starts)."""
    notes: list[tuple[str, str, str]] = []
    _NOTES.set(notes)
    return notes


def note(game: str, typed: str, card_id: str) -> None:
    notes = _NOTES.get()
    if notes is not None and (game, typed, card_id) not in notes:
        notes.append((game, typed, card_id))


def text(lang: str, notes: list[tuple[str, str, str]]) -> str | None:
    """One line per card read from a partial name or a typo, or None when every name was exact."""
    lines = []
    for game, typed, card_id in notes:
        line = "🔎 " + t(lang, "card.understood", game=game, query=typed, card=card_id)
        if line not in lines:
            lines.append(line)
    return "\n".join(lines) or None
