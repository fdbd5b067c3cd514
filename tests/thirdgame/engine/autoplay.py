"""Seeded random legal play, as each engine's ``autoplay`` (the contract test's whole games)."""

from __future__ import annotations

from collections.abc import Mapping

from engine.core import Action, GameRecord, Rng

from .rules import RULES
from .state import TugState


def autoplay(options: Mapping[str, object] | None, seed: int, *, max_actions: int = 2000) -> GameRecord[TugState]:
    record = GameRecord(RULES, options or {}, seed)
    rng = Rng(seed + 1)
    while not record.state.finished and record.ply < max_actions:
        record.push(Action(("push", "pass")[rng.randbelow(2)]))
    return record
