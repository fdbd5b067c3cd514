"""Seasons, Dummbot's Challenge: its plugin. Each part is imported when first asked (the engine, the command
group, Pillow's pictures), so the registry loads none of them."""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import TYPE_CHECKING, Any

from ...store.base import Ranking
from ..plugin import GamePlugin

if TYPE_CHECKING:
    from engine.core import Action, Result, Rules
    from engine.seasons.state import SeasonsState
    from engine.seasons.summary import SeasonsSummary

    from ..plugin import CardTyping, CommandGroup, Fields, Front, GameUI, Lines, ResultRow, StoreStep, Words


class SeasonsGame(GamePlugin["SeasonsSummary", "SeasonsState"]):
    kind = "seasons"
    name = "Seasons"
    command = "seasons"
    colour = 0x3B82F6
    # The largest margin over Dummbot, won or lost; then the higher score.
    ranking = Ranking(order=(("margin", "desc"), ("player_score", "desc")), outcomes=("won", "lost"))
    help_keys = ("help.seasons", "help.seasons_report", "help.seasons_report_effects")

    def store_steps(self, engine: str) -> Mapping[int, Sequence[StoreStep]]:
        from .migrations import STEPS  # only when a database migrates

        return STEPS.get(engine, {})

    def action_params(self, before: SeasonsState, action: Action) -> dict[str, Any]:
        """The die taken is named by its face, not its position among the two rolled (ja-style, turn 4)."""
        index = action.args.number("index", -1)
        if action.type == "take" and before.rolled and index in (0, 1):
            return {"face": before.rolled[index]["face"]}
        return {}

    @property
    def difficulties(self) -> tuple[str, ...]:
        from engine.seasons.summary import Difficulty

        return tuple(d.value for d in Difficulty)

    def rules(self) -> Rules[SeasonsState]:
        from engine.seasons import RULES

        return RULES

    def commands(self, controller: Front, service: Front) -> CommandGroup:
        from .front.commands import SeasonsCommands

        return SeasonsCommands(controller, service)

    def ui(self) -> GameUI[SeasonsSummary, SeasonsState]:
        from .front.commands import SeasonsUI

        return SeasonsUI()

    def leaderboard_row(self, lang: str, row: ResultRow) -> str:
        """The margin over Dummbot, both scores and the difficulty."""
        from ...i18n import t

        margin = "—" if row.margin is None else t(lang, "leaderboard.margin", margin=row.margin)
        return t(lang, "leaderboard.seasons_row", margin=margin, player=row.player_score, dummbot=row.opponent_score,
                 difficulty=row.difficulty)

    def help_params(self, key: str) -> dict[str, Any]:
        """The cards to report with `/seasons played`: every card of the S-8 table (the engine's list)."""
        from engine.seasons import S8_CARDS

        return {"cards": list(S8_CARDS), "game": "seasons"} if key == "help.seasons_report" else {}

    def state_fields(self, lang: str, summary: SeasonsSummary) -> Fields:
        from .embed import state_fields

        return state_fields(lang, summary)

    def state_colour(self, summary: SeasonsSummary) -> int | None:
        from .embed import colour

        return colour(summary)

    def result_lines(self, lang: str, result: Result, parts: dict[str, Any]) -> Lines:
        from .embed import result_lines

        return result_lines(lang, result, parts)

    def result_picture(self, draw: Any, lang: str, result: Result, parts: dict[str, Any], won: bool) -> None:
        from .front.result_picture import result_picture

        result_picture(draw, lang, result, parts, won)

    def progress(self, lang: str, summary: SeasonsSummary) -> str:
        from ...i18n import t

        return t(lang, "console.where.seasons", year=summary.year, month=summary.month)

    def card_option(self) -> CardTyping:
        from .front.commands import CARDS

        return CARDS

    def card_fields(self, lang: str, card_id: str, summary: SeasonsSummary | None) -> Lines:
        from .card import card_fields

        return card_fields(lang, card_id, summary)

    def make_words(self) -> Words:
        from .text import WORDS

        return WORDS
