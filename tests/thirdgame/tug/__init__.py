"""Tug's plugin, laid out as bot/games/<game>/ is: each part imported when first asked (the engine, the command
group, the picture), so registering it loads none of them. Its strings are the default ``texts()``'s:
``locales/tug.<lang>.json`` beside this module."""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from bot.games.plugin import GamePlugin
from bot.store.base import Ranking

if TYPE_CHECKING:
    from discord import app_commands

    from bot.controller import Controller
    from bot.games.plugin import Fields, GameUI, Lines, Words
    from bot.sessions import GameService
    from bot.store.base import ResultRow
    from engine.core import Result, Rules
    from tests.thirdgame.engine import TugState, TugSummary


class TugGame(GamePlugin["TugSummary"]):
    kind = "tug"
    name = "Tug"
    command = "tug"
    colour = 0x10B981
    # The largest lead, then the shortest game (every tug is five turns: the earliest result first).
    ranking = Ranking(order=(("margin", "desc"), ("length", "asc")), outcomes=("won", "lost"))
    difficulties = ("normal",)
    help_keys = ("help.tug",)

    def rules(self) -> Rules[TugState]:
        from tests.thirdgame.engine import RULES

        return RULES

    def commands(self, controller: Controller, service: GameService) -> app_commands.Group:
        from .front.commands import TugCommands

        return TugCommands(controller, service)

    def ui(self) -> GameUI:
        from .front.commands import TugUI

        return TugUI()

    def leaderboard_row(self, lang: str, row: ResultRow) -> str:
        from .embed import leaderboard_row

        return leaderboard_row(lang, row)

    def state_fields(self, lang: str, summary: TugSummary) -> Fields:
        from .embed import state_fields

        return state_fields(lang, summary)

    def result_lines(self, lang: str, result: Result, parts: dict[str, Any]) -> Lines:
        from .embed import result_lines

        return result_lines(lang, result)

    def progress(self, lang: str, summary: TugSummary) -> str:
        from bot.i18n import t

        return t(lang, "console.where.tug", turn=summary.turn)

    def make_words(self) -> Words:
        from .text import WORDS

        return WORDS
