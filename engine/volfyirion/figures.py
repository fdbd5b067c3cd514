"""The danger meter's figures (V-6) and the what-ifs, typed for the replies that word them.

``danger``, ``whatif`` and ``house`` compute them (as JSON, what their tests and the benchmarks read); here they
become the frozen dataclasses the bot reads by attribute: ``danger_meter`` for ``/volfyrion danger``,
``next_attack_figures`` for each turn's prompt, ``removal_figures`` for an attack that asks which Troop to
remove.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass
from enum import StrEnum
from typing import Any

from .state import VolfState
from .summary import BonusReading, Difficulty


class Method(StrEnum):
    EXACT = "exact"
    MONTECARLO = "montecarlo"


class Unknown(StrEnum):
    """Why the next attack's turn cannot be known (``volfyirion.next.unknown.<why>``)."""

    UNTRACKED = "untracked"  # a game saved before the bot counted the House Deck
    UNREPORTED = "unreported"  # a card played or removed that was never reported acquired
    RESHUFFLED = "reshuffled"  # a reshuffle during the turn
    MISSING = "missing"  # a reshuffle that was due did not come


@dataclass(frozen=True, slots=True)
class Formula:
    """The attack formula this game uses and what it adds now (V-4.3, V-5.3): Command costs + ``bonus``."""

    reading: BonusReading
    difficulty: Difficulty
    d: int
    destroyed: int
    bonus: int


@dataclass(frozen=True, slots=True)
class Danger:
    """The meter for an attack at the end of this turn."""

    p_city_falls: float
    p_game_lost: float
    expected_attack: float
    expected_wonders_sealed: float
    attack: tuple[tuple[int, float], ...]  # each attack value and its chance, in increasing value
    unknown: int  # the Rage cards nobody has seen
    method: Method
    formula: Formula

    @classmethod
    def of(cls, report: Mapping[str, Any]) -> Danger:
        return cls(
            p_city_falls=report["p_city_falls"], p_game_lost=report["p_game_lost"],
            expected_attack=report["expected_attack"], expected_wonders_sealed=report["expected_wonders_sealed"],
            attack=tuple((int(v), p) for v, p in sorted(report["attack"].items())), unknown=report["unknown"],
            method=Method(report["method"]),
            formula=Formula(BonusReading.read(report["reading"]), Difficulty(report["difficulty"]), report["d"],
                            report["destroyed"], report["bonus"]),
        )


@dataclass(frozen=True, slots=True)
class DangerMeter:
    """``/volfyrion danger``: the meter now; whether an attack can come this turn at all (not while the token is
    on its Lair, unless the player reshuffles); the meter with the top card put aside, when that is possible."""

    now: Danger
    attack_this_turn: bool
    putaside: Danger | None
    putaside_top_known: bool


def danger_meter(state: VolfState, *, seed: int = 0) -> DangerMeter:
    from .whatif import danger_report

    report = danger_report(state, seed=seed)
    after = report["putaside"]
    return DangerMeter(Danger.of(report["now"]), report["attack_this_turn"],
                       None if after is None else Danger.of(after), report["putaside_top_known"])


@dataclass(frozen=True, slots=True)
class AttackChances:
    """The meter's two figures for a later attack, the Rage Pile grown to ``size``."""

    size: int
    p_city_falls: float
    p_game_lost: float


@dataclass(frozen=True, slots=True)
class NextAttack:
    """When the next reshuffle — and so the next attack — comes (V-3.4): known, or ``why`` not.

    ``draw``: the cards left to draw; ``cards``: the House Deck's size; ``turn``: the turn whose end-of-turn draw
    reshuffles, ``turns`` from now; ``chances``: that attack's figures (None when too costly to say here)."""

    why: Unknown | None
    draw: int = 0
    cards: int = 0
    turn: int = 0
    turns: int = 0
    chances: AttackChances | None = None

    @property
    def known(self) -> bool:
        return self.why is None


def next_attack_figures(state: VolfState) -> NextAttack:
    from .house import next_attack

    found = next_attack(state)
    why = found["why"]
    if why is not None:
        return NextAttack(Unknown(why))
    cards = found["cards"]
    assert cards is not None, "house.py loses the cycle's count only with the draw pile's"
    chances = found["danger"]
    return NextAttack(None, found["draw"], cards, found["turn"], found["turns"],
                      None if chances is None else AttackChances(chances["size"], chances["p_city_falls"],
                                                                 chances["p_game_lost"]))


@dataclass(frozen=True, slots=True)
class Removal:
    """Taking the Troop of ``city`` (V-4.1): the cities this attack then destroys, whether the game is lost, and
    the attack's value (None when no Command card attacks)."""

    city: str
    fallen: tuple[str, ...]
    lost: bool
    attack: int | None


def removal_figures(state: VolfState) -> tuple[Removal, ...]:
    """One ``Removal`` per city the player may take a Troop from; empty unless the attack waits for that."""
    from .whatif import removal_outcomes

    return tuple(Removal(o["city"], tuple(o["fallen"]), bool(o["lost"]), o["attack"])
                 for o in removal_outcomes(state))
