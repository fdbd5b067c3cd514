"""One card option for every command that names cards: autocomplete and resolution, per game.

``CardOption`` says how a game's cards are named (its catalog, its miss with suggestions, the button argument
of a card); ``CardTransformer`` (a discord.py ``Transformer``) serves an option's autocomplete (in both
languages, filtered for the command) and hands the command the typed text as ``Typed``, resolved when the
action is built, under the channel's lock: an unknown or ambiguous name is refused with its "did you mean"
suggestions and, when they fit, candidate buttons that complete the command (Pick, don't retype). A command
only annotates its option::

    Card: TypeAlias = app_commands.Transform[Typed, CardTransformer(GAME_CARDS)]
    async def played(self, interaction, card: Card) -> None:
        ... Action("played", card=card.pick("pk_played")) ...
"""

from __future__ import annotations

from collections.abc import Awaitable, Callable, Iterable
from dataclasses import dataclass
from typing import Any

import discord
from discord import app_commands

from engine.core import Catalog

from ..replies import lang
from .common import card_choices, ids_of, ids_or_pick

ChoicesSource = Callable[[discord.Interaction, str], Awaitable[list[app_commands.Choice[str]]]]


@dataclass(frozen=True)
class CardOption:
    """How one game's cards are typed: ``catalog()`` (read lazily), ``miss(text)`` raising the game's own
    unknown-card error (the catalog's by default) and ``arg(card_id)``, a card as a button argument carries it
    (its id by default)."""

    kind: str
    catalog: Callable[[], Catalog[Any]]
    miss: Callable[[str], Any] | None = None
    arg: Callable[[str], str] = str

    def ids(self, text: str | Iterable[str]) -> list[str]:
        """Card ids for what was typed (a comma-separated list or a list of names); a miss raises."""
        return ids_of(self.catalog(), text, miss=self.miss)

    def pick(self, text: str, op: str, encode: Callable[[str], str | None] = lambda arg: arg) -> str:
        """The one card typed; unknown or ambiguous, a refusal whose candidate buttons (``op``, ``encode`` of the
        card's button argument, None for no button) complete the command."""
        return ids_or_pick(self.ids, [text], op, lambda ids: encode(self.arg(ids[0])))[0]

    def pick_many(self, text: str, op: str) -> list[str]:
        """The cards of a typed list; the candidate buttons carry the whole list with the miss replaced."""
        return ids_or_pick(self.ids, text, op, lambda ids: ".".join(self.arg(i) for i in ids))


class Typed(str):
    """What was typed in a card option (a ``str``), with the game's ``CardOption`` to resolve it."""

    option: CardOption

    def __new__(cls, text: str, option: CardOption) -> Typed:
        typed = super().__new__(cls, text)
        typed.option = option
        return typed

    def pick(self, op: str, encode: Callable[[str], str | None] = lambda arg: arg) -> str:
        return self.option.pick(str(self), op, encode)

    def pick_many(self, op: str) -> list[str]:
        return self.option.pick_many(str(self), op)


class CardTransformer(app_commands.Transformer):
    """A card option of ``option``'s game: a string of ``max_length`` characters at most, completed from the
    catalog (cards passing ``keep``; with ``multiple``, the last item of a comma-separated list) or by
    ``source`` (choices read from the game, e.g. the cards in play)."""

    def __init__(self, option: CardOption, *, max_length: int = 100, multiple: bool = False,
                 keep: Callable[[Any], bool] | None = None, source: ChoicesSource | None = None) -> None:
        self.card_option = option
        self.max_length = max_length
        self.multiple = multiple
        self.keep = keep
        self.source = source

    @property
    def type(self) -> discord.AppCommandOptionType:
        return discord.AppCommandOptionType.string

    @property
    def min_value(self) -> int:
        return 1

    @property
    def max_value(self) -> int:
        return self.max_length

    async def transform(self, interaction: discord.Interaction, value: Any, /) -> Typed:
        return Typed(str(value), self.card_option)

    # discord.py types the choices of any option as Choice[int | float | str] (a list, so invariant); a string
    # option's are Choice[str].
    async def autocomplete(  # type: ignore[override]
        self, interaction: discord.Interaction, value: Any, /,
    ) -> list[app_commands.Choice[str]]:
        current = str(value or "")
        if self.source is not None:
            return await self.source(interaction, current)
        return card_choices(lang(interaction), self.card_option.kind, self.card_option.catalog(), current,
                            keep=self.keep, multiple=self.multiple)
