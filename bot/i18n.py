"""Every sentence the bot says, in Japanese and English.

Templates live in ``bot/locales/<area>.<lang>.json`` (flat key → ``str.format`` template). The engine
raises and emits *keys*; this module turns a key and its parameters into a sentence in the user's
language. What a parameter means is decided explicitly, by name *and* value, never by a loose pattern:

- ``CARD_PARAMS`` carry card ids (one id, or a list of ids) and become localized card names; a number in
  one of them is a count, never a card (``seasons.event.game_end``'s ``cards`` is how many cards).
- ``FACE_PARAMS`` carry Seasons die faces (a face dict, or a face text) and become the face's symbols in
  the reader's language; ``DIE_PARAMS`` are Seasons dice, described by the face that tells them apart.
- ``WORD_PARAMS`` come from a closed set and go through a ``word.<value>`` label; ``effect`` through
  ``seasons.effect.<value>``, ``method`` through ``word.method_<value>``.
- ``PARAM_NAMES`` renames an engine parameter for the templates where the engine's name misleads
  (``cards`` → ``card_count``, ``kind`` → ``effect``: a ``kind`` would also be swallowed by callers'
  own ``kind`` argument).
- ``VARIANTS`` picks a key's variant for the edges (zero, one, all, a tie, a move back, no city).
English templates write plurals as ``{n:# card|# cards}`` (``#`` is the number).
"""

from __future__ import annotations

import json
import string
from collections.abc import Callable, Iterable
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


# Parameters that carry card ids. Nothing else is ever turned into a card name.
CARD_PARAMS = frozenset({
    "card", "cards", "reason_card", "new_card", "troop", "suggestions", "suggested_cards", "suggestion_cards",
    "tied_cards",
})
# Seasons die faces (a face dict, a face text, or a list of them).
FACE_PARAMS = frozenset({"face", "first_face", "second_face", "dummbot_face", "closest_faces"})
# Seasons dice (numbers in the data), described by what a player sees on them.
DIE_PARAMS = frozenset({"first_die", "second_die"})
# Parameters whose string values come from a closed set with a ``word.<value>`` translation.
WORD_PARAMS = frozenset({
    "season", "difficulty", "dice", "element", "how", "paid", "outcome", "token", "bonus", "game",
    "type", "slot", "new_season", "old_season", "from_season", "to_season",
})
# The slash command of each game (Volfyirion's keeps the spelling players type).
COMMANDS = {"seasons": "seasons", "volfyirion": "volfyrion"}
# Engine parameter → template placeholder, per key.
PARAM_NAMES: dict[str, dict[str, str]] = {
    "seasons.event.game_end": {"cards": "card_count"},
    "seasons.bad_effect": {"kind": "effect", "kinds": "effects"},
    "seasons.effect_needs_card": {"kind": "effect"},
    "action.seasons.effect": {"kind": "effect"},
    "action.seasons.take": {"index": "die_index"},
}


def _num(params: dict[str, Any], name: str) -> int | None:
    value = params.get(name)
    return value if isinstance(value, int) and not isinstance(value, bool) else None


def _sign(params: dict[str, Any], name: str) -> str | None:
    n = _num(params, name)
    return None if n is None else ("back" if n < 0 else None)


# Key → a function of the engine's params naming the variant (``<key>.<variant>``) to use, or None.
VARIANTS: dict[str, Callable[[dict[str, Any]], str | None]] = {
    "seasons.event.token_moved": lambda p: _sign(p, "steps"),
    "action.seasons.time": lambda p: _sign(p, "steps"),
    "seasons.time_before_start": lambda p: _sign(p, "steps"),
    "action.seasons.crystals": lambda p: _sign(p, "change"),
    "seasons.event.crystals_lost": lambda p: "none" if _num(p, "n") == 0 else None,
    "seasons.event.crystals_corrected": lambda p: "none" if _num(p, "change") == 0 else _sign(p, "change"),
    "seasons.event.tie_broken": lambda p: None if p.get("highest", True) else "lowest",
    # Naria's own line already tells the player to put one of the two cards onto Dummbot's hand.
    "seasons.event.draw_to_hand": lambda p: "naria" if p.get("reason") == "naria" else None,
    "seasons.event.draw_from_hand": lambda p: "all" if p.get("count") == p.get("hand_size") else None,
    "seasons.event.game_lost": lambda p: "tie" if p.get("player_score") == p.get("dummbot_score") else None,
    "result.seasons_scores": lambda p: "tie" if p.get("player") == p.get("dummbot") else None,
    "seasons.too_many_copies": lambda p: "none" if _num(p, "available") == 0 else None,
    "volfyirion.too_many_copies": lambda p: "none" if _num(p, "available") == 0 else None,
    "volfyirion.event.knowledge": lambda p: "none" if _num(p, "wonders") == 0 else None,
    "action.volfyirion.play": lambda p: "no_city" if p.get("city") in (None, "") else None,
    "action.volfyirion.remove": lambda p: "no_city" if p.get("city") in (None, "") else None,
    "action.volfyirion.putaside": lambda p: "card" if p.get("card") not in (None, "") else None,
}


def engine_names(key: str, template: str) -> set[str]:
    """The engine parameters ``template`` (of ``key``) reads: its placeholders under the engine's names."""
    inverse = {new: old for old, new in PARAM_NAMES.get(key, {}).items()}
    return {inverse.get(name, name) for _, name, _, _ in string.Formatter().parse(template) if name}


def variant_key(key: str, params: dict[str, Any]) -> str:
    """``key`` or, at an edge its plain sentence gets wrong, the variant that says it right."""
    pick = VARIANTS.get(key)
    if pick is not None:
        name = pick(params)
        if name and has(f"{key}.{name}"):
            return f"{key}.{name}"
    return key


def t(lang: str, key: str, /, **params: Any) -> str:
    """The sentence for ``key`` in ``lang`` (English if the key has no translation, the key itself if unknown)."""
    texts = catalog_texts()
    base, key = key, variant_key(key, params)
    template = texts.get(lang, {}).get(key) or texts["en"].get(key)
    if template is None:
        return key
    # Card ids are the game's: the key says which (``seasons.…``, ``action.volfyirion.…``) unless a param does.
    game = next((part for part in key.split(".") if part in KINDS), "")
    game = params.get("game", game) if params.get("game") in KINDS else game
    renames = PARAM_NAMES.get(base, {})
    rendered: dict[str, Any] = {}
    for name, value in params.items():
        rendered[renames.get(name, name)] = render_param(lang, renames.get(name, name), value, game=game,
                                                         params=params)
    for name in ("steps", "change"):  # the size of a move back, for the ``.back`` variants
        n = _num(params, name)
        if n is not None:
            rendered.setdefault("back", -n)
    try:
        return _Formatter().vformat(template, (), _Lenient(rendered))
    except (IndexError, ValueError):
        return template


class _Lenient(dict):
    """A missing placeholder shows as itself rather than failing the whole reply."""

    def __missing__(self, name: str) -> str:
        return "{" + name + "}"


class _Formatter(string.Formatter):
    """``{n:# card|# cards}``: the singular for exactly 1, the plural otherwise (``#`` is the number)."""

    def format_field(self, value: Any, format_spec: str) -> Any:
        if "|" in format_spec:
            one, many = format_spec.split("|", 1)
            try:
                n = int(value)
            except (TypeError, ValueError):
                return f"{value} {many.replace('#', '').strip()}"
            return (one if n == 1 else many).replace("#", str(n))
        if format_spec in ("+", "signed"):
            n = _as_int(value)
            return str(value) if n is None else f"+{n}" if n > 0 else f"−{-n}" if n < 0 else "0"
        if isinstance(value, str) and value.startswith("{"):
            return value
        return super().format_field(value, format_spec)


def _as_int(value: Any) -> int | None:
    try:
        return int(value)
    except (TypeError, ValueError):
        return None


def render_param(lang: str, name: str, value: Any, *, game: str, params: dict[str, Any] | None = None) -> Any:
    params = params or {}
    if name in CARD_PARAMS and _is_ids(value):
        if isinstance(value, (list, tuple)):
            return list_text(lang, (card_name(lang, game, v) for v in value))
        if isinstance(value, str) and game == "volfyirion" and "," in value:
            from engine.core import split_list

            return list_text(lang, (card_name(lang, game, v) for v in split_list(value)))
        return card_name(lang, game, value) if value is not None else "—"
    if name in FACE_PARAMS:
        if isinstance(value, (list, tuple)):
            return (" / " if lang == "en" else "、").join(quoted_face(lang, f) for f in value) or "—"
        if isinstance(value, (dict, str)):
            return face_text(lang, value)
    if name in DIE_PARAMS and _num(params, name) is not None and isinstance(params.get("season"), str):
        return die_text(lang, params["season"], value)
    if name == "effect" and isinstance(value, str) and has(f"seasons.effect.{value}"):
        return t(lang, f"seasons.effect.{value}")
    if name == "effects" and isinstance(value, str):
        return list_text(lang, (t(lang, f"seasons.effect.{v.strip()}") if has(f"seasons.effect.{v.strip()}")
                                else v.strip() for v in value.split(",")))
    if name == "die_index" and _num(params, "index") is not None:
        return int(value) + 1  # the engine counts the two rolled dice from 0; players from 1
    if name == "method" and isinstance(value, str) and has(f"word.method_{value}"):
        return t(lang, f"word.method_{value}")
    if name in ("action", "expected") and isinstance(value, str) and game in COMMANDS:
        # Action types are the commands players type: say the command.
        names = [v.strip() for v in value.split(",") if v.strip() and v.strip() != "—"]
        return list_text(lang, (f"`/{COMMANDS[game]} {v}`" for v in names))
    if isinstance(value, (list, tuple)):
        return list_text(lang, (str(v) for v in value))
    if isinstance(value, bool):
        return t(lang, "word.yes" if value else "word.no")
    if name == "reason" and isinstance(value, str) and has(f"reason.{value}"):
        return t(lang, f"reason.{value}")
    if name == "waiting" and isinstance(value, str) and has(f"step.{value}"):
        return t(lang, f"step.{value}")
    if name in WORD_PARAMS and isinstance(value, str) and has(f"word.{value}"):
        # Closed words the engine passes as values (seasons, difficulties, …) are translated too.
        return t(lang, f"word.{value}")
    if value is None:
        return "—"
    return value


def _is_ids(value: Any) -> bool:
    """Card ids are strings (or lists of strings); a number is a count."""
    if isinstance(value, (list, tuple)):
        return all(isinstance(v, str) for v in value)
    return value is None or isinstance(value, str)


def list_text(lang: str, items: Iterable[str]) -> str:
    """Items of a list: 「、」 between them in Japanese, ", " in English."""
    return ("、" if lang == "ja" else ", ").join(items) or "—"


def card_name(lang: str, game: str, card_id: Any) -> str:
    card_id = str(card_id)
    if game == "seasons":
        from engine.seasons import CATALOG

        if card_id in CATALOG:
            card = CATALOG[card_id]
            name = (card.name_ja if lang == "ja" else None) or card.name_en
            return f"{name} (#{card_id})" if lang == "en" else f"{name}（#{card_id}）"
    if game == "volfyirion":
        from engine.volfyirion.cards import CATALOG as VCATALOG

        found = VCATALOG.resolve(card_id)
        if found is not None:
            return found[0].name
    return card_id


def face_text(lang: str, face: dict | str) -> str:
    from engine.core import RuleError
    from engine.seasons import face_text as engine_face_text
    from engine.seasons import parse_face

    if isinstance(face, str):
        try:
            face = parse_face(face)
        except RuleError:
            return face
    return engine_face_text(face, lang=lang)


def quoted_face(lang: str, face: Any) -> str:
    text = face_text(lang, face) if isinstance(face, (dict, str)) else str(face)
    return f"「{text}」" if lang == "ja" else text


def die_text(lang: str, season: str, die: Any) -> str:
    """A die of ``season`` as a player finds it in the box: by the face no other die of the season has."""
    from engine.seasons.faces import dice_numbers, die_faces

    try:
        number = int(die)
        faces = die_faces(season, number)
    except (KeyError, TypeError, ValueError):
        return str(die)
    others = [f for d in dice_numbers(season) if d != number for f in die_faces(season, d)]
    unique = [f for f in faces if f not in others] or list(faces)
    best = min(unique, key=lambda f: len(face_text("en", f)))
    return t(lang, "word.die_with", face=best)


def event_lines(lang: str, events: Iterable[Any]) -> list[str]:
    """The sentences of a reply's events, in order. An event's words may depend on the next one: the token's
    last move, at the end of year 3, is said as the end of the game rather than as a month."""
    events = list(events)
    lines = []
    for i, event in enumerate(events):
        key = event.key
        following = events[i + 1].key if i + 1 < len(events) else ""
        if key == "seasons.event.token_moved" and following == "seasons.event.year_three_over":
            key = "seasons.event.token_moved_last"
        lines.append(t(lang, key, **event.params))
    return lines


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


def english(key: str) -> str:
    """The English template of ``key`` (for command-tree strings that are also reply words)."""
    return catalog_texts()["en"].get(key, key)
