"""bench_bot's databases (issue 13): SQLite and a temporary PostgreSQL server in one run by default; the
"postgres" keyword starts that server (the distribution's durability), or, without its binaries, is left out
with one line saying so. No timing is checked."""

from __future__ import annotations

import contextlib
import sys
from pathlib import Path

import asyncpg
from support.postgres import _unavailable

ROOT = str(Path(__file__).resolve().parents[2])
if ROOT not in sys.path:
    sys.path.insert(0, ROOT)

import bench.bench_bot as bench_bot  # noqa: E402
import bench.pgserver as pgserver  # noqa: E402


def test_sqlite_and_postgresql_are_the_default_targets() -> None:
    assert bench_bot.TARGETS == ("sqlite", bench_bot.POSTGRES)


def test_without_server_binaries_postgres_is_left_out_in_one_line(monkeypatch, capsys) -> None:
    monkeypatch.setattr(pgserver, "find_bin_dir", lambda: None)
    with contextlib.ExitStack() as stack:
        targets, notes = bench_bot.resolve_targets(("sqlite", "postgres"), stack)
    assert targets == ["sqlite"]
    out = capsys.readouterr().out.splitlines()
    assert len(out) == 1 and "no PostgreSQL server binaries" in out[0] and "SQLite only" in out[0]
    assert notes and "not measured" in notes[0]


async def test_the_postgres_keyword_starts_a_durable_server_with_a_fresh_database_per_target() -> None:
    if pgserver.find_bin_dir() is None:
        _unavailable(pgserver.MISSING)  # skipped locally, a failure in CI (SOLO_BOT_REQUIRE_POSTGRES=1)
    with contextlib.ExitStack() as stack:
        targets, notes = bench_bot.resolve_targets(("postgres", "sqlite", "postgres"), stack)
        assert targets[1] == "sqlite" and targets[0] != targets[2]
        assert all(bench_bot.is_postgres(t) for t in (targets[0], targets[2]))
        assert "fsync on, synchronous_commit on" in notes[0]
        conn = await asyncpg.connect(targets[0])
        try:
            settings = {name: await conn.fetchval(f"SHOW {name}") for name in ("fsync", "synchronous_commit",
                                                                                "full_page_writes")}
            assert await conn.fetchval("SELECT count(*) FROM pg_tables WHERE schemaname = 'public'") == 0
        finally:
            await conn.close()
    assert settings == {"fsync": "on", "synchronous_commit": "on", "full_page_writes": "on"}
