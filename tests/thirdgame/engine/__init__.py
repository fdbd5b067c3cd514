"""Tug's engine, laid out as engine/<game>/ is: pure, seeded, immutable states, canonical actions only.

    >>> from engine.core import Action, GameRecord
    >>> game = GameRecord(RULES, {}, seed=5)
    >>> game.push(Action("pass")).state.summary().automaton
    1
"""

from .autoplay import autoplay
from .rules import RULES, TugRules
from .state import TURNS, TugState
from .summary import TugSummary

__all__ = ["RULES", "TURNS", "TugRules", "TugState", "TugSummary", "autoplay"]
