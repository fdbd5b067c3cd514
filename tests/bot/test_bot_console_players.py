"""The console as a player meets it (issue 10, point 13): `make run` keeps games and installs only what running
needs, the language follows LANG or --lang, a banner on stderr says where games are kept and how to leave,
`quit`/`exit` leave, a missing option lists its choices, and README's first transcript is real output."""

from __future__ import annotations

import os
import re
import subprocess
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]


def run_console(lines: list[str], *args: str, env: dict[str, str] | None = None, seed: int = 1):
    environ = {k: v for k, v in os.environ.items() if k not in ("DISCORD_TOKEN", "LC_ALL", "LC_MESSAGES", "LANG")}
    environ |= {"SOLO_BOT_SEED": str(seed)} | (env or {})
    return subprocess.run([sys.executable, "-m", "bot", "console", *args], input="\n".join(lines) + "\n",
                          capture_output=True, text=True, cwd=ROOT, env=environ, timeout=240)


def first_transcript() -> tuple[list[str], list[str], str]:
    """README's first session: the lines typed, the lines shown, and the console options of its `$` line."""
    block = re.search(r"```text\n(.*?)```", (ROOT / "README.md").read_text(encoding="utf-8"), re.S)[1]
    typed, shown, options = [], [], ""
    for line in block.splitlines():
        if line.startswith("$"):
            found = re.search(r'ARGS="([^"]*)"', line)
            options = found[1] if found else ""
        elif re.match(r"^(/|press \d|select \d|form |quit$|exit$)", line):
            typed.append(line)
        elif line.strip() and line.strip() != "…":
            shown.append(line)
    return typed, shown, options


def test_the_readmes_first_transcript_is_real_output(tmp_path):
    typed, shown, options = first_transcript()
    assert typed and len(shown) > 10
    done = run_console(typed, *options.split(), "--db", str(tmp_path / "readme.sqlite3"))
    assert done.returncode == 0, done.stderr[-2000:]
    actual = done.stdout.splitlines()
    position = 0
    for line in shown:  # every line shown, in this order, in what the console printed
        assert line in actual[position:], (line, actual[position:position + 25])
        position = actual.index(line, position) + 1


def test_language_from_lang_banner_on_stderr_quit_and_missing_choices(tmp_path):
    db = tmp_path / "games.sqlite3"
    done = run_console(["/volfyrion win", "/seasons start", "/seasons start difficulty:wizard dice:table", "quit",
                        "/game status"], "--db", str(db), env={"LANG": "ja_JP.UTF-8"})
    assert done.returncode == 0, done.stderr[-2000:]
    out, err = done.stdout, done.stderr
    assert "how:(討伐（16バトルポイント）|服従（16知識ポイント）)" in out  # a missing option, with its choices' Japanese names
    # A start without its difficulty asks with a button per difficulty (issue 36): nothing starts until one is tapped.
    assert "[1] 見習い  [2] 魔法使い  [3] 大魔導師" in out
    assert "ダムボットの試練を始めます" in out  # Japanese from LANG
    assert out.count("## 十二季節の魔法使い") == 1  # `quit` left before /game status
    assert str(db) in err and "quit" in err and "ゲームの保存先" in err  # the banner, on stderr only
    assert "ゲームの保存先" not in out
    # The game is kept: the next run (English by --lang, whatever LANG says) goes on with it.
    again = run_console(["/game status", "exit"], "--db", str(db), "--lang", "en", env={"LANG": "ja_JP.UTF-8"})
    assert "Game #1 · action 0" in again.stdout and "What to do now" in again.stdout
    english = run_console(["/game help"], env={"LANG": "C.UTF-8"})
    assert "Playing solo with the bot" in english.stdout and "temporary file" in english.stderr


def test_make_run_keeps_games_and_installs_only_what_running_needs(tmp_path):
    venv = tmp_path / "venv"
    env = {k: v for k, v in os.environ.items() if k != "DISCORD_TOKEN"}

    def dry(*targets: str) -> str:
        return subprocess.run(["make", "-n", *targets, f"VENV={venv}"], capture_output=True, text=True, cwd=ROOT,
                              env=env, timeout=60).stdout

    run = dry("run", 'ARGS=--lang en')
    assert "install --quiet -e .\n" in run and "[test]" not in run
    assert "console --db data/console.sqlite3 --lang en" in run
    test = dry("test")
    assert "-e '.[test]'" in test


def test_choices_typed_as_the_client_shows_them_and_mentions_shown_as_names(tmp_path):
    """A Japanese player types the choices as Discord's client lists them in Japanese (「ノーマル」, the
    beginning of 「ボットのダイス（ボットが振る）」), or the game as the command spells it (`volfyrion`); a word
    that names no choice is refused with the choices (several: tests/standin/test_standin_choices.py). The
    result card's player shows as `@player`, as Discord shows a mention."""
    lines = ["/volfyrion start difficulty:ノーマル", "/volfyrion end", "/volfyrion end", "/volfyrion end",
             "/volfyrion win how:討伐", "/game leaderboard game:volfyrion", "/game leaderboard difficulty:medium",
             "/seasons start difficulty:魔法使い dice:ボットのダイス", "/game status"]
    done = run_console(lines, "--lang", "ja", "--db", str(tmp_path / "g.sqlite3"))
    out = done.stdout
    assert "難易度: ノーマル" in out
    assert "プレイヤー: @player" in out and "<@" not in out
    assert "## 🏅 ランキング — ヴォルフィーリオン（ドラゴン）" in out
    assert "! `difficulty` に「medium」は指定できません。選択肢: 見習い／魔法使い／大魔導師／イージー／ノーマル／ハード" in out
    assert "難易度: 魔法使い・ボットのダイス" in out


def test_a_value_out_of_bounds_says_the_bounds_in_the_players_language(tmp_path):
    """As Discord's client shows an option's range: `steps` is −3 … 3, a face up to 200 characters; nothing is
    sent to the bot (the game stays at action 0)."""
    lines = ["/seasons start difficulty:wizard dice:table", "/seasons time steps:5", "/seasons time steps:many",
             "/seasons die face:" + "x" * 201, "/game status"]
    ja = run_console(lines, "--lang", "ja", "--db", str(tmp_path / "ja.sqlite3")).stdout
    assert "! `steps` には−3から3までの整数を指定してください（「5」は指定できません）" in ja
    assert "! `steps` には−3から3までの整数を指定してください（「many」は指定できません）" in ja
    assert "! `face` は1〜200文字で指定してください（201文字でした）" in ja
    assert "アクション0" in ja.rsplit("##", 1)[1]
    en = run_console(lines[:2], "--lang", "en", "--db", str(tmp_path / "en.sqlite3")).stdout
    assert "! `steps` takes a whole number from -3 to 3, not `5`" in en
