"""A real PostgreSQL server for the tests, started by the test run itself and removed afterwards.

The server is bench/pgserver.py's (shared with the benches; fsync off here): ``initdb`` and ``pg_ctl`` from
PATH or /usr/lib/postgresql/*/bin, run as an unprivileged user when the tests run as root (PostgreSQL refuses
root), in a temporary directory, on a free port of 127.0.0.1. Each test gets a database of its own (``CREATE DATABASE … TEMPLATE``), so tests never see each other's rows.

Without the server binaries the PostgreSQL tests are skipped, except when ``SOLO_BOT_REQUIRE_POSTGRES=1``
(set by .ci/run): then they fail, so CI never passes with the PostgreSQL half silently left out.
"""

from __future__ import annotations

import os
from collections.abc import Iterator

import pytest

from bench.pgserver import MISSING, REQUIRE, PostgresServer, temporary_server

__all__ = ["REQUIRE", "PostgresServer", "pg_dsn", "pg_server"]


def _unavailable(why: str) -> None:
    if os.environ.get(REQUIRE) == "1":
        pytest.fail(f"{why}, and {REQUIRE}=1 says the PostgreSQL tests must run (install the postgresql package)")
    pytest.skip(f"{why}: the PostgreSQL tests are skipped (install the postgresql package to run them)")


@pytest.fixture(scope="session")
def pg_server() -> Iterator[PostgresServer]:
    """The test run's PostgreSQL server (started on first use, stopped and removed at the end; fsync off: the
    tests check the protocol and the locking, not a disk)."""
    with temporary_server(durable=False) as server:
        if server is None:
            _unavailable(MISSING)
        yield server


@pytest.fixture
def pg_dsn(pg_server: PostgresServer) -> Iterator[str]:
    """A fresh, empty database of its own for one test; its DSN."""
    if not pg_server.running():  # a test that stopped the server and failed before starting it again
        pg_server.start()
    name = pg_server.create_database()
    yield pg_server.dsn(name)
    if not pg_server.running():
        pg_server.start()
    pg_server.drop_database(name)
