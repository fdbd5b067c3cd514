"""A version that never repeats (issue 13): every write increases the game's revision, undo included; the cache
and the conditional update compare it, so an undo followed by a different action (the same ply over another
state: ABA) is never mistaken for the state a process has cached. An action's interaction id is unique: a
second delivery of one interaction is applied once. On SQLite and on PostgreSQL."""

from __future__ import annotations

import pytest
from store_helpers import PLACE_COLUMNS, PLACE_UNDO, new_game_args, play

from bot.games import rules_for
from bot.sessions import GameService, Refusal
from bot.store import AlreadyApplied, FinishInfo, StaleVersion
from engine.core import Action, GameRecord
from engine.seasons import RULES
from engine.seasons.autoplay import play_game

BACKENDS = ("sqlite", "postgres")
SEED = 7
OPTIONS = {"difficulty": "wizard", "dice": "table"}
CHANNEL, OWNER = 500, 9


async def test_every_write_increases_the_revision_undo_included(store, game) -> None:
    seen = [game.revision]
    game = await play(store, game, 2)
    seen.append(game.revision)
    game = await store.undo_action(game.id, expected_ply=2, user_id=7)
    seen.append(game.revision)
    game = await play(store, game, 1)
    seen.append(game.revision)
    assert game.ply == 2
    game = await store.append_action(game.id, expected_ply=2, action={"type": "end"}, user_id=7,
                                     finish=FinishInfo("finished", "won", player_score=3, opponent_score=1))
    seen.append(game.revision)
    game = await store.undo_action(game.id, expected_ply=3, user_id=7)
    seen.append(game.revision)
    game = await store.abandon(game.id, expected_ply=2, by_user=7)
    seen.append(game.revision)
    assert seen == [0, 2, 3, 4, 5, 6, 7]
    assert (await store.game(game.id)).revision == 7


async def test_the_conditional_update_checks_the_revision_not_only_the_ply(store, new_store, game) -> None:
    game = await play(store, game, 3)
    async with new_store() as other:  # another process: undo, then a different action — ply 3 again
        moved = await other.undo_action(game.id, expected_ply=3, user_id=7)
        moved = await other.append_action(moved.id, expected_ply=2, action={"type": "other"}, user_id=7)
    assert moved.ply == game.ply == 3 and moved.revision == game.revision + 2
    for write in (
        lambda: store.append_action(game.id, expected_ply=3, expected_revision=game.revision,
                                    action={"type": "stale"}, user_id=7),
        lambda: store.undo_action(game.id, expected_ply=3, expected_revision=game.revision, user_id=7),
        lambda: store.abandon(game.id, expected_ply=3, expected_revision=game.revision, by_user=7),
    ):
        with pytest.raises(StaleVersion) as info:
            await write()
        assert info.value.params == {"game_id": game.id, "expected": 3, "actual": 3,
                                     "expected_revision": game.revision, "revision": moved.revision}
    assert [a.action["type"] for a in await store.live_actions(game.id)] == ["step", "step", "other"]
    assert (await store.game(game.id)).revision == moved.revision


async def test_a_second_delivery_of_one_interaction_is_applied_once(store, new_store, game) -> None:
    game = await store.append_action(game.id, expected_ply=0, action={"type": "a"}, user_id=7,
                                     interaction_id=1111)
    async with new_store() as other:  # the second delivery reaches another process, which reads the new row
        fresh = await other.game(game.id)
        with pytest.raises(AlreadyApplied) as info:
            await other.append_action(game.id, expected_ply=fresh.ply, expected_revision=fresh.revision,
                                      action={"type": "a"}, user_id=7, interaction_id=1111)
    assert info.value.params == {"game_id": game.id, "interaction_id": 1111}
    assert isinstance(info.value, StaleVersion)  # the bot refuses it as a stale press
    assert [a.action for a in await store.live_actions(game.id)] == [{"type": "a"}]
    assert (await store.game(game.id)).revision == game.revision
    # Actions without an interaction (the console's) are never confused with each other.
    game = await play(store, game, 2)
    assert game.ply == 3


def _opening() -> Action:
    actions, _ = play_game(OPTIONS["difficulty"], OPTIONS["dice"], SEED)
    return actions[0]


async def _started(service: GameService) -> None:
    await service.start(kind="seasons", options=dict(OPTIONS), guild_id=1, channel_id=CHANNEL,
                        parent_channel_id=None, owner_id=OWNER)


async def test_aba_a_process_with_a_stale_cache_reloads_instead_of_validating_against_it(store, new_store) -> None:
    """Process A caches the game at ply 2; process B undoes and plays a different action (ply 2 again, another
    state). A's next action must be validated against B's state, not A's cached one."""
    a = GameService(store, rules=rules_for, seed=lambda: SEED)
    await _started(a)
    await a.play(CHANNEL, OWNER, _opening())
    await a.play(CHANNEL, OWNER, Action("crystals", change=1))
    async with new_store() as other:
        b = GameService(other, rules=rules_for, seed=lambda: SEED)
        await b.undo(CHANNEL, OWNER)
        await b.play(CHANNEL, OWNER, Action("crystals", change=3))
    played = await a.play(CHANNEL, OWNER, Action("crystals", change=1))
    live = [Action.from_json(r.action) for r in await store.live_actions(played.row.id)]
    assert live[1:] == [Action("crystals", change=3), Action("crystals", change=1)]
    full = GameRecord.replay(RULES, OPTIONS, SEED, live)
    assert played.record.state.to_json() == full.state.to_json()  # A's record is what the log says
    assert played.row.ply == 3


async def test_a_duplicate_interaction_through_the_service_is_refused_and_changes_nothing(store, new_store) -> None:
    a = GameService(store, rules=rules_for, seed=lambda: SEED)
    await _started(a)
    await a.play(CHANNEL, OWNER, _opening(), interaction_id=77)
    first = await a.play(CHANNEL, OWNER, Action("crystals", change=1), interaction_id=78)
    async with new_store() as other:
        b = GameService(other, rules=rules_for, seed=lambda: SEED)
        with pytest.raises(Refusal) as info:
            await b.play(CHANNEL, OWNER, Action("crystals", change=1), interaction_id=78)
        assert info.value.key == "refuse.stale_button"
    row = await store.game(first.row.id)
    assert (row.ply, row.revision) == (first.row.ply, first.row.revision)


@pytest.mark.backends("sqlite")
async def test_v7_gives_existing_games_a_revision_and_their_actions_no_interaction(db_path, monkeypatch) -> None:
    import sqlite3

    from bot.store import SqliteStore, schema

    before_v7 = schema.MIGRATIONS.index(schema.V7)  # later steps (V8, …) run on the file as well
    with monkeypatch.context() as m:  # a file of the schema before V7, written with today's columns then shed
        m.setattr("bot.store.sqlite.MIGRATIONS", [*schema.MIGRATIONS[:before_v7], (
            *(s for s in schema.V7 if not s.lstrip().startswith("UPDATE")), *PLACE_COLUMNS)])
        m.setattr("bot.store.sqlite.SCHEMA_VERSION", before_v7 + 1)
        async with SqliteStore(db_path) as store:
            game = await play(store, await store.create_game(**new_game_args()), 3)
            game = await store.undo_action(game.id, expected_ply=3, user_id=7)
            quit_ = await store.create_game(**new_game_args(101))
            await store.abandon(quit_.id, expected_ply=0, by_user=7)
    with sqlite3.connect(db_path) as conn:
        conn.execute("DROP INDEX actions_interaction")
        conn.execute("ALTER TABLE actions DROP COLUMN interaction_id")
        conn.execute("DROP INDEX actions_undone_interaction")
        conn.execute("ALTER TABLE actions DROP COLUMN undone_interaction_id")
        conn.execute("ALTER TABLE games DROP COLUMN revision")
        for statement in PLACE_UNDO:
            conn.execute(statement)
        conn.execute(f"PRAGMA user_version = {before_v7}")
    async with SqliteStore(db_path) as store:
        game, quit_ = await store.game(game.id), await store.game(quit_.id)
        assert (game.ply, game.revision) == (2, 4)  # three appends and an undo
        assert quit_.revision == 1  # the abandon
        moved = await play(store, game, 1)
        assert moved.revision == 5
        await store.append_action(game.id, expected_ply=3, action={"type": "i"}, user_id=7,
                                  interaction_id=9)
        with pytest.raises(AlreadyApplied):
            await store.append_action(game.id, expected_ply=4, action={"type": "i"}, user_id=7,
                                      interaction_id=9)


async def test_a_second_delivery_behind_the_game_is_still_known_as_applied(store, game) -> None:
    """The repeat carries the version the first delivery moved on from: refused as applied, not merely stale
    (the PostgreSQL store looks the interaction up only once its write found the game moved)."""
    moved = await store.append_action(game.id, expected_ply=0, expected_revision=game.revision, action={"type": "a"},
                                      user_id=7, interaction_id=3333)
    with pytest.raises(AlreadyApplied) as info:
        await store.append_action(game.id, expected_ply=0, expected_revision=game.revision, action={"type": "a"},
                                  user_id=7, interaction_id=3333)
    assert info.value.params == {"game_id": game.id, "interaction_id": 3333}
    assert (await store.game(game.id)).revision == moved.revision


async def test_a_second_delivery_of_one_undo_undoes_once(store, new_store, game) -> None:
    game = await play(store, game, 3)
    game = await store.undo_action(game.id, expected_ply=3, user_id=7, interaction_id=2222)
    async with new_store() as other:  # the repeated undo reaches another process with a fresh read
        fresh = await other.game(game.id)
        with pytest.raises(AlreadyApplied) as info:
            await other.undo_action(game.id, expected_ply=fresh.ply, expected_revision=fresh.revision, user_id=7,
                                    interaction_id=2222)
    assert info.value.params == {"game_id": game.id, "interaction_id": 2222}
    assert (await store.game(game.id)).ply == 2
    assert [a.undone for a in await store.history(game.id, 10)] == [True, False, False]


async def test_a_repeated_undo_through_the_service_is_refused_and_changes_nothing(store, new_store) -> None:
    a = GameService(store, rules=rules_for, seed=lambda: SEED)
    await _started(a)
    await a.play(CHANNEL, OWNER, _opening())
    await a.play(CHANNEL, OWNER, Action("crystals", change=1))
    undone = await a.undo(CHANNEL, OWNER, interaction_id=90)
    async with new_store() as other:
        b = GameService(other, rules=rules_for, seed=lambda: SEED)
        with pytest.raises(AlreadyApplied):
            await b.undo(CHANNEL, OWNER, interaction_id=90)
    row = await store.game(undone.row.id)
    assert (row.ply, row.revision) == (undone.row.ply, undone.row.revision) == (1, 3)


async def test_a_record_past_the_bound_is_rebuilt_from_the_store(store) -> None:
    """At most ``max_cached`` records stay; a game whose record left is read and replayed again."""
    a = GameService(store, rules=rules_for, seed=lambda: SEED, max_cached=2)
    for channel in range(CHANNEL, CHANNEL + 5):
        await a.start(kind="seasons", options=dict(OPTIONS), guild_id=1, channel_id=channel,
                      parent_channel_id=None, owner_id=OWNER)
        await a.play(channel, OWNER, _opening())
        assert a.cached_games() <= 2
    played = await a.play(CHANNEL, OWNER, Action("crystals", change=1))  # its record had left: rebuilt
    assert played.row.ply == 2 and played.record.ply == 2 and a.cached_games() <= 2
