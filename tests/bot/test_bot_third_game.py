"""Tug (tests/thirdgame), registered by these tests only, played end to end like any game: through the stand-in
(start, buttons, undo, status, history, export, the result post, the leaderboard) and typed into the console in
both languages (the same, plus /game help and refused input) — nothing in bot/ names it."""

from __future__ import annotations

import json

import pytest
from console_session import Session, console_session, press_line, refusals, text_of
from play import button, export

from bot.sessions import summary_json
from conftest import running_bot
from engine.core import GameRecord, Result
from tests.thirdgame import KIND, registered
from tests.thirdgame.engine import TugSummary, autoplay


@pytest.fixture
async def tug(standin, db_path):
    with registered():
        async with running_bot(standin, db_path, seed=5) as driver:
            yield driver


# What Tug says, in each language (its locale files' words), and the Discord locale of each.
SAYS = {
    "ja": {"name": "綱引き", "turn": "ターン{turn}：押すかパスしてください。", "undone": "取り消しました: 押す",
           "push": "押す", "pass": "パス", "score": "あなた{player}・オートマ{automaton}（ターン{turn}）",
           "won": "🏆 綱引きに勝ちました！", "lost": "今回はオートマの勝ちです", "help": "`/tug start` のあと、5ターンの間",
           "row": "{margin:+d}（{player}対{automaton}）", "second": "ここには進行中のゲームがあります"},
    "en": {"name": "Tug", "turn": "Turn {turn}: push or pass.", "undone": "Taken back: push",
           "push": "Push", "pass": "Pass", "score": "you {player} · automaton {automaton} (turn {turn})",
           "won": "🏆 You won the tug!", "lost": "The automaton won the tug",
           "help": "`/tug start`, then `/tug push` or `/tug pass`",
           "row": "{margin:+d} ({player} vs {automaton})", "second": "A game is already being played here"},
}
LOCALES = {"ja": "ja", "en": "en-US"}


@pytest.mark.parametrize("lang", ["ja", "en"])
async def test_a_third_game_plays_end_to_end_through_the_registry(tug, lang: str) -> None:
    driver, says, locale = tug, SAYS[lang], LOCALES[lang]
    expected = autoplay(None, 5)  # the same seed: the same automaton pulls
    started = await driver.slash("tug start", {}, locale=locale)
    assert not started.ephemeral and says["turn"].format(turn=1) in started.text, started.text
    # A button, then its undo, then the game played to the end with commands and buttons.
    pushed = await driver.press(button(started, "push"), message=started.original, locale=locale)
    assert says["turn"].format(turn=2) in pushed.text
    undone = await driver.press(button(pushed, "undo"), locale=locale)  # on the newest reply: the pressed one has none
    assert says["undone"] in undone.text and says["turn"].format(turn=1) in undone.text
    assert (await export(driver))["actions"] == []
    reply = undone
    for i, action in enumerate(expected.actions):
        if i % 2:
            reply = await driver.press(button(reply, action.type), locale=locale)
        else:
            reply = await driver.slash(f"tug {action.type}", {}, locale=locale)
    result = expected.state.result()
    await reply.until(lambda r: any(m.v2 and m.text.startswith(f"## {says[result.outcome]}") for m in r.messages))
    record = await export(driver)
    assert record["game"] == KIND and record["state"] == summary_json(expected.state.summary())
    assert Result.from_json(record["result"]) == result
    status = await driver.slash("game status", {}, locale=locale)
    assert _score(says, expected.state.summary()) in status.text, status.text
    history = await driver.slash("game history", {}, locale=locale)
    words = (says["push"].lower(), says["pass"].lower())
    assert sum(history.text.lower().count(w) for w in words) >= len(expected.actions), history.text
    board = await driver.slash("game leaderboard", {"game": KIND}, locale=locale)
    assert says["row"].format(margin=result.margin, player=result.player_score,
                              automaton=result.opponent_score) in board.text, board.text
    help_ = await driver.slash("game help", {"game": KIND}, locale=locale)
    assert says["help"] in help_.text and "/tug push" in help_.text


async def _exported(session: Session) -> dict:
    items = await session.type("/game export")
    files = [f for item in items for f in item.get("files", []) if f["filename"].endswith(".json")]
    assert files, items
    return json.loads(files[-1]["text"])


def _score(says: dict[str, str], s: TugSummary) -> str:
    return says["score"].format(player=s.player, automaton=s.automaton, turn=s.turn)


@pytest.mark.parametrize("lang", ["ja", "en"])
async def test_a_whole_tug_game_typed_into_the_console(tmp_path, lang: str) -> None:
    says, expected = SAYS[lang], autoplay(None, 5)
    with registered():
        async with console_session(tmp_path / "bot.sqlite3", lang=lang, seed=5) as session:
            started = await session.type("/tug start")
            assert says["turn"].format(turn=1) in text_of(started)
            # A push, taken back; a second game and an unknown move refused, changing nothing.
            pushed = await session.type(press_line(started, says["push"]))
            assert says["turn"].format(turn=2) in text_of(pushed)
            undone = await session.type("/game undo")
            assert says["undone"] in text_of(undone) and says["turn"].format(turn=1) in text_of(undone)
            second = refusals(await session.type("/tug start"))
            assert len(second) == 1 and says["second"] in second[0], second
            jump = refusals(await session.type("/tug jump"))
            assert len(jump) == 1 and "push" in jump[0] and "/tug jump" in jump[0], jump  # the choices it has
            assert (await _exported(session))["actions"] == []
            # The whole game: typed commands and pressed buttons in turn, the state asked for halfway.
            reply = undone
            for i, action in enumerate(expected.actions):
                line = press_line(reply, says[action.type]) if i % 2 else f"/tug {action.type}"
                reply = await session.type(line)
                assert not refusals(reply), (line, reply)
                if i == 1:
                    halfway = GameRecord.replay(expected.rules, expected.options, expected.seed, expected.actions[:2])
                    assert _score(says, halfway.state.summary()) in text_of(await session.type("/game status"))
            result = expected.state.result()
            assert says[result.outcome] in text_of(reply)  # the public result card
            assert _score(says, expected.state.summary()) in text_of(reply)
            record = await _exported(session)
            assert record["state"] == summary_json(expected.state.summary())
            assert Result.from_json(record["result"]) == result
            board = text_of(await session.type(f"/game leaderboard game:{KIND}"))
            assert says["row"].format(margin=result.margin, player=result.player_score,
                                      automaton=result.opponent_score) in board
            assert f"{says['name']}: {says['help']}" in text_of(await session.type("/game help"))  # Tug listed
            # A move after the end is refused and changes nothing.
            assert refusals(await session.type("/tug push"))
            assert (await _exported(session))["actions"] == [a.to_json() for a in expected.actions]
