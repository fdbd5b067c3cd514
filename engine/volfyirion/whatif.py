"""What-ifs around the danger meter (V-6): decision help the paper game does not give.

Everything here is computed through the engine itself — ``danger`` for the Rage Pile's distribution and
``RULES.apply`` for an action's effect — so any change to the attack's arithmetic (V-4.3, V-5.3) flows
through unchanged:

- ``danger_meter``: the meter now, whether an attack can come at all this turn (the token on its Lair
  means it cannot: V-3.4, V-4), and the meter once the top card is put aside (V-2.2), before paying for it;
- ``removal_outcomes``: at an attack that asks which Troop to remove (V-4.1), which cities fall for each
  choice (later choices of the same attack taken at their best for the player).
"""

from __future__ import annotations

from dataclasses import dataclass

from engine.core import Action, RuleError

from .danger import Danger, danger
from .rules import RULES
from .state import CHOOSE_BUILDING, CHOOSE_TROOP, VolfState


@dataclass(frozen=True, slots=True)
class DangerMeter:
    """``/volfyrion danger``: the meter now; whether an attack can come this turn at all (not while the token is
    on its Lair, unless the player reshuffles); the meter with the top card put aside, when that is possible."""

    now: Danger
    attack_this_turn: bool
    putaside: Danger | None
    putaside_top_known: bool


@dataclass(frozen=True, slots=True)
class Removal:
    """Taking the Troop of ``city`` (V-4.1): the cities this attack then destroys, whether the game is lost, and
    the attack's value (None when no Command card attacks)."""

    city: str
    fallen: tuple[str, ...]
    lost: bool
    attack: int | None


def danger_meter(state: VolfState, *, seed: int = 0, method: str = "auto") -> DangerMeter:
    """The meter now (``DangerMeter``): ``now`` for an attack at the end of this turn whether or not the token is
    away, ``putaside`` once the top card is put aside (6 BP or 6 KP): the known top card leaves, or else one
    unseen card does."""
    return DangerMeter(danger(state, seed=seed, method=method), state.token == "rage_pile",
                       _putaside(state, seed, method), state.rage_top is not None)


def _putaside(state: VolfState, seed: int, method: str) -> Danger | None:
    """The meter on the state the engine reaches once the top card is put aside, when that is possible now."""
    if state.rage_size == 0 or "putaside" not in state.waiting.legal:
        return None
    try:
        after = RULES.apply(state, Action("putaside", paid="battle")).state
    except RuleError:
        return None
    return danger(after, seed=seed, method=method)


def removal_outcomes(state: VolfState) -> tuple[Removal, ...]:
    """A ``Removal`` for each city the player may take a Troop from (V-4.1); empty unless the engine waits for
    that choice. Buildings never change the attack, so their choice gets no what-if."""
    if state.phase != CHOOSE_TROOP:
        return ()
    standing_before = {c["name"] for c in state.standing()}
    outcomes: list[Removal] = []
    for city in state.waiting.params.get("cities", []):
        best = _best_ending(state, Action("choose", city=city))
        if best is None:
            continue
        final, attack = best
        fallen = tuple(c["name"] for c in final.cities if c["destroyed"] and c["name"] in standing_before)
        result = final.result() if final.finished else None
        outcomes.append(Removal(city, fallen, result is not None and result.outcome == "lost", attack))
    return tuple(outcomes)


# The attack line's keys, one per reading of the difficulty bonus (engine/volfyirion/attack.py).
_ATTACK_LINES = ("volfyirion.event.attack_flat", "volfyirion.event.attack_per_city")


def _best_ending(state: VolfState, action: Action) -> tuple[VolfState, int | None] | None:
    """The attack's end after ``action``, with any further choice made to save the most cities."""
    try:
        step = RULES.apply(state, action)
    except RuleError:
        return None
    attack = next((e.params.get("attack") for e in step.events if e.key.startswith(_ATTACK_LINES)), None)
    new = step.state
    if new.phase not in (CHOOSE_TROOP, CHOOSE_BUILDING):
        return new, attack
    best: tuple[VolfState, int | None] | None = None
    for city in new.waiting.params.get("cities", []):
        found = _best_ending(new, Action("choose", city=city))
        if found is None:
            continue
        if best is None or _fallen(found[0]) < _fallen(best[0]):
            best = found[0], found[1] if found[1] is not None else attack
    return best


def _fallen(state: VolfState) -> int:
    return sum(1 for c in state.cities if c["destroyed"])
