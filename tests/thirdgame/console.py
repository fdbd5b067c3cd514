"""``python -m tests.thirdgame.console [console options]``: the local console with Tug registered, to play it
by hand as a player would (the tests play it in-process, tests/bot/test_bot_third_game.py)."""

from __future__ import annotations

import sys

from bot.console import main

from . import registered

if __name__ == "__main__":
    with registered():
        sys.exit(main())
