"""Resume reads the latest snapshot and only the actions after it (issue 12): the rows read are counted, the
resumed game equals a full replay, and undo keeps working across the snapshots it was not loaded from."""

from __future__ import annotations

from pathlib import Path

import pytest

from bot.games import rules_for
from bot.resume import PrefixNotLoaded, TailLog, loaded_from, resume
from bot.sessions import SNAPSHOT_EVERY, GameService
from bot.store import SqliteStore
from engine.core import Action, GameRecord
from engine.seasons import RULES
from engine.seasons.autoplay import play_game

SEED = 7
OPTIONS = {"difficulty": "wizard", "dice": "table"}
CHANNEL, OWNER = 500, 9


def long_game(n: int) -> list[Action]:
    """A real Seasons game's moves, padded with crystal corrections after the first, cut to ``n`` actions."""
    actions, _ = play_game(OPTIONS["difficulty"], OPTIONS["dice"], SEED)
    body = actions[1:-1]
    padding = [Action("crystals", change=1 if i % 2 == 0 else -1) for i in range(max(0, n - 1 - len(body)))]
    return ([actions[0]] + padding + body)[:n]


async def played(path: Path, actions: list[Action]) -> None:
    store = SqliteStore(path, synchronous="OFF")
    await store.open()
    try:
        service = GameService(store, rules=rules_for, seed=lambda: SEED)
        await service.start(kind="seasons", options=dict(OPTIONS), guild_id=1, channel_id=CHANNEL,
                            parent_channel_id=None, owner_id=OWNER)
        for action in actions:
            await service.play(CHANNEL, OWNER, action)
    finally:
        await store.close()


def replayed(actions: list[Action]) -> GameRecord:
    return GameRecord.replay(RULES, OPTIONS, SEED, actions, snapshot_every=SNAPSHOT_EVERY)


def same_game(record: GameRecord, full: GameRecord) -> None:
    assert record.ply == full.ply
    assert record.state.to_json() == full.state.to_json()
    assert record.last.events == full.last.events
    assert record.waiting == full.waiting
    if full.ply:
        assert record.actions[-1] == full.actions[-1]


@pytest.mark.parametrize("n", [37, 200, 201, 260])
async def test_resume_reads_only_the_actions_after_the_latest_snapshot(tmp_path, n):
    path = tmp_path / "resume.sqlite3"
    actions = long_game(n)
    await played(path, actions)
    async with SqliteStore(path) as store:
        service = GameService(store, rules=rules_for)  # a restart: nothing cached
        row = await service.require(CHANNEL, kind="seasons")
        assert row.ply == n
        record = await service.record(row)
        # The snapshot before the last action (ply ≤ n − 1) and the actions after it: never more than
        # SNAPSHOT_EVERY rows, and none when the game is younger than the first snapshot.
        tail = n - ((n - 1) // SNAPSHOT_EVERY) * SNAPSHOT_EVERY
        assert store.action_rows_read == tail
        assert loaded_from(record) == n - tail
        same_game(record, replayed(actions))
        # A cache hit reads nothing more.
        assert await service.record(row) is record
        assert store.action_rows_read == tail


async def test_resume_reads_the_same_rows_whatever_the_games_length(tmp_path):
    reads = []
    for n in (130, 530):
        path = tmp_path / f"flat-{n}.sqlite3"
        await played(path, long_game(n))
        async with SqliteStore(path) as store:
            service = GameService(store, rules=rules_for)
            await service.record(await service.require(CHANNEL))
            reads.append(store.action_rows_read)
    assert reads[0] == reads[1] == 130 - (129 // SNAPSHOT_EVERY) * SNAPSHOT_EVERY  # the same tail after its snapshot


async def test_undo_after_a_resume_crosses_the_snapshots_and_matches_a_full_replay(tmp_path):
    n = 205
    path = tmp_path / "undo.sqlite3"
    actions = long_game(n)
    await played(path, actions)
    async with SqliteStore(path) as store:
        service = GameService(store, rules=rules_for)
        # 60 undos: down through the snapshot the game was resumed from (200) and those before it down to 145.
        for k in range(1, 61):
            undone = await service.undo(CHANNEL, OWNER)
            assert undone.undone == actions[n - k]
            assert undone.row.ply == n - k
            same_game(undone.record, replayed(actions[: n - k]))
        # Only the tails were read: 5 after 200, then, each time the record came down to a snapshot's ply, the
        # SNAPSHOT_EVERY actions before it (at 25: after 175 at ply 200, after 150 at 175, after 125 at 150).
        crossed = [ply for ply in range(n - 60 + 1, n) if ply % SNAPSHOT_EVERY == 0]
        assert store.action_rows_read == 5 + SNAPSHOT_EVERY * len(crossed)
        # Playing again after the undos: the same as a game that never had them.
        again = await service.play(CHANNEL, OWNER, actions[n - 60])
        same_game(again.record, replayed(actions[: n - 59]))
    async with SqliteStore(path) as store:
        service = GameService(store, rules=rules_for)
        record = await service.record(await service.require(CHANNEL))
        same_game(record, replayed(actions[: n - 59]))


async def test_the_full_record_of_a_resumed_game_lists_every_action(tmp_path):
    n = 120
    path = tmp_path / "export.sqlite3"
    actions = long_game(n)
    await played(path, actions)
    async with SqliteStore(path) as store:
        service = GameService(store, rules=rules_for)
        row = await service.require(CHANNEL)
        record = await service.record(row)
        with pytest.raises(PrefixNotLoaded):
            list(record.actions)
        full = await service.full_record(row)
        assert list(full.actions) == actions
        same_game(full, replayed(actions))
        # The whole record is now the cached one: a second export reads nothing more.
        reads = store.action_rows_read
        assert await service.full_record(row) is full
        assert store.action_rows_read == reads


def test_a_tail_log_is_indexed_as_the_whole_log():
    log = TailLog(100, [Action("a", n=100), Action("a", n=101)])
    assert len(log) == 102 and log
    assert log[-1] == Action("a", n=101) and log[100] == Action("a", n=100)
    assert log[100:102] == [Action("a", n=100), Action("a", n=101)]
    assert log[102:102] == []
    with pytest.raises(PrefixNotLoaded):
        log[99]
    with pytest.raises(PrefixNotLoaded):
        log[50:101]
    with pytest.raises(IndexError):
        log[102]
    log.append(Action("a", n=102))
    assert log.pop() == Action("a", n=102)
    log.pop()
    log.pop()
    with pytest.raises(PrefixNotLoaded):
        log.pop()


class CountingRules:
    """The real Seasons rules, counting the new games they build (everything else is theirs)."""

    def __init__(self) -> None:
        self.new_games = 0

    def __getattr__(self, name: str):
        return getattr(RULES, name)

    def new_game(self, options, seed):
        self.new_games += 1
        return RULES.new_game(options, seed)


def test_resume_from_a_snapshot_builds_no_new_game_and_equals_the_replay():
    actions = long_game(60)
    full = replayed(actions)
    snapshot = (SNAPSHOT_EVERY, replayed(actions[:SNAPSHOT_EVERY]).state.to_json())
    rules = CountingRules()
    record = resume(rules, OPTIONS, SEED, snapshot, actions[SNAPSHOT_EVERY:], snapshot_every=SNAPSHOT_EVERY)
    assert rules.new_games == 0  # the snapshot is where it starts: nothing is built to be thrown away
    same_game(record, full)
    assert loaded_from(record) == SNAPSHOT_EVERY
    record.pop()  # undo goes back as far as the snapshot without a new game either
    same_game(record, replayed(actions[:-1]))
    assert rules.new_games == 0
    from_start = resume(rules, OPTIONS, SEED, None, actions[:10], snapshot_every=SNAPSHOT_EVERY)
    same_game(from_start, replayed(actions[:10]))
    assert rules.new_games == 1  # without a snapshot, the game starts from its beginning
