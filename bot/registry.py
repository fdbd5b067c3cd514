"""The games a bot plays, as the entry points hand them down (``bot.games.registry()`` builds one): the shared
modules are given this, or one game's plugin, and never import the games.

A module takes the registry of the games as it sees them (``Registry[Coloured]``: only what it reads of a
game); the registry is read-only and covariant, so the entry point's ``Registry[GamePlugin]`` fits every one.
"""

from __future__ import annotations

from collections.abc import Iterator, Sequence
from typing import Generic, Protocol, TypeVar


class Named(Protocol):
    @property
    def kind(self) -> str: ...


G = TypeVar("G", bound=Named, covariant=True)


class Registry(Generic[G]):
    """The registered games, in their order (the first is the default of /game leaderboard). It reads the list
    it is given whenever asked, so a game a test appends to that list is registered from then on."""

    def __init__(self, games: Sequence[G]) -> None:
        self._games = games

    def __iter__(self) -> Iterator[G]:
        return iter(tuple(self._games))

    def get(self, kind: str) -> G:
        for game in self._games:
            if game.kind == kind:
                return game
        raise KeyError(f"no game {kind!r} is registered")

    def find(self, kind: str) -> G | None:
        return next((g for g in self._games if g.kind == kind), None)

    @property
    def default(self) -> G:
        return self._games[0]
