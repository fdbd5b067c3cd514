"""Seasons, Dummbot's Challenge: its plugin. Each part is imported when first asked (the engine, the command
group, Pillow's pictures), so the registry loads none of them."""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import TYPE_CHECKING, Any

from ...store.base import Ranking
from ..plugin import GamePlugin

if TYPE_CHECKING:
    from engine.core import Result, Rules

    from ...commands.cards import CardOption
    from ...controller import Controller
    from ...sessions import GameService
    from ...store.base import ResultRow
    from ..plugin import Fields, GameUI, Lines, StoreStep, Words


class SeasonsGame(GamePlugin[Any]):
    kind = "seasons"
    name = "Seasons"
    command = "seasons"
    colour = 0x3B82F6
    # The largest margin over Dummbot, won or lost; then the higher score.
    ranking = Ranking(order=(("margin", "desc"), ("player_score", "desc")), outcomes=("won", "lost"))
    difficulties = ("apprentice", "wizard", "archmage")
    help_keys = ("help.seasons", "help.seasons_report", "help.seasons_report_effects")

    def store_steps(self, engine: str) -> Mapping[int, Sequence[StoreStep]]:
        from .migrations import STEPS  # only when a database migrates

        return STEPS.get(engine, {})

    def rules(self) -> Rules:
        return _engine().RULES

    def commands(self, controller: Controller, service: GameService) -> Any:
        return self._module("commands").SeasonsCommands(controller, service)

    def ui(self) -> GameUI:
        return self._module("commands").SeasonsUI()

    def leaderboard_row(self, lang: str, row: ResultRow) -> str:
        """The margin over Dummbot, both scores and the difficulty."""
        from ...i18n import t

        margin = "—" if row.margin is None else t(lang, "leaderboard.margin", margin=row.margin)
        return t(lang, "leaderboard.seasons_row", margin=margin, player=row.player_score, dummbot=row.opponent_score,
                 difficulty=row.difficulty)

    def help_params(self, key: str) -> dict[str, Any]:
        """The cards to report with `/seasons played`: every card of the S-8 table (the engine's list)."""
        return {"cards": list(_engine().S8_CARDS), "game": "seasons"} if key == "help.seasons_report" else {}

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

        return t(lang, "console.where.seasons", year=summary.year, month=summary.month)

    def card_option(self) -> CardOption:
        return self._module("commands").CARDS

    def card_fields(self, lang: str, card_id: str, summary: Any) -> Lines:
        return self._module("card").card_fields(lang, card_id, summary)

    def make_words(self) -> Words:
        return self._module("text").WORDS



def _engine() -> Any:
    import engine.seasons

    return engine.seasons
