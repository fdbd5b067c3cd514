"""Tug, a third game that exists only under tests/: the proof that a game is its engine, its bot package and one
line in the registry, and that nothing else in the bot names it.

Each turn the player pushes (+1 for the player, then the automaton pulls 0–2 with the seeded die) or passes
(the automaton gains 1); after five turns the higher score wins, a tie goes to the automaton. Its files mirror
a built-in game's:

- ``engine/`` as ``engine/<game>/``: ``rules.py`` (``RULES``), ``state.py`` (the state, its JSON and result),
  ``summary.py`` (``TugSummary``, a frozen dataclass with ``to_json``), ``autoplay.py`` (seeded legal play);
- ``tug/`` as ``bot/games/<game>/``: ``__init__.py`` (``TugGame``, its ``GamePlugin``), ``commands.py`` (``/tug``
  and its ``GameUI``), ``embed.py``, ``board.py``, ``text.py`` (its ``Words``), ``locales/tug.{en,ja}.json``;
- ``tug_typed.py`` as ``tests/support/<game>_typed.py``: what a player types for an action (test support);
- ``console.py``: ``python -m tests.thirdgame.console``, the local console with Tug registered.

``registered()`` is the registry line (``GAMES.append``), for the block it runs.
"""

from __future__ import annotations

from collections.abc import Iterator
from contextlib import contextmanager

from bot import games
from tests.support import typed

from .tug import TugGame
from .tug_typed import tug_command

GAME = TugGame()
KIND = GAME.kind


@contextmanager
def registered() -> Iterator[TugGame]:
    """Tug in the registry while the block runs (its strings, commands and leaderboard come and go with it)."""
    games.GAMES.append(GAME)
    typed.register(KIND, tug_command)  # for the tests that replay its games through the bot
    try:
        yield GAME
    finally:
        games.GAMES.remove(GAME)

