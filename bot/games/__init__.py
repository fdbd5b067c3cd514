"""The registry: one entry per game, and everything the bot knows about a game comes from its entry.

python-chess's ``VARIANTS`` and OpenSpiel's ``register_game`` are the feel: a game is its own files (engine
rules, command group, embed fields, board picture, result card, typed commands) plus one ``Game`` here, and
no other module of the bot names it. Entries point at their parts by ``"module:attribute"`` paths, loaded on
first use, so importing the registry loads no engine, no picture code and no command group.

``register`` adds an entry (``bot/games/<game>.py`` holds each built-in one; a test may register its own game);
``unregister`` takes it away again.
"""

from __future__ import annotations

import importlib
import sys
from collections.abc import Callable, Iterator, Mapping
from dataclasses import dataclass, field
from datetime import UTC, datetime
from typing import TYPE_CHECKING, Any

from engine.core import Action, Result, Rules

from ..store.base import FinishInfo, Ranking, ResultRow

if TYPE_CHECKING:
    from engine.core import GameRecord

Command = tuple[str, dict[str, Any]]


def load(path: str) -> Any:
    """``"package.module:name.attr"`` → the object (the module imported on first use)."""
    module, _, name = path.partition(":")
    obj: Any = sys.modules.get(module) or importlib.import_module(module)  # a reply asks a few times: no import machinery
    for part in filter(None, name.split(".")):
        obj = getattr(obj, part)
    return obj


@dataclass(frozen=True)
class Game:
    """One game as the bot sees it. Paths (``"module:name"``) are loaded on first use."""

    kind: str  # the stored name: games.kind, locale keys (``word.<kind>``, ``result.title.<kind>.won``, …)
    name: str  # the English name of its choice in /game leaderboard and /game help (``word.<kind>`` in Japanese)
    command: str  # the name of its slash command group
    rules: str  # the engine's Rules object
    autoplay: str  # ``autoplay(options, seed, *, max_actions) -> GameRecord``: seeded random legal play
    commands: str  # the module of its command group: ``install(bot)`` adds the group and registers its UI
    colour: int  # the embed colour of its replies
    ranking: Ranking  # how its leaderboard orders results
    embed: str  # the module with ``state_fields(lang, summary)``, ``colour(summary)``, ``result_lines(lang,
    #             result, parts)`` and ``result_picture(draw, lang, result, parts, won)``
    board: str  # ``board(summary, lang) -> bytes``: the picture of the state
    typed: str  # ``command(action) -> (slash command, options)``: what a player types (the stand-in's mapping)
    leaderboard_row: str  # ``row(lang, ResultRow) -> str``: a result on the leaderboard and in /game stats
    difficulties: tuple[str, ...] = ()  # the values of its ``difficulty`` option (word.<value> names them)
    options: Mapping[str, tuple[str, ...]] = field(default_factory=dict)  # every closed option and its values
    help_keys: tuple[str, ...] = ()  # locale keys of its /game help rows (each with a ``.name`` key)
    help_params: str | None = None  # ``params() -> {help key: params}``: what its help rows read from the engine
    read_names: str | None = None  # ``names(action) -> [(typed, card)]``: names in an action that were not exact
    texts: Callable[[], Mapping[str, Mapping[str, str]]] | None = None  # strings outside bot/locales, by language
    cards: str | None = None  # its ``CardOption`` (bot/commands/cards.py): how its cards are typed, for /game card
    card_fields: str | None = None  # ``fields(lang, card_id, summary or None) -> [(name, value)]``: /game card

    # -- the parts, loaded ---------------------------------------------------------------------------------
    def load_rules(self) -> Rules:
        return load(self.rules)

    def play(self, options: Mapping[str, Any] | None, seed: int, *, max_actions: int = 2000) -> GameRecord:
        return load(self.autoplay)(options, seed, max_actions=max_actions)

    def part(self, name: str) -> Any:
        """A function of the game's embed module (``state_fields``, ``result_lines``, …), or None."""
        return getattr(load(self.embed), name, None)

    def typed_command(self, action: Action) -> Command:
        return load(self.typed)(action)

    def row_text(self, lang: str, row: ResultRow) -> str:
        return load(self.leaderboard_row)(lang, row)

    def names_read(self, action: Action) -> list[tuple[str, str]]:
        return [] if self.read_names is None else list(load(self.read_names)(action))

    def help_row_params(self, key: str) -> dict[str, Any]:
        return {} if self.help_params is None else dict(load(self.help_params)().get(key, {}))

    def card_option(self) -> Any:
        """Its ``CardOption``, or None when /game card cannot look its cards up."""
        return None if self.cards is None or self.card_fields is None else load(self.cards)

    def card_lookup(self, lang: str, card_id: str, summary: Mapping[str, Any] | None) -> list[tuple[str, str]]:
        return load(self.card_fields)(lang, card_id, summary)

    def draw_board(self, summary: Mapping[str, Any], lang: str = "en") -> bytes:
        return load(self.board)(summary, lang)


_GAMES: dict[str, Game] = {}


def register(game: Game) -> Game:
    """Add ``game`` (its strings join the bot's locales); registering a kind again replaces its entry."""
    _GAMES[game.kind] = game
    if game.texts is not None:
        _add_texts(game.texts())
    return game


def unregister(kind: str) -> None:
    game = _GAMES.pop(kind, None)
    if game is not None and game.texts is not None:
        from ..i18n import catalog_texts

        for lang, strings in game.texts().items():
            for key in strings:
                catalog_texts().get(lang, {}).pop(key, None)


def _add_texts(texts: Mapping[str, Mapping[str, str]]) -> None:
    from ..i18n import catalog_texts

    catalogs = catalog_texts()
    for lang, strings in texts.items():
        catalogs.setdefault(lang, {}).update(strings)


def get(kind: str) -> Game:
    try:
        return _GAMES[kind]
    except KeyError:
        raise KeyError(f"no game {kind!r} is registered") from None


def games() -> list[Game]:
    """Every registered game, in the order registered (the first is the default of /game leaderboard)."""
    return list(_GAMES.values())


class _Kinds:
    """The registered kinds, live (a game registered later is in it too)."""

    def __iter__(self) -> Iterator[str]:
        return iter(list(_GAMES))

    def __contains__(self, kind: object) -> bool:
        return kind in _GAMES

    def __len__(self) -> int:
        return len(_GAMES)

    def __getitem__(self, i: int) -> str:
        return list(_GAMES)[i]

    def __repr__(self) -> str:
        return repr(tuple(_GAMES))


KINDS = _Kinds()


def rules_for(kind: str) -> Rules:
    """The engine of ``kind`` (imported on first use, so start-up loads nothing it does not need)."""
    return get(kind).load_rules()


def rankings() -> dict[str, Ranking]:
    return {g.kind: g.ranking for g in _GAMES.values()}


def difficulties() -> list[str]:
    """Every game's difficulties, each once, in the order of the games."""
    seen: list[str] = []
    for g in _GAMES.values():
        seen += [d for d in g.difficulties if d not in seen]
    return seen


def finish_info(kind: str, options: Mapping[str, Any], result: Result) -> FinishInfo:
    """The result row the store keeps for leaderboards and stats."""
    return FinishInfo(
        status="finished",
        outcome=result.outcome,
        difficulty=options.get("difficulty"),
        player_score=result.player_score,
        opponent_score=result.opponent_score,
        length=result.length,
        result=result.to_json(),
        finished_at=datetime.now(UTC).isoformat(timespec="seconds"),
    )


# The built-in games (their modules hold only their entries: nothing heavy is imported here).
from . import seasons as _seasons  # noqa: E402
from . import volfyirion as _volfyirion  # noqa: E402

register(_seasons._entry())
register(_volfyirion._entry())
