"""Tug's words: the edge of one of its sentences (a pull of nothing). Its strings are in ``locales/``."""

from __future__ import annotations

from bot.games.plugin import Words

VARIANTS = {"tug.event.pulled": lambda p: "none" if p.get("n") == 0 else None}

WORDS = Words(variants=VARIANTS)
