"""Write each board's palette, ``bot/games/<game>/palette.json``, from the board's own sample pictures.

A developer step (`make palettes`), run after changing a board's colours; the bot only reads the files.
tests/render/test_render_palette.py fails when a file is not what the samples give.
"""

from __future__ import annotations

import importlib
import json
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
BOARDS = ("bot.games.seasons.board", "bot.games.volfyirion.board")


def colours(board: str) -> list[str]:
    """The palette of ``board`` (a module with ``palette_samples``), as ``#rrggbb``."""
    from bot.render import picture

    module = importlib.import_module(board)
    return [f"#{r:02x}{g:02x}{b:02x}" for r, g, b in picture.palette(module.palette_samples())]


def main() -> None:
    sys.path.insert(0, str(ROOT))
    for board in BOARDS:
        path = ROOT / Path(*board.split(".")[:-1]) / "palette.json"
        path.write_text(json.dumps(colours(board)) + "\n", encoding="utf-8")
        print(f"wrote {path.relative_to(ROOT)}")


if __name__ == "__main__":
    main()
