"""Opening a database: migrations, pragmas, refusing files that are damaged or too new."""

from __future__ import annotations

import asyncio
import sqlite3
from pathlib import Path

import pytest
from store_helpers import BUSY, new_game_args, on_writer, play

from bot.store import SchemaTooNew, SqliteStore, StoreCorrupt, schema


def user_version(path: Path) -> int:
    with sqlite3.connect(path) as conn:
        return conn.execute("PRAGMA user_version").fetchone()[0]


def tables(path: Path) -> set[str]:
    with sqlite3.connect(path) as conn:
        return {r[0] for r in conn.execute("SELECT name FROM sqlite_master WHERE type = 'table'")}


async def test_migrates_an_empty_file_and_creates_its_directory(db_path: Path) -> None:
    assert not db_path.parent.exists()
    async with SqliteStore(db_path):
        pass
    assert user_version(db_path) == schema.SCHEMA_VERSION == len(schema.MIGRATIONS)
    assert {"games", "actions", "snapshots", "results"} <= tables(db_path)


async def test_a_zero_byte_file_is_a_new_database(db_path: Path) -> None:
    db_path.parent.mkdir(parents=True)
    db_path.write_bytes(b"")
    async with SqliteStore(db_path) as store:
        assert await store.count_games() == 0
    assert user_version(db_path) == schema.SCHEMA_VERSION


async def test_reopen_is_idempotent_and_keeps_the_games(db_path: Path) -> None:
    async with SqliteStore(db_path) as store:
        game = await play(store, await store.create_game(**new_game_args()), 3)
    for _ in range(2):
        async with SqliteStore(db_path) as store:
            assert await store.game(game.id) == game
            assert [a.ply for a in await store.live_actions(game.id)] == [1, 2, 3]
    assert user_version(db_path) == schema.SCHEMA_VERSION


async def test_pragmas_wal_full_sync_foreign_keys(store: SqliteStore) -> None:
    assert await on_writer(store, "PRAGMA journal_mode") == "wal"
    assert await on_writer(store, "PRAGMA synchronous") == 2  # FULL
    assert await on_writer(store, "PRAGMA foreign_keys") == 1
    assert await on_writer(store, "PRAGMA busy_timeout") == int(BUSY * 1000)


async def test_a_database_from_a_newer_bot_is_refused(db_path: Path) -> None:
    async with SqliteStore(db_path):
        pass
    with sqlite3.connect(db_path) as conn:
        conn.execute(f"PRAGMA user_version = {schema.SCHEMA_VERSION + 1}")
    with pytest.raises(SchemaTooNew) as info:
        await SqliteStore(db_path).open()
    assert info.value.key == "store.schema_too_new"
    assert info.value.params == {"found": schema.SCHEMA_VERSION + 1, "supported": schema.SCHEMA_VERSION}


async def test_a_failing_migration_leaves_the_previous_version(db_path: Path, monkeypatch) -> None:
    async with SqliteStore(db_path):
        pass
    broken = ("CREATE TABLE extra (x INTEGER)", "INSERT INTO no_such_table VALUES (1)")
    monkeypatch.setattr("bot.store.sqlite.MIGRATIONS", [*schema.MIGRATIONS, broken])
    monkeypatch.setattr("bot.store.sqlite.SCHEMA_VERSION", len(schema.MIGRATIONS) + 1)
    with pytest.raises(sqlite3.OperationalError):
        await SqliteStore(db_path).open()
    assert user_version(db_path) == schema.SCHEMA_VERSION
    assert "extra" not in tables(db_path)


async def test_a_second_migration_runs_on_an_old_file(db_path: Path, monkeypatch) -> None:
    async with SqliteStore(db_path) as store:
        game = await store.create_game(**new_game_args())
    step = ("ALTER TABLE games ADD COLUMN note TEXT",)
    monkeypatch.setattr("bot.store.sqlite.MIGRATIONS", [*schema.MIGRATIONS, step])
    monkeypatch.setattr("bot.store.sqlite.SCHEMA_VERSION", len(schema.MIGRATIONS) + 1)
    async with SqliteStore(db_path) as store:
        assert (await store.game(game.id)).id == game.id
    assert user_version(db_path) == schema.SCHEMA_VERSION + 1


async def test_garbage_bytes_are_not_a_database(db_path: Path) -> None:
    db_path.parent.mkdir(parents=True)
    db_path.write_bytes(b"this is a text file, not SQLite\n" * 200)
    with pytest.raises(StoreCorrupt) as info:
        await SqliteStore(db_path).open()
    assert info.value.key == "store.corrupt"
    assert info.value.reason == "not_sqlite"


async def _filled(db_path: Path) -> None:
    async with SqliteStore(db_path) as store:
        for channel in range(20):
            game = await store.create_game(**new_game_args(channel))
            await store.append_action(
                game.id,
                expected_ply=0,
                action={"type": "x", "pad": "p" * 3000},
                user_id=7,
                snapshot={"pad": "s" * 5000},
            )


async def test_a_truncated_database_is_corrupt(db_path: Path) -> None:
    await _filled(db_path)
    size = db_path.stat().st_size
    assert size > 20 * 4096
    with db_path.open("r+b") as f:
        f.truncate(size // 2)
    with pytest.raises(StoreCorrupt) as info:
        await SqliteStore(db_path).open()
    assert info.value.reason in ("integrity", "malformed")


async def test_damaged_pages_are_found_by_the_integrity_check(db_path: Path) -> None:
    await _filled(db_path)
    with db_path.open("r+b") as f:
        f.seek(4096 * 2)  # past the header page: keeps the file looking like SQLite
        f.write(b"\xa5" * 4096 * 3)
    with pytest.raises(StoreCorrupt) as info:
        await SqliteStore(db_path).open()
    assert info.value.reason in ("integrity", "malformed")
    assert info.value.params["detail"]


async def test_the_store_is_a_store(store: SqliteStore) -> None:
    from bot.store import Store

    assert isinstance(store, Store)


async def test_open_twice_at_once_connects_once(db_path: Path) -> None:
    store = SqliteStore(db_path)
    await asyncio.gather(store.open(), store.open())
    first = store._writer
    await store.open()
    assert store._writer is first
    await store.close()
    await store.close()  # closing twice is harmless


def test_an_unknown_synchronous_setting_is_refused(db_path: Path) -> None:
    with pytest.raises(ValueError):
        SqliteStore(db_path, synchronous="SOMETIMES; DROP TABLE games")


def test_each_games_statements_join_the_step_of_their_version() -> None:
    """The games' own statements (bot/games/<game>/migrations.py) keep the versions they shipped with: SQLite's
    2 (Volfyirion's log rewrite), 3 (Seasons' edition 1) and 8 (Volfyirion's edition 1), PostgreSQL's 2; the
    store's steps of those versions are empty, and a step is the store's statements, then the games'."""
    from bot import games

    assert {g.kind: sorted(g.store_steps("sqlite")) for g in games.GAMES} == {"seasons": [3], "volfyirion": [2, 8]}
    assert {g.kind: sorted(g.store_steps("postgresql")) for g in games.GAMES} == {"seasons": [], "volfyirion": [2]}
    assert schema.V2 == schema.V3 == schema.V8 == ()
    assert [len(schema.step(s, n, "sqlite")) for n, s in enumerate(schema.MIGRATIONS, 1)][1:3] == [1, 1]
    assert schema.step(schema.V7, 7, "sqlite") == schema.V7  # no game adds to the others
    assert "kind = 'seasons'" in schema.step(schema.V3, 3, "sqlite")[0]
