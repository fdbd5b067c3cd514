"""How long the reply pictures take to render, and how big they are.

Run: ``.venv/bin/python -m bench --only images`` (``--quick``: one render a case, and only the cases that
take each path once: a smoke run). Prints, for each case, the median over many renders, warm
and cold, beside the target (8 ms, issue 26) and the floor (an empty board through the same PNG writer, nothing
remembered); the same renders by the baseline (bot/render/images.py at commit 3f01f6f, before the pictures were
split per game, taken from git history at bench time into a temporary module) and by that baseline as drawn
before issue 12 (no layers, Pillow's encoder), all in the same run; then what preparing the static layers
costs, once a process. The machine is noted first. Without git or that commit the baseline columns say so.

Cases, each a sequence of summaries as a game produces them:
- "unchanged": the same summary again (``/game status``, the State button): a picture remembered.
- "typical": a count changes before every render (Dummbot's crystals, the Volfyirion turn): the layers of
  what did not change are pasted, and only what changed is drawn.
- "new month": the token moves every render (the wheel of each month is a static layer).
- "crowded": many cards, long names, a count changing every render.
- "first of a game" (cold): a game's start, with everything one game leaves behind forgotten before each
  render (its pictures, its layers); the static layers (bot/render/picture.py,
  ``prepare``) are drawn at start on the picture thread, before any command, as the bot does.
- "cold, mid-game": the typical summary, forgotten in the same way (a game resumed after a restart).
- "nothing prepared": every cache emptied, the static layers too (the first picture of a process had they
  not been prepared at start): shown for comparison, no picture of the bot pays it.
"""

from __future__ import annotations

import contextlib
import copy
import importlib.util
import io
import statistics
import subprocess
import sys
import tempfile
import time
from collections.abc import Callable, Iterator
from pathlib import Path
from types import ModuleType
from typing import Any

from bench.common import print_machine, print_table
from bot.games.seasons.front.board import board as seasons_board
from bot.games.volfyirion.front.board import board as typed_volfyirion_board
from bot.render import picture
from engine.volfyirion.summary import VolfyirionSummary

BASELINE_COMMIT = "3f01f6f"
BASELINE_PATH = "bot/render/images.py"
ROOT = Path(__file__).resolve().parents[1]

RUNS = 50
# --quick: one case of each kind of cache a game goes through (remembered, layers, the wheel, cold, nothing).
QUICK_CASES = ("seasons typical", "seasons new month", "seasons first of a game", "seasons nothing prepared",
               "volfyirion crowded", "volfyirion first of a game")
TARGET_MS = 8.0

SEASONS_TYPICAL = {
    "year": 2,
    "month": 5,
    "season": "spring",
    "difficulty": "wizard",
    "dice": "bot",
    "dummbot": {
        "crystals": 14,
        "hand_size": 3,
        "summoned": ["1", "12", "EK3", "33", "47", "PD5"],
        "score": 27,
    },
}
SEASONS_CROWDED = {
    "year": 3,
    "month": 12,
    "season": "autumn",
    "difficulty": "archmage",
    "dice": "table",
    "dummbot": {"crystals": 128, "hand_size": 11, "summoned": [str(n) for n in range(1, 26)], "score": 143},
}
VOLF_TYPICAL = {
    "turn": 7,
    "difficulty": "normal",
    "cities": [
        {
            "name": "Tylaris",
            "defence": 8,
            "destroyed": False,
            "troop": "Elite Trooper",
            "building": "Barracks",
        },
        {"name": "Akao Uket", "defence": 9, "destroyed": True, "troop": None, "building": None},
        {"name": "Kyr", "defence": 10, "destroyed": False, "troop": None, "building": "Headquarters"},
    ],
    "rage_pile": {"size": 4, "top": "Feasible Solution"},
    "token": "rage_pile",
    "wonders": [
        {"name": "Sibilant Crystal", "cost": 3, "sealed": False},
        {"name": "Emerald Horn", "cost": 6, "sealed": True},
    ],
    "phase": "turn",
}
VOLF_CROWDED = dict(
    VOLF_TYPICAL,
    wonders=[
        {"name": f"Wonder with a rather long name {n}", "cost": n % 7, "sealed": n % 2 == 0}
        for n in range(12)
    ],
    rage_pile={"size": 30, "top": "Book of Wisdom"},
)


Summaries = Callable[[int], dict[str, Any]]


def same(summary: dict[str, Any]) -> Summaries:
    return lambda i: summary


def counting(summary: dict[str, Any], change: Callable[[dict[str, Any], int], None]) -> Summaries:
    """The summary with a count set from the render's number: every render shows a new value."""
    def make(i: int) -> dict[str, Any]:
        changed = copy.deepcopy(summary)
        change(changed, i)
        return changed
    return make


def crystals(summary: dict[str, Any], i: int) -> None:
    summary["dummbot"]["crystals"] = 1000 + i


def turn(summary: dict[str, Any], i: int) -> None:
    summary["turn"] = 1000 + i


def month(summary: dict[str, Any], i: int) -> None:
    crystals(summary, i)  # a new picture each time, not one remembered from 12 renders ago
    summary["month"] = i % 12 + 1
    summary["season"] = ("winter", "spring", "summer", "autumn")[(i % 12) // 3]


def measure(render: Callable[[dict[str, Any]], bytes], summaries: Summaries,
            before: Callable[[], None] | None = None, runs: int = RUNS) -> tuple[float, int]:
    """(median ms over ``runs``, PNG bytes); ``before`` runs, untimed, before each render. One render first,
    untimed: a picture's first render in a process pays for imports and fonts, which no case is about."""
    if before is not None:
        before()
    png = render(summaries(0))
    times = []
    for i in range(1, runs + 1):
        summary = summaries(i)
        if before is not None:
            before()
        start = time.perf_counter()
        render(summary)
        times.append((time.perf_counter() - start) * 1000)
    return statistics.median(times), len(png)


# --- the baseline, from git history ---------------------------------------------------------------------


@contextlib.contextmanager
def baseline_module() -> Iterator[ModuleType | None]:
    """bot/render/images.py at ``BASELINE_COMMIT`` (``git show``), loaded as a temporary module inside
    bot.render (its relative imports resolve there) and removed after; None without git or that commit."""
    try:
        source = subprocess.run(["git", "show", f"{BASELINE_COMMIT}:{BASELINE_PATH}"], cwd=ROOT,
                                capture_output=True, check=True).stdout
    except (OSError, subprocess.CalledProcessError):
        print(f"baseline unavailable (no git history): {BASELINE_COMMIT}:{BASELINE_PATH} cannot be read")
        yield None
        return
    name = f"bot.render._images_{BASELINE_COMMIT}"
    with tempfile.TemporaryDirectory(prefix="bench-images-") as folder:
        path = Path(folder) / "images.py"
        path.write_bytes(source)
        spec = importlib.util.spec_from_file_location(name, path)
        if spec is None or spec.loader is None:
            yield None
            return
        module = importlib.util.module_from_spec(spec)
        sys.modules[name] = module
        try:
            spec.loader.exec_module(module)
            yield module
        except Exception as exc:
            print(f"baseline unavailable ({BASELINE_COMMIT}:{BASELINE_PATH} does not load: {exc})")
            yield None
        finally:
            sys.modules.pop(name, None)


def pillow_png(image: Any) -> bytes:
    """The encoder the pictures used before issue 12: Pillow's PNG at level 3 (adaptive row filters)."""
    out = io.BytesIO()
    image.save(out, format="PNG", compress_level=3)
    return out.getvalue()


@contextlib.contextmanager
def before_issue_12(previous: ModuleType) -> Iterator[None]:
    """The baseline as drawn before issue 12: every tile drawn onto the board, Pillow's encoder."""
    saved = previous._png, previous.USE_LAYERS
    previous._png, previous.USE_LAYERS = pillow_png, False
    try:
        yield
    finally:
        previous._png, previous.USE_LAYERS = saved


# --- what a case forgets before each render ---------------------------------------------------------


def forgetting(previous: ModuleType | None, *, static: bool) -> Callable[[], None]:
    """Everything one game leaves behind (its pictures, layers and bands), and with ``static`` the static
    layers too. The baseline had no static layers: all of its caches either way."""
    def forget() -> None:
        picture.clear_caches(static=static)
        if previous is not None:
            previous.clear_layer_caches()
    return forget


def new_wheel(previous: ModuleType | None) -> Callable[[], None]:
    """The token moved: the baseline has no wheel for this month (it drew them as asked). The wheel of
    every month is one of the static layers here."""
    def forget() -> None:
        if previous is not None:
            previous._season_wheel.cache_clear()
    return forget


def floor_ms(runs: int = RUNS) -> float:
    """An empty board through the PNG writer with nothing remembered: what any picture drawn anew costs."""
    def empty() -> bytes:
        return picture.png(picture.Image.new("RGB", (picture.WIDTH, picture.HEIGHT), picture.BACKGROUND), palette)

    palette = picture.palette_file("bot.games.seasons.front")
    # After one picture, as in a running bot: the first big buffers of a process cost page faults (the C
    # allocator maps them fresh until a large block has been freed once), which is not the writer's cost.
    seasons_board(SEASONS_TYPICAL)
    return measure(lambda _: empty(), same({}), before=picture.clear_caches, runs=runs)[0]


def prepare_ms(repeats: int = 3) -> tuple[float, float, int]:
    """(ms for the first steps, ms for all the static layers, steps), every static layer forgotten before:
    what the picture thread draws once a process (the first steps at start, the rest while idle)."""
    first, everything, steps = [], [], 0
    for _ in range(repeats):
        picture.clear_caches()
        start = time.perf_counter()
        picture.prepare(first=True)
        first.append((time.perf_counter() - start) * 1000)
        picture.clear_caches()
        start = time.perf_counter()
        steps = picture.prepare()
        everything.append((time.perf_counter() - start) * 1000)
    return statistics.median(first), statistics.median(everything), steps


def start_summaries() -> tuple[dict[str, Any], dict[str, Any]]:
    """The summaries of a Seasons and a Volfyirion game at their start, from the engine (as JSON: the form the
    baseline reads)."""
    from engine.seasons.autoplay import autoplay as seasons_autoplay
    from engine.volfyirion.autoplay import autoplay as volfyirion_autoplay

    return (seasons_autoplay({"difficulty": "wizard", "dice": "bot"}, 1, max_actions=0).state.summary().to_json(),
            volfyirion_autoplay({}, 1, max_actions=0).state.summary().to_json())


def volfyirion_board(summary: dict[str, Any]) -> bytes:
    """The board of a case: it reads the engine's typed summary (the baseline read this JSON itself)."""
    return typed_volfyirion_board(VolfyirionSummary.from_json(summary))


def main(quick: bool = False) -> None:
    print_machine()
    with baseline_module() as previous:  # None (said why) without it
        run(previous, quick=quick)


def run(previous: ModuleType | None, *, quick: bool = False) -> None:
    runs = 1 if quick else RUNS
    floor = floor_ms(runs)
    first_ms, prepare_all_ms, steps = prepare_ms(1 if quick else 3)
    seasons_start, volfyirion_start = start_summaries()
    game, everything = forgetting(previous, static=False), forgetting(previous, static=True)
    wheel = new_wheel(previous)
    cases = [
        ("seasons unchanged", "warm", "seasons", same(SEASONS_TYPICAL), None),
        ("seasons typical", "warm", "seasons", counting(SEASONS_TYPICAL, crystals), None),
        ("seasons new month", "warm", "seasons", counting(SEASONS_TYPICAL, month), wheel),
        ("seasons crowded", "warm", "seasons", counting(SEASONS_CROWDED, crystals), None),
        ("seasons first of a game", "cold", "seasons", same(seasons_start), game),
        ("seasons cold, mid-game", "cold", "seasons", same(SEASONS_TYPICAL), game),
        ("seasons nothing prepared", "-", "seasons", same(SEASONS_TYPICAL), everything),
        ("volfyirion unchanged", "warm", "volfyirion", same(VOLF_TYPICAL), None),
        ("volfyirion typical", "warm", "volfyirion", counting(VOLF_TYPICAL, turn), None),
        ("volfyirion crowded", "warm", "volfyirion", counting(VOLF_CROWDED, turn), None),
        ("volfyirion first of a game", "cold", "volfyirion", same(volfyirion_start), game),
        ("volfyirion cold, mid-game", "cold", "volfyirion", same(VOLF_TYPICAL), game),
        ("volfyirion nothing prepared", "-", "volfyirion", same(VOLF_TYPICAL), everything),
    ]
    if quick:
        cases = [case for case in cases if case[0] in QUICK_CASES]
    renders = {"seasons": seasons_board, "volfyirion": volfyirion_board}
    old = {} if previous is None else {"seasons": previous.seasons_board, "volfyirion": previous.volfyirion_board}
    rows = []
    baseline: Any
    for name, kind, game_name, summaries, before in cases:
        picture.clear_caches()
        picture.prepare()  # as the bot does at start, on its picture thread
        median, size = measure(renders[game_name], summaries, before, runs)
        if previous is None:
            baseline = original = faster = "unavailable"
        else:
            everything()
            baseline = measure(old[game_name], summaries, before, runs)[0]
            with before_issue_12(previous):
                original = measure(old[game_name], summaries, before, runs)[0]
            faster = baseline / median
        met = "n/a" if kind == "-" else "yes" if median <= TARGET_MS else "NO"
        rows.append([name, kind, median, TARGET_MS, floor, baseline, faster, original, size / 1024, met])
    print_table(
        "Pictures (800x450 PNG): median ms per render, warm and cold, beside the target and the floor",
        ["picture", "cache", "median ms", "target ms", "floor ms", "baseline ms", "x faster", "before 12 ms",
         "PNG KB", "met"],
        rows,
        notes=[f"medians of {runs} renders; floor: an empty board through the PNG writer, nothing remembered",
               f"baseline: {BASELINE_PATH} at {BASELINE_COMMIT} (git show, loaded into a temporary module); "
               "before 12: the same without layers and with Pillow's encoder at level 3; all in this run",
               "cold: what one game leaves behind (pictures, layers) forgotten before each render; the "
               "static layers stay, as the bot draws them at start; nothing prepared: those forgotten too",
               f"static layers: {steps} steps, {prepare_all_ms:.1f} ms once a process on the picture thread "
               f"({first_ms:.1f} ms of it at start, before any command; the rest while no picture waits)"])


if __name__ == "__main__":
    main()
