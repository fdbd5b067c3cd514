"""Every kind of body a bot sends, validated against Discord's OpenAPI description as it is sent."""

from __future__ import annotations

from collections import Counter

import pytest

from bench.echo import EchoBot
from tests.openapi import check_command_payload, load_spec, openapi_validator
from tests.support.standin import StandIn, channel_posts


@pytest.fixture
async def checked():
    """EchoBot on a stand-in that validates every body; yields (driver, counts of validated kinds)."""
    validate = openapi_validator(load_spec())
    counts: Counter[str] = Counter()

    def counting(kind, method, path, body):
        counts[kind] += 1
        return validate(kind, method, path, body)

    async with StandIn() as standin:
        standin.add_validator(counting)
        bot = EchoBot()
        async with standin.connect(bot) as driver:
            await bot.tree.sync()
            driver.refresh_schema()
            yield driver, counts
        assert not standin.violations, standin.violations


async def test_command_sync_payload(checked):
    driver, counts = checked
    synced = driver.standin.synced[None]
    assert counts["commands"] == 1
    assert check_command_payload(synced) == []


async def test_every_kind_of_reply(checked):
    driver, counts = checked
    await driver.slash("echo say", {"text": "hi", "hidden": True})           # callback 4, ephemeral
    later = await driver.slash("echo later", {"text": "x"})                   # callback 5 + followups
    await later.until(lambda r: len(r.followups) == 2)
    await driver.slash("echo edit", {"text": "e"})                             # callback 5 + edit @original
    await driver.slash("echo files", {"text": "{}"})                           # multipart callback
    post = await driver.slash("echo post", {"text": "r"}, channel="session")  # channel message
    await post.until(lambda r: channel_posts(r))
    card = await driver.slash("echo buttons")                                  # components and embeds
    await driver.press("echo:count:0", message=card.original)                  # callback 7
    await driver.press("echo:form")                                            # callback 9 (modal)
    await driver.submit("echo:modal", {"name": "a"})
    await driver.autocomplete("echo pick", {"face": "w"}, focused="face")      # callback 8
    assert counts["callback"] == 10
    assert counts["webhook"] >= 3
    assert counts["channel_message"] == 1
