"""What the bot needs from a store, independent of the database behind it.

The bot talks only to ``Store``; ``SqliteStore`` (bot/store/sqlite.py) and ``PostgresStore``
(bot/store/postgres.py, asyncpg) implement the same contract: every write is one transaction, the
game's ``revision`` (increased by every write, undo included, so it never repeats) and its ``ply``
are checked on write with a conditional UPDATE, the "one active game per channel" rule is a partial
unique index, an action's interaction id is unique (a second delivery is refused), timestamps are
ISO-8601 UTC strings.

Errors carry a message key and parameters like the engine's ``RuleError`` so the bot can localize
them; none of them means that anything was half-written.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass
from typing import Any, Protocol, runtime_checkable

from engine.core.errors import SoloError

JSON = dict[str, Any]
STATUSES = ("active", "finished", "abandoned")
OUTCOMES = ("won", "lost", "abandoned")
# Where a game is played (issue 36): a server the bot is in, a DM with the bot, a group DM, or a server where only
# the player installed the app (a user install). ``guild_id`` says which server, NULL outside one.
PLACES = ("guild", "dm", "group_dm", "user_install")


def place_of(guild_id: int | None, place: str | None = None) -> str:
    """The place a game is stored with: ``place`` when given (checked), else a server's or a DM's."""
    if place is None:
        return "guild" if guild_id is not None else "dm"
    if place not in PLACES:
        raise ValueError(f"unknown place {place!r}")
    return place


# -- errors ----------------------------------------------------------------------------------------
class StoreError(SoloError):
    """Base of every store error: a message key for the bot to render, with parameters."""

    key = "store.error"


class ChannelBusy(StoreError):
    """The channel already has an active game (params: channel_id, and game_id when known)."""

    key = "store.channel_busy"


class StaleVersion(StoreError):
    """Someone else wrote first: the ply is not the expected one (params: game_id, expected, actual)."""

    key = "store.stale_version"


class AlreadyApplied(StaleVersion):
    """This interaction's action is already in the log (a second delivery): nothing was written again
    (params: game_id, interaction_id)."""

    key = "store.already_applied"


class GameNotFound(StoreError):
    key = "store.game_not_found"


class GameNotActive(StoreError):
    """The game is finished or abandoned and this write needs an active one (params: game_id, status)."""

    key = "store.game_not_active"


class NothingToUndo(StoreError):
    key = "store.nothing_to_undo"


class StoreUnavailable(StoreError):
    """The database cannot be used right now. ``reason``: locked, disk_full, read_only, io, cannot_open,
    unreachable (the database server is down or the connection was lost: the next command reconnects)."""

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


class ForeignDatabase(StoreError):
    """The file is another application's SQLite database (params: path): refused before anything is written."""

    key = "store.foreign"


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
    # Increased by every write (append, undo, abandon, finish): unlike ``ply`` it never comes back to an
    # earlier value, so a cached record is current only when its revision is the row's.
    revision: int = 0
    place: str = "guild"  # PLACES: where it is played (guild_id says which server)


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
    opponent_score: int | None
    length: int | None  # turns, rounds: how long the game went
    result: JSON | None  # the engine's Result as JSON (engine.core.Result.from_json reads it)
    finished_at: str
    ended_by: int | None  # who finished or abandoned it
    place: str = "guild"  # PLACES: where it was played

    @property
    def margin(self) -> int | None:
        """The player's score minus the opponent's, where both have one."""
        if self.player_score is None or self.opponent_score is None:
            return None
        return self.player_score - self.opponent_score

    @property
    def how(self) -> str | None:
        """How the game ended, where a game says (inside ``result``)."""
        return None if self.result is None else self.result.get("how")


# The columns a ranking may order by; ``margin`` is player_score - opponent_score.
RANKING_COLUMNS = ("outcome", "player_score", "opponent_score", "length", "margin")


@dataclass(frozen=True)
class Ranking:
    """How a game's leaderboard orders results, given by the game's registry entry (the store knows no game).

    ``order``: (column, "asc"|"desc") pairs over RANKING_COLUMNS; a result is ranked only when its outcome is in
    ``outcomes`` and none of the ordered columns is NULL. Ties go to the earlier result."""

    order: tuple[tuple[str, str], ...]
    outcomes: tuple[str, ...] = ("won",)

    def __post_init__(self) -> None:
        for column, direction in self.order:
            if column not in RANKING_COLUMNS or direction not in ("asc", "desc"):
                raise ValueError(f"cannot rank by {column!r} {direction!r}")
        if not self.outcomes or any(o not in OUTCOMES for o in self.outcomes):
            raise ValueError(f"unknown outcomes {self.outcomes!r}")


_RANKED = {"outcome": "outcome", "player_score": "player_score", "opponent_score": "opponent_score",
           "length": "length", "margin": "(player_score - opponent_score)"}


def ranking_sql(ranking: Ranking) -> tuple[str, str]:
    """(where, order by) of a game's ranking: only whitelisted columns reach the SQL, outcomes as literals
    from the closed set. Ties go to the earlier result."""
    outcomes = ", ".join(f"'{o}'" for o in ranking.outcomes if o in OUTCOMES)
    columns = [_RANKED[c] for c, _ in ranking.order]
    where = " AND ".join([f"outcome IN ({outcomes})"] + [f"{c} IS NOT NULL" for c in columns])
    order = ", ".join([f"{_RANKED[c]} {d.upper()}" for c, d in ranking.order] + ["finished_at", "game_id"])
    return where, order


@dataclass(frozen=True)
class FinishInfo:
    """How a game ended, given with the action that ended it."""

    status: str  # finished | abandoned
    outcome: str  # won | lost | abandoned
    difficulty: str | None = None
    player_score: int | None = None
    opponent_score: int | None = None
    length: int | None = None
    result: JSON | None = None  # the engine's Result as JSON (None: just the outcome)
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
        place: str | None = None,  # PLACES; None: "guild" with a guild_id, else "dm"
    ) -> GameRow: ...

    async def active_game(self, channel_id: int) -> GameRow | None: ...
    async def game(self, game_id: int) -> GameRow: ...
    async def last_game(self, channel_id: int) -> GameRow | None: ...
    async def live_actions(self, game_id: int, after_ply: int = 0) -> list[ActionRow]: ...
    async def history(self, game_id: int, limit: int) -> list[ActionRow]: ...
    # The latest snapshot at or below ``at_most_ply`` as (ply, state); the state is None when the row cannot
    # be read as a JSON object (a snapshot is derived data: the caller replays from an earlier one).
    async def latest_snapshot(self, game_id: int, at_most_ply: int) -> tuple[int, JSON | None] | None: ...
    # Write the snapshot at ``ply`` again (one found damaged) while the game is still at ``revision``: True
    # when written. A game changed since is left alone (its snapshots may no longer be that state).
    async def put_snapshot(self, game_id: int, ply: int, state: JSON, *, revision: int) -> bool: ...

    async def append_action(
        self,
        game_id: int,
        *,
        expected_ply: int,
        action: JSON,
        user_id: int,
        snapshot: JSON | None = None,
        finish: FinishInfo | None = None,
        expected_revision: int | None = None,
        interaction_id: int | None = None,
    ) -> GameRow: ...

    async def undo_action(
        self, game_id: int, *, expected_ply: int, user_id: int,
        expected_revision: int | None = None, interaction_id: int | None = None,
    ) -> GameRow: ...

    async def abandon(
        self, game_id: int, *, expected_ply: int | None, by_user: int, expected_revision: int | None = None
    ) -> GameRow: ...

    async def add_result_post(self, game_id: int, channel_id: int, message_id: int) -> None: ...
    async def take_result_posts(self, game_id: int) -> list[tuple[int, int]]: ...
    async def result(self, game_id: int) -> ResultRow | None: ...
    async def leaderboard(
        self, guild_id: int | None, kind: str, difficulty: str | None = None, limit: int = 10, *, ranking: Ranking
    ) -> list[ResultRow]: ...
    async def stats(self, guild_id: int | None, user_id: int, *,
                    rankings: Mapping[str, Ranking] | None = None) -> JSON: ...
    # A player's own record across every place (issue 36): by kind and difficulty, and where they played.
    async def record(self, user_id: int, *, rankings: Mapping[str, Ranking] | None = None) -> JSON: ...
    # A player's latest won or lost games of ``kind``, newest first, wherever played (the difficulty a start suggests).
    async def recent_results(self, user_id: int, kind: str, limit: int = 4) -> list[ResultRow]: ...
    async def backup(self, path: str) -> object: ...  # SQLite: the file written; PostgreSQL: pg_dump's job
    async def count_games(self, status: str | None = None) -> int: ...
    async def ping(self) -> None: ...  # a cheap query the database answers (/readyz); raises if it does not
    async def get_setting(self, key: str) -> str | None: ...
    async def put_setting(self, key: str, value: str | None) -> None: ...
    async def user_data(self, user_id: int) -> JSON: ...
    async def forget_user(self, user_id: int, *, expected_mark: str | None = None) -> JSON: ...
