"""The Rage Pile's danger meter (V-6): what Volfyirion's attack would do if it came at the end of
this turn.

The unknown Rage cards are drawn without replacement from the solo Asset Deck minus every copy known
to be elsewhere (in play, acquired, put aside, removed, the known top card); the known top card is
part of every draw. Only three things about a draw matter: how many Troops it shows (capped at the
Troops in play), the sum of its Command cards' costs and the sum of their Knowledge points. So the
exact method runs a multivariate-hypergeometric dynamic programme over card *kinds* grouped by
(Troop?, cost, KP) and the Monte Carlo method samples draws; both then resolve each outcome once.

How the player's Troop choice is modelled: when revealed Troops remove some of the player's Troops
(V-4.1), the player is assumed to remove the ones that best protect the cities — the removal that
leaves the fewest cities destroyed by this attack, and among those the one that keeps the most
total defence standing. Buildings do not change the attack, so they are only counted as cards.
Wonders are sealed by V-4.6 exactly as the engine does.
"""

from __future__ import annotations

import random
from collections import Counter, defaultdict
from collections.abc import Callable
from dataclasses import dataclass
from enum import StrEnum
from functools import cache
from itertools import combinations
from math import comb

from engine.core import RuleError

from . import attack as arith
from .cards import CATALOG
from .state import VolfState
from .summary import BonusReading, Difficulty

# What the attack draws, as the meter counts it: (Troops among the cards, their attack cost, their KP).
Draw = tuple[int, int, int]
# An outcome of one draw: (attack, cities destroyed, game lost, Wonders sealed) from (troops, cost, kp).
Resolve = Callable[[int, int, int], tuple[int, int, bool, int]]


class Method(StrEnum):
    EXACT = "exact"
    MONTECARLO = "montecarlo"


@dataclass(frozen=True, slots=True)
class Formula:
    """The attack formula a game uses and what it adds now (V-4.3, V-5.3): attack = Command costs + ``bonus``."""

    reading: BonusReading  # how the difficulty bonus is read (the game's ``bonus`` option)
    difficulty: Difficulty
    d: int  # the difficulty's extra attack (V-5.3)
    destroyed: int  # cities destroyed so far
    bonus: int


@dataclass(frozen=True, slots=True)
class Danger:
    """The danger meter (``danger``): what an attack at the end of this turn would do, over every draw of the
    unknown Rage cards; how that was computed; and the attack formula."""

    attack: tuple[tuple[int, float], ...]  # each attack value and its chance, in increasing value
    cities_destroyed: tuple[tuple[int, float], ...]  # each count of cities destroyed and its chance, likewise
    p_no_attack: float
    p_city_falls: float
    p_game_lost: float
    expected_attack: float
    expected_cities_destroyed: float
    expected_wonders_sealed: float
    method: Method
    unknown: int  # the unseen Rage cards drawn
    samples: int | None  # Monte Carlo's samples; None when exact
    formula: Formula


# Above this many unknown cards "auto" switches to Monte Carlo: exact stays under ~0.4 s up to here
# (bench/bench_volfyirion.py), and real piles rarely pass a dozen cards.
EXACT_LIMIT = 20


def danger(state: VolfState, *, method: str = "auto", samples: int = 20000, seed: int = 0) -> Danger:
    """The meter (``Danger``) for an attack at the end of this turn, whether or not the token is away."""
    if method not in ("auto", "exact", "montecarlo"):
        raise RuleError("volfyirion.bad_method", value=str(method))
    pool = state.unseen_deck()
    unknown = min(state.unknown_in_pile, sum(pool.values()))
    if method == "auto":
        method = "exact" if unknown <= EXACT_LIMIT else "montecarlo"
    resolve = _resolver(state)
    fixed = _features(state.rage_top) if state.rage_top else (0, 0, 0)
    if method == "exact":
        outcomes = _exact(pool, unknown, fixed, _troop_cap(state))
    else:
        outcomes = _monte_carlo(pool, unknown, fixed, _troop_cap(state), samples, seed)
    return _summarise(outcomes, resolve, state.rage_size > 0 and len(state.standing()) > 0, method=Method(method),
                      unknown=unknown, samples=samples if method == "montecarlo" else None, rule=formula(state))


def formula(state: VolfState) -> Formula:
    """The attack formula this game uses and what it adds now (V-4.3, V-5.3)."""
    destroyed = len(state.cities) - len(state.standing())
    reading = state.options["bonus"]
    return Formula(BonusReading.read(reading), Difficulty(state.options["difficulty"]), state.k, destroyed,
                   arith.attack_bonus(destroyed, state.k, reading))


# -- draws ------------------------------------------------------------------------------------------
def _features(name: str) -> tuple[int, int, int]:
    """(Troops, Command cost, Command KP) one card adds to a draw."""
    c = CATALOG[name]
    if c.type == "troop":
        return 1, 0, 0
    if c.type == "command":
        return 0, c.cost or 0, c.kp or 0
    return 0, 0, 0


def _troop_cap(state: VolfState) -> int:
    return sum(1 for c in state.standing() if c["troop"])


def _exact(pool: Counter[str], unknown: int, fixed: tuple[int, int, int], cap: int) -> dict[Draw, float]:
    """P(troops, cost, kp) exactly (multivariate hypergeometric).

    A DP over Command kinds grouped by (cost, KP) counts the ways to draw m Command cards with a given
    cost and KP sum (Σ Π C(n_kind, k_kind)); Troops and the other cards then fill the draw:
    × C(troops, j) × C(others, unknown − m − j).
    """
    commands: Counter[tuple[int, int]] = Counter()
    troops = others = 0
    for name, n in pool.items():
        t, cost, kp = _features(name)
        if cost:
            commands[(cost, kp)] += n
        elif t:
            troops += n
        else:
            others += n
    ways: dict[tuple[int, int, int], int] = {(0, 0, 0): 1}
    for (cost, kp), n in commands.items():
        grown: dict[tuple[int, int, int], int] = defaultdict(int)
        choose = [comb(n, j) for j in range(n + 1)]
        for (m, cc, kk), w in ways.items():
            for j in range(min(n, unknown - m) + 1):
                grown[(m + j, cc + j * cost, kk + j * kp)] += w * choose[j]
        ways = grown
    total = comb(sum(commands.values()) + troops + others, unknown)
    ft, fcost, fkp = fixed
    out: dict[Draw, float] = defaultdict(float)
    for (m, cc, kk), w in ways.items():
        rest = unknown - m
        for j in range(min(troops, rest) + 1):
            fill = comb(others, rest - j)
            if fill:
                out[(min(ft + j, cap), fcost + cc, fkp + kk)] += w * comb(troops, j) * fill / total
    return dict(out)


def _monte_carlo(pool: Counter[str], unknown: int, fixed: tuple[int, int, int], cap: int, samples: int,
                 seed: int) -> dict[Draw, float]:
    cards = [_features(name) for name, n in pool.items() for _ in range(n)]
    rnd = random.Random(seed)
    counts: Counter[tuple[int, int, int]] = Counter()
    indexes = range(len(cards))
    for _ in range(samples):
        t, cost, kp = fixed
        for i in rnd.sample(indexes, unknown):
            ft, fc, fk = cards[i]
            t += ft
            cost += fc
            kp += fk
        counts[(min(t, cap), cost, kp)] += 1
    return {key: n / samples for key, n in counts.items()}


# -- resolving an outcome ---------------------------------------------------------------------------
def _resolver(state: VolfState) -> Resolve:
    """outcome(troops, cost, kp) -> (attack, cities destroyed, game lost, wonders sealed), cached."""
    standing = state.standing()
    destroyed_before = len(state.cities) - len(standing)
    bonus = arith.attack_bonus(destroyed_before, state.k, state.options["bonus"])
    troop_slots = [i for i, c in enumerate(standing) if c["troop"]]
    printed = [c["defence"] for c in standing]
    troop_def = [(CATALOG[c["troop"]].defence or 0) if c["troop"] else 0 for c in standing]
    wonder_costs = [w["cost"] for w in state.wonders if not w["sealed"]]

    @cache
    def fallen(troops: int, attack: int) -> int:
        """Cities this attack destroys after the player's best choice of ``troops`` Troops to lose."""
        best: tuple[int, int] | None = None
        for removed in combinations(troop_slots, troops):
            defences = [(printed[i] + (0 if i in removed else troop_def[i]), printed[i]) for i in range(len(standing))]
            falls, _ = arith.destroy_order(attack, defences)
            kept = sum(d for i, (d, _) in enumerate(defences) if i not in falls)
            score = (len(falls), -kept)
            if best is None or score < best:
                best = score
        return best[0] if best else 0

    @cache
    def sealed(kp: int) -> int:
        return len(arith.seal_order(kp, wonder_costs)[0])

    @cache
    def outcome(troops: int, cost: int, kp: int) -> tuple[int, int, bool, int]:
        if cost == 0:  # no Command card: no attack, no sealing (V-4.3)
            return 0, 0, False, 0
        attack = cost + bonus
        n_fallen = fallen(troops, attack)
        lost = n_fallen == len(standing)
        return attack, n_fallen, lost, 0 if lost else sealed(kp)

    return outcome


def _summarise(outcomes: dict[Draw, float], resolve: Resolve, can_attack: bool, *, method: Method, unknown: int,
               samples: int | None, rule: Formula) -> Danger:
    attack: dict[int, float] = defaultdict(float)
    fallen: dict[int, float] = defaultdict(float)
    p_lost = p_falls = e_sealed = e_attack = e_fallen = p_none = 0.0
    for (troops, cost, kp), p in outcomes.items():
        value, n_fallen, lost, sealed = resolve(troops, cost, kp) if can_attack else (0, 0, False, 0)
        attack[value] += p
        fallen[n_fallen] += p
        p_none += p if value == 0 else 0.0
        p_falls += p if n_fallen else 0.0
        p_lost += p if lost else 0.0
        e_sealed += p * sealed
        e_attack += p * value
        e_fallen += p * n_fallen
    return Danger(attack=tuple(sorted(attack.items())), cities_destroyed=tuple(sorted(fallen.items())),
                  p_no_attack=p_none, p_city_falls=p_falls, p_game_lost=p_lost, expected_attack=e_attack,
                  expected_cities_destroyed=e_fallen, expected_wonders_sealed=e_sealed, method=method,
                  unknown=unknown, samples=samples, formula=rule)
