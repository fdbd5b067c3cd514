"""A start without a difficulty (issue 36, point 3): the bot asks which, one button per difficulty, and from the
player's own history (every place they played) it suggests one, its button first in colour.

Asking, rather than starting at a default and offering to start over: nothing is stored until the player taps, so
the game's number, its thread's name and the player's record hold only the game they meant to play, and the
suggestion is never applied unless tapped (never a silent default). One tap either way.

The rule (docs/playing.md says it too): look at the player's latest won or lost games of this game at the level they
played last (up to ``WINDOW``). Won at least ``ENOUGH`` of them → the next harder level; lost at least ``ENOUGH`` →
the next easier; else that level again. Abandoned games say nothing of the level and are left out.

The question's buttons carry its token and the difficulty (``solo:0:0:begin:<token>.<difficulty>``); the rest of
what was typed (dice, bonus, cities, thread) is held here, in memory and bounded, as the refusals' forms are: after
a restart the button says so and the player types the start again.
"""

from __future__ import annotations

import weakref
from collections import OrderedDict
from collections.abc import Awaitable, Callable, Sequence
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any

import discord

from ..buttons import ButtonSpec, rows_of
from ..i18n import t
from ..render.embeds import colour_of
from ..render.notices import Notice, notice
from ..replies import lang, send
from ..store import ResultRow

if TYPE_CHECKING:
    from ..controller import Controller

WINDOW = 4  # the latest results at one level the rule reads
ENOUGH = 3  # of them, won (or lost) to suggest a harder (easier) level
OP = "begin"


@dataclass(frozen=True)
class Suggestion:
    difficulty: str
    key: str  # suggest.harder | suggest.easier | suggest.same | suggest.top | suggest.bottom
    params: dict[str, Any]


def suggest(recent: Sequence[ResultRow], levels: Sequence[str]) -> Suggestion | None:
    """The difficulty to suggest from the player's latest results of one game (newest first, won or lost only),
    ``levels`` from easiest to hardest; None without history."""
    if not recent or not levels:
        return None
    last = recent[0].difficulty
    if last is None or last not in levels:
        return None
    at_level = [r for r in recent if r.difficulty == last][:WINDOW]
    wins = sum(r.outcome == "won" for r in at_level)
    losses = len(at_level) - wins
    i = levels.index(last)
    params = {"wins": wins, "losses": losses, "count": len(at_level), "level": last}
    if wins >= ENOUGH:
        if i + 1 < len(levels):
            return Suggestion(levels[i + 1], "suggest.harder", params)
        return Suggestion(last, "suggest.top", params)
    if losses >= ENOUGH:
        if i > 0:
            return Suggestion(levels[i - 1], "suggest.easier", params)
        return Suggestion(last, "suggest.bottom", params)
    return Suggestion(last, "suggest.same", params)


@dataclass(frozen=True)
class Asked:
    user_id: int
    kind: str
    options: dict[str, Any]
    thread: bool


class AskedStarts:
    """The starts waiting for their difficulty, by token; bounded (the oldest go first), in memory only."""

    def __init__(self, size: int = 256) -> None:
        self.size = size
        self._asked: OrderedDict[str, Asked] = OrderedDict()

    def keep(self, token: str, asked: Asked) -> None:
        self._asked[token] = asked
        while len(self._asked) > self.size:
            self._asked.popitem(last=False)

    def get(self, token: str) -> Asked | None:
        return self._asked.get(token)


# One per controller (a test runs several bots in one process).
_ASKED: weakref.WeakKeyDictionary[Controller, AskedStarts] = weakref.WeakKeyDictionary()
Begin = Callable[[discord.Interaction, str, dict[str, Any], bool], Awaitable[None]]


def asked_starts(controller: Controller, begin: Begin) -> AskedStarts:
    """The controller's waiting starts, its button op installed the first time (``begin`` starts a game)."""
    found = _ASKED.get(controller)
    if found is None:
        found = _ASKED[controller] = AskedStarts()

        async def pressed(interaction: discord.Interaction, _ply: int, arg: str | None) -> None:
            await on_begin(found, begin, interaction, arg)

        controller.ops[OP] = pressed
    return found


async def ask_difficulty(controller: Controller, asked: AskedStarts, interaction: discord.Interaction, kind: str,
                         options: dict[str, Any], thread: bool) -> None:
    """Ask which difficulty, privately (the suggestion tells of games played elsewhere): a button per level."""
    lg = lang(interaction)
    levels: tuple[str, ...] = getattr(controller.games.get(kind), "difficulties", ())  # GamePlugin's
    recent = await controller.service.store.recent_results(interaction.user.id, kind, limit=WINDOW * len(levels))
    suggestion = suggest(recent, levels)
    token = format(interaction.id, "x")
    asked.keep(token, Asked(interaction.user.id, kind, dict(options), thread))
    specs = [ButtonSpec(OP, t(lg, f"word.{level}"), arg=f"{token}.{level}",
                        style=discord.ButtonStyle.primary if suggestion and level == suggestion.difficulty
                        else discord.ButtonStyle.secondary) for level in levels]
    if suggestion is not None:  # the suggested level first: one glance, one tap
        specs.sort(key=lambda s: s.style != discord.ButtonStyle.primary)
        text = suggestion_text(lg, suggestion) + "\n" + t(lg, "suggest.pick", game=kind)
    else:
        text = t(lg, "suggest.first", game=kind)
    asking = Notice(accent=colour_of(kind), description=text)
    await send(interaction, notice=asking, rows=rows_of(0, 0, list(specs)), ephemeral=True)


def suggestion_text(lg: str, suggestion: Suggestion) -> str:
    """The suggestion in words. "The same level" says the tally with no zero count (ja-style): 「2勝」, 「1勝1敗」;
    after a single game there, whether it was won or lost."""
    params = suggestion.params
    words = {**params, "level": t(lg, f"word.{params['level']}"), "suggested": t(lg, f"word.{suggestion.difficulty}")}
    key = suggestion.key
    if key == "suggest.same":
        wins, losses = params["wins"], params["losses"]
        if params["count"] == 1:
            key = "suggest.same_won" if wins else "suggest.same_lost"
        words["tally"] = t(lg, "tally.both" if wins and losses else "tally.won" if wins else "tally.lost",
                           wins=wins, losses=losses)
    return t(lg, key, **words)


async def on_begin(asked: AskedStarts, begin: Begin, interaction: discord.Interaction, arg: str | None) -> None:
    """A difficulty tapped: the start that asked goes ahead with it (only its player may tap; a second tap while
    that game is on is refused as any start in a busy channel is)."""
    lg = lang(interaction)
    token, _, difficulty = (arg or "").partition(".")
    waiting = asked.get(token)
    if waiting is None:
        await send(interaction, notice=notice(lg, "suggest.expired"), ephemeral=True)
        return
    if waiting.user_id != interaction.user.id:
        await send(interaction, notice=notice(lg, "suggest.not_yours"), ephemeral=True)
        return
    await begin(interaction, waiting.kind, {**waiting.options, "difficulty": difficulty}, waiting.thread)
