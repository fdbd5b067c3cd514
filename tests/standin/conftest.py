"""Fixtures: a stand-in, and EchoBot logged into it through the driver."""

from __future__ import annotations

import pytest

from bot.standin import StandIn
from bot.standin.echo import EchoBot


@pytest.fixture
async def standin():
    async with StandIn() as server:
        yield server


@pytest.fixture
async def driver(standin):
    async with standin.connect(EchoBot()) as connected:
        yield connected
