"""The local console over a pipe (readable and --json), its line syntax, and bad lines."""

from __future__ import annotations

import asyncio
import base64
import io
import json
import subprocess
import sys
from pathlib import Path

import pytest

from bench.echo import EchoBot
from bot.console import LineError, main, parse_command, parse_pairs

ROOT = Path(__file__).resolve().parents[2]
CONSOLE = ("import sys; from bot.console import main; from bench.echo import EchoBot; "
           "sys.exit(main(sys.argv[1:], bot_factory=lambda config: EchoBot()))")


def run_piped(script: str, *args: str) -> subprocess.CompletedProcess:
    return subprocess.run([sys.executable, "-c", CONSOLE, *args], input=script, capture_output=True,
                          text=True, cwd=ROOT, timeout=60)


def run_here(script: str, *args: str, factory=None) -> str:
    out = io.StringIO()
    code = main(list(args), bot_factory=factory or (lambda config: EchoBot()), stdin=io.StringIO(script),
                stdout=out)
    assert code == 0
    return out.getvalue()


SESSION = """\
# a comment, then a blank line

/echo say text:hello world
/echo pick face:"1 fire, 1 dot" count:2
/echo pick face:2 water, 3 crystals size:Large
/echo buttons
press 1
press 2
form name=Ann note="a b"
/echo files text:{"a": 1}
/echo post text:done
"""


def test_console_over_a_pipe_readable(tmp_path):
    done = run_piped(SESSION, "--files", str(tmp_path))
    assert done.returncode == 0, done.stderr
    out = done.stdout
    assert "hello world (en-US)" in out
    assert "picked 1 fire, 1 dot x2 -" in out
    assert "picked 2 water, 3 crystals x1 l" in out
    assert "[1] Count 0  [2] Form  [3] Docs ↗" in out
    assert "## Buttons" in out and "• Count: 0" in out
    assert "count 1" in out and "[1] Count 1  [2] Form" in out
    assert "Form “Echo form”" in out and "name=…" in out
    assert "form Ann|a b" in out
    assert f"📎 {tmp_path / 'echo.json'} (8 bytes)" in out and f"📎 {tmp_path / 'blob.bin'} (16 bytes)" in out
    assert len((tmp_path / "blob.bin").read_bytes()) == 16  # written where the line says
    assert "(only you can see this)\nposting" in out
    assert "## Result\ndone" in out
    assert out.index("hello world") < out.index("picked 1 fire") < out.index("form Ann")


def test_console_over_a_pipe_json():
    done = run_piped(SESSION, "--json")
    assert done.returncode == 0, done.stderr
    objects = [json.loads(line) for line in done.stdout.splitlines()]
    assert objects[0] == {"content": "hello world (en-US)", "tts": False, "files": []}
    buttons = next(o for o in objects if o.get("embeds") and o["embeds"][0]["title"] == "Buttons")
    assert [c["label"] for c in buttons["components"][0]["components"]] == ["Count 0", "Form", "Docs"]
    assert any("modal" in o and o["modal"]["title"] == "Echo form" for o in objects)
    files = next(o for o in objects if o.get("content") == "files")["files"]
    assert files[0] == {"filename": "echo.json", "text": '{"a": 1}'}
    assert base64.b64decode(files[1]["base64"]) == bytes(range(16))
    posting = next(o for o in objects if o.get("content") == "posting")
    assert posting["flags"] == 64


async def test_each_line_is_answered_before_the_next_is_read():
    process = await asyncio.create_subprocess_exec(
        sys.executable, "-c", CONSOLE, "--json", cwd=ROOT, stdin=asyncio.subprocess.PIPE,
        stdout=asyncio.subprocess.PIPE, stderr=asyncio.subprocess.DEVNULL)
    try:
        for word in ("first", "second"):
            process.stdin.write(f"/echo say text:{word}\n".encode())
            await process.stdin.drain()
            line = await asyncio.wait_for(process.stdout.readline(), 30)
            assert json.loads(line)["content"] == f"{word} (en-US)"
        process.stdin.close()
        assert await asyncio.wait_for(process.wait(), 30) == 0
    finally:
        if process.returncode is None:
            process.kill()


BAD_LINES = """\
/nope
/echo
/echo say txt:1
/echo pick face:x size:huge
/echo pick count:2
/echo say text:"unclosed
press 1
form name=x
hello
/echo buttons
press 9
press 3
press x
/echo say text:still here
"""


def test_bad_lines_are_reported_and_the_console_goes_on():
    out = run_here(BAD_LINES)
    lines = out.splitlines()
    errors = [line for line in lines if line.startswith("! ")]
    assert errors == [
        "! Unknown command /nope. Commands: /echo",
        "! /echo needs one of: buttons, choose, edit, files, followup, form, later, noop, pick, post, say, slow, toolong",
        "! /echo say has no option `txt`. Options: text, hidden",
        "! `size` cannot be 'huge'. Choose one of: s, l",
        "! /echo pick needs: face:…",
        "! Cannot read '\"unclosed': write options as name:value",
        "! The last message has no buttons",
        "! No form is open: press the button that opens it first",
        "! Type a command (/…), `press N` or `form field=value`",
        "! There is no button 9 on the last message",
        "! Button 3 is a link: https://example.com/docs",
        "! There is no button x on the last message",
    ]
    assert lines[-2] == "still here (en-US)"


def test_bad_lines_in_japanese_and_as_json():
    out = run_here("/nope\npress 1\n/echo say text:やあ\n", "--lang", "ja", "--json")
    objects = [json.loads(line) for line in out.splitlines()]
    assert objects[0]["key"] == "console.error.unknown_command"
    assert objects[0]["error"] == "「/nope」というコマンドはありません。コマンド: /echo"
    assert objects[1]["error"] == "最後のメッセージにはボタンがありません"
    assert objects[2]["content"] == "やあ (ja)"


def test_db_user_and_lang_reach_the_bot(tmp_path):
    seen = {}

    def factory(config):
        seen["config"] = config
        return EchoBot()

    out = run_here("/echo say text:hi\n", "--db", str(tmp_path / "games.sqlite3"), "--user", "kenji",
                   "--lang", "ja", factory=factory)
    assert seen["config"].db_path == tmp_path / "games.sqlite3"
    assert seen["config"].token is None and seen["config"].api_base.startswith("http://127.0.0.1:")
    assert out.splitlines()[0] == "hi (ja)"


NAMES = ["seasons start", "seasons die", "game undo"]
OPTIONS = {"seasons start": ["difficulty", "dice"], "seasons die": ["face"], "game undo": []}


@pytest.mark.parametrize(("line", "expected"), [
    ("/seasons start difficulty:wizard dice:table", ("seasons start", {"difficulty": "wizard", "dice": "table"})),
    ('/seasons die face:"2 water, 3 crystals, 1 dot"', ("seasons die", {"face": "2 water, 3 crystals, 1 dot"})),
    ("/seasons die face:2 water, 3 crystals", ("seasons die", {"face": "2 water, 3 crystals"})),
    ("/seasons die face:水2、1点", ("seasons die", {"face": "水2、1点"})),
    ("/seasons die face：「水2 1点」", ("seasons die", {"face": "水2 1点"})),
    ("/seasons start dice:bot difficulty:archmage", ("seasons start", {"dice": "bot", "difficulty": "archmage"})),
    ("/game undo", ("game undo", {})),
])
def test_parse_command(line, expected):
    assert parse_command(line, NAMES, OPTIONS.__getitem__) == expected


def test_an_unquoted_value_runs_to_the_next_known_option_only():
    parsed = parse_pairs("face:time: 3 water dice:bot", __import__("re").compile(r"([\w-]+)[:：]"),
                         ["face", "dice"], "x")
    assert parsed == {"face": "time: 3 water", "dice": "bot"}


@pytest.mark.parametrize("line", ["/seasons", "/seasons start difficulty", "/seasons start colour:red",
                                  "/nothing at:all"])
def test_parse_command_refuses(line):
    with pytest.raises(LineError):
        parse_command(line, NAMES, OPTIONS.__getitem__)


def test_select_menus_are_numbered_and_pressed_with_values():
    out = run_here("/echo choose\npress 1 b, Letter C\npress 1\n")
    assert "[1] ▾ Pick letters (Letter A = a | Letter B = b | Letter C = c)" in out
    assert "chose b,c" in out


def test_a_late_channel_post_is_still_printed():

    async def late_post(self, interaction, text: str):
        await interaction.response.send_message("posting later", ephemeral=True)
        await asyncio.sleep(0.4)  # a post well after the answer: the console waits for the bot to finish
        await interaction.channel.send(f"late {text}")

    def factory(config):
        bot = EchoBot()
        bot.tree.get_command("echo").get_command("post")._callback = late_post
        return bot

    out = run_here("/echo post text:card\n/echo slow pause:0.6\n", factory=factory)
    assert out.index("posting later") < out.index("late card") < out.index("slow")
