"""Every sentence the bot says, in Japanese and English.

Templates live in ``bot/locales/<area>.<lang>.json`` (flat key → ``str.format`` template). The engine
raises and emits *keys*; this module turns a key and its parameters into a sentence in the user's
language. Parameters named ``card``/``cards`` (or ending ``_card``/``_cards``) are card ids and become
localized card names; ``face`` (or ``*_face``) is a Seasons die face and becomes its symbols.
"""

from __future__ import annotations

import json
import string
from functools import cache
from importlib import resources
from typing import Any

import discord
from discord import app_commands

from .games import KINDS

LANGS = ("en", "ja")


def lang_of(locale: discord.Locale | str | None) -> str:
    """Japanese for ``ja``, English for everything else."""
    value = getattr(locale, "value", locale) or ""
    return "ja" if str(value).lower().startswith("ja") else "en"


@cache
def catalog_texts() -> dict[str, dict[str, str]]:
    """All templates, by language: every ``*.<lang>.json`` file of bot/locales merged."""
    texts: dict[str, dict[str, str]] = {lang: {} for lang in LANGS}
    for entry in sorted(resources.files("bot.locales").iterdir(), key=lambda e: e.name):
        parts = entry.name.split(".")
        if len(parts) == 3 and parts[2] == "json" and parts[1] in texts:
            texts[parts[1]].update(json.loads(entry.read_text(encoding="utf-8")))
    return texts


def has(key: str) -> bool:
    return key in catalog_texts()["en"]


def t(lang: str, key: str, /, **params: Any) -> str:
    """The sentence for ``key`` in ``lang`` (English if the key has no translation, the key itself if unknown)."""
    texts = catalog_texts()
    template = texts.get(lang, {}).get(key) or texts["en"].get(key)
    if template is None:
        return key
    # Card ids are the game's: the key says which (``seasons.…``, ``action.volfyirion.…``) unless a param does.
    game = next((part for part in key.split(".") if part in KINDS), "")
    rendered = {name: render_param(lang, name, value, game=params.get("game", game)) for name, value in params.items()}
    try:
        return string.Formatter().vformat(template, (), _Lenient(rendered))
    except (IndexError, ValueError):
        return template


class _Lenient(dict):
    """A missing placeholder shows as itself rather than failing the whole reply."""

    def __missing__(self, name: str) -> str:
        return "{" + name + "}"


# Parameters whose string values come from a closed set with a ``word.<value>`` translation.
WORD_PARAMS = frozenset({
    "season", "difficulty", "dice", "kind", "element", "how", "paid", "outcome", "token", "bonus", "game",
    "type", "slot", "new_season", "old_season", "from_season", "to_season",
})


def render_param(lang: str, name: str, value: Any, *, game: str) -> Any:
    if name in ("card", "cards", "suggestions") or name.endswith(("_card", "_cards")):
        if isinstance(value, (list, tuple)):
            return ", ".join(card_name(lang, game, v) for v in value) or "—"
        return card_name(lang, game, value) if value is not None else "—"
    if (name == "face" or name.endswith("_face")) and isinstance(value, dict):
        return face_text(lang, value)
    if name == "faces" or name.endswith("_faces"):
        if isinstance(value, (list, tuple)):
            return " / ".join(face_text(lang, f) if isinstance(f, dict) else str(f) for f in value) or "—"
    if isinstance(value, (list, tuple)):
        return ", ".join(str(v) for v in value) or "—"
    if isinstance(value, bool):
        return t(lang, "word.yes" if value else "word.no")
    if name == "reason" and isinstance(value, str) and has(f"reason.{value}"):
        return t(lang, f"reason.{value}")
    if name == "waiting" and isinstance(value, str) and has(f"step.{value}"):
        return t(lang, f"step.{value}")
    if name in WORD_PARAMS and isinstance(value, str) and has(f"word.{value}"):
        # Closed words the engine passes as values (seasons, difficulties, …) are translated too.
        return t(lang, f"word.{value}")
    return value


def card_name(lang: str, game: str, card_id: Any) -> str:
    card_id = str(card_id)
    if game == "seasons":
        from engine.seasons import CATALOG

        if card_id in CATALOG:
            card = CATALOG[card_id]
            name = (card.name_ja if lang == "ja" else None) or card.name_en
            return f"{name} (#{card_id})"
    return card_id


def face_text(lang: str, face: dict) -> str:
    from engine.seasons import face_text as engine_face_text

    return engine_face_text(face, lang=lang)


class CommandTranslator(app_commands.Translator):
    """Japanese descriptions and choice names for the command tree (names stay English)."""

    async def translate(
        self, string: app_commands.locale_str, locale: discord.Locale, context: app_commands.TranslationContextTypes
    ) -> str | None:
        key = string.extras.get("key")
        if key is None or locale is not discord.Locale.japanese:
            return None
        return catalog_texts()["ja"].get(key)


def L(english: str, key: str) -> app_commands.locale_str:  # noqa: N802 - reads like gettext's _()
    """A command-tree string: English as written, Japanese from bot.ja.json under ``key``."""
    return app_commands.locale_str(english, key=key)
