"""The colours of what the bot says (a notice's own, each game's), and what a game shows of itself (``Shown``).

The bot sends no embed any more: a game's reply is laid out by bot/render/layout.py and everything else by
bot/render/notices.py, both Components V2. ``game_embed`` — a game's reply as the embed it was before — stays only
for bench/bench_reply.py, which measures the V2 reply's build cost against it. Every string comes from
bot/locales through ``t``.
"""

from __future__ import annotations

from typing import Any, Protocol

import discord

from engine.core import Event, Waiting

from ..i18n import event_lines, t
from ..registry import Registry

# A notice's colours; a game's own comes from its plugin (``colour_of``).
COLOURS = {"error": 0xDC2626, "won": 0x16A34A, "lost": 0x6B7280}


class Coloured(Protocol):
    """A game as a notice of its own shows it: in its colour."""

    @property
    def kind(self) -> str: ...
    @property
    def colour(self) -> int: ...


class Shown(Coloured, Protocol):
    """A game as its replies show it: the state's fields, and the colour its state gives (None: the game's)."""

    def state_fields(self, lang: str, summary: Any) -> list[tuple[str, str, bool]]: ...
    def state_colour(self, summary: Any) -> int | None: ...


_games: Registry[Coloured] = Registry(())


def use(games: Registry[Coloured]) -> None:
    """The games whose notices go in their own colour (``notices.notice(kind=<game>)``), from the entry point."""
    global _games
    _games = games
MAX_DESCRIPTION = 4000
MAX_FIELD = 1000


def clip(text: str, limit: int) -> str:
    return text if len(text) <= limit else text[: limit - 1] + "…"


def events_text(lang: str, events: tuple[Event, ...] | list[Event]) -> str:
    lines = [f"• {line}" for line in event_lines(lang, events)]
    return clip("\n".join(lines), MAX_DESCRIPTION)


def waiting_text(lang: str, waiting: Waiting) -> str:
    return clip(t(lang, waiting.key, **waiting.params), MAX_FIELD)


def game_embed(
    lang: str, *, game: Shown, game_id: int, ply: int, summary: object, events: tuple[Event, ...] | list[Event],
    waiting: Waiting | None, title_key: str = "reply.title", state: bool = True,
) -> discord.Embed:
    """A game's reply, without its picture (``Controller.show`` or the picture's edit adds it)."""
    embed = discord.Embed(title=t(lang, title_key, game=game.kind), colour=state_colour(game, summary))
    text = events_text(lang, events)
    if text:
        embed.description = text
    if waiting is not None and waiting.legal:
        embed.add_field(name=t(lang, "reply.now"), value=waiting_text(lang, waiting), inline=False)
    for name, value, inline in game.state_fields(lang, summary) if state else ():
        embed.add_field(name=name, value=clip(value, MAX_FIELD) or "—", inline=inline)
    embed.set_footer(text=t(lang, "reply.footer", game_id=game_id, ply=ply))
    return embed


def state_colour(game: Shown, summary: object) -> int:
    """A reply's colour: what its state says (e.g. the season), else the game's."""
    colour = game.state_colour(summary) if summary is not None else None
    return game.colour if colour is None else colour


def colour_of(kind: str) -> int:
    """A notice's colour: its own (``COLOURS``), else the game's of that kind."""
    if kind in COLOURS:
        return COLOURS[kind]
    game = _games.find(kind)
    return 0x6B7280 if game is None else game.colour
