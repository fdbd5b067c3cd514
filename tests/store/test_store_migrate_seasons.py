"""Seasons games stored before the rules' edition 2 replay under the rules they were played with (S-3.1a)."""

from __future__ import annotations

import json
import sqlite3
from pathlib import Path

from bot.store import SqliteStore, schema
from engine.core import Action, GameRecord
from engine.seasons import RULES

NOW = "2026-11-01T10:00:00+00:00"


def _first_release_database(path: Path, options: dict, actions: list[dict]) -> None:
    """A file as the first release left it: schema version 1, a Seasons game and its log."""
    path.parent.mkdir(parents=True, exist_ok=True)
    with sqlite3.connect(path) as conn:
        for statement in schema.MIGRATIONS[0]:
            conn.execute(statement)
        conn.execute("PRAGMA user_version = 1")
        conn.execute("INSERT INTO games (id, channel_id, owner_id, kind, options, seed, ply, created_at, updated_at)"
                     " VALUES (1, 10, 20, 'seasons', ?, 4, ?, ?, ?)", (json.dumps(options), len(actions), NOW, NOW))
        conn.execute("INSERT INTO games (id, channel_id, owner_id, kind, options, seed, ply, created_at, updated_at)"
                     " VALUES (2, 11, 20, 'volfyirion', '{\"difficulty\": \"easy\"}', 5, 0, ?, ?)", (NOW, NOW))
        for ply, action in enumerate(actions, 1):
            conn.execute("INSERT INTO actions (game_id, ply, action, user_id, created_at) VALUES (1, ?, ?, 20, ?)",
                         (ply, json.dumps(action), NOW))


async def test_s3_1a_a_first_release_bot_dice_game_keeps_its_rules(tmp_path: Path) -> None:
    path = tmp_path / "data" / "old.sqlite3"
    old_options = {"difficulty": "wizard", "dice": "bot"}  # as the first release stored them
    log = [{"type": "roll"}, {"type": "take", "index": 0}]
    _first_release_database(path, old_options, log)
    async with SqliteStore(path) as store:
        row = await store.game(1)
        assert row.options == {**old_options, "edition": 1}
        # Other games keep their options (a Volfyirion game gets its own edition 1: V-3.5, schema V8).
        assert (await store.game(2)).options == {"difficulty": "easy", "edition": 1}
        actions = [a.action for a in await store.live_actions(1)]
    record = GameRecord.replay(RULES, row.options, row.seed, actions)
    # Under the first release, taking the die resolved Dummbot's die at once; that is what the player saw.
    assert record.state.round == 2 and record.state.rolled is None
    fresh = GameRecord(RULES, old_options, 4)
    fresh.push(Action("roll"))
    fresh.push(Action("take", index=0))
    assert fresh.waiting.key == "seasons.waiting.player_turn"  # a new game follows edition 2
    with sqlite3.connect(path) as conn:
        assert conn.execute("PRAGMA user_version").fetchone()[0] == schema.SCHEMA_VERSION
