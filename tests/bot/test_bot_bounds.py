"""Issue 37 point 6: the bounds are the bot's own, not only Discord's client's. A client that skips them (a
forged or outdated one; the stand-in's raw delivery stands for it) sends a 5,000-digit die face or a crystal
change of 10**30: each is refused in words, privately, in the player's language, and changes nothing (it used to
be the internal-error reply and a traceback)."""

from __future__ import annotations

import pytest
from play import export

from bot.standin.server import APPLICATION_COMMAND


def _raw(group: str, sub: str, name: str, kind: int, value: object) -> dict:
    return {"id": "1", "name": group, "type": 1,
            "options": [{"name": sub, "type": 1, "options": [{"name": name, "type": kind, "value": value}]}]}


async def _actions(driver) -> int:
    return len((await export(driver))["actions"])


@pytest.mark.parametrize("locale", ["en-US", "ja"])
@pytest.mark.parametrize(("sub", "name", "kind", "value"), [
    ("die", "face", 3, "9" * 5000),
    ("crystals", "change", 4, 10**30),
    ("crystals", "change", 4, -(10**30)),
    ("crystals", "change", 4, 501),
])
async def test_values_past_the_bots_bounds_are_refused_in_words(driver, locale, sub, name, kind, value) -> None:
    await driver.slash("seasons start", {"difficulty": "wizard", "dice": "table"}, locale=locale)
    before = await _actions(driver)
    table = driver.standin.world.channel("table")
    reply = await driver._run(APPLICATION_COMMAND, _raw("seasons", sub, name, kind, value), "player", table,
                              locale, None, None, None)
    assert reply.ephemeral, reply.text
    text = reply.text
    assert "went wrong" not in text and "問題が発生" not in text, text
    assert len(text) < 600, text  # the value is not echoed back whole
    assert f"/seasons {sub} {name}:" in text, text
    assert ("1〜200" if name == "face" else "−500から500") in text if locale == "ja" else \
        ("1 to 200" if name == "face" else "−500 to 500") in text, text
    assert ("何も変更していません" if locale == "ja" else "Nothing was changed") in text, text
    assert await _actions(driver) == before
