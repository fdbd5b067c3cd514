"""Schema step 2 (issue 8, V-6): Volfyirion's stored actions rewritten to what was meant.

The database is made as the current release (schema version 1) makes it: the actions hold what the player
typed (``{"type": "play", "card": "elite trooper", "city": "8"}``, a reveal's raw names), the options, the
summary and the snapshots say ``"bonus": "official"`` for the per-city reading, and undone actions stay in
the log. Opening it with this version rewrites the logs, and the games replay to the very same states.
"""

from __future__ import annotations

import json
import sqlite3
from pathlib import Path

import pytest
from store_helpers import PLACE_COLUMNS, PLACE_UNDO, new_game_args

from bot.games import rules_for
from bot.games.volfyirion.migrations import MigrationMismatch
from bot.sessions import GameService
from bot.store import SqliteStore, schema
from engine.core import Action, GameRecord
from engine.volfyirion import RULES, canonical_action
from engine.volfyirion.autoplay import play_game
from engine.volfyirion.canonical import apply_typed

OLD_OPTIONS = {"difficulty": "easy", "bonus": "official", "cities": ["Tylaris", "Vahylea", "Alantar"],
               "unseal": False}


def typed(action: Action, state) -> dict:
    """An action as the current release stores it: the player's text, a city by its printed defence."""
    args = dict(action.args)
    for name in ("card", "troop"):
        if isinstance(args.get(name), str):
            args[name] = "  " + args[name].lower()
    if isinstance(args.get("city"), str):
        city = next(c for c in state.cities if c["name"] == args["city"])
        args["city"] = str(city["defence"])
    if isinstance(args.get("cards"), list):
        args["cards"] = [n.upper() for n in args["cards"]]  # the release stored split_list(cards): raw names
    if isinstance(args.get("paid"), str):
        args["paid"] = args["paid"].capitalize()
    return {"type": action.type, **args}


def _old(data: dict) -> dict:
    return {**data, "bonus": "official"} if data.get("bonus") == "per_city" else data


async def _old_release_db(path: Path, monkeypatch, games: list[GameRecord], *, undo_at: int = 5) -> list[int]:
    """Write ``games`` as the release with schema version 1 does, with one typed action undone in each."""
    with monkeypatch.context() as m:
        # Today's store code writes the columns of V7 (revision, interaction_id): the file gets them while it
        # is written and loses them again below, which leaves exactly the first release's tables.
        m.setattr("bot.store.sqlite.MIGRATIONS", [(*schema.V1, *_V7_COLUMNS)])
        m.setattr("bot.store.sqlite.SCHEMA_VERSION", 1)
        ids, summaries = [], []
        async with SqliteStore(path) as store:
            for channel, game in enumerate(games):
                row = await store.create_game(**{**new_game_args(200 + channel, kind="volfyirion"),
                                                 "options": OLD_OPTIONS, "seed": game.seed})
                step = RULES.new_game(game.options, game.seed)
                for i, action in enumerate(game.actions):
                    if i == undo_at:  # a mistyped report, taken back with /game undo
                        wrong = {"type": "acquire", "card": "book of wisdom"}
                        row = await store.append_action(row.id, expected_ply=row.ply, action=wrong, user_id=7)
                        row = await store.undo_action(row.id, expected_ply=row.ply, user_id=7)
                    stored = typed(action, step.state)
                    step = apply_typed(step.state, Action.from_json(stored))  # as the release read it
                    state = step.state
                    snapshot = None
                    if (row.ply + 1) % 50 == 0:
                        snapshot = _old_snapshot(state.to_json())
                    row = await store.append_action(row.id, expected_ply=row.ply, action=stored, user_id=7,
                                                    snapshot=snapshot)
                ids.append(row.id)
                summaries.append(_old(state.summary().to_json()))
    with sqlite3.connect(path) as conn:
        for statement in _V7_UNDO:
            conn.execute(statement)
        # The release kept each game's last summary in its row (today's store writes none: V10 drops the column).
        conn.executemany("UPDATE games SET summary = ? WHERE id = ?",
                         [(json.dumps(s), i) for s, i in zip(summaries, ids, strict=True)])
    return ids


def _old_snapshot(data: dict) -> dict:
    """A state as the first release saved it: the per-city bonus called ``official``, no edition and no count
    of the Asset Deck (both came with V-3.5)."""
    options = {k: v for k, v in _old(data["options"]).items() if k != "edition"}
    return {**{k: v for k, v in data.items() if k != "deck"}, "options": options}


_V7_COLUMNS = (*(s for s in schema.V7 if not s.lstrip().startswith("UPDATE")), *PLACE_COLUMNS)
_V7_UNDO = ("DROP INDEX actions_interaction", "ALTER TABLE actions DROP COLUMN interaction_id",
            "DROP INDEX actions_undone_interaction", "ALTER TABLE actions DROP COLUMN undone_interaction_id",
            "ALTER TABLE games DROP COLUMN revision", *PLACE_UNDO)


def _dump(path: Path) -> tuple:
    with sqlite3.connect(path) as conn:
        return (conn.execute("PRAGMA user_version").fetchone()[0],
                conn.execute("SELECT * FROM games ORDER BY id").fetchall(),
                conn.execute("SELECT * FROM actions ORDER BY seq").fetchall(),
                conn.execute("SELECT * FROM snapshots ORDER BY game_id, ply").fetchall())


def _games() -> list[GameRecord]:
    # Games of the first release: the rules' edition 1 (schema V8 says so).
    games = [play_game(seed, max_actions=130, options={"difficulty": "easy", "bonus": "per_city", "edition": 1},
                       allow_win=False)
             for seed in (4, 7)]
    assert all(g.ply >= 50 for g in games)  # a snapshot at ply 50 in each
    return games


async def test_v6_migration_rewrites_typed_actions_to_what_was_meant(db_path: Path, monkeypatch) -> None:
    games = _games()
    ids = await _old_release_db(db_path, monkeypatch, games)
    with sqlite3.connect(db_path) as conn:
        first = conn.execute("SELECT action FROM actions WHERE game_id = ? AND action LIKE '%\"city\":\"%'"
                             " ORDER BY seq LIMIT 1", (ids[0],)).fetchone()[0]
    assert '"  ' in first and any(f'"city":"{d}"' in first for d in (8, 9, 10))  # typed, as the release stored it
    assert _dump(db_path)[0] == 1

    async with SqliteStore(db_path) as store:
        service = GameService(store, rules=rules_for)
        for game_id, game in zip(ids, games, strict=True):
            row = await store.game(game_id)
            assert row.options == {**OLD_OPTIONS, "bonus": "per_city", "edition": 1}
            live = await store.live_actions(game_id)
            # Every live action is now the engine's own (exact names, city names, words in lower case).
            assert [a.action for a in live] == [a.to_json() for a in game.actions]
            record = await service.record(row)
            assert record.state == game.state and record.state.summary() == game.state.summary()
            undone = [a for a in await store.history(game_id, 1000) if a.undone]
            assert [a.action for a in undone] == [{"type": "acquire", "card": "Book of Wisdom"}]
            snapshot = await store.latest_snapshot(game_id, row.ply)
            assert snapshot is not None and snapshot[1]["options"]["bonus"] == "per_city"
            assert RULES.state_from_json(snapshot[1]) == _replayed(game, snapshot[0])
    assert _dump(db_path)[0] == schema.SCHEMA_VERSION


def _replayed(game: GameRecord, ply: int):
    return GameRecord.replay(RULES, game.options, game.seed, game.actions[:ply]).state


async def test_v6_migration_refuses_to_commit_when_a_state_would_differ(db_path: Path, monkeypatch) -> None:
    """Fault injection: a resolver that moves a Troop to another city must stop the migration, whole."""
    games = _games()
    await _old_release_db(db_path, monkeypatch, games)
    before = _dump(db_path)

    def wrong_city(state, action):
        meant = canonical_action(state, action)
        if meant.type == "play" and meant.get("city") == "Tylaris":
            return Action("play", {**meant.args, "city": "Alantar"})
        return meant

    monkeypatch.setattr("engine.volfyirion.canonical_action", wrong_city)
    with pytest.raises(MigrationMismatch) as err:
        await SqliteStore(db_path).open()
    assert err.value.key == "store.migration_mismatch" and err.value.params["detail"] == "state differs"
    assert _dump(db_path) == before  # version 1, every row as it was
    monkeypatch.undo()
    async with SqliteStore(db_path):
        pass
    assert _dump(db_path)[0] == schema.SCHEMA_VERSION


async def test_v6_migration_leaves_a_game_the_rules_cannot_replay_as_stored(db_path: Path, monkeypatch) -> None:
    """A log the current rules refuse as stored (here a win on turn 1 with the starting deck, accepted by the
    release) cannot be checked: it is left untouched, and the other games are migrated."""
    game = _games()[0]
    with monkeypatch.context() as m:
        m.setattr("bot.store.sqlite.MIGRATIONS", [(*schema.V1, *_V7_COLUMNS)])  # dropped by _old_release_db
        m.setattr("bot.store.sqlite.SCHEMA_VERSION", 1)
        async with SqliteStore(db_path) as store:
            row = await store.create_game(**{**new_game_args(300, kind="volfyirion"), "options": OLD_OPTIONS})
            await store.append_action(row.id, expected_ply=0, action={"type": "win", "how": "Attack"}, user_id=7)
            kept = row.id
    await _old_release_db(db_path, monkeypatch, [game])
    async with SqliteStore(db_path) as store:
        assert [a.action for a in await store.live_actions(kept)] == [{"type": "win", "how": "Attack"}]
        other = (await store.game(kept + 1))
        assert [a.action for a in await store.live_actions(other.id)] == [a.to_json() for a in game.actions]


async def test_v3_5_migration_keeps_older_games_at_edition_1(db_path: Path, monkeypatch) -> None:
    """Schema V8: a game recorded before the Asset Deck was counted replays as it was played — here 60 turns
    without a reshuffle, each with its Rage card, where edition 2 would have stopped adding them at 57."""
    game = GameRecord(RULES, {"difficulty": "easy", "edition": 1}, 9)
    for _ in range(59):
        game.push(Action("end"))
    assert game.state.rage_size == 60
    [game_id] = await _old_release_db(db_path, monkeypatch, [game], undo_at=3)
    async with SqliteStore(db_path) as store:
        row = await store.game(game_id)
        assert row.options["edition"] == 1
        record = await GameService(store, rules=rules_for).record(row)
        assert record.state == game.state and record.state.rage_size == 60 and record.state.deck is None
        fresh = await store.create_game(**{**new_game_args(400, kind="volfyirion"),
                                           "options": RULES.normalize_options({"difficulty": "easy"})})
        assert fresh.options["edition"] == 3  # a game started now counts the deck (and, from 3, corrects its House Deck count)
    assert _dump(db_path)[0] == schema.SCHEMA_VERSION
