"""Root test configuration: the long-running `soak` suites run only when asked for.

`make soak` runs `pytest tests --soak` (everything, the long forms included); `make test` leaves every
soak-marked test skipped, so the short forms of the load and fault suites are all that `make test` pays for.
"""

from __future__ import annotations

import os

import pytest
from hypothesis import settings

# `make test` explores the same examples every run, so CI is reproducible and never fails on timing;
# `make soak` explores new ones (HYPOTHESIS_PROFILE=explore).
settings.register_profile("ci", derandomize=True, deadline=None, print_blob=True)
settings.register_profile("explore", deadline=None, print_blob=True)
settings.load_profile(os.environ.get("HYPOTHESIS_PROFILE", "ci"))


def pytest_addoption(parser: pytest.Parser) -> None:
    parser.addoption("--soak", action="store_true", default=False,
                     help="run the long load, fault and fuzz suites (tests marked soak)")


_FIGURES = pytest.StashKey[list[str]]()


def pytest_configure(config: pytest.Config) -> None:
    config.addinivalue_line("markers", "soak: long form of the load/fault/fuzz suites; runs only with --soak")
    config.stash[_FIGURES] = []


@pytest.fixture
def figures(request: pytest.FixtureRequest):  # noqa: ANN201 - a (str) -> None
    """`figures("load: ...")` — a line for the end of the run: what a load or fault suite tried and what held."""
    return request.config.stash[_FIGURES].append


def pytest_terminal_summary(terminalreporter, config: pytest.Config) -> None:  # noqa: ANN001
    lines = config.stash.get(_FIGURES, [])
    if lines:
        terminalreporter.section("load and fault figures: what was tried, what held")
        for line in lines:
            terminalreporter.write_line(line)


def pytest_collection_modifyitems(config: pytest.Config, items: list[pytest.Item]) -> None:
    if config.getoption("--soak"):
        return
    skip = pytest.mark.skip(reason="soak test: run with --soak (make soak)")
    for item in items:
        if item.get_closest_marker("soak") is not None:
            item.add_marker(skip)


# A real PostgreSQL server started by the test run (tests/support/postgres.py): `pg_server`, `pg_dsn`.
from support.postgres import pg_dsn, pg_server  # noqa: E402, F401
