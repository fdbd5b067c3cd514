"""Tug (tests/thirdgame), registered by this test, played end to end through the stand-in like any game:
start, buttons, undo, status, history, export, the result post and the leaderboard (issue 9's proof)."""

from __future__ import annotations

import pytest
from play import button, export

from bot.sessions import summary_json
from conftest import running_bot
from engine.core import Result
from tests.thirdgame import KIND, registered
from tests.thirdgame.engine import autoplay


@pytest.fixture
async def tug(standin, db_path):  # noqa: ANN001, ANN201 - registered before the bot starts, gone after
    with registered():
        async with running_bot(standin, db_path, seed=5) as driver:
            yield driver


async def test_a_third_game_plays_end_to_end_through_the_registry(tug) -> None:  # noqa: ANN001
    driver = tug
    expected = autoplay(None, 5)  # the same seed: the same automaton pulls
    started = await driver.slash("tug start", {})
    assert not started.ephemeral and "Turn 1: push or pass." in started.text, started.text
    # A button, then its undo, then the game played to the end with commands and buttons.
    pushed = await driver.press(button(started, "push"), message=started.original)
    assert "The automaton pulls" in pushed.text
    undone = await driver.press(button(pushed, "undo"), message=pushed.original)
    assert "Turn 1: push or pass." in undone.text
    assert (await export(driver))["actions"] == []
    reply = undone
    for i, action in enumerate(expected.actions):
        if i % 2:
            reply = await driver.press(button(reply, action.type), message=reply.original)
        else:
            reply = await driver.slash(f"tug {action.type}", {})
    await reply.until(lambda r: any((e.get("title") or "").startswith(("🏆", "The automaton won"))
                                    for m in r.messages for e in m.payload.get("embeds") or []))
    result = expected.state.result()
    record = await export(driver)
    assert record["game"] == KIND and record["state"] == summary_json(expected.state.summary())
    assert Result.from_json(record["result"]) == result
    status = await driver.slash("game status", {})
    assert f"you {result.player_score} · automaton {result.opponent_score}" in status.text, status.text
    history = await driver.slash("game history", {})
    assert history.text.count("push") + history.text.count("pass") >= len(expected.actions)
    board = await driver.slash("game leaderboard", {"game": KIND})
    if result.outcome in ("won", "lost"):
        assert f"{result.margin:+d} ({result.player_score} vs {result.opponent_score})" in board.text, board.text
    help_ = await driver.slash("game help", {"game": KIND}, locale="ja")
    assert "/tug push" in help_.text
