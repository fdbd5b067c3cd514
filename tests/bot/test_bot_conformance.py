"""The bot's command sync and its replies conform to Discord's published API description.

Every e2e test already validates each request body through the stand-in (tests/bot/conftest.py); this
file adds the sync payload, which only `python -m bot sync` sends.
"""

from __future__ import annotations

from play import pictured

from tests.openapi import check_command_payload


async def test_sync_payload_validates_and_follows_the_documented_rules(driver, standin):
    synced = await driver.bot.tree.sync()
    assert {c.name for c in synced} == {"seasons", "volfyrion", "game"}
    body = standin.synced[None]
    assert check_command_payload(body) == []
    assert standin.violations == []


async def test_a_reply_of_every_kind_validates(driver, standin):
    # message, ephemeral refusal, modal, autocomplete, attachment (export), deferred (forecast)
    start = await driver.slash("seasons start", {"difficulty": "wizard", "dice": "table"})
    await driver.slash("seasons die", {"face": "no such face"})
    await driver.autocomplete("seasons die", {"face": "water"}, focused="face")
    await driver.slash("game export", {})
    forecast = await driver.slash("seasons forecast", {})
    assert forecast.deferred and "Dummbot" in forecast.text
    await driver.slash("seasons die", {"face": "2 water, star, 3 dots"})
    reveal = [b for b in (await driver.slash("game status", {})).buttons if ":reveal" in b["custom_id"]]
    opened = await driver.press(reveal[0]["custom_id"])
    assert opened.modal is not None
    await pictured(start)  # the picture's edit is checked against the description too
    assert start.files and standin.violations == []
