"""Faults: racing writers, a file locked by another process, a full disk, read-only, backups."""

from __future__ import annotations

import asyncio
import sqlite3
import subprocess
import sys
from collections.abc import Awaitable, Iterator
from pathlib import Path

import pytest
from store_helpers import Locker, new_game_args, on_writer, play

from bot.store import (
    ChannelBusy,
    GameRow,
    SqliteStore,
    StaleVersion,
    StoreCorrupt,
    StoreUnavailable,
    backup_main,
)
from bot.store.sqlite import translate
from tests.support.disks import tmpfs


# -- two writers (on SQLite and on PostgreSQL) ----------------------------------------------------------------
@pytest.mark.backends("sqlite", "postgres")
async def test_two_stores_racing_on_one_ply_exactly_one_wins(store, new_store, game: GameRow) -> None:
    async with new_store(busy_timeout=5.0) as other:
        for ply in range(15):
            outcomes = await asyncio.gather(
                *(
                    s.append_action(
                        game.id,
                        expected_ply=ply,
                        action={"type": "race", "by": i},
                        user_id=i,
                    )
                    for i, s in enumerate((store, other))
                ),
                return_exceptions=True,
            )
            won = [o for o in outcomes if isinstance(o, GameRow)]
            lost = [o for o in outcomes if isinstance(o, StaleVersion)]
            assert (len(won), len(lost)) == (1, 1), outcomes
            assert won[0].ply == ply + 1
        live = await other.live_actions(game.id)
    assert [a.ply for a in live] == list(range(1, 16))
    assert len(await store.history(game.id, 100)) == 15  # the losers left no row behind
    assert (await store.game(game.id)).ply == len(live)


@pytest.mark.backends("sqlite", "postgres")
async def test_two_stores_starting_a_game_in_one_channel(store, new_store) -> None:
    async with new_store(busy_timeout=5.0) as other:
        outcomes = await asyncio.gather(
            store.create_game(**new_game_args(5)),
            other.create_game(**new_game_args(5)),
            return_exceptions=True,
        )
    assert sorted(type(o).__name__ for o in outcomes) == ["ChannelBusy", "GameRow"]
    busy = next(o for o in outcomes if isinstance(o, ChannelBusy))
    assert busy.params["game_id"] == next(o for o in outcomes if isinstance(o, GameRow)).id
    assert await store.count_games() == 1


# -- another process holds the lock -----------------------------------------------------------------
async def test_a_write_lock_held_by_another_process(db_path: Path) -> None:
    async with SqliteStore(db_path, busy_timeout=0.3) as store:
        game = await play(store, await store.create_game(**new_game_args()), 2)
        async with Locker(db_path):
            with pytest.raises(StoreUnavailable) as info:
                await store.append_action(
                    game.id, expected_ply=2, action={"type": "x"}, user_id=7)
            assert info.value.key == "store.unavailable"
            assert info.value.params == {"reason": "locked"}
            with pytest.raises(StoreUnavailable):
                await store.create_game(**new_game_args(101))
            # WAL: reading goes on while another process writes.
            assert (await store.game(game.id)).ply == 2
        assert (await store.game(game.id)).ply == 2
        assert len(await store.history(game.id, 10)) == 2
        assert await store.count_games() == 1
        # The lock is gone: the same store carries on.
        game = await store.append_action(
            game.id, expected_ply=2, action={"type": "x"}, user_id=7)
        assert [a.ply for a in await store.live_actions(game.id)] == [1, 2, 3]


async def test_a_write_that_finds_the_file_locked_waits_off_the_loop(db_path: Path) -> None:
    """Every statement runs on the connection's thread (aiosqlite): a BEGIN that finds the file locked by
    another program waits ``busy_timeout`` there while the event loop goes on, reads included, and the write
    goes through once the other program lets go."""
    async with SqliteStore(db_path, busy_timeout=5.0) as store:
        game = await store.create_game(**new_game_args())

        def append(ply: int) -> Awaitable[GameRow]:
            return store.append_action(game.id, expected_ply=ply, action={"type": "x"}, user_id=7)

        async with Locker(db_path):
            write = asyncio.ensure_future(append(0))
            for _ in range(200):  # the loop turns while the write waits for the lock
                await asyncio.sleep(0)
            assert store._writer.pending == 1 and not write.done()
            assert (await store.game(game.id)).ply == 0  # a read answers meanwhile (WAL)
        assert (await write).ply == 1
        assert [a.ply for a in await store.live_actions(game.id)] == [1]


async def test_a_file_held_exclusively_at_start_is_reported_locked(db_path: Path) -> None:
    async with SqliteStore(db_path) as store:
        await store.create_game(**new_game_args())
    async with Locker(db_path, "exclusive-mode"):
        store = SqliteStore(db_path, busy_timeout=0.3)
        with pytest.raises(StoreUnavailable) as info:
            await store.open()
        assert info.value.reason == "locked"
    async with store:
        assert await store.count_games() == 1


# -- a full disk ------------------------------------------------------------------------------------
async def test_disk_full_writes_nothing(store: SqliteStore, game: GameRow) -> None:
    game = await play(store, game, 3)
    pages = await on_writer(store, "PRAGMA page_count")
    await on_writer(store, f"PRAGMA max_page_count = {pages}")
    with pytest.raises(StoreUnavailable) as info:
        await store.append_action(
            game.id,
            expected_ply=3,
            action={"type": "big"},
            user_id=7,
            snapshot={"pad": "x" * 200_000},
        )
    assert info.value.reason == "disk_full"
    assert await store.game(game.id) == game
    assert len(await store.history(game.id, 10)) == 3
    assert await store.latest_snapshot(game.id, 10) is None
    await on_writer(store, "PRAGMA max_page_count = 1073741823")
    game = await store.append_action(
        game.id,
        expected_ply=3,
        action={"type": "big"},
        user_id=7,
        snapshot={"pad": "x" * 200_000},
    )
    assert (await store.latest_snapshot(game.id, 10))[0] == 4


@pytest.fixture
def small_disk(tmp_path: Path) -> Iterator[Path]:
    """A 1 MiB tmpfs (skipped where none can be mounted)."""
    with tmpfs(tmp_path / "small", "1m") as mount:
        yield mount


async def test_a_really_full_disk_writes_nothing_and_recovers(small_disk: Path) -> None:
    store = SqliteStore(small_disk / "bot.sqlite3", busy_timeout=0.3)
    async with store:
        game = await store.create_game(**new_game_args())
        filler = small_disk / "filler"
        with filler.open("wb") as f:  # leave a little room, then run out
            f.write(b"\0" * (1024 * 1024 - 200 * 1024))
        acknowledged = 0
        with pytest.raises(StoreUnavailable) as info:
            for _ in range(100):
                game = await store.append_action(
                    game.id,
                    expected_ply=game.ply,
                    action={"type": "x"},
                    user_id=7,
                    snapshot={"pad": "y" * 20_000},
                )
                acknowledged += 1
        assert info.value.reason == "disk_full"
        assert acknowledged > 0
        assert (await store.game(game.id)).ply == acknowledged
        assert [a.ply for a in await store.live_actions(game.id)] == list(range(1, acknowledged + 1))
        assert (await store.latest_snapshot(game.id, 1000))[0] == acknowledged
        filler.unlink()
        game = await store.append_action(
            game.id, expected_ply=acknowledged, action={"type": "x"}, user_id=7)
        assert game.ply == acknowledged + 1
    async with SqliteStore(small_disk / "bot.sqlite3") as again:
        assert (await again.game(game.id)).ply == acknowledged + 1


# -- read-only, I/O ----------------------------------------------------------------------------------
async def test_a_read_only_database(store: SqliteStore, game: GameRow) -> None:
    await on_writer(store, "PRAGMA query_only = ON")
    with pytest.raises(StoreUnavailable) as info:
        await store.append_action(game.id, expected_ply=0, action={"type": "x"}, user_id=7)
    assert info.value.reason == "read_only"
    assert (await store.game(game.id)).ply == 0
    await on_writer(store, "PRAGMA query_only = OFF")
    assert (await play(store, game, 1)).ply == 1


def _error(message: str, code: int | None) -> sqlite3.Error:
    err = sqlite3.OperationalError(message)
    if code is not None:
        err.sqlite_errorcode = code
    return err


@pytest.mark.parametrize(
    ("message", "code", "reason"),
    [
        ("database is locked", 5, "locked"),
        ("database is locked", None, "locked"),
        ("database table is locked", 6, "locked"),
        ("database or disk is full", 13, "disk_full"),
        ("database or disk is full", None, "disk_full"),
        ("attempt to write a readonly database", 8, "read_only"),
        ("attempt to write a readonly database", 8 | (3 << 8), "read_only"),  # SQLITE_READONLY_ROLLBACK
        ("disk I/O error", 10 | (3 << 8), "io"),  # SQLITE_IOERR_WRITE
        ("disk I/O error", None, "io"),
        ("unable to open database file", 14, "cannot_open"),
    ],
)
def test_sqlite_errors_map_to_reasons(message: str, code: int | None, reason: str) -> None:
    error = translate(_error(message, code))
    assert isinstance(error, StoreUnavailable)
    assert error.params == {"reason": reason}


def test_damage_and_bugs_are_not_unavailability() -> None:
    assert isinstance(translate(_error("database disk image is malformed", 11)), StoreCorrupt)
    assert isinstance(translate(_error("file is not a database", 26)), StoreCorrupt)
    bug = _error("no such table: gmaes", 1)
    assert translate(bug) is bug


# -- backup ------------------------------------------------------------------------------------------
async def test_backup_is_a_readable_self_contained_copy(
    store: SqliteStore, game: GameRow, tmp_path: Path
) -> None:
    game = await play(store, game, 4)
    other = await store.create_game(**new_game_args(101))
    dest = tmp_path / "backups" / "copy.sqlite3"
    await store.backup(dest)
    await play(store, game, 1)  # later writes are not in the copy
    assert sorted(p.name for p in dest.parent.iterdir()) == ["copy.sqlite3"]
    with sqlite3.connect(dest) as conn:
        assert conn.execute("PRAGMA journal_mode").fetchone()[0] == "delete"
        assert conn.execute("PRAGMA integrity_check").fetchone()[0] == "ok"
    async with SqliteStore(dest) as copy:
        assert await copy.game(game.id) == game
        assert await copy.active_game(101) == other
        assert [a.ply for a in await copy.live_actions(game.id)] == [1, 2, 3, 4]


async def test_backup_main(db_path: Path, tmp_path: Path, capsys) -> None:
    async with SqliteStore(db_path) as store:
        await play(store, await store.create_game(**new_game_args()), 2)
    dest = tmp_path / "out.sqlite3"
    assert await backup_main(db_path, dest) == 0
    assert "1 games" in capsys.readouterr().out
    async with SqliteStore(dest) as copy:
        assert await copy.count_games() == 1
    assert await backup_main(tmp_path / "missing.sqlite3", tmp_path / "x.sqlite3") == 1
    assert not (tmp_path / "missing.sqlite3").exists()
    (tmp_path / "a_file").write_text("")
    assert await backup_main(db_path, tmp_path / "a_file" / "x.sqlite3") == 1
    assert "backup failed" in capsys.readouterr().err
    db_path.write_bytes(b"garbage" * 100)
    assert await backup_main(db_path, dest) == 1
    assert "The game database is damaged" in capsys.readouterr().err  # a sentence, not the key store.corrupt


async def test_a_restart_while_another_process_writes_can_still_read(db_path: Path) -> None:
    async with SqliteStore(db_path) as store:
        game = await play(store, await store.create_game(**new_game_args()), 1)
    async with Locker(db_path), SqliteStore(db_path, busy_timeout=0.3) as store:
        assert await store.active_game(100) == game


# Several processes playing the same game as fast as they can, each reading the version and writing on it.
RACER = r"""
import asyncio, sys
from bot.store import StaleVersion, make_store

async def main(path, game_id, target, me):
    won = 0
    async with make_store(path, busy_timeout=10) as store:
        while True:
            game = await store.game(game_id)
            if game.ply >= target:
                break
            try:
                await store.append_action(game_id, expected_ply=game.ply, action={"type": "r", "by": me},
                                          user_id=me)
                won += 1
            except StaleVersion:
                pass
    print(won)

asyncio.run(main(sys.argv[1], int(sys.argv[2]), int(sys.argv[3]), int(sys.argv[4])))
"""


@pytest.mark.backends("sqlite", "postgres")
async def test_processes_racing_never_write_twice_on_one_version(new_store, db_target) -> None:
    async with new_store() as store:
        game = await store.create_game(**new_game_args())
    target, racers = 60, 3
    procs = [
        await asyncio.create_subprocess_exec(
            sys.executable,
            "-c",
            RACER,
            str(db_target),
            str(game.id),
            str(target),
            str(me),
            stdout=subprocess.PIPE,
        )
        for me in range(racers)
    ]
    outputs = [await p.communicate() for p in procs]
    assert all(p.returncode == 0 for p in procs)
    wins = [int(out.decode()) for out, _ in outputs]
    async with new_store() as store:
        game = await store.game(game.id)
        live = await store.live_actions(game.id)
        log = await store.history(game.id, 1000)
    assert sum(wins) == game.ply == target
    assert [a.ply for a in live] == list(range(1, target + 1))
    assert len(log) == target
    assert wins == [sum(a.user_id == me for a in live) for me in range(racers)]


# A bot that acknowledges each action once it is committed, then dies by SIGKILL at a random moment.
PLAYER = r"""
import asyncio, sys
from bot.store import make_store

async def main(path, game_id):
    async with make_store(path) as store:
        game = await store.game(game_id)
        while True:
            n = game.ply + 1
            game = await store.append_action(game_id, expected_ply=game.ply, action={"type": "k", "n": n},
                                             user_id=7, snapshot={"at": n})
            print(game.ply, flush=True)

asyncio.run(main(sys.argv[1], int(sys.argv[2])))
"""


@pytest.mark.backends("sqlite", "postgres")
async def test_kill_9_keeps_every_acknowledged_action_and_no_half(new_store, db_target) -> None:
    async with new_store() as store:
        game = await store.create_game(**new_game_args())
    proc = await asyncio.create_subprocess_exec(
        sys.executable, "-c", PLAYER, str(db_target), str(game.id), stdout=subprocess.PIPE
    )
    acknowledged = 0
    while acknowledged < 25:
        acknowledged = int(await proc.stdout.readline())
    proc.kill()
    await proc.wait()
    async with new_store() as store:
        game = await store.game(game.id)
        live = await store.live_actions(game.id)
        snapshot = await store.latest_snapshot(game.id, game.ply)
    assert game.ply >= acknowledged
    assert [a.ply for a in live] == list(range(1, game.ply + 1))
    assert [a.action["n"] for a in live] == list(range(1, game.ply + 1))
    assert snapshot == (game.ply, {"at": game.ply})
