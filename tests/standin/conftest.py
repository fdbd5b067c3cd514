"""Fixtures: a stand-in, and EchoBot logged into it through the driver."""

from __future__ import annotations

import sys
from pathlib import Path

import pytest

sys.path.insert(0, str(Path(__file__).resolve().parents[2]))

from bench.echo import EchoBot
from tests.openapi import SPEC_PATH, load_spec
from tests.support.conformance import event_validator, response_validator
from tests.support.standin import StandIn


@pytest.fixture
async def standin():
    async with StandIn() as server:
        if SPEC_PATH.is_file():  # what the stand-in itself answers and sends conforms to Discord's description
            server.add_response_validator(response_validator(load_spec()))
            server.add_event_validator(event_validator(load_spec()))
        yield server
        own = [v for v in server.violations if v.kind.startswith("standin_")]
        assert own == [], f"the stand-in broke Discord's description: {own}"


@pytest.fixture
async def driver(standin):
    async with standin.connect(EchoBot()) as connected:
        yield connected
