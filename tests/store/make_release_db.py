"""Makes ``tests/store/data/release-v5.sqlite3`` and its expectations with the code of the release before
schema V6 (commit 3f01f6f): run it with that code first on the path, e.g.

    git archive 3f01f6f bot engine | tar -x -C /tmp/release
    cd /tmp/release && /work/wt-a/.venv/bin/python /work/wt-a/tests/store/make_release_db.py OUT_DIR

Games of both kinds, won, lost, abandoned, one still going and one with undone actions, by three players, in
two servers; the expectations are what that release said: every game's state, the results, the leaderboards
and each player's stats.
"""

from __future__ import annotations

import asyncio
import json
import sqlite3
import sys
from pathlib import Path

from bot.games import rules_for
from bot.sessions import finish_info, summary_json
from bot.store import FinishInfo, SqliteStore
from engine.core import GameRecord
from engine.seasons.autoplay import play_game as seasons_game
from engine.volfyirion.autoplay import play_game as volfyirion_game

SNAPSHOT_EVERY = 50


def plans() -> list[dict]:
    out = []
    for seed, (difficulty, dice) in zip((3, 8, 21), (("wizard", "bot"), ("apprentice", "table"), ("archmage", "bot")),
                                        strict=True):
        actions, _ = seasons_game(difficulty, dice, seed, extras=seed != 21)
        out.append({"kind": "seasons", "seed": seed, "options": {"difficulty": difficulty, "dice": dice},
                    "actions": actions})
    found = 0
    for seed in range(60):
        record = volfyirion_game(seed, max_actions=400, options={"difficulty": ("easy", "normal", "hard")[seed % 3]})
        if record.state.finished:
            out.append({"kind": "volfyirion", "seed": seed, "options": dict(record.options), "actions": record.actions})
            found += 1
            if found == 4:
                break
    return out


async def main(out_dir: Path) -> None:
    db_path = out_dir / "release-v5.sqlite3"
    db_path.unlink(missing_ok=True)
    store = SqliteStore(db_path, background_check=False)
    await store.open()
    try:
        await fill(store, db_path, out_dir)
    finally:
        await store.close()


async def fill(store: SqliteStore, db_path: Path, out_dir: Path) -> None:
    expected: dict = {"games": {}, "results": {}, "leaderboards": {}, "stats": {}}
    users = (7, 8, 9)
    for i, plan in enumerate(plans()):
        user, guild = users[i % 3], 1 if i % 4 else 2
        rules = rules_for(plan["kind"])
        record = GameRecord(rules, plan["options"], plan["seed"], snapshot_every=SNAPSHOT_EVERY)
        row = await store.create_game(guild_id=guild, channel_id=100 + i, parent_channel_id=None, owner_id=user,
                                      kind=plan["kind"], options=record.options, seed=plan["seed"])
        actions = plan["actions"]
        if i in (5, 6):
            actions = actions[: len(actions) // 2]  # still going (5), abandoned half-way (6)
        for n, action in enumerate(actions):
            record.push(action)
            state = record.state
            result = state.result() if state.finished else None
            finish = FinishInfo(**finish_info(record.options, result)) if result else None
            snapshot = state.to_json() if record.ply % SNAPSHOT_EVERY == 0 else None
            row = await store.append_action(row.id, expected_ply=row.ply, action=action.to_json(), user_id=user,
                                            snapshot=snapshot, summary=summary_json(state.summary()), finish=finish)
            if i == 1 and n == 10:  # two actions taken back and played again
                for _ in range(2):
                    record.pop()
                    row = await store.undo_action(row.id, expected_ply=row.ply, user_id=user,
                                                  summary=summary_json(record.state.summary()))
                for again in actions[n - 1: n + 1]:
                    record.push(again)
                    row = await store.append_action(row.id, expected_ply=row.ply, action=again.to_json(),
                                                    user_id=user, summary=summary_json(record.state.summary()))
        if i == 6:
            row = await store.abandon(row.id, expected_ply=row.ply, by_user=user)
        expected["games"][str(row.id)] = {"kind": row.kind, "status": row.status, "ply": row.ply,
                                          "state": record.state.to_json(), "summary": summary_json(record.state.summary())}
        found = await store.result(row.id)
        expected["results"][str(row.id)] = None if found is None else {
            "outcome": found.outcome, "difficulty": found.difficulty, "player_score": found.player_score,
            "opponent_score": found.dummbot_score, "length": found.turns, "how": found.how,
            "finished_at": found.finished_at, "user_id": found.user_id, "guild_id": found.guild_id}
    for guild in (1, 2):
        for kind in ("seasons", "volfyirion"):
            for difficulty in (None, "wizard", "hard"):
                board = await store.leaderboard(guild, kind, difficulty)
                expected["leaderboards"][f"{guild}/{kind}/{difficulty}"] = [r.game_id for r in board]
        for user in users:
            stats = await store.stats(guild, user)
            expected["stats"][f"{guild}/{user}"] = {
                **{k: stats[k] for k in ("games", "active", "wins", "losses", "abandoned")},
                "by_kind": stats["by_kind"],
                "best": {k: (None if b is None else b.game_id) for k, b in stats["best"].items()}}
    await store.close()
    db = sqlite3.connect(db_path)
    db.execute("PRAGMA journal_mode = DELETE")  # one self-contained file
    db.execute("VACUUM")
    version = db.execute("PRAGMA user_version").fetchone()[0]
    db.close()
    expected["user_version"] = version
    (out_dir / "release-v5.json").write_text(json.dumps(expected, ensure_ascii=False, indent=1) + "\n")


if __name__ == "__main__":
    asyncio.run(main(Path(sys.argv[1]).resolve()))
