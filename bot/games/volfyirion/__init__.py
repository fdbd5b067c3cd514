"""Volfyirion's solo mode: its plugin. Each part is imported when first asked (the engine, the command group,
Pillow's pictures), so the registry loads none of them."""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import TYPE_CHECKING, Any

from ...store.base import Ranking
from ..plugin import GamePlugin

if TYPE_CHECKING:
    from engine.core import Result, Rules
    from engine.volfyirion.state import VolfState
    from engine.volfyirion.summary import VolfyirionSummary

    from ..plugin import CardTyping, CommandGroup, Fields, Front, GameUI, Lines, ResultRow, StoreStep, Words



class VolfyirionGame(GamePlugin["VolfyirionSummary", "VolfState"]):
    kind = "volfyirion"
    name = "Volfyirion"
    command = "volfyrion"  # the spelling players type
    colour = 0xB91C1C
    ranking = Ranking(order=(("length", "asc"),), outcomes=("won",))  # the fewest turns to a win
    help_keys = ("help.volfyirion", "help.volfyirion_report")

    def store_steps(self, engine: str) -> Mapping[int, Sequence[StoreStep]]:
        from .migrations import STEPS  # only when a database migrates

        return STEPS.get(engine, {})

    @property
    def difficulties(self) -> tuple[str, ...]:
        from engine.volfyirion.summary import Difficulty

        return tuple(d.value for d in Difficulty)

    def rules(self) -> Rules[VolfState]:
        from engine.volfyirion import RULES

        return RULES

    def commands(self, controller: Front, service: Front) -> CommandGroup:
        from .front.commands import VolfyirionCommands

        return VolfyirionCommands(controller, service)

    def ui(self) -> GameUI[VolfyirionSummary, VolfState]:
        from .front.commands import VolfyirionUI

        return VolfyirionUI()

    def leaderboard_row(self, lang: str, row: ResultRow) -> str:
        """The turn of the win, how, and the difficulty."""
        from ...i18n import t

        return t(lang, "leaderboard.volfyirion_row", turns=row.length, how=row.how, difficulty=row.difficulty)

    def state_fields(self, lang: str, summary: VolfyirionSummary) -> Fields:
        from .embed import state_fields

        return state_fields(lang, summary)

    def state_colour(self, summary: VolfyirionSummary) -> int | None:
        from .embed import colour

        return colour(summary)

    def result_lines(self, lang: str, result: Result, parts: dict[str, Any]) -> Lines:
        from .embed import result_lines

        return result_lines(lang, result, parts)

    def result_picture(self, draw: Any, lang: str, result: Result, parts: dict[str, Any], won: bool) -> None:
        from .front.result_picture import result_picture

        result_picture(draw, lang, result, parts, won)

    def progress(self, lang: str, summary: VolfyirionSummary) -> str:
        from ...i18n import t

        return t(lang, "console.where.volfyirion", turn=summary.turn)

    def card_option(self) -> CardTyping:
        from .front.commands import CARDS

        return CARDS

    def card_fields(self, lang: str, card_id: str, summary: VolfyirionSummary | None) -> Lines:
        from .card import card_fields

        return card_fields(lang, card_id, summary)

    def make_words(self) -> Words:
        from .text import WORDS

        return WORDS

