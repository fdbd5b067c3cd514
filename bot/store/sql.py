"""What ``SqliteStore`` and ``PostgresStore`` say alike, said once (issue 34, point 7).

The statements here are written once, with PostgreSQL's numbered parameters (``$1``, a number used as often as
needed); SQLite reads them as its own numbered ``?1`` (``sqlite.SqliteConn``). Where the dialects disagree the
store names its fragment (``SqlStore._SAME``, ``_LIVE``, ``_RAW``, ``_STATE``, ``_ACTION_COLUMNS``). Here: the
contract's signatures, the reads, the create, undo, abandon and forget transactions, the results, settings and
result posts, and ``python -m bot check``'s replay of every game. Each store keeps how it runs a statement
(aiosqlite's group commit, asyncpg's pool), its errors, its append (SQLite's statements side by side, one
PostgreSQL statement) and what only it has (SQLite's checks and backup, PostgreSQL's lost-commit questions).
"""

from __future__ import annotations

from collections.abc import Awaitable, Callable, Mapping
from dataclasses import dataclass
from datetime import UTC, datetime
from typing import Any, Protocol, Self, TypeVar

from .base import (
    JSON,
    ActionRow,
    AlreadyApplied,
    ChannelBusy,
    FinishInfo,
    GameNotFound,
    GameRow,
    Ranking,
    ResultRow,
    StaleVersion,
    StoreCorrupt,
    place_of,
    ranking_sql,
)
from .rows import (
    action_row,
    action_texts,
    dumps,
    game_row,
    new_game_options,
    refusal_for,
    result_row,
    signed,
    snapshot_of,
    stored_json,
)

T = TypeVar("T")

GAME_COLUMNS = (
    "id, guild_id, channel_id, parent_channel_id, owner_id, kind, options, seed, status, ply, "
    "created_at, updated_at, revision, place"
)
RESULT_COLUMNS = (
    "game_id, guild_id, user_id, kind, outcome, difficulty, player_score, opponent_score, length, result, "
    "finished_at, ended_by, place"
)
# The tables that hold a game's rows (what /game forget deletes with the game).
GAME_TABLES = ("snapshots", "actions", "results", "result_posts")


def utc_now() -> str:
    return datetime.now(UTC).isoformat(timespec="microseconds")


# -- the writes, as each store's part of them receives them --------------------------------------------------
@dataclass(frozen=True)
class NewGame:
    guild_id: int | None
    channel_id: int
    parent_channel_id: int | None
    owner_id: int
    kind: str
    options: str  # as stored (rows.new_game_options)
    seed: int  # as stored (signed 64-bit)
    now: str
    place: str = "guild"  # base.PLACES


@dataclass(frozen=True)
class Append:
    game_id: int
    expected_ply: int
    action: str  # the action, the snapshot and the new status as stored (rows.action_texts)
    snapshot: str | None
    status: str
    user_id: int
    finish: FinishInfo | None
    expected_revision: int | None
    interaction_id: int | None
    now: str


@dataclass(frozen=True)
class Undo:
    game_id: int
    expected_ply: int
    user_id: int
    expected_revision: int | None
    interaction_id: int | None
    now: str


@dataclass(frozen=True)
class Abandon:
    game_id: int
    expected_ply: int | None
    by_user: int
    expected_revision: int | None
    now: str


class Conn(Protocol):
    """One connection (or transaction) of either database, as the shared statements use it. A row reads by
    column name and by position (``sqlite3.Row``, ``asyncpg.Record``)."""

    async def all(self, sql: str, *params: Any) -> list[Any]: ...
    async def one(self, sql: str, *params: Any) -> Any | None: ...
    async def run(self, sql: str, *params: Any) -> int: ...  # the number of rows changed


# -- statements both stores run in their transactions ------------------------------------------------------
async def load_game(c: Conn, game_id: int) -> GameRow:
    row = await c.one(f"SELECT {GAME_COLUMNS} FROM games WHERE id = $1", game_id)
    if row is None:
        raise GameNotFound(game_id=game_id)
    return game_row(row)


async def channel_busy(c: Conn, channel_id: int) -> ChannelBusy:
    row = await c.one("SELECT id FROM games WHERE channel_id = $1 AND status = 'active'", channel_id)
    return ChannelBusy(channel_id=channel_id, game_id=None if row is None else row[0])


async def already_applied(c: Conn, interaction_id: int | None, *, undo: bool) -> None:
    """Raise ``AlreadyApplied`` when this interaction's action (its undo, when ``undo``) is in the log."""
    if interaction_id is None:
        return
    column = "undone_interaction_id" if undo else "interaction_id"
    seen = await c.one(f"SELECT game_id FROM actions WHERE {column} = $1", interaction_id)
    if seen is not None:
        raise AlreadyApplied(game_id=seen[0], interaction_id=interaction_id)


async def insert_result(c: Conn, game: GameRow, finish: FinishInfo, *, ended_by: int, now: str,
                        bare: JSON | None) -> None:
    """The game's row in ``results``; ``bare`` is what a finish without the engine's Result stores (SQLite
    keeps the outcome as JSON, PostgreSQL NULL)."""
    difficulty = finish.difficulty if finish.difficulty is not None else game.options.get("difficulty")
    result = finish.result if finish.result is not None else bare
    await c.run(
        f"INSERT INTO results ({RESULT_COLUMNS}) VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9, $10, $11, $12, $13)",
        game.id, game.guild_id, game.owner_id, game.kind, finish.outcome, difficulty, finish.player_score,
        finish.opponent_score, finish.length, None if result is None else dumps(result),
        finish.finished_at or now, ended_by, game.place,
    )


async def user_counts(c: Conn, user_id: int) -> JSON:
    """What the store holds about ``user_id`` (``Store.user_data``), with the ``mark`` that changes whenever
    any of it does."""
    row = await c.one("SELECT count(*), coalesce(max(id), 0), coalesce(max(updated_at), ''),"
                      " coalesce(sum(revision), 0) FROM games WHERE owner_id = $1", user_id)
    assert row is not None  # an aggregate answers with one row
    games, newest, updated, revisions = int(row[0]), int(row[1]), row[2], int(row[3])
    mine = "SELECT id FROM games WHERE owner_id = $1"
    counts: JSON = {"games": games}
    for table in ("actions", "snapshots", "results"):
        counted = await c.one(f"SELECT count(*) FROM {table} WHERE game_id IN ({mine})", user_id)
        counts[table] = int(counted[0]) if counted is not None else 0
    ended_row = await c.one("SELECT count(*) FROM results WHERE ended_by = $1 AND user_id != $1", user_id)
    ended = int(ended_row[0]) if ended_row is not None else 0
    counts["ended_others"] = ended
    counts["mark"] = f"{games}.{newest}.{revisions}.{counts['actions']}.{counts['results']}.{ended}.{updated}"
    return counts


async def forget_rows(c: Conn, user_id: int, expected_mark: str | None) -> tuple[JSON, list[int]]:
    """Delete every game ``user_id`` started with its rows and take their id off what remains, inside the
    caller's transaction: (what was there, the games' ids). StaleVersion when the data is not ``expected_mark``'s."""
    found = await user_counts(c, user_id)
    if expected_mark is not None and found["mark"] != expected_mark:
        raise StaleVersion(game_id=0, expected=expected_mark, actual=found["mark"])
    ids = [int(r[0]) for r in await c.all("SELECT id FROM games WHERE owner_id = $1 ORDER BY id", user_id)]
    mine = "SELECT id FROM games WHERE owner_id = $1"
    for table in GAME_TABLES:
        await c.run(f"DELETE FROM {table} WHERE game_id IN ({mine})", user_id)
    await c.run("DELETE FROM results WHERE user_id = $1", user_id)
    await c.run("UPDATE results SET ended_by = NULL WHERE ended_by = $1", user_id)
    await c.run("UPDATE actions SET undone_by = NULL WHERE undone_by = $1", user_id)
    await c.run("DELETE FROM games WHERE owner_id = $1", user_id)
    return found, ids


def stats_of(started: list[Any], ended: list[Any], best: dict[str, ResultRow | None],
             rankings: Mapping[str, Ranking]) -> JSON:
    """``Store.stats`` from its three reads: games started by kind, results by kind and outcome, the best."""
    kinds = [*rankings, *(r[0] for r in started if r[0] not in rankings)]
    by_kind = {kind: {"games": 0, "active": 0, "wins": 0, "losses": 0, "abandoned": 0} for kind in kinds}
    for kind, games, active in started:
        by_kind[kind]["games"] = games
        by_kind[kind]["active"] = active or 0
    for kind, outcome, n in ended:
        by_kind[kind][{"won": "wins", "lost": "losses", "abandoned": "abandoned"}[outcome]] = n
    totals = {key: sum(k[key] for k in by_kind.values()) for key in ("games", "active", "wins", "losses", "abandoned")}
    return {**totals, "by_kind": by_kind, "best": best}


class SqlStore:
    """The ``Store`` methods that read the same on both databases, and the write transactions both run. A
    subclass gives ``_reading`` (a read on a ``Conn``) and its dialect's fragments."""

    _RAW: str  # a text column as read where it may not be text (SQLite: as bytes), "{}" the column
    _ACTION_COLUMNS: str  # an action row's columns (the action ``_RAW``)
    _STATE: str  # a snapshot's state as read (``_RAW``)
    _SAME: str  # equal, NULL equal to NULL
    _LIVE: str  # an action not undone (as the partial index on live plies says it)
    _BARE_RESULT: bool  # a finish without the engine's Result stores its outcome as JSON (else NULL)
    _clock: Callable[[], str]  # the time a write records
    action_rows_read: int  # how many action rows ``live_actions`` has returned: a resume reads only the tail

    async def _reading(self, work: Callable[[Conn], Awaitable[T]]) -> T:
        """``work``, which only reads, on a connection of the store's."""
        raise NotImplementedError

    async def _writing(self, work: Callable[[Conn], Awaitable[T]]) -> T:
        """``work`` in one transaction: all of it, or none of it."""
        raise NotImplementedError

    async def open(self) -> None:
        raise NotImplementedError

    async def close(self) -> None:
        raise NotImplementedError

    async def __aenter__(self) -> Self:
        await self.open()
        return self

    async def __aexit__(self, *exc: object) -> None:
        await self.close()

    # -- the writes: the contract's signatures here, each store's way of running them in ``_create``, ``_append``,
    # ``_undo`` and ``_abandon`` (the transactions that agree are ``_create_in``, ``_undo_in``, ``_abandon_in``)
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
        place: str | None = None,
    ) -> GameRow:
        """A new active game at ply 0; ChannelBusy when the channel has one already. ``place`` (base.PLACES) is
        where it is played: by default a server's when there is a ``guild_id``, else a DM's."""
        options_text = new_game_options(kind, options, seed)
        return await self._create(NewGame(guild_id, channel_id, parent_channel_id, owner_id, kind, options_text,
                                          signed(seed), self._clock(), place_of(guild_id, place)))

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
    ) -> GameRow:
        """Record one action at ``expected_ply + 1``, all or nothing.

        ``snapshot`` is the state JSON at the new ply; ``finish`` ends the game and records its result in the
        same transaction. ``expected_revision`` (when given) must be the game's revision too; ``interaction_id``
        is kept with the action, and an interaction whose action is already stored raises ``AlreadyApplied``.
        """
        action_text, snapshot_text, status = action_texts(action, snapshot, finish)
        return await self._append(Append(game_id, expected_ply, action_text, snapshot_text, status, user_id, finish,
                                         expected_revision, interaction_id, self._clock()))

    async def undo_action(
        self, game_id: int, *, expected_ply: int, user_id: int,
        expected_revision: int | None = None, interaction_id: int | None = None,
    ) -> GameRow:
        """Take back the last live action (``_undo_in``)."""
        return await self._undo(Undo(game_id, expected_ply, user_id, expected_revision, interaction_id, self._clock()))

    async def abandon(
        self, game_id: int, *, expected_ply: int | None, by_user: int, expected_revision: int | None = None
    ) -> GameRow:
        """End an active game without a score (``_abandon_in``)."""
        return await self._abandon(Abandon(game_id, expected_ply, by_user, expected_revision, self._clock()))

    async def _create(self, new: NewGame) -> GameRow:
        raise NotImplementedError

    async def _append(self, a: Append) -> GameRow:
        raise NotImplementedError

    async def _undo(self, u: Undo) -> GameRow:
        raise NotImplementedError

    async def _abandon(self, a: Abandon) -> GameRow:
        raise NotImplementedError

    @staticmethod
    async def _create_in(c: Conn, new: NewGame) -> GameRow:
        row = await c.one(
            "INSERT INTO games (guild_id, channel_id, parent_channel_id, owner_id, kind, options, seed,"
            " status, ply, revision, created_at, updated_at, place)"
            f" VALUES ($1, $2, $3, $4, $5, $6, $7, 'active', 0, 0, $8, $8, $9) RETURNING {GAME_COLUMNS}",
            new.guild_id, new.channel_id, new.parent_channel_id, new.owner_id, new.kind, new.options, new.seed,
            new.now, new.place)
        assert row is not None  # INSERT … RETURNING answers with the row
        return game_row(row)

    # -- games -----------------------------------------------------------------------------------------
    async def active_game(self, channel_id: int) -> GameRow | None:
        row = await self._reading(lambda c: c.one(
            f"SELECT {GAME_COLUMNS} FROM games WHERE channel_id = $1 AND status = 'active'", channel_id))
        return game_row(row) if row else None

    async def game(self, game_id: int) -> GameRow:
        return await self._reading(lambda c: load_game(c, game_id))

    async def last_game(self, channel_id: int) -> GameRow | None:
        """The channel's most recent game, whatever its status."""
        row = await self._reading(lambda c: c.one(
            f"SELECT {GAME_COLUMNS} FROM games WHERE channel_id = $1 ORDER BY id DESC LIMIT 1", channel_id))
        return game_row(row) if row else None

    async def count_games(self, status: str | None = None) -> int:
        row = await self._reading(lambda c: c.one(
            "SELECT count(*) FROM games WHERE CAST($1 AS TEXT) IS NULL OR status = $1", status))
        return 0 if row is None else int(row[0])

    # -- actions ---------------------------------------------------------------------------------------
    async def live_actions(self, game_id: int, after_ply: int = 0) -> list[ActionRow]:
        rows = await self._reading(lambda c: c.all(
            f"SELECT {self._ACTION_COLUMNS} FROM actions WHERE game_id = $1 AND {self._LIVE} AND ply > $2"
            " ORDER BY ply", game_id, after_ply))
        self.action_rows_read += len(rows)
        return [action_row(r) for r in rows]

    async def history(self, game_id: int, limit: int) -> list[ActionRow]:
        """The latest ``limit`` log entries, newest first, undone ones included (``undone=True``)."""
        rows = await self._reading(lambda c: c.all(
            f"SELECT {self._ACTION_COLUMNS} FROM actions WHERE game_id = $1 ORDER BY seq DESC LIMIT $2",
            game_id, limit))
        return [action_row(r) for r in rows]

    async def latest_snapshot(self, game_id: int, at_most_ply: int) -> tuple[int, JSON | None] | None:
        return snapshot_of(await self._reading(lambda c: c.one(
            f"SELECT ply, {self._STATE} FROM snapshots WHERE game_id = $1 AND ply <= $2 ORDER BY ply DESC LIMIT 1",
            game_id, at_most_ply)))

    async def put_snapshot(self, game_id: int, ply: int, state: JSON, *, revision: int) -> bool:
        text, now = dumps(state), self._clock()
        written = await self._writing(lambda c: c.run(
            "INSERT INTO snapshots (game_id, ply, state, created_at) SELECT id, $2, $3, $4 FROM games"
            " WHERE id = $1 AND revision = $5 AND ply >= $2"
            " ON CONFLICT (game_id, ply) DO UPDATE SET state = excluded.state, created_at = excluded.created_at",
            game_id, ply, text, now, revision))
        return written == 1

    async def _undo_in(self, c: Conn, u: Undo) -> GameRow:
        """``Store.undo_action`` inside the caller's transaction: the last live action marked undone (never
        deleted), ply − 1, revision + 1, snapshots above the new ply dropped; a game that action had finished is
        active again and its result is gone."""
        await already_applied(c, u.interaction_id, undo=True)
        row = await c.one(
            "UPDATE games SET ply = ply - 1, revision = revision + 1, status = 'active',"
            " updated_at = $1 WHERE id = $2 AND ply = $3 AND ply > 0 AND status IN ('active', 'finished')"
            f" AND (CAST($4 AS BIGINT) IS NULL OR revision = $4) RETURNING {GAME_COLUMNS}",
            u.now, u.game_id, u.expected_ply, u.expected_revision)
        if row is None:
            raise refusal_for(await load_game(c, u.game_id), u.expected_ply, allowed=("active", "finished"),
                              expected_revision=u.expected_revision)
        changed = await c.run(
            "UPDATE actions SET undone = TRUE, undone_at = $1, undone_by = $2, undone_interaction_id = $5"
            f" WHERE game_id = $3 AND ply = $4 AND {self._LIVE}",
            u.now, u.user_id, u.game_id, u.expected_ply, u.interaction_id)
        if changed != 1:
            raise StoreCorrupt("log_mismatch", game_id=u.game_id, ply=u.expected_ply)
        await c.run("DELETE FROM snapshots WHERE game_id = $1 AND ply > $2", u.game_id, u.expected_ply - 1)
        await c.run("DELETE FROM results WHERE game_id = $1", u.game_id)
        return game_row(row)

    async def _abandon_in(self, c: Conn, a: Abandon) -> GameRow:
        """``Store.abandon`` inside the caller's transaction: the game ends without a score; its result
        (outcome abandoned) is on no leaderboard."""
        row = await c.one(
            "UPDATE games SET status = 'abandoned', revision = revision + 1, updated_at = $1"
            " WHERE id = $2 AND status = 'active' AND (CAST($3 AS INTEGER) IS NULL OR ply = $3)"
            f" AND (CAST($4 AS BIGINT) IS NULL OR revision = $4) RETURNING {GAME_COLUMNS}",
            a.now, a.game_id, a.expected_ply, a.expected_revision)
        if row is None:
            raise refusal_for(await load_game(c, a.game_id), a.expected_ply, allowed=("active",),
                              expected_revision=a.expected_revision)
        game = game_row(row)
        await self._insert_result(c, game, FinishInfo(status="abandoned", outcome="abandoned"), ended_by=a.by_user,
                                  now=a.now)
        return game

    async def _insert_result(self, c: Conn, game: GameRow, finish: FinishInfo, *, ended_by: int, now: str) -> None:
        await insert_result(c, game, finish, ended_by=ended_by, now=now,
                            bare={"outcome": finish.outcome} if self._BARE_RESULT else None)

    # -- result posts ----------------------------------------------------------------------------------
    async def add_result_post(self, game_id: int, channel_id: int, message_id: int) -> None:
        """Remember a public result post of ``game_id`` (to mark it withdrawn if the ending is undone)."""
        await self._writing(lambda c: c.run(
            "INSERT INTO result_posts (game_id, channel_id, message_id) VALUES ($1, $2, $3) ON CONFLICT DO NOTHING",
            game_id, channel_id, message_id))

    async def take_result_posts(self, game_id: int) -> list[tuple[int, int]]:
        """The result posts of ``game_id`` as (channel_id, message_id), forgotten once read."""
        rows = await self._writing(lambda c: c.all(
            "DELETE FROM result_posts WHERE game_id = $1 RETURNING channel_id, message_id", game_id))
        return sorted(((int(r[0]), int(r[1])) for r in rows), key=lambda post: post[1])

    # -- python -m bot check ---------------------------------------------------------------------------
    @classmethod
    async def replay_games(cls, c: Conn) -> tuple[int, list[str]]:
        """Every game replayed from its log and compared with its latest snapshot (replay_check.py), read on
        ``c``: (games replayed, problems)."""
        from .replay_check import StoredGame, game_problem

        raw = cls._RAW.format
        problems: list[str] = []
        games = await c.all(f"SELECT id, kind, {raw('options')}, seed, ply FROM games ORDER BY id")
        for game_id, kind, options, seed, ply in games:
            actions = await c.all(f"SELECT ply, {raw('action')} FROM actions WHERE game_id = $1 AND {cls._LIVE}"
                                  " ORDER BY ply", game_id)
            snapshot = await c.one(f"SELECT ply, {raw('state')} FROM snapshots WHERE game_id = $1 AND ply <= $2"
                                   " ORDER BY ply DESC LIMIT 1", game_id, ply)
            found = game_problem(StoredGame(
                game_id, kind, stored_json(options) or {}, seed & ((1 << 64) - 1), ply,
                [(r[0], r[1]) for r in actions], None if snapshot is None else (snapshot[0], snapshot[1])))
            if found is not None:
                problems.append(found)
        return len(games), problems

    # -- results ---------------------------------------------------------------------------------------
    async def result(self, game_id: int) -> ResultRow | None:
        row = await self._reading(lambda c: c.one(
            f"SELECT {RESULT_COLUMNS} FROM results WHERE game_id = $1", game_id))
        return result_row(row) if row else None

    async def leaderboard(
        self, guild_id: int | None, kind: str, difficulty: str | None = None, limit: int = 10, *, ranking: Ranking
    ) -> list[ResultRow]:
        """Each player's best result in this server, best first (rank = position + 1), in the order of the
        game's ``ranking`` (from its registry entry). ``difficulty`` None ranks all difficulties together."""
        where, order = ranking_sql(ranking)
        rows = await self._reading(lambda c: c.all(
            f"SELECT {RESULT_COLUMNS} FROM ("
            f" SELECT *, row_number() OVER (PARTITION BY user_id ORDER BY {order}) AS nth FROM results"
            f" WHERE guild_id {self._SAME} $1 AND kind = $2 AND (CAST($3 AS TEXT) IS NULL OR difficulty = $3)"
            f" AND {where}) AS ranked WHERE nth = 1 ORDER BY {order} LIMIT $4",
            guild_id, kind, difficulty, limit))
        return [result_row(r) for r in rows]

    async def stats(self, guild_id: int | None, user_id: int, *,
                    rankings: Mapping[str, Ranking] | None = None) -> JSON:
        """A player's record in one server.

        ``{"games", "active", "wins", "losses", "abandoned"}`` (counts; games counts every game they
        started), ``"by_kind": {kind: the same counts}`` (every kind of ``rankings`` and every kind played),
        ``"best": {kind: ResultRow | None}`` for each kind of ``rankings``, ranked as on the leaderboard.
        """
        chosen = dict(rankings or {})

        async def read(c: Conn) -> JSON:
            started = await c.all(
                "SELECT kind, count(*), count(*) FILTER (WHERE status = 'active') FROM games"
                f" WHERE guild_id {self._SAME} $1 AND owner_id = $2 GROUP BY kind", guild_id, user_id)
            ended = await c.all(
                f"SELECT kind, outcome, count(*) FROM results WHERE guild_id {self._SAME} $1 AND user_id = $2"
                " GROUP BY kind, outcome", guild_id, user_id)
            best: dict[str, ResultRow | None] = {}
            for kind, ranking in chosen.items():
                where, order = ranking_sql(ranking)
                row = await c.one(
                    f"SELECT {RESULT_COLUMNS} FROM results WHERE guild_id {self._SAME} $1 AND user_id = $2"
                    f" AND kind = $3 AND {where} ORDER BY {order} LIMIT 1", guild_id, user_id, kind)
                best[kind] = result_row(row) if row else None
            return stats_of(started, ended, best, chosen)

        return await self._reading(read)

    async def record(self, user_id: int, *, rankings: Mapping[str, Ranking] | None = None) -> JSON:
        """A player's own record across every place they played (servers, DMs, group DMs, user installs).

        ``{"rows": [{"kind", "difficulty", "played", "wins", "losses", "abandoned", "best"}], "places": {place:
        results}, "servers": distinct servers}``: one row per kind and difficulty they finished or abandoned a
        game of (kinds in the order of ``rankings``, then the others), ``best`` ranked as on the leaderboard (None
        when no result ranks). Only the player's own results count: this is never shown for someone else."""
        chosen = dict(rankings or {})

        async def read(c: Conn) -> JSON:
            counted = await c.all(
                "SELECT kind, coalesce(difficulty, ''), outcome, count(*) FROM results WHERE user_id = $1"
                " GROUP BY kind, coalesce(difficulty, ''), outcome", user_id)
            places = await c.all("SELECT place, count(*) FROM results WHERE user_id = $1 GROUP BY place", user_id)
            servers = await c.one("SELECT count(DISTINCT guild_id) FROM results WHERE user_id = $1", user_id)
            rows: dict[tuple[str, str], JSON] = {}
            for kind, difficulty, outcome, n in counted:
                row = rows.setdefault((kind, difficulty), {"kind": kind, "difficulty": difficulty or None,
                                                           "played": 0, "wins": 0, "losses": 0, "abandoned": 0,
                                                           "best": None})
                row["played"] += n
                row[{"won": "wins", "lost": "losses", "abandoned": "abandoned"}[outcome]] += n
            for (kind, difficulty), row in rows.items():
                if kind in chosen:
                    where, order = ranking_sql(chosen[kind])
                    best = await c.one(
                        f"SELECT {RESULT_COLUMNS} FROM results WHERE user_id = $1 AND kind = $2"
                        f" AND coalesce(difficulty, '') = $3 AND {where} ORDER BY {order} LIMIT 1",
                        user_id, kind, difficulty)
                    row["best"] = result_row(best) if best else None
            position = {kind: i for i, kind in enumerate(chosen)}
            listed = sorted(rows.values(), key=lambda r: (position.get(r["kind"], len(position)), r["kind"],
                                                          r["difficulty"] or ""))
            return {"rows": listed, "places": {p: int(n) for p, n in places},
                    "servers": int(servers[0]) if servers is not None else 0}

        return await self._reading(read)

    async def recent_results(self, user_id: int, kind: str, limit: int = 4) -> list[ResultRow]:
        """The player's latest ``limit`` won or lost games of ``kind`` (abandoned ones say nothing of the level),
        newest first, wherever they were played."""
        rows = await self._reading(lambda c: c.all(
            f"SELECT {RESULT_COLUMNS} FROM results WHERE user_id = $1 AND kind = $2 AND outcome IN ('won', 'lost')"
            " ORDER BY finished_at DESC, game_id DESC LIMIT $3", user_id, kind, limit))
        return [result_row(r) for r in rows]

    # -- settings (a small key/value table: the last command sync's hash, …) -----------------------------
    async def get_setting(self, key: str) -> str | None:
        row = await self._reading(lambda c: c.one("SELECT value FROM settings WHERE key = $1", key))
        return None if row is None else str(row[0])

    async def put_setting(self, key: str, value: str | None) -> None:
        """Set ``key`` to ``value`` (None deletes it), in one transaction."""
        if value is None:
            await self._writing(lambda c: c.run("DELETE FROM settings WHERE key = $1", key))
        else:
            await self._writing(lambda c: c.run(
                "INSERT INTO settings (key, value, updated_at) VALUES ($1, $2, $3)"
                " ON CONFLICT (key) DO UPDATE SET value = excluded.value, updated_at = excluded.updated_at",
                key, value, utc_now()))

    # -- a user's data (/game forget) ------------------------------------------------------------------
    async def user_data(self, user_id: int) -> JSON:
        """What the store holds about ``user_id``: counts of the games they started and of those games'
        actions, snapshots and results, of results of other games they ended, and a ``mark`` that changes
        whenever any of it does (a confirmation to delete is checked against it)."""
        return await self._reading(lambda c: user_counts(c, user_id))
