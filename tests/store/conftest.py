"""Shared fixtures for the store tests: a fresh store per test (an SQLite file, or a PostgreSQL database of its
own for the tests that run against both), and a game in it.

A module with ``BACKENDS = ("sqlite", "postgres")``, or a test marked ``@pytest.mark.backends("sqlite",
"postgres")``, runs once per backend: its ``store`` is then an SqliteStore and a PostgresStore in turn, and
``make_store()`` opens another store on the same database (a second process's view, say).
"""

from __future__ import annotations

from collections.abc import AsyncIterator, Callable
from pathlib import Path

import pytest
from store_helpers import BUSY, new_game_args

from bot.store import GameRow, Store, make_store


def pytest_configure(config: pytest.Config) -> None:
    config.addinivalue_line("markers", "backends(*names): run the store test against these backends")


def pytest_generate_tests(metafunc: pytest.Metafunc) -> None:
    if "backend" not in metafunc.fixturenames:
        return
    marker = metafunc.definition.get_closest_marker("backends")
    names = marker.args if marker else getattr(metafunc.module, "BACKENDS", ("sqlite",))
    metafunc.parametrize("backend", names)


@pytest.fixture
def db_path(tmp_path: Path) -> Path:
    return tmp_path / "data" / "bot.sqlite3"


@pytest.fixture
def db_target(backend: str, db_path: Path, request: pytest.FixtureRequest) -> str | Path:
    """The test's database: the SQLite file, or the DSN of a fresh PostgreSQL database."""
    return request.getfixturevalue("pg_dsn") if backend == "postgres" else db_path


@pytest.fixture
def new_store(db_target: str | Path) -> Callable[..., Store]:
    """Another store (not opened) on the test's database: ``new_store(busy_timeout=…, clock=…)``."""
    def new(**options) -> Store:
        options.setdefault("busy_timeout", BUSY)
        return make_store(db_target, **options)
    return new


@pytest.fixture
async def store(new_store: Callable[..., Store]) -> AsyncIterator[Store]:
    s = new_store()
    await s.open()
    yield s
    await s.close()


@pytest.fixture
async def game(store: Store) -> GameRow:
    return await store.create_game(**new_game_args())
