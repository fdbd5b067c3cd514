"""End-to-end fixtures: a real discord.py client (the bot) logged into the local stand-in, a real SQLite file."""

from __future__ import annotations

import contextlib
import sys
from collections.abc import AsyncIterator
from pathlib import Path

import pytest

from bot.app import create_bot
from bot.config import Config
from tests.support.standin import StandIn, World

sys.path.insert(0, str(Path(__file__).resolve().parent))
sys.path.insert(0, str(Path(__file__).resolve().parents[2]))

from tests.openapi import SPEC_PATH, load_spec, openapi_validator
from tests.support.conformance import event_validator, response_validator


@pytest.fixture
def db_path(tmp_path: Path) -> Path:
    return tmp_path / "bot.sqlite3"


@pytest.fixture
async def standin() -> AsyncIterator[StandIn]:
    async with StandIn() as server:
        _install_conformance(server)
        yield server
        assert server.violations == [], f"the bot broke Discord's rules: {server.violations}"
        assert server.unknown_routes == [], f"the bot called routes Discord does not have: {server.unknown_routes}"
        assert server.pinged() == {}, f"the bot's messages notified someone (issue 35): {server.pinged()}"


@pytest.fixture
async def standin_world(db_path: Path):
    """A stand-in over a given world, checked as the `standin` fixture is."""
    servers: list[StandIn] = []

    async def make(world: World) -> StandIn:
        server = StandIn(world)
        await server.start()
        _install_conformance(server)
        servers.append(server)
        return server

    yield make
    for server in servers:
        await server.close()
        assert server.violations == [], server.violations
        assert server.unknown_routes == []


def _install_conformance(server: StandIn) -> None:
    """Every request body the bot sends is validated against Discord's OpenAPI description (shipped gzipped in tests/data)."""
    if SPEC_PATH.is_file():
        server.add_validator(openapi_validator(load_spec()))
        # ... and so is everything the stand-in itself answers and sends (issue 11).
        server.add_response_validator(response_validator(load_spec()))
        server.add_event_validator(event_validator(load_spec()))


BOT_SEED = 7  # the seed of every game the test bot starts (a table model of the same seed plays its game)


@contextlib.asynccontextmanager
async def running_bot(standin: StandIn, db_path: Path, *, seed: int = BOT_SEED):
    bot = create_bot(Config(db_path=db_path), seed=lambda: seed)
    async with standin.connect(bot) as driver:
        yield driver


@pytest.fixture
async def driver(standin: StandIn, db_path: Path):
    async with running_bot(standin, db_path) as d:
        yield d
