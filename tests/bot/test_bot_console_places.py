"""The console "in a DM" (issue 36, point 4): `python -m bot console --dm` plays in the player's DM with the bot,
`--group-dm NAME` in a group DM reached through the player's own install — whole games typed as a player would."""

from __future__ import annotations

import json
import subprocess
import sys

from test_bot_console_games import ROOT, console, exported, line

from bot.sessions import summary_json
from bot.standin.driver import text_displays
from engine.volfyirion.autoplay import play_game as volfyirion_game
from engine.volfyirion.rules import VolfyirionRules


def test_a_whole_volfyirion_game_in_a_dm_through_the_console_in_japanese(tmp_path):
    game = volfyirion_game(4, max_actions=400)
    assert game.state.finished
    lines = ["/volfyrion start difficulty:normal", *[line(a) for a in game.actions], "/game export",
             "/game leaderboard"]
    items = console(lines, "--dm", "--lang", "ja", "--db", str(tmp_path / "dm.sqlite3"), seed=4)
    assert not any("error" in item for item in items), [i for i in items if "error" in i][:3]
    record = exported(items)
    assert record["state"] == summary_json(game.state.summary())
    assert record["result"] == game.state.result().to_json(VolfyirionRules.result_names)
    text = json.dumps(items, ensure_ascii=False)
    assert "result-card.png" in text  # the result card, kept in the DM
    assert "ランキングはサーバーごとのもの" in text  # no shared leaderboard of every DM player


def test_a_group_dm_through_the_console_and_one_place_at_a_time(tmp_path):
    items = console(["/volfyrion start difficulty:normal", "/game status"], "--group-dm", "friends",
                    "--lang", "en", seed=4)
    assert not any("error" in item for item in items), items[:3]
    shown = ["\n".join(text_displays(item.get("components") or [])) for item in items]
    assert sum("Volfyirion" in text for text in shown) >= 2  # the start's reply and the status, in the group DM
    both = subprocess.run([sys.executable, "-m", "bot", "console", "--dm", "--channel", "lobby"], input="",
                          capture_output=True, text=True, cwd=ROOT, timeout=60)
    assert both.returncode == 2 and "not allowed with argument" in both.stderr
