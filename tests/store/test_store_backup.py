"""`python -m bot backup` cannot destroy its source (issue 37): the live file, its -wal and -shm, and any path that
resolves to them are refused while the bot runs and nothing changes; a folder gets a dated file inside it; a
failure leaves no partial copy."""

from __future__ import annotations

import os
from datetime import UTC, datetime
from pathlib import Path

import pytest
from store_helpers import new_game_args, play

from bot.store import SqliteStore, StoreUnavailable, backup_main
from bot.store.sqlite import backup_destination


@pytest.fixture
async def running(db_path: Path):
    """The running bot's store with a game of 3 actions (its -wal and -shm exist)."""
    async with SqliteStore(db_path) as store:
        game = await play(store, await store.create_game(**new_game_args()), 3)
        yield store, game


def targets(db: Path, tmp_path: Path) -> list[Path]:
    link = tmp_path / "link.sqlite3"
    link.symlink_to(db)
    hard = tmp_path / "hard.sqlite3"
    os.link(db, hard)
    relative = Path(os.path.relpath(db, Path.cwd()))
    walk_around = db.parent / ".." / db.parent.name / db.name
    return [db, Path(f"{db}-wal"), Path(f"{db}-shm"), link, hard, relative, walk_around]


async def test_backup_refuses_the_live_file_and_its_wal_and_shm_by_any_name(running, db_path, tmp_path, capsys):
    store, game = running
    for target in targets(db_path, tmp_path):
        before = {p: p.read_bytes() for p in db_path.parent.iterdir() if p.is_file()}
        assert await backup_main(db_path, target) == 1, target
        err = capsys.readouterr().err
        assert "backup refused" in err and "destroy" in err and "Traceback" not in err, err
        assert {p: p.read_bytes() for p in db_path.parent.iterdir() if p.is_file()} == before
        # The running bot goes on: its game is there and takes another action.
        assert (await store.game(game.id)).ply == game.ply
        with pytest.raises(ValueError):
            await store.backup(target)
    assert (await play(store, game, 1)).ply == game.ply + 1


async def test_backup_into_a_folder_writes_a_dated_file_inside_it(running, db_path, tmp_path, capsys):
    folder = tmp_path / "backups"
    folder.mkdir()
    assert await backup_main(db_path, folder) == 0
    [written] = list(folder.iterdir())  # and no DIR.partial beside it (the reproduction)
    assert not [p for p in tmp_path.rglob("*") if "partial" in p.name]
    assert written.name.startswith("bot-") and written.suffix == ".sqlite3", written
    assert str(written) in capsys.readouterr().out
    async with SqliteStore(written) as copy:
        assert await copy.count_games() == 1
    at = datetime(2026, 12, 6, 2, 30, 5, tzinfo=UTC)
    assert backup_destination(db_path, folder, at) == folder / "bot-20261206-023005.sqlite3"


async def test_a_backup_that_fails_half_way_leaves_no_partial_copy(running, tmp_path):
    store, _ = running
    folder = tmp_path / "out"

    async def broken(_db) -> None:
        raise OSError(28, "No space left on device")

    store._read = lambda work: broken(None)  # type: ignore[method-assign] - the copy fails after the file exists
    with pytest.raises(StoreUnavailable):
        await store.backup(folder / "copy.sqlite3")
    assert list(folder.iterdir()) == []
