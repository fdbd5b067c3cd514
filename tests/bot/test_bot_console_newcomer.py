"""The console as a newcomer meets it (issue 25, point 7): any channel, its pictures on disk, commands typed as
an input method types them, the game in progress in the banner, no log lines between replies, a kept form.

Each test runs ``python -m bot console`` as a player does, the real bot on the stand-in, lines on stdin.
"""

from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path

import pytest

from bot.console import LineError, parse_command

ROOT = Path(__file__).resolve().parents[2]
START = "/seasons start difficulty:wizard dice:table\n"


def console(script: str, *args: str) -> subprocess.CompletedProcess:
    env = dict(os.environ, SOLO_BOT_SEED="1")
    done = subprocess.run([sys.executable, "-m", "bot", "console", *args], input=script, capture_output=True,
                          text=True, cwd=ROOT, timeout=120, env=env)
    assert done.returncode == 0, done.stderr
    assert "Traceback" not in done.stderr and "Traceback" not in done.stdout
    return done


def test_any_channel_name_is_a_channel_and_parent_slash_name_a_thread(tmp_path):
    db = str(tmp_path / "games.sqlite3")
    first = console(START + "/game status\n", "--db", db, "--lang", "en", "--channel", "kitchen")
    assert first.stdout.count("## Seasons — Dummbot") == 2
    # A thread under a new channel holds its own game: the channel's is not in the way.
    thread = console(START, "--db", db, "--lang", "en", "--channel", "kitchen/evening")
    assert "already being played here" not in thread.stdout and "## Seasons — Dummbot" in thread.stdout
    nested = subprocess.run([sys.executable, "-m", "bot", "console", "--db", db, "--channel", "session/x"],
                            input="", capture_output=True, text=True, cwd=ROOT, timeout=120)
    assert nested.returncode == 2 and "a thread cannot hold a thread" in nested.stdout


@pytest.mark.parametrize(("lang", "line"), [
    ("en", "In progress in #kitchen: Seasons — Dummbot #1, year 1, month 1."),
    ("ja", "#kitchenで進行中: 十二季節の魔法使い（ダムボット） #1、1年目1月。"),
])
def test_the_banner_names_the_game_in_progress_in_the_channel(tmp_path, lang, line):
    db = str(tmp_path / "games.sqlite3")
    assert "In progress" not in console(START, "--db", db, "--lang", lang, "--channel", "kitchen").stderr
    assert line in console("", "--db", db, "--lang", lang, "--channel", "kitchen").stderr.splitlines()
    assert "進行中" not in console("", "--db", db, "--lang", lang, "--channel", "lobby").stderr.splitlines()[-1]


def test_attachments_are_written_to_the_files_folder_and_their_path_printed(tmp_path):
    files = tmp_path / "out"
    done = console(START + "/game export\n", "--lang", "en", "--files", str(files))
    assert f"📎 {files / 'board.png'} (" in done.stdout
    assert f"📎 {files / 'seasons-game-1.json'} (" in done.stdout
    assert (files / "board.png").read_bytes().startswith(b"\x89PNG")
    assert json.loads((files / "seasons-game-1.json").read_text())["game"] == "seasons"
    assert str(files) in done.stderr  # the banner says where they go


def test_attachments_go_beside_the_database_by_default_and_json_is_unchanged(tmp_path):
    db = tmp_path / "games.sqlite3"
    done = console(START, "--db", str(db), "--lang", "ja")
    assert f"📎 {tmp_path / 'games-files' / 'board.png'} (" in done.stdout
    as_json = console("/game export\n", "--db", str(db), "--json")
    (item,) = [json.loads(x) for x in as_json.stdout.splitlines()]
    assert [f["filename"] for f in item["files"]] == ["seasons-game-1.json"]
    assert json.loads(item["files"][0]["text"])["game"] == "seasons"


@pytest.mark.parametrize("lang", ["en", "ja"])
def test_a_full_width_slash_a_capital_or_one_typo_still_reaches_the_command(tmp_path, lang):
    db = str(tmp_path / "games.sqlite3")
    done = console("／seasons start difficulty:wizard dice:table\n/Game Status\n/game sttaus\n/game statsu\n",
                   "--db", db, "--lang", lang)
    errors = [line for line in done.stdout.splitlines() if line.startswith("! ")]
    assert len(errors) == 1 and errors[0].endswith("/game stats, /game status")  # two fit: suggested, not guessed
    title = "## Seasons — Dummbot" if lang == "en" else "## 十二季節の魔法使い（ダムボット）"
    assert done.stdout.count(title) >= 3


NAMES = ["seasons start", "seasons die", "seasons dig", "game undo", "game status"]


@pytest.mark.parametrize(("line", "command"), [
    ("／seasons die face:x", "seasons die"), ("/SEASONS Start", "seasons start"), ("/ｇａｍｅ ｕｎｄｏ", "game undo"),
    ("/gmae status", "game status"), ("/game stauts", "game status"), ("/seasons strat", "seasons start"),
])
def test_parse_command_forgives_width_case_and_one_typo(line, command):
    assert parse_command(line, NAMES, lambda name: ["face"])[0] == command


def test_a_typo_near_two_commands_is_suggested_not_guessed():
    with pytest.raises(LineError) as refused:
        parse_command("/seasons dix", NAMES, lambda name: [])
    assert refused.value.key == "console.error.near_command"
    assert refused.value.params["choices"] == "/seasons die, /seasons dig"


@pytest.mark.parametrize("verbose", [False, True])
def test_an_expected_refusal_logs_no_line_between_replies(tmp_path, verbose):
    done = console(START + START + "/game undo\n/game undo\n", "--lang", "en", *(["--verbose"] if verbose else []))
    assert "A game is already being played here." in done.stdout and "nothing to take back" in done.stdout
    logged = [line for line in done.stderr.splitlines() if line.split(" ", 1)[0] in ("WARNING", "INFO", "ERROR")]
    assert logged == []
    assert len(done.stderr.splitlines()) == 2  # the banner and where attachments go


@pytest.mark.parametrize(("lang", "kept"), [("en", ", kept)"), ("ja", "、入力済み）")])
def test_a_refused_form_reopened_shows_what_was_kept(tmp_path, lang, kept):
    done = console(START + "/seasons die face:draw, 3 dots\npress 1\nform cards=\"12, zzzz\"\npress 1\n",
                   "--lang", lang)
    reopened = done.stdout.strip().splitlines()[-1]
    # The typed field comes last, after the selects of the cards (issue 35), with what was kept in it.
    assert ' cards="12, zzzz" ' in reopened and "form cards_1=… " in reopened
    assert reopened.endswith(kept)
