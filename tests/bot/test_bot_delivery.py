"""Issue 11, point 1: an interaction that arrives too late to be answered, or twice, never changes a game.

The probe: `/seasons crystals change:5` delivered 3.5 s after its creation gets Discord's 10062 to any answer;
it must change nothing, and the player's retry applies once — also when the retry is delivered again (a
RESUME replay). Nothing here sleeps for timing: each step waits for an event (the stand-in's refusal, the
bot's record of what it dropped) and the store is read afterwards.
"""

from __future__ import annotations

import asyncio
import contextlib
from collections.abc import Callable

from play import button, export

from bot.standin.driver import NoReply
from conftest import _install_conformance, running_bot
from tests.support.standin import StandIn


async def until(condition: Callable[[], object], limit: float = 20.0) -> None:
    """Wait for an event (not for a time): poll `condition` on the event loop, failing after `limit` seconds."""
    loop = asyncio.get_running_loop()
    give_up = loop.time() + limit
    while not condition():
        assert loop.time() < give_up, "the awaited event never came"
        await asyncio.sleep(0.01)


def dropped(driver, reply) -> str | None:
    """Why the bot dropped ``reply``'s interaction (its Deliveries' record), None if it did not."""
    deliveries = driver.bot.controller.deliveries.dropped
    return next((reason for iid, reason in deliveries if iid == reply.interaction_id), None)


def refused_late(standin: StandIn, reply) -> list[int]:
    """The codes Discord answered the bot's attempts for this late interaction with. The attempt is counted
    by the stand-in as a late response; here it is expected (the bot tries once, then applies nothing), so it
    is taken out of the violations the fixture checks at the end."""
    mine = [v for v in standin.violations if v.interaction_id == reply.interaction_id]
    assert all(v.kind == "late_response" for v in mine), mine
    standin.violations[:] = [v for v in standin.violations if v.interaction_id != reply.interaction_id]
    return [v.code for v in mine]


def crystals(record: dict) -> int:
    return record["state"]["dummbot"]["crystals"]


async def test_a_crystals_change_delivered_3_5_s_late_changes_nothing_and_the_retry_applies_once(driver):
    await driver.slash("seasons start", {"difficulty": "wizard", "dice": "table"})
    late = await driver.slash("seasons crystals", {"change": 5}, late=3.5)
    # The bot tried to acknowledge first; Discord (the stand-in) answered 10062; the player saw nothing.
    assert [r["code"] for r in late.rejections] == [10062]
    assert late.messages == []
    await until(lambda: dropped(driver, late))
    assert refused_late(driver.standin, late) == [10062]
    assert dropped(driver, late) == "late"
    record = await export(driver)
    assert crystals(record) == 0 and record["actions"] == []

    retry = await driver.slash("seasons crystals", {"change": 5})
    assert not retry.ephemeral and retry.response_type == 4
    await driver.redeliver(retry)  # the same interaction once more, as a RESUME replay may deliver it
    await until(lambda: dropped(driver, retry))
    assert dropped(driver, retry) == "repeat"
    record = await export(driver)
    assert crystals(record) == 5 and len(record["actions"]) == 1


async def test_a_late_start_creates_no_game(driver):
    late = await driver.slash("seasons start", {"difficulty": "wizard", "dice": "table"}, late=3.5)
    assert [r["code"] for r in late.rejections] == [10062]
    await until(lambda: dropped(driver, late))
    assert refused_late(driver.standin, late) == [10062]
    assert await driver.bot.store.count_games() == 0
    started = await driver.slash("volfyrion start", {"difficulty": "normal"})
    assert not started.ephemeral and await driver.bot.store.count_games() == 1


async def test_a_late_abandon_leaves_the_game_running(driver):
    start = await driver.slash("seasons start", {"difficulty": "wizard", "dice": "bot"})
    confirm = await driver.slash("game abandon", {})
    late = await driver.press(button(confirm, "abandon"), message=confirm.original, late=3.5)
    assert [r["code"] for r in late.rejections] == [10062]
    await until(lambda: dropped(driver, late))
    assert refused_late(driver.standin, late) == [10062]
    assert await driver.bot.store.count_games("active") == 1
    rolled = await driver.press(button(start, "roll"))  # the game goes on
    assert not rolled.ephemeral and len((await export(driver))["actions"]) == 1


async def test_a_late_button_press_changes_nothing(driver):
    start = await driver.slash("seasons start", {"difficulty": "wizard", "dice": "bot"})
    late = await driver.press(button(start, "roll"), late=4.0)
    await until(lambda: dropped(driver, late))
    assert refused_late(driver.standin, late) == [10062]
    assert (await export(driver))["actions"] == []
    rolled = await driver.press(button(start, "roll"))
    assert not rolled.ephemeral and len((await export(driver))["actions"]) == 1


async def test_a_command_delivered_past_the_safe_age_is_acknowledged_before_it_is_applied(driver):
    await driver.slash("seasons start", {"difficulty": "wizard", "dice": "table"})
    # 1.5 s old on arrival: still answerable, but the work might cross 3 s — "thinking…" first, then the edit.
    reply = await driver.slash("seasons crystals", {"change": 3}, late=1.5)
    assert reply.response_type == 5 and reply.edits and not reply.rejections
    assert "3" in reply.text
    assert crystals(await export(driver)) == 3


async def test_a_repeated_delivery_of_a_refusal_is_not_answered_twice(driver):
    refused = await driver.slash("seasons crystals", {"change": 5})  # no game here
    assert refused.ephemeral
    await driver.redeliver(refused)
    await until(lambda: dropped(driver, refused))
    assert not refused.rejections  # no second answer was even tried


async def test_a_change_waiting_behind_the_lock_past_the_deadline_is_not_committed(db_path):
    """The age is checked again under the channel's lock: a change whose "thinking…" Discord refused while
    it waited (here the stand-in's deadline is 1 s, the bot's watchdog answers at 1.2 s) is not applied."""
    async with StandIn(deadline=1.0) as standin:
        _install_conformance(standin)
        async with running_bot(standin, db_path) as driver:
            await driver.slash("seasons start", {"difficulty": "wizard", "dice": "table"})
            channel = standin.world.channel(None)
            async with driver.bot.service.lock(channel.id):  # the channel is busy with another change
                try:
                    reply = await driver.slash("seasons crystals", {"change": 5}, timeout=15.0)
                except NoReply as exc:
                    reply = exc.reply
                await until(lambda: reply.rejections)
            await until(lambda: dropped(driver, reply))
            assert dropped(driver, reply) == "late"
            assert refused_late(standin, reply) == [10062]
            record = await export(driver)
            assert crystals(record) == 0 and record["actions"] == []
            assert standin.violations == []


async def test_internal_error_after_the_commit_does_not_claim_nothing_changed(driver, caplog):
    ui = driver.bot.controller.uis["seasons"]

    def broken_buttons(*args):
        raise RuntimeError("the reply failed")

    with contextlib.ExitStack() as stack:
        stack.callback(setattr, ui, "buttons", ui.buttons)
        ui.buttons = broken_buttons
        reply = await driver.slash("seasons start", {"difficulty": "wizard", "dice": "table"})
    assert reply.ephemeral and "may or may not have been saved" in reply.text
    assert "nothing was changed" not in reply.text
    assert await driver.bot.store.count_games("active") == 1


async def test_internal_error_before_any_commit_says_nothing_changed(driver):
    await driver.slash("seasons start", {"difficulty": "wizard", "dice": "table"})
    service = driver.bot.service
    original = service.require

    async def broken_require(*args, **kwargs):
        raise RuntimeError("a bug before any change")

    service.require = broken_require
    try:
        reply = await driver.slash("seasons forecast", {}, locale="ja")
    finally:
        service.require = original
    assert reply.ephemeral and "何も変更していません" in reply.text
