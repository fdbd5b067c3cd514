"""Tug, a third game that exists only under tests/: the proof that a game is its own files plus a registry entry.

An automaton with two actions: each turn the player pushes (+1 for the player, then the automaton pulls with a
seeded die) or passes (the automaton gains 1). After five turns the higher score wins; a tie goes to the
automaton. ``GAME`` is its plugin: a test appends it to ``bot.games.GAMES`` (``registered``); nothing outside
tests/thirdgame names it.
"""

from __future__ import annotations

from collections.abc import Iterator
from contextlib import contextmanager
from typing import Any

from bot import games
from bot.games import GamePlugin
from bot.store import Ranking

KIND = "tug"


class TugGame(GamePlugin[dict[str, Any]]):
    kind = KIND
    name = "Tug"
    command = "tug"
    colour = 0x10B981
    ranking = Ranking(order=(("margin", "desc"), ("length", "asc")), outcomes=("won", "lost"))
    difficulties = ("normal",)
    help_keys = ("help.tug",)

    def rules(self) -> Any:
        from .rules import RULES

        return RULES

    def commands(self, controller: Any, service: Any) -> Any:
        from .commands import TugCommands

        return TugCommands(controller, service)

    def ui(self) -> Any:
        from .commands import TugUI

        return TugUI()

    def leaderboard_row(self, lang: str, row: Any) -> str:
        from .embed import leaderboard_row

        return leaderboard_row(lang, row)

    def state_fields(self, lang: str, summary: dict[str, Any]) -> Any:
        from .embed import state_fields

        return state_fields(lang, summary)

    def result_lines(self, lang: str, result: Any, parts: dict[str, Any]) -> Any:
        from .embed import result_lines

        return result_lines(lang, result, parts)

    def texts(self) -> dict[str, dict[str, str]]:
        from .texts import TEXTS

        return TEXTS


GAME = TugGame()


@contextmanager
def registered() -> Iterator[TugGame]:
    """Tug in the registry while the block runs (its strings come and go with it)."""
    from tests.support import typed

    from .embed import typed_command

    games.GAMES.append(GAME)
    typed.register(KIND, typed_command)  # what a player types for its actions, for the tests that replay games
    try:
        yield GAME
    finally:
        games.GAMES.remove(GAME)
