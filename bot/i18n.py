"""Every sentence the bot says, in Japanese and English.

Templates live in ``bot/locales/<area>.<lang>.json`` (flat key → ``str.format`` template). The engine
raises and emits *keys*; this module turns a key and its parameters into a sentence in the user's
language. What a parameter means is decided explicitly, by name *and* value, never by a loose pattern:

- card parameters (``CARD_PARAMS`` and a game's own) carry card ids (one id, or a list of ids) and become
  localized card names (through the game's ``Words.card_name``); a number in one of them is a count, never a card.
- word parameters (``WORD_PARAMS`` and a game's own) come from a closed set and go through a ``word.<value>``
  label; ``method`` through ``word.method_<value>``.
- a game's ``param_names`` renames an engine parameter for the templates where the engine's name misleads
  (a ``kind`` would also be swallowed by callers' own ``kind`` argument).
- a game's ``variants`` pick a key's variant for the edges (zero, one, all, a tie, a move back, no city).
English templates write plurals as ``{n:# card|# cards}`` (``#`` is the number).

What is a game's own (its sentences, card names, its parameters such as die faces, its command, its variants and
renames) comes from its plugin in the registry the entry point hands down (``use``): this module names no game.
"""

from __future__ import annotations

import json
from collections.abc import Callable, Hashable, Iterable, Mapping
from dataclasses import dataclass, field
from functools import cache, lru_cache
from importlib import resources
from typing import Any, Protocol, TypeVar, cast

import discord
from discord import app_commands

from .registry import Registry

LANGS = ("en", "ja")
T = TypeVar("T")


def lang_of(locale: discord.Locale | str | None) -> str:
    """Japanese for ``ja``, English for everything else."""
    value = getattr(locale, "value", locale) or ""
    return "ja" if str(value).lower().startswith("ja") else "en"


@cache
def _shared_texts() -> dict[str, dict[str, str]]:
    """The templates of no game, by language: every ``*.<lang>.json`` file of bot/locales merged."""
    texts: dict[str, dict[str, str]] = {lang: {} for lang in LANGS}
    for entry in sorted(resources.files("bot.locales").iterdir(), key=lambda e: e.name):
        parts = entry.name.split(".")
        if len(parts) == 3 and parts[2] == "json" and parts[1] in texts:
            texts[parts[1]].update(json.loads(entry.read_text(encoding="utf-8")))
    return texts


def catalog_texts() -> dict[str, dict[str, str]]:
    """All templates, by language: the shared ones and every registered game's."""
    return _registered().texts


def has(key: str) -> bool:
    return key in catalog_texts()["en"]


# Parameters that carry card ids (a game adds its own). Nothing else is ever turned into a card name.
CARD_PARAMS = frozenset({"card", "cards", "suggestions"})
# Parameters whose string values come from a closed set with a ``word.<value>`` translation (a game adds its own).
WORD_PARAMS = frozenset({"difficulty", "outcome", "game", "type"})


class GameWords(Protocol):
    """What a game adds to the sentences (its plugin's ``Words``, bot/games/plugin.py), as read here."""

    @property
    def card_name(self) -> Callable[[str, str], str | None]: ...
    @property
    def split_cards(self) -> bool: ...
    @property
    def render(self) -> Callable[[str, str, Any, dict[str, Any]], Any] | None: ...
    @property
    def card_params(self) -> frozenset[str]: ...
    @property
    def word_params(self) -> frozenset[str]: ...
    @property
    def variants(self) -> Mapping[str, Callable[[dict[str, Any]], str | None]]: ...
    @property
    def param_names(self) -> Mapping[str, Mapping[str, str]]: ...
    @property
    def event_keys(self) -> Mapping[tuple[str, str], str]: ...


class Game(Protocol):
    """A registered game, as its sentences need it."""

    @property
    def kind(self) -> str: ...
    @property
    def command(self) -> str: ...
    @property
    def words(self) -> GameWords: ...
    def texts(self) -> dict[str, dict[str, str]]: ...


@dataclass(frozen=True)
class Merged:
    """Every game's words merged with the shared ones (a parameter is a card's or a word's in any game)."""

    card_params: frozenset[str]
    word_params: frozenset[str]
    variants: Mapping[str, Callable[[dict[str, Any]], str | None]] = field(default_factory=dict)
    param_names: Mapping[str, Mapping[str, str]] = field(default_factory=dict)
    event_keys: Mapping[tuple[str, str], str] = field(default_factory=dict)


@dataclass(frozen=True)
class _Registered:
    """The registered games, their templates and their words merged (made again when the list of games changes)."""

    games: dict[str, Game]
    texts: dict[str, dict[str, str]]
    words: Merged
    # Sentences without parameters, said once a language (a button's label, a field's name, a closed word): the
    # same in every reply. At most one entry per template and language, so it cannot grow past the texts.
    constants: dict[tuple[str, str], str] = field(default_factory=dict)
    # Sentences with fixed parameters a game says again and again (``remembered``): bounded by its caller.
    remembered: dict[tuple[str, str, Hashable], Any] = field(default_factory=dict)


_games: Registry[Game] = Registry(())


def use(games: Registry[Game]) -> None:
    """The games whose sentences, card names and commands to say (the entry point's registry)."""
    global _games
    _games = games


def _registered() -> _Registered:
    return _merged(tuple(_games))


@lru_cache(maxsize=4)
def _merged(plugins: tuple[Game, ...]) -> _Registered:
    texts = {lang: dict(strings) for lang, strings in _shared_texts().items()}
    for game in plugins:
        for lang, strings in game.texts().items():
            texts.setdefault(lang, {}).update(strings)
    every = [g.words for g in plugins]
    words = Merged(card_params=CARD_PARAMS.union(*(w.card_params for w in every)),
                  word_params=WORD_PARAMS.union(*(w.word_params for w in every)),
                  variants={k: v for w in every for k, v in w.variants.items()},
                  param_names={k: v for w in every for k, v in w.param_names.items()},
                  event_keys={k: v for w in every for k, v in w.event_keys.items()})
    return _Registered({g.kind: g for g in plugins}, texts, words)


def card_params() -> frozenset[str]:
    """Every parameter that carries card ids: the shared ones and each game's."""
    return _registered().words.card_params


def param_names(key: str) -> Mapping[str, str]:
    """Engine parameter → template placeholder, for ``key`` (a game's renames)."""
    return _registered().words.param_names.get(key, {})


def _num(params: dict[str, Any], name: str) -> int | None:
    value = params.get(name)
    return value if isinstance(value, int) and not isinstance(value, bool) else None


def _sign(params: dict[str, Any], name: str) -> str | None:
    n = _num(params, name)
    return None if n is None else ("back" if n < 0 else None)



def variant_key(key: str, params: dict[str, Any], registered: _Registered) -> str:
    """``key`` or, at an edge its plain sentence gets wrong, the variant that says it right."""
    pick = registered.words.variants.get(key)
    if pick is not None:
        name = pick(params)
        if name and f"{key}.{name}" in registered.texts["en"]:
            return f"{key}.{name}"
    return key


def t(lang: str, key: str, /, **params: Any) -> str:
    """The sentence for ``key`` in ``lang`` (English if the key has no translation, the key itself if unknown)."""
    return _say(_registered(), lang, key, params)


def remembered(lang: str, key: str, token: Hashable, say: Callable[[], T]) -> T:
    """``say()`` (words for ``key``: a sentence, a picker's options), made once per ``token`` and language while
    the games stay the same: for words the same in every reply whose parameters ``token`` stands for (a die of
    the box). The caller keeps the tokens few (a die of the box, not a count) and ``say()`` immutable."""
    registered = _registered()
    said = registered.remembered.get((lang, key, token))
    if said is None:
        said = registered.remembered[(lang, key, token)] = say()
    return cast(T, said)


def _say(registered: _Registered, lang: str, key: str, params: dict[str, Any]) -> str:
    if params:
        return _said(registered, lang, key, params)
    said = registered.constants.get((lang, key))
    if said is None:
        said = _said(registered, lang, key, params)
        if key in registered.texts["en"] or key in registered.texts.get(lang, {}):  # a template: bounded
            registered.constants[(lang, key)] = said
    return said


def _said(registered: _Registered, lang: str, key: str, params: dict[str, Any]) -> str:
    texts = registered.texts
    base = key
    if key in registered.words.variants:
        key = variant_key(key, params, registered)
    template = texts.get(lang, {}).get(key) or texts["en"].get(key)
    if template is None:
        return key
    # Card ids are the game's: a param says which, else the key (``<game>.…``, ``action.<game>.…``).
    known = registered.games
    named = params.get("game")
    game = named if isinstance(named, str) and named in known else _game_in(key, known)
    renames = registered.words.param_names.get(base)
    rendered = _Lenient()
    ja = lang == "ja"
    for name, value in params.items():
        if renames:
            name = renames.get(name, name)
        rendered[name] = _Said(render_param(lang, name, value, game=game, params=params, registered=registered),
                               real_minus=ja)
    for name in ("steps", "change"):  # the size of a move back, for the ``.back`` variants
        n = _num(params, name) if name in params else None
        if n is not None:
            rendered.setdefault("back", _Said(-n))
    if "{start_commands}" in template:
        rendered.setdefault("start_commands", _Said(start_commands(lang)))
    try:
        return template.format_map(rendered)
    except (IndexError, ValueError):
        return template


def _game_in(key: str, known: Mapping[str, Any]) -> str:
    """The first part of ``key`` that names a registered game ("" when none does)."""
    for part in key.split("."):
        if part in known:
            return part
    return ""


class _Lenient(dict[str, Any]):
    """A missing placeholder shows as itself rather than failing the whole reply."""

    def __missing__(self, name: str) -> _Said:
        return _Said("{" + name + "}")


class _Said:
    """A parameter as the templates format it (``str.format_map`` calls ``__format__``): ``{n:# card|# cards}``
    says the singular for exactly 1, the plural otherwise (``#`` is the number), ``{n:none|# card|# cards}`` its
    own words for 0; ``{n:+}`` a signed count (``{n:＋}``
    with Japanese's full-width plus)."""

    __slots__ = ("real_minus", "value")

    def __init__(self, value: Any, *, real_minus: bool = False) -> None:
        self.value = value
        self.real_minus = real_minus  # Japanese writes a negative number with U+2212 (「−6点」), never a hyphen

    def __format__(self, format_spec: str) -> str:
        value = self.value
        if "|" in format_spec:
            # ``{n:zero|one|many}``: a third form for 0, where a count of nothing reads wrong (「0枚」, ja-style turn 4)
            forms = format_spec.split("|", 2)
            zero, one, many = forms if len(forms) == 3 else (None, forms[0], forms[1])
            try:
                n = int(value)
            except (TypeError, ValueError):
                return f"{value} {many.replace('#', '').strip()}"
            said = zero if n == 0 and zero is not None else one if n == 1 else many
            return said.replace("#", str(n))
        if format_spec in ("+", "signed", "＋"):  # ``＋``: Japanese writes its plus full-width, as its ×
            signed, plus = _as_int(value), "＋" if format_spec == "＋" else "+"
            return str(value) if signed is None else f"{plus}{signed}" if signed > 0 else f"−{-signed}" if signed < 0 else "0"
        if isinstance(value, str) and value.startswith("{"):
            return value
        if self.real_minus and not format_spec and isinstance(value, int) and not isinstance(value, bool) and value < 0:
            return f"−{-value}"
        return format(value, format_spec)


def _as_int(value: Any) -> int | None:
    try:
        return int(value)
    except (TypeError, ValueError):
        return None


def start_commands(lang: str) -> str:
    """How to start a game, for every game: "`/a start` or `/b start`"."""
    return f" {t(lang, 'word.or')} ".join(f"`/{g.command} start`" for g in _games)


def render_param(lang: str, name: str, value: Any, *, game: str, params: dict[str, Any],
                 registered: _Registered) -> Any:
    words, plugin = registered.words, registered.games.get(game)
    if name in words.card_params and _is_ids(value):
        if isinstance(value, (list, tuple)):
            return list_text(lang, (card_name(lang, game, v, plugin) for v in value))
        if isinstance(value, str) and plugin is not None and plugin.words.split_cards and "," in value:
            from engine.core import split_list

            return list_text(lang, (card_name(lang, game, v, plugin) for v in split_list(value)))
        return card_name(lang, game, value, plugin) if value is not None else "—"
    for other in registered.games.values():  # a game's own parameters (die faces, effects, …)
        render = other.words.render
        if render is not None:
            said = render(lang, name, value, params)
            if said is not None:
                return said
    if name == "die_index" and _num(params, "index") is not None:
        return int(value) + 1  # the engine counts the two rolled dice from 0; players from 1
    en = registered.texts["en"]  # ``has``, on the registry in hand
    if name == "method" and isinstance(value, str) and f"word.method_{value}" in en:
        return _say(registered, lang, f"word.method_{value}", {})
    if name in ("action", "expected") and isinstance(value, str) and plugin is not None:
        # Action types are the commands players type: say the command.
        names = [v.strip() for v in value.split(",") if v.strip() and v.strip() != "—"]
        return list_text(lang, (f"`/{plugin.command} {v}`" for v in names))
    if name == "choices" and isinstance(value, (list, tuple)):  # closed words by their names: 見習い、魔法使い…
        return list_text(lang, (_say(registered, lang, f"word.{v}", {}) if f"word.{v}" in en else str(v)
                                for v in value))
    if isinstance(value, (list, tuple)):
        return list_text(lang, (str(v) for v in value))
    if isinstance(value, bool):
        return _say(registered, lang, "word.yes" if value else "word.no", {})
    if name == "reason" and isinstance(value, str) and f"reason.{value}" in en:
        return _say(registered, lang, f"reason.{value}", {})
    if name == "waiting" and isinstance(value, str) and f"step.{value}" in en:
        return _say(registered, lang, f"step.{value}", {})
    if name in words.word_params and isinstance(value, str) and f"word.{value}" in en:
        # Closed words the engine passes as values (difficulties, elements, …) are translated too.
        return _say(registered, lang, f"word.{value}", {})
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


def card_name(lang: str, game: str, card_id: Any, plugin: Game | None = None) -> str:
    """The card's name in ``lang`` (the id itself when it is no card of ``game``, whose plugin is ``plugin``
    when the caller has it)."""
    card_id = str(card_id)
    plugin = plugin or _registered().games.get(game)
    name = plugin.words.card_name(lang, card_id) if plugin is not None else None
    return card_id if name is None else name


def event_lines(lang: str, events: Iterable[Any]) -> list[str]:
    """The sentences of a reply's events, in order. An event's words may depend on the next one: the token's
    last move, at the end of year 3, is said as the end of the game rather than as a month."""
    events = list(events)
    event_keys = _registered().words.event_keys
    lines = []
    for i, event in enumerate(events):
        key = event.key
        following = events[i + 1].key if i + 1 < len(events) else ""
        key = event_keys.get((key, following), key)
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


def L(english: str, key: str) -> app_commands.locale_str:
    """A command-tree string: English as written, Japanese from bot.ja.json under ``key``."""
    return app_commands.locale_str(english, key=key)


def english(key: str) -> str:
    """The English template of ``key`` (for command-tree strings that are also reply words)."""
    return catalog_texts()["en"].get(key, key)

