"""Per-channel games: find, lock, load, apply, save — in that order, every time.

The engine decides; the store remembers; this module makes sure the two never disagree. Every change
runs under the channel's lock and is committed in one transaction before anybody is told about it.
A command reads its game row; the live ``GameRecord`` of a recently used game stays cached for a while
(Avrae's short cache), so a round costs a read, one engine step and one commit, not a replay. The cache is
never trusted blindly: a record is used only at the row's revision, and every write is conditional on that
revision, so a row some other process changed meanwhile fails the write. Whatever goes wrong with the store,
the cached record is dropped and rebuilt from the store next time: memory never runs ahead of disk.
"""

from __future__ import annotations

import asyncio
import contextlib
import logging
import random
import time
from collections.abc import AsyncIterator, Awaitable, Callable, Mapping
from dataclasses import dataclass
from datetime import UTC, datetime
from typing import Any, Protocol, cast

from engine.core import Action, Event, GameRecord, Result, RuleError, Rules, SoloError, State, Step
from engine.core.model import JSONObject

from .resume import loaded_from, resume
from .store import (
    FinishInfo,
    GameRow,
    StaleVersion,
    Store,
    StoreCorrupt,
    StoreError,
)

log = logging.getLogger(__name__)

# A state snapshot every this many actions: the first command after a restart replays at most this many
# (about 2.5 ms cold at 25, whatever the game's length; 4–5 ms at 50), for a few KB stored every 25 actions.
SNAPSHOT_EVERY = 25
# Awaited under the channel's lock right before a change is committed (bot.delivery.Gate): raising stops it.
BeforeCommit = Callable[[], Awaitable[None]]


class Refusal(SoloError):
    """A command the bot turns down (not the engine): no game here, not the owner, a stale button…"""


# What turns a command down and changes nothing: answered privately by the one error handler
# (SoloBot.on_app_command_error, for commands, buttons, menus and forms alike).
REFUSALS = (Refusal, RuleError, StoreError)


@dataclass
class Played:
    """What one successful change did: the game row after it, the step, the record."""

    row: GameRow
    step: Step[State]
    record: GameRecord[State]
    finished_now: bool = False
    undone: Action | None = None
    # What to put back on the table for the undone action (its instructions reversed, the game's own events).
    reversal: tuple[Event, ...] = ()
    # The result an undo took back (the game had finished): its public posts are marked withdrawn.
    withdrawn: Result | None = None
    # ``step.state.summary()`` when the change made it already (once per change, for the reply); None: not made
    # yet.
    summary: object = None

    def state_summary(self) -> object:
        """The game's own summary (each game's plugin reads it as its type: ``SeasonsSummary``, …)."""
        return self.summary if self.summary is not None else self.step.state.summary()


class HasJson(Protocol):
    """A typed summary: its JSON is what ``/game export`` keeps."""

    def to_json(self) -> JSONObject: ...


def summary_json(summary: object) -> JSONObject:
    """A summary as ``/game export`` keeps it: every game's summary is a typed one with ``to_json()``."""
    return cast(HasJson, summary).to_json()


@dataclass
class _Cached:
    record: GameRecord[State]
    touched: float
    revision: int  # the game row's revision the record is at: trusted only while the row's is the same


class GameService:
    def __init__(self, store: Store, *, rules: Callable[[str], Rules[State]], cache_seconds: float = 600.0,
                 seed: Callable[[], int] | None = None, max_cached: int = 1000) -> None:
        """``rules``: each registered game's engine by its kind (the registry's ``rules_for``, handed down)."""
        self.store = store
        self.rules_for = rules
        self.cache_seconds = cache_seconds
        # At most this many live records in memory, the least recently used leaving first (weeks of uptime
        # over thousands of channels stay flat); a record that leaves is rebuilt from the store when needed.
        self.max_cached = max_cached
        self._new_seed = seed or (lambda: random.SystemRandom().getrandbits(63))
        self._locks: dict[int, asyncio.Lock] = {}
        self._lock_users: dict[int, int] = {}  # changes holding or waiting for each channel's lock
        self._cache: dict[int, _Cached] = {}
        self._changing = 0
        self._idle = asyncio.Event()
        self._idle.set()
        self._damage_said: set[tuple[int, int]] = set()  # (game, ply) of each damaged snapshot logged

    # -- shutting down -------------------------------------------------------------------------------
    @contextlib.asynccontextmanager
    async def _change(self, channel_id: int) -> AsyncIterator[None]:
        """The channel's lock, counted, so that a shutdown can let changes under way finish first."""
        self._changing += 1
        self._idle.clear()
        lock = self.lock(channel_id)
        self._lock_users[channel_id] = self._lock_users.get(channel_id, 0) + 1
        try:
            async with lock:
                yield
        finally:
            self._release(channel_id, lock)
            self._changing -= 1
            if not self._changing:
                self._idle.set()

    def _release(self, channel_id: int, lock: asyncio.Lock) -> None:
        """The last change of a channel done: its lock leaves memory (a new one is made on the next change)."""
        users = self._lock_users.get(channel_id, 1) - 1
        if users > 0:
            self._lock_users[channel_id] = users
            return
        self._lock_users.pop(channel_id, None)
        if not lock.locked() and self._locks.get(channel_id) is lock:
            del self._locks[channel_id]

    async def drain(self, timeout: float = 5.0) -> None:
        """Wait (a while) for the changes under way, before the store closes under them."""
        with contextlib.suppress(TimeoutError):
            await asyncio.wait_for(self._idle.wait(), timeout)

    # -- locks and cache ---------------------------------------------------------------------------
    def lock(self, channel_id: int) -> asyncio.Lock:
        """The channel's lock. It leaves memory once the last change that used it is done: take it afresh for
        each use rather than keeping the object."""
        lock = self._locks.get(channel_id)
        if lock is None:
            lock = self._locks[channel_id] = asyncio.Lock()
        return lock

    def _evict_idle(self) -> None:
        """Drop the records idle past ``cache_seconds``: the oldest first (``_keep`` keeps the cache in order of
        use), up to the first one still in use, so a command never walks every cached game."""
        horizon = time.monotonic() - self.cache_seconds
        while self._cache:
            game_id, cached = next(iter(self._cache.items()))
            if cached.touched >= horizon:
                return
            self.forget(game_id)

    def forget(self, game_id: int) -> None:
        self._cache.pop(game_id, None)

    def cached_games(self) -> int:
        return len(self._cache)

    def _keep(self, row: GameRow, record: GameRecord[State]) -> None:
        game_id = row.id
        self._cache.pop(game_id, None)
        self._cache[game_id] = _Cached(record, time.monotonic(), row.revision)
        while len(self._cache) > self.max_cached:
            self.forget(next(iter(self._cache)))

    async def record(self, row: GameRow) -> GameRecord[State]:
        """The live record of ``row``: from the cache when it is current, else rebuilt from the store.

        Current means at the row's revision, not merely its ply: another process may have undone an action
        and played a different one, which brings the ply back to the same number over another state."""
        self._evict_idle()
        cached = self._cache.get(row.id)
        if cached is not None and cached.revision == row.revision and cached.record.ply == row.ply and (
                not row.ply or loaded_from(cached.record) < row.ply):  # a resumed record holds its last action
            self._keep(row, cached.record)  # the most recently used now
            return cached.record
        record = await self._load(row)
        self._keep(row, record)
        return record

    async def _load(self, row: GameRow) -> GameRecord[State]:
        """Resume from the latest snapshot before the last action and the actions after it: the reads are
        as long as the tail (at most SNAPSHOT_EVERY actions), whatever the game's length.

        A snapshot is derived data: one that cannot be read or does not resume (a damaged row) is passed by,
        the game resumes from an earlier one or from the start of its log, and the passed ones are written
        again (issue 37). Only a log that does not replay from its start is damage the player hears of."""
        rules = self.rules_for(row.kind)
        damaged: list[int] = []
        at_most = row.ply - 1
        while True:
            snapshot = await self.store.latest_snapshot(row.id, at_most) if at_most > 0 else None
            after = snapshot[0] if snapshot else 0
            actions = [a.action for a in await self.store.live_actions(row.id, after_ply=after)]
            try:
                if snapshot is not None and snapshot[1] is None:
                    raise ValueError("not a JSON object")
                record = resume(rules, row.options, row.seed, snapshot, actions, snapshot_every=SNAPSHOT_EVERY)
            except Exception as exc:
                if snapshot is None:
                    raise StoreCorrupt("unreplayable", game_id=row.id, detail=f"{type(exc).__name__}: {exc}") \
                        from exc
                self._warn_damaged(row.id, snapshot[0], exc)
                damaged.append(snapshot[0])
                at_most = snapshot[0] - 1
                continue
            if damaged:
                await self._rewrite_snapshots(row, rules, snapshot, actions, damaged)
            return record

    def _warn_damaged(self, game_id: int, ply: int, exc: Exception) -> None:
        """Said once per damaged snapshot (a store that cannot write it again would say it at every load)."""
        if (game_id, ply) in self._damage_said:
            return
        self._damage_said.add((game_id, ply))
        log.warning("game %d: its snapshot at ply %d cannot be used (%s: %s); replaying from an earlier one or "
                    "from the start of its log, and writing it again", game_id, ply, type(exc).__name__, exc)

    async def _rewrite_snapshots(self, row: GameRow, rules: Rules[State], base: tuple[int, Any] | None,
                                 actions: list[Any], plies: list[int]) -> None:
        """The snapshots at ``plies`` written again from the sound ``base`` and the ``actions`` after it."""
        start = base[0] if base else 0
        for ply in sorted(plies):
            at = resume(rules, row.options, row.seed, base, actions[:ply - start], snapshot_every=SNAPSHOT_EVERY)
            base = (ply, at.state.to_json())
            actions, start = actions[ply - start:], ply
            try:
                await self.store.put_snapshot(row.id, ply, base[1], revision=row.revision)
            except StoreError as err:  # a read-only file, a full disk: the game is played all the same
                log.warning("game %d: its snapshot at ply %d could not be written again (%s)", row.id, ply, err)
                return

    async def full_record(self, row: GameRow) -> GameRecord[State]:
        """The record with its whole log in memory (an export lists every action): reads every live action."""
        record = await self.record(row)
        if not loaded_from(record):
            return record
        actions = [a.action for a in await self.store.live_actions(row.id, after_ply=0)]
        snapshot = await self.store.latest_snapshot(row.id, row.ply)
        usable = (snapshot[0], snapshot[1]) if snapshot and snapshot[0] and snapshot[1] is not None else None
        try:
            record = GameRecord.replay(self.rules_for(row.kind), row.options, row.seed, actions, snapshot=usable,
                                       snapshot_every=SNAPSHOT_EVERY)
        except Exception:
            if usable is None:
                raise
            record = GameRecord.replay(self.rules_for(row.kind), row.options, row.seed, actions,
                                       snapshot_every=SNAPSHOT_EVERY)
        self._keep(row, record)
        return record

    # -- finding the channel's game ----------------------------------------------------------------
    async def active(self, channel_id: int | None) -> GameRow | None:
        """The channel's game in progress (none where there is no channel: an interaction in no channel)."""
        return None if channel_id is None else await self.store.active_game(channel_id)

    async def require(self, channel_id: int | None, *, kind: str | None = None) -> GameRow:
        row = await self.active(channel_id)
        if row is None:
            raise Refusal("refuse.no_game", kind=kind or "any")
        if kind is not None and row.kind != kind:
            raise Refusal("refuse.other_game", game=row.kind)
        return row

    @staticmethod
    def check_owner(row: GameRow, user_id: int) -> None:
        if row.owner_id != user_id:
            raise Refusal("refuse.not_owner", owner=f"<@{row.owner_id}>")

    # -- changes -----------------------------------------------------------------------------------
    async def start(
        self, *, kind: str, options: dict[str, Any], guild_id: int | None, channel_id: int,
        parent_channel_id: int | None, owner_id: int, before_commit: BeforeCommit | None = None,
        place: str | None = None,
    ) -> Played:
        """A new game; ``place`` (the store's PLACES) says where it is played (None: a server's, or a DM's)."""
        rules = self.rules_for(kind)
        seed = self._new_seed()
        record = GameRecord(rules, options, seed, snapshot_every=SNAPSHOT_EVERY)  # validates the options
        async with self._change(channel_id):
            if before_commit is not None:
                await before_commit()
            row = await self.store.create_game(
                guild_id=guild_id, channel_id=channel_id, parent_channel_id=parent_channel_id, owner_id=owner_id,
                kind=kind, options=record.options, seed=seed, place=place,
            )
            self._keep(row, record)
        return Played(row, record.last, record)

    async def play(
        self, channel_id: int, user_id: int, action: Action | Callable[[GameRecord[State]], Action], *,
        kind: str | None = None, game_id: int | None = None, ply: int | None = None,
        before_commit: BeforeCommit | None = None, interaction_id: int | None = None,
    ) -> Played:
        """Apply one action for ``user_id`` in ``channel_id``.

        ``game_id``/``ply`` come from a button: the press is refused as stale unless the channel's game is
        still that game at that version. ``action`` may be a function of the record (it is then built under
        the lock, against the state it will be applied to). ``before_commit`` is awaited under the lock right
        before the store's transaction; if it raises, nothing is committed and the cached record is dropped.
        ``interaction_id`` (Discord's; None from the console) is stored with the action: a second delivery of
        one interaction is refused as stale instead of being applied twice.
        """
        async with self._change(channel_id):
            row = await self._row_for(channel_id, kind=kind, game_id=game_id, ply=ply, user_id=user_id)
            record = await self.record(row)
            if callable(action):
                action = action(record)
            step = record.push(action)  # RuleError leaves the record untouched
            summary = record.state.summary()
            try:
                if before_commit is not None:
                    await before_commit()
                row = await self._save(row, record, action, user_id, interaction_id)
            except BaseException:
                self.forget(row.id)
                raise
            self._keep(row, record)  # the record is at the new revision now
            return Played(row, step, record, finished_now=record.state.finished, summary=summary)

    async def undo(self, channel_id: int, user_id: int, *, game_id: int | None = None, ply: int | None = None,
                   before_commit: BeforeCommit | None = None, interaction_id: int | None = None) -> Played:
        async with self._change(channel_id):
            row = await self._row_for(channel_id, game_id=game_id, ply=ply, user_id=user_id, finished_ok=True)
            record = await self.record(row)
            withdrawn = record.state.result() if row.status == "finished" else None
            undone = record.pop()  # a resumed record always holds its last action (see record())
            reversal = record.reversal(undone)
            summary = record.state.summary()
            try:
                if before_commit is not None:
                    await before_commit()
                row = await self.store.undo_action(
                    row.id, expected_ply=row.ply, user_id=user_id, expected_revision=row.revision,
                    interaction_id=interaction_id,
                )
            except BaseException:
                self.forget(row.id)
                raise
            if loaded_from(record) >= record.ply > 0:  # undone down to the snapshot: read the tail before it
                record = await self._load(row)
            self._keep(row, record)
            return Played(row, record.last, record, undone=undone, reversal=reversal, withdrawn=withdrawn,
                          summary=summary)

    async def abandon(self, channel_id: int, user_id: int, *, may_manage: bool, game_id: int | None = None,
                      before_commit: BeforeCommit | None = None) -> GameRow:
        async with self._change(channel_id):
            row = await self._row_for(channel_id, game_id=game_id)
            if row.owner_id != user_id and not may_manage:
                raise Refusal("refuse.not_owner_abandon", owner=f"<@{row.owner_id}>")
            if before_commit is not None:
                await before_commit()
            self.forget(row.id)
            return await self.store.abandon(row.id, expected_ply=row.ply, by_user=user_id,
                                            expected_revision=row.revision)

    async def forget_user(self, user_id: int, *, expected_mark: str | None = None,
                          before_commit: BeforeCommit | None = None) -> dict[str, Any]:
        """/game forget: delete every game ``user_id`` started, everywhere; their cached records go too."""
        if before_commit is not None:
            await before_commit()
        forgotten = await self.store.forget_user(user_id, expected_mark=expected_mark)
        for game_id in forgotten["game_ids"]:
            self.forget(game_id)
        return forgotten

    # -- inside -------------------------------------------------------------------------------------
    async def _row_for(
        self, channel_id: int, *, kind: str | None = None, game_id: int | None = None, ply: int | None = None,
        user_id: int | None = None, finished_ok: bool = False,
    ) -> GameRow:
        """The channel's game row, checked against what the command expects (and, with ``user_id``, its owner)."""
        row = await self.store.active_game(channel_id)
        if row is None and finished_ok and game_id is not None:
            # Undo right after the final score: the game is finished but may be taken back.
            candidate = await self.store.game(game_id)
            if candidate.channel_id == channel_id and candidate.status == "finished":
                row = candidate
        if game_id is not None and (row is None or row.id != game_id):
            raise Refusal("refuse.stale_game")
        if row is None:
            raise Refusal("refuse.no_game", kind=kind or "any")
        if kind is not None and row.kind != kind:
            raise Refusal("refuse.other_game", game=row.kind)
        if ply is not None and row.ply != ply:
            raise Refusal("refuse.stale_button")
        if user_id is not None:
            self.check_owner(row, user_id)
        return row

    async def _save(self, row: GameRow, record: GameRecord[State], action: Action, user_id: int,
                    interaction_id: int | None) -> GameRow:
        state = record.state
        snapshot = state.to_json() if record.ply % SNAPSHOT_EVERY == 0 else None
        result = state.result() if state.finished else None
        finish = finish_info(row.options, result) if result else None
        try:
            return await self.store.append_action(
                row.id, expected_ply=row.ply, action=action.to_json(), user_id=user_id, snapshot=snapshot,
                finish=finish, expected_revision=row.revision, interaction_id=interaction_id,
            )
        except StaleVersion:
            # Another process wrote first: our record is behind. The caller sees a clear refusal and the
            # next command rebuilds the record from the store.
            raise Refusal("refuse.stale_button") from None


def finish_info(options: Mapping[str, Any], result: Result) -> FinishInfo:
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
