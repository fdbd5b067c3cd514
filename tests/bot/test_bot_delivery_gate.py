"""The gate's acknowledgements, one at a time: the watchdog's "thinking…" and the check before the commit can
both fire for one interaction; only one may reach Discord (a second would be its 40060 and drop a good change).
Found by the memory soak under load; here made deterministic with an interaction whose defer waits on an event."""

from __future__ import annotations

import asyncio
from datetime import timedelta

import discord

from bot.delivery import Deliveries, Gate, NotAcknowledged


class _Response:
    def __init__(self, gate_open: asyncio.Event, *, fail: bool = False) -> None:
        self.calls = 0
        self.done = False
        self.gate_open = gate_open
        self.fail = fail

    def is_done(self) -> bool:
        return self.done

    async def defer(self, *, ephemeral: bool, thinking: bool) -> None:
        self.calls += 1
        await self.gate_open.wait()
        if self.fail or self.calls > 1:
            raise discord.HTTPException(_Resp(400 if self.calls > 1 else 404), "refused")
        self.done = True


class _Resp:
    def __init__(self, status: int) -> None:
        self.status = status
        self.reason = "refused"


class _Interaction:
    def __init__(self, response: _Response, age: float) -> None:
        self.response = response
        self.created_at = discord.utils.utcnow() - timedelta(seconds=age)
        self.extras: dict = {}


async def test_the_watchdog_and_the_commit_check_acknowledge_once() -> None:
    opened = asyncio.Event()
    response = _Response(opened)
    gate = Gate(_Interaction(response, age=2.0))
    watchdog = asyncio.ensure_future(gate.watchdog_ack())
    commit = asyncio.ensure_future(gate())
    await asyncio.sleep(0)
    opened.set()
    await asyncio.gather(watchdog, commit)
    assert response.calls == 1 and gate.refused is None
    assert gate.interaction.extras["commit"] == "started"


async def test_a_refused_acknowledgement_stops_the_commit() -> None:
    opened = asyncio.Event()
    opened.set()
    gate = Gate(_Interaction(_Response(opened, fail=True), age=3.5))
    assert not await gate.arrive()
    try:
        await gate()
    except NotAcknowledged:
        pass
    else:
        raise AssertionError("the commit went ahead without an acknowledgement")
    assert "commit" not in gate.interaction.extras


def test_the_memory_of_ids_is_bounded_by_count_and_by_age() -> None:
    now = [0.0]
    seen = Deliveries(horizon=10.0, limit=3, clock=lambda: now[0])
    assert all(seen.first(i) for i in range(5)) and len(seen) == 3
    assert not seen.first(4) and seen.first(0)  # 0 was forgotten (count), so it counts as new again
    now[0] = 100.0
    assert seen.first(4) and len(seen) == 1  # everything older than the horizon left
