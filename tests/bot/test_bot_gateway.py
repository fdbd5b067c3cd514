"""The bot through a gateway that drops and resumes, and a REST API that rate-limits (issue 11, point 11),
end to end with a real client and store."""

from __future__ import annotations

import asyncio

from bot.store import SqliteStore
from tests.support.standin import APPLICATION_COMMAND


async def test_a_command_sent_while_the_shard_was_down_is_applied_once_after_resume(driver, db_path):
    standin = driver.standin
    start = await driver.slash("volfyrion start", {"difficulty": "normal"})
    assert not start.ephemeral
    standin.resume_gate.clear()
    await standin.drop_connection()
    data = driver._command_data("volfyrion reshuffle", {}, focused=None)
    record = standin.new_interaction(APPLICATION_COMMAND, data, user=standin.world.user(),
                                     channel=standin.world.channel())
    answered = asyncio.Event()
    record.observers.append(lambda r, a: answered.set())
    await standin.dispatch(record, wait=False)
    standin.resume_gate.set()
    await asyncio.wait_for(answered.wait(), 10)
    assert standin.replayed == 1 and record.response_type in (4, 5)
    status = await driver.slash("game status", {})
    assert not status.ephemeral
    async with SqliteStore(db_path) as store:
        row = await store.active_game(standin.world.channel().id)
        actions = await store.live_actions(row.id)
    assert [a.action["type"] for a in actions] == ["reshuffle"]


async def test_the_result_reaches_the_parent_channel_through_a_429(driver):
    driver.standin.rate_limit("channel_message", times=1, retry_after=0.01)
    await driver.slash("volfyrion start", {"difficulty": "normal"}, channel="session")
    await driver.slash("volfyrion end", {}, channel="session")
    end = await driver.slash("volfyrion win", {"how": "attack"}, channel="session")
    await end.until(lambda r: any(m.kind == "channel" for m in r.messages))  # after the 429's retry
    parent = driver.standin.world.channel("table")
    assert [m.channel_id for m in end.messages if m.kind == "channel"] == [parent.id]
    assert len(driver.standin.rate_limited) == 1
