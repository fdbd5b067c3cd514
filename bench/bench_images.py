"""How long the reply pictures take to render, and how big they are.

Run: ``.venv/bin/python -m bench --only images``. Prints, for each case, the median over many renders beside
the target (3 ms) and the floor (an empty board through the same PNG writer, nothing remembered), the same
renders by the previous implementation (bench/previous_images.py: bot/render/images.py before the split) and by
the pictures as drawn before issue 12 (no layers, Pillow's encoder), all in the same run; then the first
render (cold: fonts and catalogs load) and the PNG size. The machine is noted first.

Cases, each a sequence of summaries as a game produces them:
- "unchanged": the same summary again (``/game status``, the State button): a picture remembered.
- "typical": a count changes before every render (Dummbot's crystals, the Volfyirion turn): the layers of
  what did not change are pasted, and only the bands of rows that changed are deflated again.
- "new month": the token moves every render: the wheel is redrawn from its shared ring and every band of rows
  it covers deflated again (none remembered from an earlier game).
- "crowded": many cards, long names, a count changing every render.
- "cold": every cache emptied before each render (layers, pictures, bands): the first picture of a game.
"""

from __future__ import annotations

import contextlib
import copy
import io
import statistics
import time
from collections.abc import Callable, Iterator
from typing import Any

from bench import previous_images
from bench.common import print_machine, print_table
from bot.render import picture
from bot.render import seasons_board as seasons_board_module
from bot.render.seasons_board import board as seasons_board
from bot.render.volfyirion_board import board as volfyirion_board

RUNS = 50
TARGET_MS = 3.0

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
            before: Callable[[], None] | None = None) -> tuple[float, float, int]:
    """(first render ms, median ms over RUNS, PNG bytes); ``before`` runs, untimed, before each render."""
    if before is not None:
        before()
    start = time.perf_counter()
    png = render(summaries(0))
    first = (time.perf_counter() - start) * 1000
    times = []
    for i in range(1, RUNS + 1):
        summary = summaries(i)
        if before is not None:
            before()
        start = time.perf_counter()
        render(summary)
        times.append((time.perf_counter() - start) * 1000)
    return first, statistics.median(times), len(png)


def pillow_png(image: Any) -> bytes:
    """The encoder the pictures used before issue 12: Pillow's PNG at level 3 (adaptive row filters)."""
    out = io.BytesIO()
    image.save(out, format="PNG", compress_level=3)
    return out.getvalue()


@contextlib.contextmanager
def before_issue_12() -> Iterator[None]:
    """The previous implementation as drawn before issue 12: every tile drawn onto the board, Pillow's encoder."""
    saved = previous_images._png, previous_images.USE_LAYERS
    previous_images._png, previous_images.USE_LAYERS = pillow_png, False
    try:
        yield
    finally:
        previous_images._png, previous_images.USE_LAYERS = saved


def clear_all() -> None:
    picture.clear_caches()
    previous_images.clear_layer_caches()


def floor_ms() -> float:
    """An empty board through the PNG writer with nothing remembered: what any picture drawn anew costs."""
    def empty() -> bytes:
        return picture.png(picture.Image.new("RGB", (picture.WIDTH, picture.HEIGHT), picture.BACKGROUND))

    # After one picture, as in a running bot: the first big buffers of a process cost page faults (the C
    # allocator maps them fresh until a large block has been freed once), which is not the writer's cost.
    seasons_board(SEASONS_TYPICAL)
    return measure(lambda _: empty(), same({}), before=picture.clear_caches)[1]


def main() -> None:
    print_machine()
    floor = floor_ms()

    def wheel() -> None:
        """The token moved: no wheel for this month and no band of rows with it deflated yet."""
        previous_images._season_wheel.cache_clear()
        seasons_board_module._season_wheel.cache_clear()
        picture._BANDS.clear()

    cases = [
        ("seasons unchanged", "seasons", same(SEASONS_TYPICAL), None),
        ("seasons typical", "seasons", counting(SEASONS_TYPICAL, crystals), None),
        ("seasons new month", "seasons", counting(SEASONS_TYPICAL, month), wheel),
        ("seasons crowded", "seasons", counting(SEASONS_CROWDED, crystals), None),
        ("seasons cold", "seasons", same(SEASONS_TYPICAL), clear_all),
        ("volfyirion unchanged", "volfyirion", same(VOLF_TYPICAL), None),
        ("volfyirion typical", "volfyirion", counting(VOLF_TYPICAL, turn), None),
        ("volfyirion crowded", "volfyirion", counting(VOLF_CROWDED, turn), None),
        ("volfyirion cold", "volfyirion", same(VOLF_TYPICAL), clear_all),
    ]
    renders = {"seasons": (seasons_board, previous_images.seasons_board),
               "volfyirion": (volfyirion_board, previous_images.volfyirion_board)}
    rows = []
    for name, kind, summaries, before in cases:
        new, old = renders[kind]
        clear_all()
        first, median, size = measure(new, summaries, before)
        clear_all()
        _, previous, _ = measure(old, summaries, before)
        with before_issue_12():
            _, original, _ = measure(old, summaries, before)
        rows.append([name, median, TARGET_MS, floor, previous, previous / median, original, first, size / 1024,
                     "yes" if median <= TARGET_MS else "NO"])
    print_table(
        "Pictures (800x450 PNG): median ms per render, beside the target and the floor",
        ["picture", "median ms", "target ms", "floor ms", "previous ms", "x faster", "before 12 ms", "first ms",
         "PNG KB", "met"],
        rows,
        notes=[f"medians of {RUNS} renders; floor: an empty board through the PNG writer, nothing remembered",
               "previous: bot/render/images.py before the split (bench/previous_images.py); before 12: the same "
               "without layers and with Pillow's encoder at level 3; all in this run",
               "cold: every layer, picture and band forgotten before each render (the first picture of a game)"])


if __name__ == "__main__":
    main()
