"""PostgreSQL only: the server going away and coming back, its errors as the store's refusals, migrations under
the advisory lock. Against the real server the test run starts (tests/support/postgres.py)."""

from __future__ import annotations

import asyncio
from pathlib import Path

import asyncpg
import pytest
from store_helpers import new_game_args, play

from bot.store import (
    ChannelBusy,
    PostgresStore,
    SchemaTooNew,
    StaleVersion,
    StoreCorrupt,
    StoreUnavailable,
    make_store,
)
from bot.store.postgres import PG_SCHEMA_VERSION, schema_version, translate


async def test_a_restarted_server_refuses_while_down_and_the_same_store_works_after(pg_server, pg_dsn) -> None:
    async with PostgresStore(pg_dsn, lock_timeout=1.0, connect_timeout=2.0) as store:
        game = await play(store, await store.create_game(**new_game_args()), 2)
        pg_server.stop("fast")
        try:
            for attempt in (
                lambda: store.append_action(game.id, expected_ply=2, action={"type": "x"}, user_id=7),
                lambda: store.game(game.id),
                lambda: store.active_game(100),
                lambda: store.create_game(**new_game_args(101)),
                lambda: store.undo_action(game.id, expected_ply=2, user_id=7),
            ):
                with pytest.raises(StoreUnavailable) as info:
                    await attempt()
                assert info.value.params == {"reason": "unreachable"}
                assert info.value.key == "store.unavailable"
        finally:
            pg_server.start()
        # The same store object, no reopening: the pool connects again.
        assert (await store.game(game.id)).ply == 2
        game = await play(store, game, 1)
        assert game.ply == 3
        assert [a.ply for a in await store.live_actions(game.id)] == [1, 2, 3]


async def test_an_immediate_shutdown_mid_game_is_refused_then_recovered(pg_server, pg_dsn) -> None:
    # "immediate" is a crash of the server: connections die without a word; the next write still recovers.
    async with PostgresStore(pg_dsn, lock_timeout=1.0, connect_timeout=2.0) as store:
        game = await play(store, await store.create_game(**new_game_args()), 1)
        pg_server.stop("immediate")
        try:
            with pytest.raises(StoreUnavailable):
                await store.append_action(game.id, expected_ply=1, action={"type": "x"}, user_id=7)
        finally:
            pg_server.start()
        game = await store.append_action(game.id, expected_ply=1, action={"type": "y"}, user_id=7)
        assert [a.action for a in await store.live_actions(game.id)][-1] == {"type": "y"}


async def test_a_server_that_is_not_there_at_start_is_unavailable(pg_server) -> None:
    store = PostgresStore(f"postgresql://postgres@127.0.0.1:{pg_server.port + 1}/nothing", connect_timeout=2.0)
    with pytest.raises(StoreUnavailable) as info:
        await store.open()
    assert info.value.params == {"reason": "unreachable"}


async def test_a_pooled_connection_comes_back_with_nothing_to_reset(pg_dsn) -> None:
    # The pool skips asyncpg's reset query (bot/store/postgres.py, _nothing_to_reset): the store, on its one
    # connection (opening and migrating, a game played, a refused write, an undo, reads, the check), leaves no
    # session state behind — no SET, no cursor, no LISTEN, no advisory lock (the migration's is
    # transaction-scoped), no transaction open, even after a refusal rolled one back.
    async with PostgresStore(pg_dsn, min_size=1, max_size=1, lock_timeout=0.3) as store:
        game = await play(store, await store.create_game(**new_game_args()), 3)
        with pytest.raises(StaleVersion):  # a write the game refuses: its transaction is rolled back
            await store.append_action(game.id, expected_ply=1, action={"type": "x"}, user_id=7)
        await store.undo_action(game.id, expected_ply=3, user_id=7)
        await store.live_actions(game.id)
        assert await store.check() == []

        async def session(conn: asyncpg.Connection) -> dict:
            return {
                "in_transaction": conn.is_in_transaction(),
                "cursors": await conn.fetchval("SELECT count(*) FROM pg_cursors WHERE name <> ''"),  # not this query
                "listening": await conn.fetchval("SELECT count(*) FROM pg_listening_channels()"),
                "advisory_locks": await conn.fetchval("SELECT count(*) FROM pg_locks WHERE locktype = 'advisory'"
                                                      " AND pid = pg_backend_pid()"),
                "set_in_session": await conn.fetch("SELECT name FROM pg_settings WHERE source = 'session'"),
                "lock_timeout": await conn.fetchval("SELECT current_setting('lock_timeout')"),
            }

        assert await store._read(session) == {"in_transaction": False, "cursors": 0, "listening": 0,
                                              "advisory_locks": 0, "set_in_session": [], "lock_timeout": "300ms"}


async def test_a_row_locked_by_another_session_is_refused_as_locked(pg_dsn) -> None:
    async with PostgresStore(pg_dsn, lock_timeout=0.3) as store:
        game = await play(store, await store.create_game(**new_game_args()), 1)
        holder = await asyncpg.connect(pg_dsn)
        try:
            tx = holder.transaction()
            await tx.start()
            await holder.execute("SELECT * FROM games WHERE id = $1 FOR UPDATE", game.id)
            with pytest.raises(StoreUnavailable) as info:
                await store.append_action(game.id, expected_ply=1, action={"type": "x"}, user_id=7)
            assert info.value.params == {"reason": "locked"}
            assert (await store.game(game.id)).ply == 1  # reads are not held up
            await tx.rollback()
        finally:
            await holder.close()
        assert (await play(store, game, 1)).ply == 2


async def test_a_read_only_database_is_refused_as_read_only(pg_dsn) -> None:
    async with PostgresStore(pg_dsn) as store:
        game = await store.create_game(**new_game_args())
    admin = await asyncpg.connect(pg_dsn)
    try:
        await admin.execute(f"ALTER DATABASE {pg_dsn.rsplit('/', 1)[1]} SET default_transaction_read_only = on")
    finally:
        await admin.close()
    async with PostgresStore(pg_dsn) as store:
        with pytest.raises(StoreUnavailable) as info:
            await store.append_action(game.id, expected_ply=0, action={"type": "x"}, user_id=7)
        assert info.value.params == {"reason": "read_only"}
        assert (await store.game(game.id)).ply == 0


def test_postgresql_errors_map_to_the_same_refusals_as_sqlite() -> None:
    cases = {
        asyncpg.DiskFullError("could not extend file: No space left on device"): ("unavailable", "disk_full"),
        asyncpg.ReadOnlySQLTransactionError("read-only transaction"): ("unavailable", "read_only"),
        asyncpg.LockNotAvailableError("lock timeout"): ("unavailable", "locked"),
        asyncpg.DeadlockDetectedError("deadlock"): ("unavailable", "locked"),
        asyncpg.PostgresIOError("could not read block"): ("unavailable", "io"),
        asyncpg.AdminShutdownError("terminating connection"): ("unavailable", "unreachable"),
        asyncpg.CannotConnectNowError("the database system is starting up"): ("unavailable", "unreachable"),
        asyncpg.ConnectionDoesNotExistError("connection was closed"): ("unavailable", "unreachable"),
        ConnectionRefusedError(111, "Connection refused"): ("unavailable", "unreachable"),
        asyncpg.DataCorruptedError("invalid page"): ("corrupt", "malformed"),
    }
    for exc, (kind, reason) in cases.items():
        error = translate(exc)
        assert isinstance(error, StoreUnavailable if kind == "unavailable" else StoreCorrupt), exc
        assert error.reason == reason, exc
    bug = asyncpg.UndefinedColumnError("no such column")
    assert translate(bug) is bug  # a bug stays a bug


async def test_unique_violation_of_the_one_active_game_index_is_channel_busy(pg_dsn) -> None:
    async with PostgresStore(pg_dsn) as store, PostgresStore(pg_dsn) as other:
        outcomes = await asyncio.gather(*(s.create_game(**new_game_args(9)) for s in (store, other) for _ in range(3)),
                                        return_exceptions=True)
        games = [o for o in outcomes if not isinstance(o, BaseException)]
        busy = [o for o in outcomes if isinstance(o, ChannelBusy)]
        assert len(games) == 1 and len(busy) == 5
        assert {b.params["game_id"] for b in busy} == {games[0].id}


async def test_processes_starting_together_migrate_once_under_the_advisory_lock(pg_dsn) -> None:
    stores = [PostgresStore(pg_dsn) for _ in range(4)]
    await asyncio.gather(*(s.open() for s in stores))
    try:
        conn = await asyncpg.connect(pg_dsn)
        try:
            assert await schema_version(conn) == PG_SCHEMA_VERSION
            assert await conn.fetchval("SELECT count(*) FROM solo_schema") == 1
        finally:
            await conn.close()
        game = await stores[0].create_game(**new_game_args())
        assert (await stores[3].game(game.id)) == game
    finally:
        for s in stores:
            await s.close()


async def test_a_database_from_a_newer_bot_is_refused(pg_dsn) -> None:
    async with PostgresStore(pg_dsn):
        pass
    conn = await asyncpg.connect(pg_dsn)
    try:
        await conn.execute("UPDATE solo_schema SET version = $1", PG_SCHEMA_VERSION + 1)
    finally:
        await conn.close()
    with pytest.raises(SchemaTooNew) as info:
        await PostgresStore(pg_dsn).open()
    assert info.value.params == {"found": PG_SCHEMA_VERSION + 1, "supported": PG_SCHEMA_VERSION}


def test_solo_bot_db_selects_the_store(tmp_path) -> None:
    from bot.config import Config

    config = Config.from_env({"SOLO_BOT_DB": "postgresql://bot:secret@db:5432/solo"})
    assert config.db_target == "postgresql://bot:secret@db:5432/solo"
    assert "secret" not in repr(config)
    store = make_store(config.db_target)
    assert isinstance(store, PostgresStore) and "secret" not in repr(store)
    sqlite = Config.from_env({"SOLO_BOT_DB": str(tmp_path / "x.sqlite3")})
    assert sqlite.db_url is None and type(make_store(sqlite.db_target)).__name__ == "SqliteStore"


async def test_health_checks_the_postgresql_database(pg_server, pg_dsn, tmp_path) -> None:
    import json
    import time

    from bot.config import Config
    from bot.health import check

    beat = tmp_path / "beat"
    beat.write_text(json.dumps({"time": time.time(), "connected": True, "pid": 1, "guilds": 2}))
    async with PostgresStore(pg_dsn):
        pass
    config = Config.from_env({"SOLO_BOT_DB": pg_dsn, "SOLO_BOT_HEARTBEAT": str(beat)})
    healthy, line = check(config)
    assert healthy and line.endswith(f"schema {PG_SCHEMA_VERSION}"), line
    down = Config.from_env({"SOLO_BOT_DB": f"postgresql://postgres@127.0.0.1:{pg_server.port + 1}/x",
                            "SOLO_BOT_HEARTBEAT": str(beat)})
    healthy, line = check(down)
    assert not healthy and "does not answer" in line


@pytest.fixture
async def pg_small_disk(pg_server, pg_dsn):
    """The test database's snapshots on a 1 MiB tmpfs (a tablespace), when this process may mount one."""
    import os
    import pwd
    import subprocess

    mount = pg_server.root / f"small-{pg_dsn.rsplit('/', 1)[1]}"
    mount.mkdir()
    done = subprocess.run(["mount", "-t", "tmpfs", "-o", "size=1m", "tmpfs", str(mount)], capture_output=True)
    if done.returncode != 0:
        pytest.skip(f"cannot mount a tmpfs here: {done.stderr.decode().strip()}")
    owner = pwd.getpwnam(pg_server.user) if pg_server.user else None
    if owner is not None:
        os.chown(mount, owner.pw_uid, owner.pw_gid)
    space = f"small_{pg_dsn.rsplit('/', 1)[1]}"
    async with PostgresStore(pg_dsn):  # the schema
        pass
    conn = await asyncpg.connect(pg_dsn)
    try:
        await conn.execute(f"CREATE TABLESPACE {space} LOCATION '{mount}'")
        await conn.execute(f"ALTER TABLE snapshots SET TABLESPACE {space}")
        yield mount
    finally:
        await conn.execute("ALTER TABLE snapshots SET TABLESPACE pg_default")
        await conn.execute(f"DROP TABLESPACE {space}")
        await conn.close()
        subprocess.run(["umount", "--lazy", str(mount)], check=False)  # lazy: a file still open must not keep it mounted


async def test_a_really_full_disk_is_refused_as_disk_full_and_recovers(pg_dsn, pg_small_disk: Path) -> None:
    import os

    async with PostgresStore(pg_dsn, lock_timeout=1.0) as store:
        game = await store.create_game(**new_game_args())
        filler = pg_small_disk / "filler"
        with filler.open("wb") as f:  # leave a little room, then run out
            f.write(b"\0" * (1024 * 1024 - 400 * 1024))
        acknowledged = 0
        with pytest.raises(StoreUnavailable) as info:
            for _ in range(200):  # incompressible snapshots until the tablespace is full
                game = await store.append_action(game.id, expected_ply=game.ply, action={"type": "x"}, user_id=7,
                                                 snapshot={"pad": os.urandom(20_000).hex()})
                acknowledged += 1
        assert info.value.reason == "disk_full"
        assert acknowledged > 0
        assert (await store.game(game.id)).ply == acknowledged  # the refused write left nothing
        assert [a.ply for a in await store.live_actions(game.id)] == list(range(1, acknowledged + 1))
        # Without a snapshot the write goes elsewhere: the store carries on, and once room is made, all of it.
        game = await store.append_action(game.id, expected_ply=acknowledged, action={"type": "y"}, user_id=7)
        assert game.ply == acknowledged + 1
        filler.unlink()  # the operator makes room
        game = await store.append_action(game.id, expected_ply=game.ply, action={"type": "z"}, user_id=7,
                                         snapshot={"at": "end"})
        assert await store.latest_snapshot(game.id, game.ply) == (game.ply, {"at": "end"})
