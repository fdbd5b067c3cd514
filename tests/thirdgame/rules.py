"""Tug's engine: pure, seeded, immutable states (the ``Rules`` protocol of engine/core)."""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, replace
from typing import Any, TypedDict

from engine.core import JSON, Action, Event, GameRecord, Result, Rng, RuleError, Step, Waiting

TURNS = 5


class TugSummary(TypedDict):
    turn: int
    player: int
    automaton: int
    difficulty: str
    finished: bool


@dataclass(frozen=True)
class TugState:
    turn: int
    player: int
    automaton: int
    rng: int
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
        return {"version": 1, "turn": self.turn, "player": self.player, "automaton": self.automaton, "rng": self.rng,
                "difficulty": self.difficulty}

    def summary(self) -> TugSummary:
        return {"turn": min(self.turn, TURNS), "player": self.player, "automaton": self.automaton,
                "difficulty": self.difficulty, "finished": self.finished}

    def result(self) -> Result | None:
        if not self.finished:
            return None
        return Result("won" if self.player > self.automaton else "lost", player_score=self.player,
                      opponent_score=self.automaton, length=TURNS)


class TugRules:
    game = "tug"
    version = 1

    def normalize_options(self, options: Mapping[str, Any]) -> JSON:
        difficulty = str(options.get("difficulty", "normal"))
        if difficulty != "normal":
            raise RuleError("tug.bad_option", value=difficulty)
        return {"difficulty": difficulty}

    def new_game(self, options: Mapping[str, Any], seed: int) -> Step:
        opts = self.normalize_options(options)
        state = TugState(1, 0, 0, int(seed) & 0xFFFFFFFF, opts["difficulty"])
        return Step(state, (Event("tug.event.started", turns=TURNS),), state.waiting)

    def apply(self, state: TugState, action: Action) -> Step:
        if action.type not in state.waiting.legal:
            raise RuleError("tug.not_now", action=action.type)
        rng = Rng(state.rng)
        events = []
        if action.type == "push":
            pulled = rng.randbelow(3)
            new = replace(state, player=state.player + 1, automaton=state.automaton + pulled)
            events.append(Event("tug.event.pulled", n=pulled))
        else:
            new = replace(state, automaton=state.automaton + 1)
            events.append(Event("tug.event.passed"))
        new = replace(new, turn=state.turn + 1, rng=rng.randbelow(1 << 32))
        if new.finished:
            events.append(Event("tug.event.over", player=new.player, automaton=new.automaton))
        return Step(new, tuple(events), new.waiting)

    def reversal(self, before: TugState, action: Action, step: Step) -> tuple[Event, ...]:
        return ()  # a tug has nothing on a table to put back

    def state_from_json(self, data: JSON) -> TugState:
        if data.get("version") != 1:
            raise RuleError("tug.state_version")
        return TugState(data["turn"], data["player"], data["automaton"], data["rng"], data["difficulty"])


RULES = TugRules()


def autoplay(options: Mapping[str, Any] | None, seed: int, *, max_actions: int = 2000) -> GameRecord:
    record = GameRecord(RULES, options or {}, seed)
    rng = Rng(seed + 1)
    while not record.state.finished and record.ply < max_actions:
        record.push(Action(("push", "pass")[rng.randbelow(2)]))
    return record
