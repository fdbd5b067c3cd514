"""A bounded window for the WAL (issue 37). The reproduction: 30 acknowledged actions, then only the database file
kept (an operator copying "just the database file", or kill -9 and the -wal and -shm deleted): the game and its
30 actions were gone, because the WAL had never been checkpointed. Now a passive checkpoint runs every
CHECKPOINT_EVERY commits and once the writer is idle, so the file alone holds all but the last few commits."""

from __future__ import annotations

import asyncio
import shutil
from pathlib import Path

from store_helpers import new_game_args, play

from bot.store import SqliteStore


async def file_alone(db: Path, into: Path) -> tuple[int, int]:
    """(games, live actions) in a copy of the database file without its -wal and -shm."""
    shutil.copy(db, into)
    async with SqliteStore(into, background_check=False) as copy:
        games = await copy.count_games()
        game = await copy.active_game(100)
        return games, 0 if game is None else len(await copy.live_actions(game.id))


async def test_thirty_actions_are_in_the_file_alone_once_the_writer_is_idle(db_path, tmp_path):
    async with SqliteStore(db_path, checkpoint_idle=0.0) as store:
        game = await play(store, await store.create_game(**new_game_args()), 30)
        assert store._writer is not None
        await asyncio.wait_for(store._writer.checkpointed.wait(), 30)  # the idle checkpoint, not a clock
        assert Path(f"{db_path}-wal").exists()  # the store is still open: the -wal is there, checkpointed
        assert await file_alone(db_path, tmp_path / "alone.sqlite3") == (1, game.ply) == (1, 30)


async def test_a_busy_writer_checkpoints_every_so_many_commits(db_path, tmp_path):
    every = 10
    async with SqliteStore(db_path, checkpoint_every=every, checkpoint_idle=None) as store:
        game = await play(store, await store.create_game(**new_game_args()), 34)  # 35 commits
        assert store._writer is not None
        assert store._writer.checkpoints == 3 and store._writer.uncheckpointed == 5
        games, actions = await file_alone(db_path, tmp_path / "alone.sqlite3")
        assert games == 1 and game.ply - every < actions <= game.ply  # only the last few live in the -wal alone


async def test_without_checkpoints_the_file_alone_loses_everything(db_path, tmp_path):
    """What the issue saw (SQLite's own checkpoint waits for 4 MB of WAL): the reason for the schedule."""
    async with SqliteStore(db_path, checkpoint_every=None, checkpoint_idle=None) as store:
        await play(store, await store.create_game(**new_game_args()), 30)
        assert await file_alone(db_path, tmp_path / "alone.sqlite3") == (0, 0)


async def test_closing_waits_for_an_idle_checkpoint_under_way(db_path):
    store = SqliteStore(db_path, checkpoint_idle=0.0)
    await store.open()
    await store.create_game(**new_game_args())
    await store.close()  # whatever the idle timer's state: no task left behind, no error
    async with SqliteStore(db_path) as again:
        assert await again.count_games() == 1
