"""What the bot shows of a Tug game: ``TugState.summary()``, typed; ``to_json`` is the export's ``state``."""

from __future__ import annotations

import dataclasses
from dataclasses import dataclass

from engine.core import JSON


@dataclass(frozen=True)
class TugSummary:
    turn: int  # the turn being played (the last one once the game is over)
    player: int
    automaton: int
    difficulty: str
    finished: bool

    def to_json(self) -> JSON:
        return dataclasses.asdict(self)
