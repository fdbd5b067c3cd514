"""How fast the Volfyirion engine resolves attacks, and how long the danger meter takes.

Run: ``.venv/bin/python -m bench.bench_volfyirion``. Prints the machine, then medians over several runs:
attacks resolved per second (an end of turn with the token away plus the reveal) against a baseline
measured in the same run (an end of turn with the token on its Lair: no attack), and the danger
meter's time for Rage Piles of 1 to 12 unknown cards, exact and Monte Carlo (20,000 samples).
"""

from __future__ import annotations

import statistics
import time
from collections.abc import Callable

from bench.common import median_of, print_machine, timed
from engine.core import Action, GameRecord, Rng
from engine.volfyirion import RULES, danger
from engine.volfyirion.autoplay import plausible_reveal

RUNS = 5
ATTACKS = 2000
PILES = range(1, 13)
SAMPLES = 20000


def _before_attack(seed: int):
    """A state at the end of a turn with Troops, Buildings, Wonders and the token away, and its reveal."""
    record = GameRecord(RULES, {"difficulty": "normal"}, seed)
    for card, city in (("Guard", "Tylaris"), ("Bank", "Vahylea"), ("Pure Qoam", None), ("Strange Box", None)):
        record.push(Action("play", card=card, city=city))
    record.push(Action("reshuffle"))
    state = record.state
    reveal = Action("reveal", cards=plausible_reveal(state, Rng(seed)))
    return state, reveal


def _median_rate(run: Callable[[], int]) -> float:
    rates = []
    for _ in range(RUNS):
        start = time.perf_counter()
        n = run()
        rates.append(n / (time.perf_counter() - start))
    return statistics.median(rates)


def bench_attacks() -> tuple[float, float]:
    cases = [_before_attack(seed) for seed in range(50)]
    end = Action("end")

    def attacks() -> int:
        done = 0
        for i in range(ATTACKS):
            state, reveal = cases[i % len(cases)]
            step = RULES.apply(state, end)
            step = RULES.apply(step.state, reveal)
            while step.waiting.key.startswith("volfyirion.waiting.choose"):
                step = RULES.apply(step.state, Action("choose", city=step.waiting.params["cities"][0]))
            done += 1
        return done

    calm = GameRecord(RULES, {}, 1).state

    def quiet_ends() -> int:
        for _ in range(ATTACKS):
            RULES.apply(calm, end)
        return ATTACKS

    return _median_rate(attacks), _median_rate(quiet_ends)


def _pile_of(unknown: int):
    record = GameRecord(RULES, {"difficulty": "hard"}, 3)
    record.push(Action("play", card="Elite Trooper", city="Tylaris"))
    record.push(Action("play", card="Novice", city="Alantar"))
    record.push(Action("play", card="Primal Beast"))
    record.push(Action("play", card="Sibilant Crystal"))
    while record.state.unknown_in_pile > unknown:
        record.push(Action("putaside", paid="battle"))
    while record.state.unknown_in_pile < unknown:
        record.push(Action("end"))
    return record.state


def _median_seconds(run: Callable[[], object], runs: int | None = None) -> float:
    return median_of(lambda: timed(run), RUNS if runs is None else runs)


def main() -> None:
    print("Volfyirion engine bench")
    print_machine()
    attack_rate, quiet_rate = bench_attacks()
    print(f"attacks resolved: {attack_rate:,.0f}/s ({1e6 / attack_rate:.1f} µs each, end + reveal + choices)")
    print(f"baseline, end of turn without attack: {quiet_rate:,.0f}/s ({1e6 / quiet_rate:.1f} µs each)")
    print(f"ratio attack / no-attack end of turn: {quiet_rate / attack_rate:.2f}× the time")
    print(f"danger meter (median of {RUNS} runs), Monte Carlo with {SAMPLES:,} samples:")
    print("  unknown   exact (ms)   montecarlo (ms)   p_city_falls exact / mc")
    for unknown in PILES:
        state = _pile_of(unknown)
        exact = _median_seconds(lambda state=state: danger(state, method="exact"))
        mc = _median_seconds(lambda state=state: danger(state, method="montecarlo", samples=SAMPLES), runs=3)
        pe = danger(state, method="exact").p_city_falls
        pm = danger(state, method="montecarlo", samples=SAMPLES).p_city_falls
        print(f"  {unknown:7d}   {exact * 1e3:10.1f}   {mc * 1e3:15.1f}   {pe:.3f} / {pm:.3f}")


if __name__ == "__main__":
    main()
