"""``python -m bench``: every bench's ``main()`` in turn — seasons, volfyirion, images, bot, path, store, stack, stop, table.

``--quick`` shrinks the counts (a smoke run: the figures are only indicative); ``--only NAME`` (repeatable)
runs just those benches; ``--db TARGET`` (repeatable) measures bench_bot's load on each database in one
run — ``sqlite``, a SQLite file, ``postgres`` (a temporary server; ``sqlite`` and ``postgres`` are the
default, the server only when its binaries are installed), a ``postgresql://`` DSN — beside its floors (the no-op
command, a bare commit). A bench whose ``main`` takes ``quick`` is asked for its quick mode; for the others
``quick_counts`` lowers their module-level counts for the duration of the run.
"""

from __future__ import annotations

import argparse
import contextlib
import functools
import importlib
import inspect
import sys
import time
import traceback
from collections.abc import Callable, Iterator
from types import ModuleType
from typing import Any

BENCHES = ("seasons", "volfyirion", "images", "bot", "path", "store", "stack", "stop", "table")

# Module-level counts of the benches without a quick mode of their own, and their quick values.
QUICK_COUNTS: dict[str, Any] = {"RUNS": 1, "GAMES": 3, "ATTACKS": 50, "SAMPLES": 500, "PILES": range(1, 3)}
# Simulators whose game count is their second positional argument (``calibration(difficulty, n)``,
# ``forecast(state, n)``), capped in quick mode.
QUICK_SIMULATIONS = ("calibration", "forecast")
SIMULATION_CAP = 300


def load(name: str) -> ModuleType:
    return importlib.import_module(f"bench.bench_{name}")


def takes_quick(main: Callable[..., object]) -> bool:
    return "quick" in inspect.signature(main).parameters


@contextlib.contextmanager
def quick_counts(module: ModuleType) -> Iterator[None]:
    """Lower a bench module's counts (and cap its simulators) while the block runs; restored after."""
    saved: dict[str, Any] = {}
    for name, value in QUICK_COUNTS.items():
        if hasattr(module, name):
            saved[name] = getattr(module, name)
            setattr(module, name, value)
    for name in QUICK_SIMULATIONS:
        if callable(getattr(module, name, None)):
            saved[name] = getattr(module, name)
            setattr(module, name, _capped(saved[name]))
    try:
        yield
    finally:
        for name, value in saved.items():
            setattr(module, name, value)


def _capped(simulate: Callable[..., Any]) -> Callable[..., Any]:
    @functools.wraps(simulate)
    def capped(first: Any, count: int, *args: Any, **kwargs: Any) -> Any:
        return simulate(first, min(count, SIMULATION_CAP), *args, **kwargs)

    return capped


def run(name: str, *, quick: bool) -> None:
    """One bench's ``main()``, in its quick mode when asked."""
    module = load(name)
    if not quick:
        module.main()
    elif takes_quick(module.main):
        module.main(quick=True)
    else:
        with quick_counts(module):
            module.main()


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(prog="python -m bench", description="Run the benchmarks.")
    parser.add_argument("--quick", action="store_true", help="small counts: a smoke run, figures indicative")
    parser.add_argument("--only", action="append", choices=BENCHES, metavar="NAME",
                        help=f"run only this bench (repeatable): {', '.join(BENCHES)}")
    parser.add_argument("--db", action="append", metavar="TARGET",
                        help="bench_bot's load on this database (repeatable, in one run): sqlite (a fresh "
                             "temporary file), a SQLite file path, postgres (a temporary server with the "
                             "distribution's durability; sqlite and postgres are the default) or a "
                             "postgresql:// DSN")
    args = parser.parse_args(argv)
    if args.db:
        import bench.bench_bot as bench_bot

        bench_bot.TARGETS = tuple(args.db)
    failed = []
    for name in args.only or BENCHES:
        print(f"\n=== bench_{name}{' (quick)' if args.quick else ''} ===", flush=True)
        start = time.perf_counter()
        try:
            run(name, quick=args.quick)
        except Exception:  # one broken bench must not hide the others' figures
            traceback.print_exc()
            failed.append(name)
        print(f"(bench_{name}: {time.perf_counter() - start:.1f} s)", flush=True)
    if failed:
        print(f"failed: {', '.join(failed)}", file=sys.stderr)
    return 1 if failed else 0


if __name__ == "__main__":
    sys.exit(main())
