"""A Tug game at one moment: immutable, with its own JSON, summary and result."""

from __future__ import annotations

from dataclasses import dataclass

from engine.core import JSON, Result, RuleError, Waiting

from .summary import TugSummary

TURNS = 5
VERSION = 1  # of the state's JSON


@dataclass(frozen=True)
class TugState:
    turn: int
    player: int
    automaton: int
    rng: int  # the seeded generator's next seed: the automaton's pulls replay from the game's seed
    difficulty: str

    @property
    def finished(self) -> bool:
        return self.turn > TURNS

    @property
    def waiting(self) -> Waiting:
        if self.finished:
            return Waiting("tug.waiting.finished", {"turn": TURNS}, ())
        return Waiting("tug.waiting.turn", {"turn": self.turn}, ("push", "pass"))

    def to_json(self) -> JSON:
        return {"version": VERSION, "turn": self.turn, "player": self.player, "automaton": self.automaton,
                "rng": self.rng, "difficulty": self.difficulty}

    @classmethod
    def from_json(cls, data: JSON) -> TugState:
        if data.get("version") != VERSION:
            raise RuleError("tug.state_version")
        return cls(data["turn"], data["player"], data["automaton"], data["rng"], data["difficulty"])

    def summary(self) -> TugSummary:
        return TugSummary(turn=min(self.turn, TURNS), player=self.player, automaton=self.automaton,
                          difficulty=self.difficulty, finished=self.finished)

    def result(self) -> Result | None:
        """After the last turn the higher score wins; a tie goes to the automaton."""
        if not self.finished:
            return None
        return Result("won" if self.player > self.automaton else "lost", player_score=self.player,
                      opponent_score=self.automaton, length=TURNS)
