"""A quick start (issue 12): opening runs PRAGMA quick_check, the full integrity check runs afterwards on a
connection of its own (commands go on meanwhile; a damaged file it finds is logged), or on demand with
``python -m bot check``."""

from __future__ import annotations

import asyncio
import logging
import sqlite3
from pathlib import Path

import pytest
from store_helpers import Locker, given_behind, new_game_args, play, wait_checked

import bot.store.sqlite as sqlite_store
from bot.__main__ import main as bot_main
from bot.games import rules_for
from bot.sessions import GameService
from bot.store import SqliteStore, StoreCorrupt
from engine.seasons.autoplay import play_game as seasons_game


def index_out_of_step(path: Path) -> None:
    """Damage that only the full check sees: an index whose entries do not match its table (the pages
    themselves are sound, so quick_check passes)."""
    db = sqlite3.connect(path, isolation_level=None)
    try:
        db.execute("CREATE TABLE extra (x, y)")
        db.execute("CREATE INDEX extra_x ON extra(x)")
        db.executemany("INSERT INTO extra VALUES (?, ?)", [(i, -i) for i in range(50)])
        db.execute("PRAGMA writable_schema = ON")
        db.execute("UPDATE sqlite_master SET sql = 'CREATE INDEX extra_x ON extra(y)' WHERE name = 'extra_x'")
        db.execute("PRAGMA writable_schema = OFF")
    finally:
        db.close()


async def filled(path: Path) -> None:
    """A real Seasons game of 3 actions (`python -m bot check` replays every game's log with the rules)."""
    async with SqliteStore(path, background_check=False) as store:
        service = GameService(store, rules=rules_for, seed=lambda: 12345)
        await service.start(kind="seasons", options={"difficulty": "wizard", "dice": "table"}, guild_id=1,
                            channel_id=100, parent_channel_id=None, owner_id=7)
        for action in seasons_game("wizard", "table", 12345)[0][:3]:
            await service.play(100, 7, action)


async def test_a_sound_file_passes_the_background_check(db_path):
    await filled(db_path)
    async with SqliteStore(db_path) as store:
        assert await wait_checked(store) == []
        assert store.integrity == []


async def test_the_background_check_keeps_the_files_locks_and_another_program_cannot_take_the_wal(db_path):
    """The check runs while the bot's own connections hold SQLite's POSIX locks on the file. Had it opened the
    file itself (to read its header), closing it would have dropped them all: another program that wrote and
    closed the database then took itself for its last user and deleted the WAL under the running bot, whose
    next reads failed (SQLITE_IOERR_SHORT_READ)."""
    async with SqliteStore(db_path, busy_timeout=5.0) as store:
        game = await store.create_game(**new_game_args())
        assert await wait_checked(store) == []

        def append(row):
            return store.append_action(row.id, expected_ply=row.ply, action={"type": "after"}, user_id=7)

        async with Locker(db_path):  # another program writes meanwhile, then closes the file
            write = await given_behind(store, append(game))
        game = await write
        write = await given_behind(store, append(game))  # the bot's next group, the file its own again
        game = await write
        assert [a.ply for a in await store.live_actions(game.id)] == [1, 2]
    async with SqliteStore(db_path, background_check=False) as again:
        assert [a.ply for a in await again.live_actions(game.id)] == [1, 2]


async def test_damage_only_the_full_check_sees_opens_and_is_logged_clearly(db_path, caplog):
    await filled(db_path)
    index_out_of_step(db_path)
    caplog.set_level(logging.INFO, logger="bot.store.sqlite")
    async with SqliteStore(db_path) as store:  # opened: the quick check does not see it
        game = await store.active_game(100)
        assert game is not None and game.ply == 3
        problems = await wait_checked(store)
        assert problems and any("missing from index extra_x" in p for p in problems)
        errors = [r for r in caplog.records if r.levelno == logging.ERROR]
        assert len(errors) == 1
        assert "THE GAME DATABASE IS DAMAGED" in errors[0].getMessage()
        assert "missing from index extra_x" in errors[0].getMessage()
        # The bot goes on: the damage is in a table no command reads.
        await play(store, game, 1)
        assert (await store.game(game.id)).ply == 4


async def test_commands_go_on_while_the_full_check_runs(db_path, monkeypatch):
    """The full check is held half-way (a gate before its PRAGMA) while the store reads and commits: both
    finish while the check is still running, on a connection that is neither the writer nor the reader."""
    await filled(db_path)
    gate, entered = asyncio.Event(), asyncio.Event()
    real = sqlite_store._problems

    async def held(db, pragma):
        if pragma == "integrity_check":  # the quick check at open goes through
            entered.set()
            await gate.wait()
        return await real(db, pragma)

    monkeypatch.setattr(sqlite_store, "_problems", held)
    store = SqliteStore(db_path)
    await store.open()
    try:
        await entered.wait()
        assert store._checker is not None and store._checker not in (store._writer.db, store._reader)
        game = await store.active_game(100)
        game = await play(store, game, 2)
        assert (await store.game(game.id)).ply == 5
        assert store.integrity is None  # still checking
        gate.set()
        assert await wait_checked(store) == []
    finally:
        await store.close()


async def test_closing_stops_a_check_under_way(db_path, monkeypatch):
    await filled(db_path)
    entered = asyncio.Event()
    real = sqlite_store._problems

    async def never(db, pragma):  # a query without end, until interrupted
        if pragma == "integrity_check":
            entered.set()
            await db.execute("WITH RECURSIVE c(x) AS (SELECT 1 UNION ALL SELECT x + 1 FROM c) SELECT count(*) FROM c")
        return await real(db, pragma)

    monkeypatch.setattr(sqlite_store, "_problems", never)
    store = SqliteStore(db_path)
    await store.open()
    await entered.wait()
    await store.close()
    assert store._checking is None and store._checker is None and store.integrity is None


def check_cli(path: Path, monkeypatch, *args: str) -> int:
    monkeypatch.setenv("SOLO_BOT_DB", str(path))
    monkeypatch.delenv("DISCORD_TOKEN", raising=False)
    return bot_main(["check", *args])


def test_python_m_bot_check_says_ok_on_a_sound_file(db_path, monkeypatch, capsys):
    asyncio.run(filled(db_path))
    assert check_cli(db_path, monkeypatch) == 0
    assert "ok: PRAGMA integrity_check" in capsys.readouterr().out
    assert check_cli(db_path, monkeypatch, "--quick") == 0
    assert "ok: PRAGMA quick_check" in capsys.readouterr().out


def test_python_m_bot_check_says_what_is_wrong_with_a_damaged_file(db_path, monkeypatch, capsys):
    asyncio.run(filled(db_path))
    index_out_of_step(db_path)
    assert check_cli(db_path, monkeypatch) == 1
    err = capsys.readouterr().err
    assert "The game database is damaged" in err and "missing from index extra_x" in err
    assert "restore a backup" in err
    # The quick check does not see this damage: that is why the full one runs after every start.
    assert check_cli(db_path, monkeypatch, "--quick") == 0


def test_python_m_bot_check_refuses_junk_and_a_missing_file_in_words(tmp_path, monkeypatch, capsys):
    junk = tmp_path / "junk.sqlite3"
    junk.write_bytes(b"not a database at all\n" * 300)
    assert check_cli(junk, monkeypatch) == 1
    assert "is not an SQLite database" in capsys.readouterr().err
    assert check_cli(tmp_path / "missing.sqlite3", monkeypatch) == 2
    assert "no database at" in capsys.readouterr().err


async def test_a_large_damaged_file_opens_and_the_background_check_finds_it(db_path, caplog):
    """Above QUICK_CHECK_BYTES (0 here: every file is "large") the start reads only the header and the
    schema; damaged pages are then found by the background check, logged, and refused in words by a command
    that meets them."""
    async with SqliteStore(db_path, background_check=False) as store:
        for channel in range(20):
            game = await store.create_game(**new_game_args(channel))
            await store.append_action(game.id, expected_ply=0, action={"type": "x", "pad": "p" * 3000},
                                      user_id=7, snapshot={"pad": "s" * 5000})
    with db_path.open("r+b") as f:
        f.seek(4096 * 2)  # past the header page, as in test_store_open
        f.write(b"\xa5" * 4096 * 3)
    with pytest.raises(StoreCorrupt):  # the default start check refuses it, as before
        await SqliteStore(db_path, background_check=False).open()
    caplog.set_level(logging.INFO, logger="bot.store.sqlite")
    store = SqliteStore(db_path, quick_check_bytes=0)
    await store.open()
    try:
        problems = await wait_checked(store)
        assert problems
        assert any("THE GAME DATABASE IS DAMAGED" in r.getMessage() for r in caplog.records
                   if r.levelno == logging.ERROR)
        with pytest.raises(StoreCorrupt) as info:
            for channel in range(20):
                await store.active_game(channel)
                await store.live_actions(channel + 1)
        assert info.value.key == "store.corrupt"
    finally:
        await store.close()


async def test_closing_while_the_store_opens_stops_the_check_that_opening_starts(db_path):
    """A SIGTERM while the bot starts closes the store while it opens (tests/faults/test_faults_deploy.py's
    SIGTERM while connecting): the background check the open starts at its end must not outlive the close, or its
    connection's thread meets a closed event loop."""
    await filled(db_path)
    store = SqliteStore(db_path)
    opening = asyncio.ensure_future(store.open())
    await asyncio.sleep(0)  # the open under way (a step of the loop, not a time)
    await store.close()
    await opening
    assert store._checking is None and store._checker is None
    assert store._reader is None and store._writer is None
