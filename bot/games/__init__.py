"""The registry: a plain list of games, and everything the bot knows about a game comes from its plugin.

python-chess's ``VARIANTS`` is the feel: a game is its own package (``bot/games/<game>/``: its ``GamePlugin``,
command group, embeds, pictures, words and locale files) plus one instance in ``GAMES``, and no other module of
the bot names it. A plugin imports its heavy parts when first asked, so importing the registry loads no engine,
no picture code and no command group. A test may add a game of its own by appending to ``GAMES``.

Only the entry points (bot/app.py, bot/console.py, bot/__main__.py) import this package: they build the registry
(``registry()``), hand it to the modules of free functions that read every game (``install``) and pass it, or one
game's plugin, to the objects they make. No other module of the bot imports a game.
"""

from __future__ import annotations

from functools import lru_cache

from engine.core import Rules, State

from .. import i18n
from ..registry import Registry
from ..render import embeds
from ..store import replay_check, schema
from .plugin import AnyGame, GamePlugin, GameUI, Ordering, Words
from .seasons import SeasonsGame
from .volfyirion import VolfyirionGame

__all__ = ["GAMES", "GamePlugin", "GameUI", "Words", "by_kind", "get", "install", "rankings", "registry", "rules_for"]

# The first is the default of /game leaderboard.
GAMES: list[AnyGame] = [SeasonsGame(), VolfyirionGame()]


def by_kind() -> dict[str, AnyGame]:
    """The games by kind, in the order of ``GAMES`` (as the list is now)."""
    return _index(tuple(GAMES))


@lru_cache(maxsize=8)
def _index(games: tuple[AnyGame, ...]) -> dict[str, AnyGame]:
    return {g.kind: g for g in games}


def get(kind: str) -> AnyGame:
    try:
        return by_kind()[kind]
    except KeyError:
        raise KeyError(f"no game {kind!r} is registered") from None


def rules_for(kind: str) -> Rules[State]:
    """The engine of ``kind`` (imported on first use, so start-up loads nothing it does not need)."""
    return get(kind).rules()


def rankings() -> dict[str, Ordering]:
    return {g.kind: g.ranking for g in GAMES}


def registry() -> Registry[AnyGame]:
    """The registered games as the entry points hand them down (it reads ``GAMES`` as the list is then)."""
    return Registry(GAMES)


def install(games: Registry[AnyGame]) -> None:
    """Hand ``games`` to the modules of free functions that read every game: the sentences (i18n), the notices'
    colours, the store's schema steps, and the engines its replay and copy checks replay with."""
    i18n.use(games)
    embeds.use(games)
    schema.use(games)
    replay_check.use(lambda kind: games.get(kind).rules())
