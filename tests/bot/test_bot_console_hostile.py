"""The console against a careless or hostile user (issue 37 point 6) and a newcomer (issue 33 point 6).

Each test runs ``python -m bot console`` as a player does: the real bot on the stand-in, lines on stdin.
- an option given twice is refused, not the last one taken;
- a reader that goes away (`… | head -c 20`) ends the console quietly;
- what an error echoes of a bad line is cut to a few hundred characters;
- `/game card ナリア`: a bare value fills the command's one required option (as Discord's client does);
- `select N …` (or values) on a button is refused, in words;
- Discord's markdown is not shown raw in the terminal (--json keeps it);
- a new console process on a game in progress reprints the last reply's buttons, and `press N` works.
"""

from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path

import pytest

from bot.console import ECHO_MAX

ROOT = Path(__file__).resolve().parents[2]
START = "/seasons start difficulty:wizard dice:table\n"


def console(script: str, *args: str, code: int = 0) -> subprocess.CompletedProcess:
    env = dict(os.environ, SOLO_BOT_SEED="1")
    done = subprocess.run([sys.executable, "-m", "bot", "console", *args], input=script, capture_output=True,
                          text=True, cwd=ROOT, timeout=180, env=env)
    assert done.returncode == code, done.stderr
    assert "Traceback" not in done.stderr and "Traceback" not in done.stdout
    return done


def errors(done: subprocess.CompletedProcess) -> list[str]:
    return [line for line in done.stdout.splitlines() if line.startswith("! ")]


@pytest.mark.parametrize(("lang", "said"), [("en", "`difficulty` is given twice"), ("ja", "`difficulty` が2回指定されています")])
def test_an_option_given_twice_is_refused_not_the_last_taken(lang, said):
    done = console("/seasons start difficulty:wizard difficulty:archmage\n/game status\n", "--lang", lang)
    assert [e for e in errors(done) if said in e], done.stdout
    assert "archmage" not in done.stdout and "大魔法使い" not in done.stdout  # no game was started
    assert "There is no game here" in done.stdout or "ここにはゲームがありません" in done.stdout


def test_a_reader_that_goes_away_ends_the_console_quietly(tmp_path):
    """More than a pipe's buffer (64 KiB) of replies, read 20 bytes of: the console's next write meets a closed
    pipe whatever the machine's speed."""
    script = START + "/game help game:seasons\n" * 40
    proc = subprocess.Popen([sys.executable, "-m", "bot", "console", "--lang", "en"], cwd=ROOT,
                            env=dict(os.environ, SOLO_BOT_SEED="1"), stdin=subprocess.PIPE,
                            stdout=subprocess.PIPE, stderr=subprocess.PIPE)
    proc.stdin.write(script.encode())
    proc.stdin.close()
    first = proc.stdout.read(20)
    proc.stdout.close()  # `head -c 20` has what it wanted and exits
    err = proc.stderr.read().decode()
    assert proc.wait(timeout=180) == 141, err  # as a shell reports a writer ended by a closed pipe
    assert first.startswith(b"## Seasons")
    assert "Traceback" not in err and "BrokenPipe" not in err and "Exception ignored" not in err, err


@pytest.mark.parametrize("line", [
    "/seasons start difficulty:" + "x" * 5000,
    "/seasons start " + "y" * 5000,
    "/" + "z" * 5000,
    "press " + "9" * 5000,
    "/game status " + "q:" * 3000,
])
def test_an_echoed_bad_line_is_cut(line):
    done = console(START + line + "\n")
    said = errors(done)
    assert said, done.stdout
    assert all(len(e) < ECHO_MAX + 300 for e in said), [len(e) for e in said]


@pytest.mark.parametrize("lang", ["en", "ja"])
def test_a_bare_value_fills_the_one_required_option(lang):
    bare = console("/game card ナリア\n", "--lang", lang).stdout
    named = console("/game card name:ナリア\n", "--lang", lang).stdout
    assert bare == named and ("Naria the Prophetess" in bare)
    # With another option after it, the bare value still runs up to it.
    also = console("/game card ナリア game:seasons\n", "--lang", lang).stdout
    assert also == named
    # No option required: the first (the difficulty, which may be left out since issue 36).
    assert not errors(console("/seasons start wizard\n", "--lang", lang))


async def test_on_discord_the_one_required_option_comes_first(driver):
    """Discord's client opens a command's first option for what is typed after the command's name: for
    `/game card ナリア` to work there too, each command with one required option lists it first."""
    checked = 0
    for name in driver.command_names():
        options = driver.find_command(name)[2]
        required = [o["name"] for o in options if o.get("required")]
        if len(required) == 1:
            assert options[0]["name"] == required[0], name
            checked += 1
    assert checked >= 5


@pytest.mark.parametrize(("lang", "select", "values"), [
    ("en", "is a button, not a menu: `press 2` presses it", "is a button: it takes no values"),
    ("ja", "ボタンで、メニューではありません。押すには `press 2`", "ボタンには値を指定できません"),
])
def test_select_or_values_on_a_button_is_refused(lang, select, values):
    done = console(START + "select 2 x\npress 2 y\n/game history\n", "--lang", lang)  # [1] is the die menu
    said = errors(done)
    assert len(said) == 2 and select in said[0] and values in said[1], said
    assert "[2]" in said[0]  # the button is named by its number and label
    assert done.stdout.count("Form “") + done.stdout.count("フォーム「") == 0  # neither press opened anything


def test_discord_markdown_is_plain_in_the_terminal_and_kept_in_json():
    done = console("/game card Naria\n/seasons start difficulty:wizard dice:table\npress 3\n", "--lang", "en")
    assert "You summon it: " in done.stdout and "Dummbot's projected final score: " in done.stdout
    assert "**" not in done.stdout and "`" not in done.stdout.split("## Seasons — Dummbot", 1)[1], done.stdout
    raw = console("/game card Naria\n", "--lang", "en", "--json").stdout
    assert "**You summon it:**" in json.dumps(json.loads(raw.splitlines()[0]), ensure_ascii=False)


@pytest.mark.parametrize(("lang", "line"), [("en", "The last reply's buttons: [1] ▾ The face of the die left for Dummbot ("),
                                            ("ja", "直前の応答のボタン: [1] ▾ ダムボットに残ったダイスの面を選ぶ (")])
def test_a_new_console_on_a_game_in_progress_reprints_its_buttons_and_press_works(tmp_path, lang, line):
    db = str(tmp_path / "games.sqlite3")
    console(START, "--db", db, "--lang", lang)
    resumed = console("press 3\n", "--db", db, "--lang", lang)
    said = [x for x in resumed.stderr.splitlines() if x.startswith(line)]
    assert said and ("[3] Forecast" in said[0] or "[3] 予想" in said[0]), resumed.stderr
    assert not errors(resumed), resumed.stdout
    assert "🔮" in resumed.stdout  # the forecast the button shows
    # A channel without a game says nothing of buttons, and has none to press.
    empty = console("press 1\n", "--db", db, "--lang", lang, "--channel", "lobby")
    assert "[1]" not in empty.stderr and errors(empty)
