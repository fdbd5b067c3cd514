"""Tug's plugin, laid out as bot/games/<game>/ is: each part imported when first asked (the engine, the command
group, the picture), so registering it loads none of them. Its strings are the default ``texts()``'s:
``locales/tug.<lang>.json`` beside this module."""

from __future__ import annotations

from typing import TYPE_CHECKING

from bot.games.plugin import GamePlugin
from bot.store.base import Ranking

if TYPE_CHECKING:
    from discord import app_commands

    from bot.controller import Controller
    from bot.games.plugin import Fields, GameUI, Lines, Words
    from bot.sessions import GameService
    from bot.store.base import ResultRow
    from engine.core import Result, Rules
    from tests.thirdgame.engine import TugSummary


class TugGame(GamePlugin["TugSummary"]):
    kind = "tug"
    name = "Tug"
    command = "tug"
    colour = 0x10B981
    # The largest lead, then the shortest game (every tug is five turns: the earliest result first).
    ranking = Ranking(order=(("margin", "desc"), ("length", "asc")), outcomes=("won", "lost"))
    difficulties = ("normal",)
    help_keys = ("help.tug",)

    def rules(self) -> Rules:
        from tests.thirdgame.engine import RULES

        return RULES

    def commands(self, controller: Controller, service: GameService) -> app_commands.Group:
        return self._module("commands").TugCommands(controller, service)

    def ui(self) -> GameUI:
        return self._module("commands").TugUI()

    def leaderboard_row(self, lang: str, row: ResultRow) -> str:
        return self._module("embed").leaderboard_row(lang, row)

    def state_fields(self, lang: str, summary: TugSummary) -> Fields:
        return self._module("embed").state_fields(lang, summary)

    def result_lines(self, lang: str, result: Result, parts: dict[str, object]) -> Lines:
        return self._module("embed").result_lines(lang, result)

    def progress(self, lang: str, summary: TugSummary) -> str:
        from bot.i18n import t

        return t(lang, "console.where.tug", turn=summary.turn)

    def make_words(self) -> Words:
        return self._module("text").WORDS
