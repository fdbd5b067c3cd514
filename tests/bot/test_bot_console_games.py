"""Whole games typed into the local console, as a player would (`python -m bot console --json` over a pipe).

The lines are what a user types — unquoted values with commas and spaces, Japanese face words, `press N` —
and the final `/game export` must hold exactly the state the engine reaches on its own. These games are in
Japanese, the ones through the stand-in (tests/bot/test_bot_games.py) in English: each game and dice mode is
played whole through the bot in both languages.
"""

from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path

import pytest

from bot.sessions import summary_json
from bot.standin.driver import message_text
from engine.core import Action
from engine.seasons.autoplay import play_game as seasons_game
from engine.seasons.rules import SeasonsRules
from engine.volfyirion.autoplay import play_game as volfyirion_game
from engine.volfyirion.rules import VolfyirionRules
from tests.support.seasons_typed import seasons_console_line

ROOT = Path(__file__).resolve().parents[2]


def console(lines: list[str], *args: str, seed: int) -> list[dict]:
    env = dict(os.environ, SOLO_BOT_SEED=str(seed))
    env.pop("DISCORD_TOKEN", None)
    done = subprocess.run([sys.executable, "-m", "bot", "console", "--json", *args], input="\n".join(lines) + "\n",
                          capture_output=True, text=True, cwd=ROOT, env=env, timeout=240)
    assert done.returncode == 0, done.stderr[-2000:]
    return [json.loads(line) for line in done.stdout.splitlines() if line.strip()]


def seasons_line(action: Action, lang: str) -> str:
    return seasons_console_line(action, lang)


def exported(items: list[dict]) -> dict:
    files = [f for item in items for f in item.get("files", []) if f["filename"].endswith(".json")]
    assert files, items[-1]
    return json.loads(files[-1]["text"])


@pytest.mark.parametrize(("difficulty", "dice", "lang"), [("apprentice", "table", "ja"), ("archmage", "bot", "ja")])
def test_a_whole_seasons_game_typed_into_the_console(tmp_path, difficulty, dice, lang):
    actions, steps = seasons_game(difficulty, dice, 21, extras=False)
    lines = [f"/seasons start difficulty:{difficulty} dice:{dice}"]
    lines += [seasons_line(a, lang) for a in actions]
    lines.append("/game export")
    items = console(lines, "--lang", lang, "--db", str(tmp_path / "games.sqlite3"), seed=21)
    assert not any("error" in item for item in items), [i for i in items if "error" in i][:3]
    record = exported(items)
    assert record["state"] == summary_json(steps[-1].state.summary())
    assert record["result"] == steps[-1].state.result().to_json(SeasonsRules.result_names)
    # The public result card was printed too, in the console's language.
    titles = {("en", "won"): "🏆 Victory over Dummbot!", ("en", "lost"): "Dummbot wins this time",
              ("ja", "won"): "🏆 ダムボットに勝利！", ("ja", "lost"): "今回はダムボットの勝ち"}
    title = titles[lang, record["result"]["outcome"]]
    assert any(text.startswith(f"## {title}") for item in items for text in message_text(item))


def test_a_volfyirion_game_goes_on_in_the_next_console_run(tmp_path):
    game = volfyirion_game(4, max_actions=400)
    assert game.state.finished
    db = str(tmp_path / "games.sqlite3")

    half = len(game.actions) // 2
    japanese = ("--db", db, "--lang", "ja")  # the whole Volfyirion game through the bot in English is test_bot_games'
    first = console(["/volfyrion start difficulty:normal"] + [line(a) for a in game.actions[:half]], *japanese, seed=4)
    assert not any("error" in item for item in first)
    assert "ヴォルフィーリオン" in json.dumps(first, ensure_ascii=False)  # the replies are in Japanese
    second = console([line(a) for a in game.actions[half:]] + ["/game export"], *japanese, seed=4)
    assert not any("error" in item for item in second)
    record = exported(second)
    assert record["state"] == summary_json(game.state.summary()) and record["result"] == game.state.result().to_json(VolfyirionRules.result_names)


def line(action: Action) -> str:
    """A Volfyirion action as the player types it."""
    parts = [f"/volfyrion {action.type}"]
    for name, value in action.args.items():
        if value is None:
            continue
        text = ", ".join(value) if isinstance(value, list) else str(value)
        parts.append(f'{name}:"{text}"' if " " in text and name != "cards" else f"{name}:{text}")
    return " ".join(parts)
