"""Schema V6 (issue 9) on a database made by the release before it (tests/store/make_release_db.py, commit
3f01f6f): every game replays to the state that release saw, and results, leaderboards and stats are unchanged."""

from __future__ import annotations

import json
import shutil
import sqlite3
from pathlib import Path

from bot import games
from bot.store import SqliteStore
from bot.store.schema import SCHEMA_VERSION
from engine.core import GameRecord, Result

DATA = Path(__file__).parent / "data"


async def test_v6_migrates_a_release_database_keeping_every_game_result_and_board(tmp_path: Path) -> None:
    expected = json.loads((DATA / "release-v5.json").read_text())
    path = tmp_path / "old.sqlite3"
    shutil.copy(DATA / "release-v5.sqlite3", path)
    assert sqlite3.connect(path).execute("PRAGMA user_version").fetchone()[0] == expected["user_version"] == 5
    async with SqliteStore(path, background_check=False) as store:
        for game_id, game in expected["games"].items():
            row = await store.game(int(game_id))
            assert (row.kind, row.status, row.ply) == (game["kind"], game["status"], game["ply"])
            actions = [a.action for a in await store.live_actions(row.id)]
            rules = games.rules_for(row.kind)
            record = GameRecord.replay(rules, row.options, row.seed, actions)
            # The state the release saved, read as today's engine reads a saved state (fields added since, such
            # as Volfyirion's count of the Asset Deck, V-3.5, take the values of the rules the game was played under).
            assert record.state == rules.state_from_json(game["state"]), f"game {game_id} replays to another state"
            old = expected["results"][game_id]
            found = await store.result(row.id)
            if old is None:
                assert found is None
                continue
            assert (found.outcome, found.difficulty, found.player_score, found.opponent_score, found.length,
                    found.how, found.finished_at, found.user_id, found.guild_id) == (
                old["outcome"], old["difficulty"], old["player_score"], old["opponent_score"], old["length"],
                old["how"], old["finished_at"], old["user_id"], old["guild_id"])
            typed = Result.from_json(found.result)
            assert (typed.outcome, typed.player_score, typed.opponent_score, typed.length, typed.how) == (
                old["outcome"], old["player_score"], old["opponent_score"], old["length"], old["how"])
        for key, ids in expected["leaderboards"].items():
            guild, kind, difficulty = key.split("/")
            board = await store.leaderboard(int(guild), kind, None if difficulty == "None" else difficulty,
                                            ranking=games.get(kind).ranking)
            assert [r.game_id for r in board] == ids, key
        for key, old in expected["stats"].items():
            guild, user = map(int, key.split("/"))
            stats = await store.stats(guild, user, rankings=games.rankings())
            assert {k: stats[k] for k in ("games", "active", "wins", "losses", "abandoned")} == {
                k: old[k] for k in ("games", "active", "wins", "losses", "abandoned")}
            assert stats["by_kind"] == old["by_kind"]
            assert {k: (None if b is None else b.game_id) for k, b in stats["best"].items()} == old["best"]
        # A new game of a kind no schema knows: no CHECK stands in its way.
        await store.create_game(guild_id=1, channel_id=999, parent_channel_id=None, owner_id=7, kind="another",
                                options={}, seed=1)
    db = sqlite3.connect(path)
    assert db.execute("PRAGMA user_version").fetchone()[0] == SCHEMA_VERSION
    assert db.execute("PRAGMA foreign_key_check").fetchall() == []
    assert db.execute("PRAGMA integrity_check").fetchone()[0] == "ok"
    indexes = {r[0] for r in db.execute("SELECT name FROM sqlite_master WHERE type = 'index' AND sql IS NOT NULL")}
    assert {"games_one_active_per_channel", "games_owner", "results_board", "results_user"} <= indexes
    games_sql = db.execute("SELECT sql FROM sqlite_master WHERE name = 'games'").fetchone()[0]
    assert "kind IN" not in games_sql
