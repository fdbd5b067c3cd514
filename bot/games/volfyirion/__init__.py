"""Volfyirion's solo mode: its plugin. Each part is imported when first asked (the engine, the command group,
Pillow's pictures), so the registry loads none of them."""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import TYPE_CHECKING, Any

from ...store.base import Ranking
from ..plugin import GamePlugin

if TYPE_CHECKING:
    from engine.core import Action, Result, Rules

    from ...commands.cards import CardOption
    from ...controller import Controller
    from ...sessions import GameService
    from ...store.base import ResultRow
    from ..plugin import Fields, GameUI, Lines, StoreStep, Words

CARD_ARGS = ("card", "cards", "troop")


class VolfyirionGame(GamePlugin[Any]):
    kind = "volfyirion"
    name = "Volfyirion"
    command = "volfyrion"  # the spelling players type
    colour = 0xB91C1C
    ranking = Ranking(order=(("length", "asc"),), outcomes=("won",))  # the fewest turns to a win
    difficulties = ("easy", "normal", "hard")
    help_keys = ("help.volfyirion", "help.volfyirion_report")

    def store_steps(self, engine: str) -> Mapping[int, Sequence[StoreStep]]:
        from .migrations import STEPS  # only when a database migrates

        return STEPS.get(engine, {})

    def rules(self) -> Rules:
        from engine.volfyirion import RULES

        return RULES

    def commands(self, controller: Controller, service: GameService) -> Any:
        return self._module("commands").VolfyirionCommands(controller, service)

    def ui(self) -> GameUI:
        return self._module("commands").VolfyirionUI()

    def leaderboard_row(self, lang: str, row: ResultRow) -> str:
        """The turn of the win, how, and the difficulty."""
        from ...i18n import t

        return t(lang, "leaderboard.volfyirion_row", turns=row.length, how=row.how, difficulty=row.difficulty)

    def state_fields(self, lang: str, summary: Any) -> Fields:
        return self._module("embed").state_fields(lang, summary)

    def state_colour(self, summary: Any) -> int | None:
        return self._module("embed").colour(summary)

    def result_lines(self, lang: str, result: Result, parts: dict[str, Any]) -> Lines:
        return self._module("embed").result_lines(lang, result, parts)

    def result_picture(self, draw: Any, lang: str, result: Result, parts: dict[str, Any], won: bool) -> None:
        self._module("embed").result_picture(draw, lang, result, parts, won)

    def progress(self, lang: str, summary: Any) -> str:
        from ...i18n import t

        return t(lang, "console.where.volfyirion", turn=summary.turn)

    def names_read(self, action: Action) -> list[tuple[str, str]]:
        """Names in an action that were not exact (a part of a name, a typo): (typed, card). The engine reads
        typed names itself, so they are read back from the action."""
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
                    found.append((text, resolved[0].name))
        return found

    def card_option(self) -> CardOption:
        return self._module("commands").CARDS

    def card_fields(self, lang: str, card_id: str, summary: Any) -> Lines:
        return self._module("card").card_fields(lang, card_id, summary)

    def make_words(self) -> Words:
        return self._module("text").WORDS

