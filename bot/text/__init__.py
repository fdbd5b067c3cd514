"""Each game's words for ``bot.i18n``: card names, its own parameters, its command, variants and renames.

Every module of this package is one game's (``bot/text/<game>.py``, with its ``KIND`` and ``HOOKS``) and is
registered as it is found, so this file names no game; a game kept elsewhere (tests/thirdgame) calls
``register_text`` itself.
"""

from __future__ import annotations

import importlib
import pkgutil

from ..i18n import register_text

for _module in pkgutil.iter_modules(__path__):
    _game = importlib.import_module(f"{__name__}.{_module.name}")
    register_text(_game.KIND, _game.HOOKS)
