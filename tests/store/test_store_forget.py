"""/game forget at the store: everything a user started goes, in one transaction; others' games stay."""

from __future__ import annotations

import sqlite3
from pathlib import Path

import pytest
from store_helpers import new_game_args, play

from bot.store import SqliteStore, StaleVersion


def _rows(db_path: Path, table: str) -> int:
    with sqlite3.connect(db_path) as conn:
        return conn.execute(f"SELECT count(*) FROM {table}").fetchone()[0]


async def test_forget_deletes_the_users_games_actions_snapshots_and_results_and_nothing_else(store, db_path):
    mine_active = await store.create_game(**new_game_args(1, owner_id=7))
    await play(store, mine_active, 3)
    mine_done = await store.create_game(**new_game_args(2, owner_id=7))
    await play(store, mine_done, 2)
    await store.abandon(mine_done.id, expected_ply=2, by_user=7)
    theirs = await store.create_game(**new_game_args(3, owner_id=8))
    await play(store, theirs, 2, user_id=8)
    await store.abandon(theirs.id, expected_ply=2, by_user=7)  # 7 abandoned 8's game as a server manager
    await store.append_action(mine_active.id, expected_ply=3, action={"type": "x"}, user_id=7,
                              snapshot={"state": 1})

    before = await store.user_data(7)
    assert (before["games"], before["actions"], before["snapshots"], before["results"], before["ended_others"]) \
        == (2, 6, 1, 1, 1)
    gone = await store.forget_user(7, expected_mark=before["mark"])
    assert sorted(gone["game_ids"]) == sorted([mine_active.id, mine_done.id])
    assert (gone["games"], gone["actions"], gone["snapshots"], gone["results"]) == (2, 6, 1, 1)

    after = await store.user_data(7)
    assert (after["games"], after["actions"], after["results"], after["ended_others"]) == (0, 0, 0, 0)
    assert await store.active_game(1) is None  # the channel is free again
    assert (await store.game(theirs.id)).owner_id == 8 and len(await store.live_actions(theirs.id)) == 2
    result = await store.result(theirs.id)
    assert result is not None and result.user_id == 8 and result.ended_by is None
    assert (await store.stats(1, 7))["games"] == 0
    assert _rows(db_path, "games") == 1 and _rows(db_path, "actions") == 2 and _rows(db_path, "snapshots") == 0


@pytest.mark.backends("sqlite", "postgres")
async def test_forget_refuses_when_the_data_changed_since_the_confirmation(store):
    game = await store.create_game(**new_game_args(1, owner_id=7))
    mark = (await store.user_data(7))["mark"]
    await play(store, game, 1)
    with pytest.raises(StaleVersion):
        await store.forget_user(7, expected_mark=mark)
    assert (await store.user_data(7))["games"] == 1


async def test_forgotten_rows_do_not_linger_in_the_file(tmp_path: Path):
    """secure_delete and a truncated WAL: the deleted text is not left in the database file's free pages."""
    db_path = tmp_path / "bot.sqlite3"
    marker = "FORGET-ME-7f3a9c"
    async with SqliteStore(db_path) as store:
        for channel in range(5):
            game = await store.create_game(**new_game_args(channel, owner_id=7))
            await store.append_action(game.id, expected_ply=0, action={"type": "note", "text": marker * 20},
                                      user_id=7)
        await store.create_game(**new_game_args(99, owner_id=8))
        await store.forget_user(7)
        data = db_path.read_bytes() + (Path(f"{db_path}-wal").read_bytes() if Path(f"{db_path}-wal").exists() else b"")
        assert marker.encode() not in data
    assert marker.encode() not in db_path.read_bytes()
