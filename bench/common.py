"""What every bench prints first and how it sums up runs: the machine, medians, tables.

Figures from different machines are not comparable, so each bench names its machine; a single run is
noise, so each figure is a median of several; and a figure alone says little, so benches print it
beside a baseline measured in the same run, as a ratio.
"""

from __future__ import annotations

import io
import os
import platform
import shutil
import sqlite3
import statistics
import subprocess
import tarfile
import time
from collections.abc import Awaitable, Callable, Sequence
from importlib import metadata
from pathlib import Path

from bot import games

# The registry the bot's entry points hand down (its sentences, colours, store steps), for the benches that call
# those modules without making a bot.
games.install(games.registry())

PACKAGES = ("discord.py", "aiohttp", "Pillow", "asyncpg")


def cpu_model() -> str:
    try:
        with open("/proc/cpuinfo", encoding="utf-8") as info:
            for line in info:
                if line.startswith("model name"):
                    return line.split(":", 1)[1].strip()
    except OSError:
        pass
    return platform.processor() or platform.machine()


def versions() -> str:
    found = []
    for name in PACKAGES:
        try:
            found.append(f"{name} {metadata.version(name)}")
        except metadata.PackageNotFoundError:
            found.append(f"{name} (not installed)")
    return ", ".join(found + [f"SQLite {sqlite3.sqlite_version}"])


def load_average() -> str:
    """The 1-minute load average at the start: above the CPU count, other work shared the machine."""
    try:
        return f"load average {os.getloadavg()[0]:.2f}"
    except OSError:
        return "load average unknown"


def machine() -> str:
    """One line: OS, CPU model and cores, Python, the package versions that matter, how busy the machine was."""
    return (f"{platform.system()} {platform.release()} {platform.machine()}; {cpu_model()}, "
            f"{os.cpu_count()} CPU(s), {load_average()}; {platform.python_implementation()} "
            f"{platform.python_version()}; {versions()}")


def print_machine() -> None:
    print(f"machine: {machine()}")


def timed(fn: Callable[[], object]) -> float:
    """Seconds one call of ``fn`` takes."""
    start = time.perf_counter()
    fn()
    return time.perf_counter() - start


def median_of(fn: Callable[[], float], runs: int) -> float:
    """The median of ``runs`` calls of ``fn``, which returns one measurement (seconds, a rate...)."""
    return statistics.median(fn() for _ in range(max(1, runs)))


async def amedian_of(fn: Callable[[], Awaitable[float]], runs: int) -> float:
    """``median_of`` for a coroutine function."""
    return statistics.median([await fn() for _ in range(max(1, runs))])


def percentile(values: Sequence[float], p: float) -> float:
    """The ``p``-th percentile (0-100) by nearest rank: an observed value, never an interpolated one."""
    ordered = sorted(values)
    if not ordered:
        return float("nan")
    rank = max(1, -(-len(ordered) * p // 100))  # ceil
    return ordered[int(min(rank, len(ordered))) - 1]


def print_table(title: str, headers: Sequence[str], rows: Sequence[Sequence[object]],
                notes: Sequence[str] = ()) -> None:
    """A titled plain-text table: text columns left-aligned, numbers right-aligned, notes below."""
    cells = [[_cell(v) for v in row] for row in rows]
    widths = [max([len(h)] + [len(r[i]) for r in cells]) for i, h in enumerate(headers)]
    numeric = [bool(rows) and all(isinstance(row[i], int | float) for row in rows)
               for i in range(len(headers))]

    def line(values: Sequence[str]) -> str:
        return "  ".join(v.rjust(w) if num else v.ljust(w)
                         for v, w, num in zip(values, widths, numeric, strict=True)).rstrip()

    print()
    print(title)
    print("  " + line(list(headers)))
    print("  " + "  ".join("-" * w for w in widths))
    for row in cells:
        print("  " + line(row))
    for note in notes:
        print(f"  note: {note}")


def _cell(value: object) -> str:
    if isinstance(value, float):
        if value != value:  # NaN
            return "-"
        if abs(value) >= 100:
            return f"{value:,.0f}"
        if abs(value) >= 10:
            return f"{value:.1f}"
        return f"{value:.2f}"
    if isinstance(value, int) and not isinstance(value, bool):
        return f"{value:,}"
    return str(value)


def tree_at(commit: str, into: Path, *probes: Path) -> Path | None:
    """The project at ``commit`` (``git archive`` into ``into``), with ``probes`` — this tree's bench files —
    copied into its ``bench/``, for a bench that runs both sides in turn; None (said) without git or that commit."""
    root = Path(__file__).resolve().parents[1]
    try:
        archive = subprocess.run(["git", "archive", commit], cwd=root, capture_output=True, check=True).stdout
    except (OSError, subprocess.CalledProcessError):
        print(f"baseline unavailable: git cannot read commit {commit}")
        return None
    tree = into / f"baseline-{commit}"
    with tarfile.open(fileobj=io.BytesIO(archive)) as tar:
        tar.extractall(tree, filter="data")
    for probe in probes:
        shutil.copyfile(probe, tree / "bench" / probe.name)
    return tree
