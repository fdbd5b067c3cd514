"""How fast the Seasons engine and its forecast run.

Run: ``.venv/bin/python -m bench.bench_seasons``. Prints the machine, then medians over several runs:
Dummbot actions applied per second (replaying recorded random games through ``RULES.apply``); whole
games per second on the full apply path (with the random-game driver) and in the forecast simulator;
the 10,000-game forecast's time from a new game and from mid-game; undo and resume of a 500-action game
with snapshots against the same without snapshots (the baseline); the calibration table per difficulty.
"""

from __future__ import annotations

import time
from collections.abc import Callable

from bench.common import median_of, print_machine, timed
from engine.core import Action, GameRecord
from engine.seasons import RULES
from engine.seasons.autoplay import play_game
from engine.seasons.forecast import calibration, forecast

RUNS = 5
GAMES = 60
DIFFICULTIES = ("apprentice", "wizard", "archmage")


def _median(run: Callable[[], float]) -> float:
    return median_of(run, RUNS)  # RUNS read at call time: `python -m bench --quick` lowers it


def bench_actions() -> float:
    """Actions per second through RULES.apply, replaying recorded games."""
    games = []
    for seed in range(GAMES):
        difficulty, dice = DIFFICULTIES[seed % 3], ("table", "bot")[seed % 2]
        actions, _ = play_game(difficulty, dice, seed)
        games.append((RULES.new_game({"difficulty": difficulty, "dice": dice}, seed).state, actions))
    total = sum(len(a) for _, a in games)

    def run() -> float:
        start = time.perf_counter()
        for state, actions in games:
            for action in actions:
                state = RULES.apply(state, action).state
        return total / (time.perf_counter() - start)

    return _median(run)


def bench_games_apply() -> float:
    return _median(lambda: GAMES / timed(lambda: [play_game(DIFFICULTIES[s % 3], "bot", s) for s in range(GAMES)]))


def bench_games_sim() -> float:
    return _median(lambda: 10000 / timed(lambda: calibration("wizard", 10000, seed=1)))


def bench_forecast() -> tuple[float, float]:
    start_state = RULES.new_game({"difficulty": "archmage", "dice": "bot"}, 1).state
    _, steps = play_game("archmage", "bot", 1, extras=False)
    mid = steps[len(steps) // 2].state
    return (_median(lambda: timed(lambda: forecast(start_state, 10000, seed=2))),
            _median(lambda: timed(lambda: forecast(mid, 10000, seed=2))))


def _long_game(n: int = 500) -> list[Action]:
    """A 500-action game: a random game's actions with crystal corrections after the first one."""
    actions, _ = play_game("wizard", "table", 3, extras=False)
    return [actions[0]] + [Action("crystals", change=1)] * (n - len(actions)) + actions[1:]


def bench_undo_resume() -> dict[str, float]:
    actions = _long_game()
    options = {"difficulty": "wizard", "dice": "table"}
    results: dict[str, float] = {"actions": float(len(actions))}
    for label, every in (("snapshots", 50), ("baseline", 10**9)):
        record = GameRecord(RULES, options, 3, snapshot_every=every)
        for action in actions:
            record.push(action)

        def undo(record: GameRecord = record) -> float:
            action = record.pop()
            t = timed(lambda: (record.push(action), record.pop()))
            record.push(action)
            return t

        results[f"undo_{label}"] = _median(undo)
        snap = max(k for k in record.snapshots() if k <= len(actions))
        snapshot = (snap, record.snapshots()[snap].to_json()) if snap else None
        results[f"resume_{label}"] = _median(lambda snapshot=snapshot, every=every: timed(
            lambda: GameRecord.replay(RULES, options, 3, [a.to_json() for a in actions], snapshot=snapshot,
                                      snapshot_every=every)))
    return results


def main() -> None:
    print("Seasons engine bench")
    print_machine()
    print(f"medians of {RUNS} runs")
    print(f"actions applied per second (RULES.apply):        {bench_actions():>10,.0f}")
    print(f"whole games per second, full apply path:          {bench_games_apply():>10,.1f}")
    print(f"whole games per second, forecast simulator:       {bench_games_sim():>10,.0f}")
    new_t, mid_t = bench_forecast()
    print(f"10,000-game forecast from a new game:             {new_t * 1000:>10,.0f} ms")
    print(f"10,000-game forecast from mid-game:               {mid_t * 1000:>10,.0f} ms")
    r = bench_undo_resume()
    print(f"undo in a {r['actions']:.0f}-action game, snapshots every 50:  {r['undo_snapshots'] * 1000:>8.2f} ms"
          f"   baseline (no snapshots): {r['undo_baseline'] * 1000:.2f} ms"
          f"   ratio {r['undo_baseline'] / r['undo_snapshots']:.1f}x")
    print(f"resume a {r['actions']:.0f}-action game from a snapshot:    {r['resume_snapshots'] * 1000:>8.2f} ms"
          f"   baseline (full replay):   {r['resume_baseline'] * 1000:.2f} ms"
          f"   ratio {r['resume_baseline'] / r['resume_snapshots']:.1f}x")
    print("calibration, Dummbot's final score over 10,000 simulated games:")
    print(f"  {'difficulty':<11} {'mean':>7} {'sd':>6} {'p10':>5} {'p90':>5}")
    for difficulty in DIFFICULTIES:
        c = calibration(difficulty, 10000, seed=7)
        print(f"  {difficulty:<11} {c['mean']:>7.1f} {c['sd']:>6.1f} {c['p10']:>5} {c['p90']:>5}")


if __name__ == "__main__":
    main()
