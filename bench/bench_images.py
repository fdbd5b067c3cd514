"""How long the reply pictures take to render, and how big they are.

Run: ``.venv/bin/python bench/bench_images.py``. Prints, for each picture, the median over many renders
of a typical and of a crowded state, the first render (cold: fonts and catalogs load) and the PNG size,
with the machine noted so that figures from different machines are not compared blindly.
"""

from __future__ import annotations

import contextlib
import io
import statistics
import time
from collections.abc import Callable, Iterator
from typing import Any

from bench.common import print_machine
from bot.render import images
from bot.render.images import seasons_board, volfyirion_board

RUNS = 50

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


def measure(
    render: Callable[[dict[str, Any]], bytes],
    summary: dict[str, Any],
    before: Callable[[], None] | None = None,
) -> tuple[float, float, int]:
    """(first render ms, median ms over RUNS, PNG bytes); ``before`` runs, untimed, before each render."""
    start = time.perf_counter()
    png = render(summary)
    first = (time.perf_counter() - start) * 1000
    times = []
    for _ in range(RUNS):
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
def baseline() -> Iterator[None]:
    """The pictures as drawn before issue 12, for the ratio: every tile drawn onto the board, Pillow's encoder."""
    saved = images._png, images.USE_LAYERS
    images._png, images.USE_LAYERS = pillow_png, False
    try:
        yield
    finally:
        images._png, images.USE_LAYERS = saved


def main() -> None:
    print_machine()
    print(f"{'picture':<22} {'first ms':>9} {'median ms':>10} {'before ms':>10} {'ratio':>6} {'PNG KB':>7}")
    # The season wheel is cached per (month, year, season): "new month" clears that cache before each
    # render, which is the cost of the first picture after the token moves.
    new_month = images._season_wheel.cache_clear
    cases = [
        ("seasons typical", seasons_board, SEASONS_TYPICAL, None),
        ("seasons new month", seasons_board, SEASONS_TYPICAL, new_month),
        ("seasons crowded", seasons_board, SEASONS_CROWDED, new_month),
        ("volfyirion typical", volfyirion_board, VOLF_TYPICAL, None),
        ("volfyirion crowded", volfyirion_board, VOLF_CROWDED, None),
    ]
    for name, render, summary, before in cases:
        first, median, size = measure(render, summary, before)
        with baseline():
            _, old, _ = measure(render, summary, before)
        print(f"{name:<22} {first:>9.1f} {median:>10.1f} {old:>10.1f} {old / median:>6.2f} {size / 1024:>7.1f}")
    print(f"medians of {RUNS} renders; before: the same pictures drawn as before issue 12 (no tile layers, "
          "Pillow's PNG encoder at level 3), in the same run; target: at most 3 ms median per picture")


if __name__ == "__main__":
    main()
