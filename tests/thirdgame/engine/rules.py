"""Tug's rules (the ``Rules`` protocol of engine/core): each turn the player pushes (+1 for the player, then the
automaton pulls 0–2 with the seeded die) or passes (the automaton gains 1)."""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import replace

from engine.core import JSON, Action, Event, Rng, RuleError, Step

from .state import TURNS, TugState

DIFFICULTIES = ("normal",)


class TugRules:
    game = "tug"
    version = 1
    result_names: Mapping[str, str | None] = {}  # its result says its fields in the shared words

    def normalize_options(self, options: Mapping[str, object]) -> JSON:
        difficulty = str(options.get("difficulty", "normal"))
        if difficulty not in DIFFICULTIES:
            raise RuleError("tug.bad_option", value=difficulty)
        return {"difficulty": difficulty}

    def new_game(self, options: Mapping[str, object], seed: int) -> Step[TugState]:
        opts = self.normalize_options(options)
        state = TugState(1, 0, 0, int(seed) & 0xFFFFFFFF, opts["difficulty"])
        return Step(state, (Event("tug.event.started", turns=TURNS),), state.waiting)

    def apply(self, state: TugState, action: Action) -> Step[TugState]:
        if action.type not in state.waiting.legal:
            raise RuleError("tug.not_now", action=action.type)
        rng = Rng(state.rng)
        if action.type == "push":
            pulled = rng.randbelow(3)
            new = replace(state, player=state.player + 1, automaton=state.automaton + pulled)
            events = [Event("tug.event.pulled", n=pulled)]
        else:
            new = replace(state, automaton=state.automaton + 1)
            events = [Event("tug.event.passed")]
        new = replace(new, turn=state.turn + 1, rng=rng.randbelow(1 << 32))
        if new.finished:
            events.append(Event("tug.event.over", player=new.player, automaton=new.automaton))
        return Step(new, tuple(events), new.waiting)

    def reversal(self, before: TugState, action: Action, step: Step[TugState]) -> tuple[Event, ...]:
        return ()  # a tug has nothing on a table to put back

    def state_from_json(self, data: JSON) -> TugState:
        return TugState.from_json(data)


RULES = TugRules()
