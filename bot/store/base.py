"""What the bot needs from a store, independent of the database behind it.

The bot talks only to ``Store``; ``SqliteStore`` (bot/store/sqlite.py) is the one implementation
today, and a PostgreSQL one (asyncpg) can follow the same contract: every write is one transaction,
the game's ``ply`` is its version and is checked on write with a conditional UPDATE, the
"one active game per channel" rule is a partial unique index, timestamps are ISO-8601 UTC strings.

Errors carry a message key and parameters like the engine's ``RuleError`` so the bot can localize
them; none of them means that anything was half-written.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any, Protocol, runtime_checkable

JSON = dict[str, Any]

KINDS = ("seasons", "volfyirion")
STATUSES = ("active", "finished", "abandoned")
OUTCOMES = ("won", "lost", "abandoned")


# -- errors ----------------------------------------------------------------------------------------
class StoreError(Exception):
    """Base of every store error: a message key for the bot to render, with parameters."""

    key = "store.error"

    def __init__(self, key: str | None = None, **params: Any) -> None:
        self.key = key or type(self).key
        self.params = params
        super().__init__(self.key, params)

    def __str__(self) -> str:
        if not self.params:
            return self.key
        inner = ", ".join(f"{k}={v!r}" for k, v in sorted(self.params.items()))
        return f"{self.key}({inner})"


class ChannelBusy(StoreError):
    """The channel already has an active game (params: channel_id, and game_id when known)."""

    key = "store.channel_busy"


class StaleVersion(StoreError):
    """Someone else wrote first: the ply is not the expected one (params: game_id, expected, actual)."""

    key = "store.stale_version"


class GameNotFound(StoreError):
    key = "store.game_not_found"


class GameNotActive(StoreError):
    """The game is finished or abandoned and this write needs an active one (params: game_id, status)."""

    key = "store.game_not_active"


class NothingToUndo(StoreError):
    key = "store.nothing_to_undo"


class StoreUnavailable(StoreError):
    """The database cannot be used right now. ``reason``: locked, disk_full, read_only, io, cannot_open."""

    key = "store.unavailable"

    def __init__(self, reason: str, **params: Any) -> None:
        super().__init__(None, reason=reason, **params)
        self.reason = reason


class StoreCorrupt(StoreError):
    """The database file is damaged or is not a database (params: reason, detail)."""

    key = "store.corrupt"

    def __init__(self, reason: str, **params: Any) -> None:
        super().__init__(None, reason=reason, **params)
        self.reason = reason


class SchemaTooNew(StoreError):
    """The file was written by a newer version of the bot (params: found, supported)."""

    key = "store.schema_too_new"


# -- rows ------------------------------------------------------------------------------------------
@dataclass(frozen=True)
class GameRow:
    id: int
    guild_id: int | None
    channel_id: int
    parent_channel_id: int | None
    owner_id: int
    kind: str
    options: JSON
    seed: int
    status: str
    ply: int  # number of live actions: the game's version
    created_at: str
    updated_at: str
    summary: JSON | None


@dataclass(frozen=True)
class ActionRow:
    seq: int  # position in the append-only log, across undos
    game_id: int
    ply: int  # the game's ply after this action
    action: JSON
    user_id: int
    created_at: str
    undone: bool


@dataclass(frozen=True)
class ResultRow:
    game_id: int
    guild_id: int | None
    user_id: int  # the game's owner: the player
    kind: str
    outcome: str  # won | lost | abandoned, from the player's side
    difficulty: str | None
    player_score: int | None
    dummbot_score: int | None
    turns: int | None
    how: str | None
    finished_at: str
    ended_by: int | None  # who finished or abandoned it

    @property
    def margin(self) -> int | None:
        """Seasons: the player's score minus Dummbot's."""
        if self.player_score is None or self.dummbot_score is None:
            return None
        return self.player_score - self.dummbot_score


@dataclass(frozen=True)
class FinishInfo:
    """How a game ended, given with the action that ended it."""

    status: str  # finished | abandoned
    outcome: str  # won | lost | abandoned
    difficulty: str | None = None
    player_score: int | None = None
    dummbot_score: int | None = None
    turns: int | None = None
    how: str | None = None
    finished_at: str | None = None  # None: the store's clock


# -- the contract ----------------------------------------------------------------------------------
@runtime_checkable
class Store(Protocol):
    async def open(self) -> None: ...
    async def close(self) -> None: ...

    async def create_game(
        self,
        *,
        guild_id: int | None,
        channel_id: int,
        parent_channel_id: int | None,
        owner_id: int,
        kind: str,
        options: JSON,
        seed: int,
    ) -> GameRow: ...

    async def active_game(self, channel_id: int) -> GameRow | None: ...
    async def game(self, game_id: int) -> GameRow: ...
    async def last_game(self, channel_id: int) -> GameRow | None: ...
    async def live_actions(self, game_id: int, after_ply: int = 0) -> list[ActionRow]: ...
    async def history(self, game_id: int, limit: int) -> list[ActionRow]: ...
    async def latest_snapshot(self, game_id: int, at_most_ply: int) -> tuple[int, JSON] | None: ...

    async def append_action(
        self,
        game_id: int,
        *,
        expected_ply: int,
        action: JSON,
        user_id: int,
        snapshot: JSON | None = None,
        summary: JSON | None,
        finish: FinishInfo | None = None,
    ) -> GameRow: ...

    async def undo_action(
        self, game_id: int, *, expected_ply: int, user_id: int, summary: JSON | None
    ) -> GameRow: ...

    async def abandon(self, game_id: int, *, expected_ply: int | None, by_user: int) -> GameRow: ...

    async def add_result_post(self, game_id: int, channel_id: int, message_id: int) -> None: ...
    async def take_result_posts(self, game_id: int) -> list[tuple[int, int]]: ...
    async def result(self, game_id: int) -> ResultRow | None: ...
    async def leaderboard(
        self, guild_id: int | None, kind: str, difficulty: str | None = None, limit: int = 10
    ) -> list[ResultRow]: ...
    async def stats(self, guild_id: int | None, user_id: int) -> JSON: ...
    async def backup(self, path: str) -> None: ...
    async def count_games(self, status: str | None = None) -> int: ...
    async def ping(self) -> None: ...  # a cheap query the database answers (/readyz); raises if it does not
    async def get_setting(self, key: str) -> str | None: ...
    async def put_setting(self, key: str, value: str | None) -> None: ...
    async def user_data(self, user_id: int) -> JSON: ...
    async def forget_user(self, user_id: int, *, expected_mark: str | None = None) -> JSON: ...
