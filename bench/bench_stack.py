"""This branch against the commit before it, in one run: issue 26's guard rails, side by side.

Run: ``.venv/bin/python -m bench.bench_stack`` (``--quick`` for small counts; ``--baseline COMMIT`` for another
baseline, such as ``019b92e``, the tree before issue 35's replies). The baseline is the tree at
``BASELINE_COMMIT`` (the project before issue 26, unless told), taken from git history at bench time (``git archive`` into a
temporary folder, as bench_images takes its baseline). Each side runs bench/stack_probe.py (copied into the
baseline's tree) in a fresh interpreter, with its own bot, store and bench helpers, on databases it writes
itself (the same games); the sides take turns run after run, so a drift of the machine hits both alike. Each figure is the
median of the runs, the lowest and highest in parentheses. Without git or that commit the baseline says so.
"""

from __future__ import annotations

import argparse
import json
import statistics
import subprocess
import sys
import tempfile
from collections.abc import Callable
from pathlib import Path
from typing import Any

from bench.common import print_machine, print_table, tree_at
from bench.stack_probe import CHANNELS, STARTUP_GAMES

BASELINE_COMMIT = "5b513b3"
ROOT = Path(__file__).resolve().parents[1]
PROBE = Path(__file__).with_name("stack_probe.py")
RUNS = 3

# (figure, guard rail, its test on this branch's figures): the guard rails, in its order.
Rail = tuple[str, str, Callable[[dict[str, float]], bool] | None]
RAILS: list[Rail] = [
    ("ratio_200", "≥ 0.35× the no-op", lambda f: f["ratio_200"] >= 0.35),
    ("bot_200", "(cmd/s, for reference)", None),
    ("noop_200", "(cmd/s, for reference)", None),
    ("p99_200_ms", "< 1,000 ms", lambda f: f["p99_200_ms"] < 1000),
    ("failed_200", "0 past the deadline", lambda f: f["failed_200"] == 0 and f["late"] == 0),
    ("plain_1_ms", "≤ durable no-op p50 + 3 ms", lambda f: f["plain_1_ms"] <= f["durable_1_ms"] + 3),
    ("durable_1_ms", "(its floor)", None),
    ("noop_1_ms", "(for reference)", None),
    ("writes_per_commit_200", "(group commit, for reference)", None),
    ("appends_200", "≥ 2,000 durable appends/s", lambda f: f["appends_200"] >= 2000),
    ("append_p99_ms", "(for reference)", None),
    ("resume_50_ms", "(for reference: flat)", None),
    ("resume_500_ms", "(quick: for reference)", None),
    ("resume_5000_ms", "< 5 ms, flat", lambda f: f["resume_5000_ms"] < 5),
    ("startup_ms", "< 100 ms", lambda f: f["startup_ms"] < 100),
]
# "{most}": the channels of the crowded load (stack_probe.CHANNELS: 200, fewer in quick mode).
LABELS = {
    "ratio_200": "{most} channels: bot/no-op throughput", "bot_200": "{most} channels: bot cmd/s",
    "noop_200": "{most} channels: no-op cmd/s", "p99_200_ms": "{most} channels: bot p99 ms",
    "failed_200": "{most} channels: failed or late", "plain_1_ms": "1 channel: p50 ms, no picture",
    "durable_1_ms": "1 channel: durable no-op p50 ms", "noop_1_ms": "1 channel: no-op p50 ms",
    "writes_per_commit_200": "{most} channels: writes per COMMIT", "appends_200": "store, 200 writers: appends/s",
    "append_p99_ms": "store, 200 writers: append p99 ms",
    **{f"resume_{n}_ms": f"resume, {n:,} actions: ms" for n in (50, 500, 5000)},
}


def baseline_tree(into: Path) -> Path | None:
    """The project at ``BASELINE_COMMIT``, with this branch's probe beside its benches; None without git."""
    return tree_at(BASELINE_COMMIT, into, PROBE)


def probe(tree: Path, *args: str) -> dict[str, Any]:
    """stack_probe in a fresh interpreter, in ``tree``: its last line of output, as JSON."""
    done = subprocess.run([sys.executable, "-m", "bench.stack_probe", *args], cwd=tree, capture_output=True,
                          text=True, timeout=1800)
    if done.returncode:
        raise RuntimeError(f"the probe failed in {tree}:\n{done.stderr[-3000:]}")
    return json.loads(done.stdout.strip().splitlines()[-1])


def _figure(values: list[float]) -> str:
    form = "{:,.0f}" if max(abs(v) for v in values) >= 100 or all(v == int(v) for v in values) else "{:.2f}"
    median = form.format(statistics.median(values))
    return median if len(values) == 1 else f"{median} ({form.format(min(values))}–{form.format(max(values))})"


def main(quick: bool = False) -> None:
    print_machine()
    runs = 1 if quick else RUNS
    scale = "quick" if quick else "full"
    labels = {key: label.format(most=CHANNELS[scale]) for key, label in LABELS.items()}
    labels["startup_ms"] = f"start, {100 if quick else STARTUP_GAMES:,} finished games: ms"
    with tempfile.TemporaryDirectory(prefix="bench-stack-") as tmp:
        workdir = Path(tmp)
        base = baseline_tree(workdir)
        sides = {"this branch": ROOT} | ({f"baseline {BASELINE_COMMIT}": base} if base else {})
        # Each side writes its own databases: a newer schema is one the baseline's store refuses to open.
        folders = {side: str(workdir / f"db-{i}") for i, side in enumerate(sides)}
        figures: dict[str, list[dict[str, float]]] = {side: [] for side in sides}
        if runs == 1:  # one interpreter a side writes its databases and measures on them
            figures = {side: [probe(tree, "once", scale, folders[side])] for side, tree in sides.items()}
        else:
            files = {side: probe(tree, "build", scale, folders[side]) for side, tree in sides.items()}
            for _ in range(runs):
                for side, tree in sides.items():
                    figures[side].append(probe(tree, scale, ",".join(files[side]["resume"]), files[side]["startup"]))
    present = [rail for rail in RAILS if rail[0] in figures["this branch"][0]]
    medians = {key: statistics.median(run[key] for run in figures["this branch"]) for key in figures["this branch"][0]}
    rows: list[list[Any]] = []
    for key, rail, test in present:
        row = [labels[key], rail, _figure([run[key] for run in figures["this branch"]])]
        if base:
            row.append(_figure([run[key] for run in figures[f"baseline {BASELINE_COMMIT}"]]))
        row.append("" if test is None else ("yes" if test(medians) else "NO"))
        rows.append(row)
    headers = ["figure", "guard rail", "this branch"] + ([f"baseline {BASELINE_COMMIT}"] if base else []) + ["met"]
    print_table("Issue 26's guard rails: this branch against the commit before it", headers, rows,
                [f"medians of {runs} run(s) each, in parentheses the lowest and highest; the sides took turns",
                 "1 and 200 channels: bench_bot's closed loop through the stand-in (the bot beside the no-op and "
                 "the durable no-op, bench/floor.py); store: bench_store's appends; resume: a Seasons game's first "
                 "command after a restart, cache cold; start: bot created to ready on the stand-in",
                 "met: judged on this branch's medians"])


if __name__ == "__main__":
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--quick", action="store_true", help="small counts: a smoke run, figures indicative")
    parser.add_argument("--baseline", metavar="COMMIT", default=BASELINE_COMMIT,
                        help=f"the commit to measure beside this tree (default {BASELINE_COMMIT}, before issue 26; "
                             "019b92e is the tree before issue 35's replies)")
    args = parser.parse_args()
    BASELINE_COMMIT = args.baseline
    main(quick=args.quick)
