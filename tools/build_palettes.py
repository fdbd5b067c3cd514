"""Write each board's palette, ``bot/games/<game>/front/palette.json``, from the board's own sample pictures.

A developer step (`make palettes`), run after changing a board's colours; the bot only reads the files. A board
takes a palette when its game's package has a ``front.board`` module with ``palette_samples``.
tests/render/test_render_palette.py fails when a file is not what the samples give.
"""

from __future__ import annotations

import importlib
import json
import sys
from pathlib import Path
from types import ModuleType

ROOT = Path(__file__).resolve().parents[1]


def boards() -> list[ModuleType]:
    """The board modules of the registered games that make a palette of their own."""
    from bot import games

    found = []
    for game in games.GAMES:
        try:
            module = importlib.import_module(f"{type(game).__module__}.front.board")
        except ModuleNotFoundError:
            continue
        if hasattr(module, "palette_samples"):
            found.append(module)
    return found


def colours(board: ModuleType) -> list[str]:
    """The palette of ``board``, as ``#rrggbb``."""
    from bot.render import picture

    return [f"#{r:02x}{g:02x}{b:02x}" for r, g, b in picture.palette(board.palette_samples())]


def main() -> None:
    sys.path.insert(0, str(ROOT))
    for board in boards():
        path = Path(board.__file__ or "").with_name("palette.json")
        path.write_text(json.dumps(colours(board)) + "\n", encoding="utf-8")
        print(f"wrote {path.relative_to(ROOT)}")


if __name__ == "__main__":
    main()
