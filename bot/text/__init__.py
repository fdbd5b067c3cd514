"""Each game's words for ``bot.i18n``: card names, its own parameters, its command, variants and renames
(``bot/text/<game>.py``, each with its ``HOOKS``). Registered here until the game registry does it."""

from __future__ import annotations

from ..i18n import register_text
from . import seasons, volfyirion

register_text(seasons.KIND, seasons.HOOKS)
register_text(volfyirion.KIND, volfyirion.HOOKS)
