"""Root test configuration: the long-running `soak` suites run only when asked for.

`make soak` runs `pytest tests --soak` (everything, the long forms included); `make test` leaves every
soak-marked test skipped, so the short forms of the load and fault suites are all that `make test` pays for.

`make test` runs the tests on several xdist workers (`-n`); tests/scheduling.py says how they are handed out
(the load suites on one worker, with at most one other worker beside them).
"""

from __future__ import annotations

import os

import pytest
from hypothesis import settings

from bot import games

# `make test` explores the same examples every run, so CI is reproducible and never fails on timing;
# `make soak` explores new ones (HYPOTHESIS_PROFILE=explore).
settings.register_profile("ci", derandomize=True, deadline=None, print_blob=True)
settings.register_profile("explore", deadline=None, print_blob=True)
settings.load_profile(os.environ.get("HYPOTHESIS_PROFILE", "ci"))


def pytest_addoption(parser: pytest.Parser) -> None:
    parser.addoption("--soak", action="store_true", default=False,
                     help="run the long load, fault and fuzz suites (tests marked soak)")


_FIGURE = "figure"  # the user property a figure line travels in (from an xdist worker to the terminal)


def pytest_configure(config: pytest.Config) -> None:
    config.addinivalue_line("markers", "soak: long form of the load/fault/fuzz suites; runs only with --soak")


@pytest.fixture
def figures(request: pytest.FixtureRequest):
    """`figures("load: ...")` — a line for the end of the run: what a load or fault suite tried and what held.
    It rides on the test's report, which xdist carries from its worker to the process printing the summary."""
    return lambda line: request.node.user_properties.append((_FIGURE, line))


def pytest_terminal_summary(terminalreporter) -> None:
    reports = [r for kept in terminalreporter.stats.values() for r in kept if getattr(r, "when", None) == "call"]
    lines = [value for r in reports for key, value in r.user_properties if key == _FIGURE]
    if lines:
        terminalreporter.section("load and fault figures: what was tried, what held")
        for line in lines:
            terminalreporter.write_line(line)


@pytest.hookimpl(optionalhook=True)
def pytest_xdist_make_scheduler(config: pytest.Config, log):
    """The load suites on one worker, with at most one other beside them (tests/scheduling.py)."""
    from scheduling import LoadSuitesBesideOneWorker

    return LoadSuitesBesideOneWorker(config, log)


def pytest_collection_modifyitems(config: pytest.Config, items: list[pytest.Item]) -> None:
    if config.getoption("--soak"):
        return
    skip = pytest.mark.skip(reason="soak test: run with --soak (make soak)")
    for item in items:
        if item.get_closest_marker("soak") is not None:
            item.add_marker(skip)


# A real PostgreSQL server started by the test run (tests/support/postgres.py): `pg_server`, `pg_dsn`.
from support.postgres import pg_dsn, pg_server  # noqa: E402, F401

# The entry points hand the registry down to the modules that read every game (bot/games's ``install``); the
# tests that call those modules directly get the same registry.
games.install(games.registry())
