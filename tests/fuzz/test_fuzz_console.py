"""Random and adversarial lines into the local console (`python -m bot console --json`, the real bot): it
never stops early, answers every line that is not blank or a comment (an error for a bad line, the bot's reply
otherwise), shows no Python error, raw message key or unfilled placeholder, and exits 0 at end of input.

After each fuzzed line a marker line `/zzmarkN` (an unknown command, so the console reports it with its name)
splits the output: what comes before marker N answered line N.
"""

from __future__ import annotations

import io
import json
import os
import re
import subprocess
import sys
from pathlib import Path

import pytest
from fuzz_known import known_bug
from fuzz_lines import LineFuzzer
from fuzz_oracle import TRACEBACK, text_problems

from bot.console import main
from bot.standin import driver
from tests.support.standin import EPHEMERAL

ROOT = Path(__file__).resolve().parents[2]
SHORT_SEED, SHORT_LINES = 20261129, 150
SOAK_SEEDS = [int(s) for s in os.environ.get("FUZZ_SEEDS", "1,2,3,4,5,6,7,8").split(",")]
SOAK_LINES = int(os.environ.get("FUZZ_LINES", "500"))


MARKER = re.compile(r"/zzmark(\d+)(?!\d)")


def marker(number: int) -> str:
    return f"/zzmark{number}"


def run_console(lines: list[str], *args: str) -> tuple[int, list[dict]]:
    script = "".join(f"{line}\n{marker(n)}\n" for n, line in enumerate(lines))
    out = io.StringIO()
    code = main(["--json", *args], stdin=io.StringIO(script), stdout=out)
    return code, [json.loads(item) for item in out.getvalue().splitlines() if item.strip()]


def message_text(item: dict) -> str:
    """What a printed message says: content, embeds, a Components V2 reply's Text Displays (the driver's reading)."""
    return "\n".join(driver.message_text(item))


def check_session(lines: list[str], code: int, items: list[dict], locale: str) -> list[str]:
    """Every problem of one console session (empty when everything held)."""
    problems = [] if code == 0 else [f"exit code {code}"]
    segment: list[dict] = []
    expected = 0
    for item in items:
        error = item.get("error")
        found = MARKER.search(error or "") if item.get("key") == "console.error.unknown_command" else None
        if found and int(found[1]) == expected:
            line = lines[expected]
            if line.strip() and not line.strip().startswith("#") and not segment:
                problems.append(f"line {expected} got no answer: {line[:120]!r}")
            segment, expected = [], expected + 1
            continue
        segment.append(item)
        typed = [lines[expected]] if expected < len(lines) else []
        if error is not None:
            if not str(item.get("key", "")).startswith("console.error."):
                problems.append(f"line {expected}: error without a console key: {item}")
            problems += [f"line {expected}: {p}" for p in TRACEBACK.findall(error) if p not in "".join(typed)]
        elif "modal" not in item:
            text = message_text(item)
            if text:
                private = bool(item.get("flags", 0) & EPHEMERAL)
                problems += [
                    f"line {expected}: {p}" for p in text_problems(text, locale, typed, refused=private)
                ]
    if expected != len(lines):
        problems.append(f"stopped early: {expected} of {len(lines)} lines answered")
    return problems


def test_fuzz_console_short():
    fuzzer = LineFuzzer(SHORT_SEED)
    lines = [fuzzer.line() for _ in range(SHORT_LINES)]
    code, items = run_console(lines)
    problems = check_session(lines, code, items, "en-US")
    assert problems == [], "\n".join(problems[:20])
    errors = sum(1 for i in items if "error" in i and not i["error"].startswith("Unknown command /zzmark"))
    assert errors > SHORT_LINES // 4  # most fuzzed lines are bad, and each was reported


def test_fuzz_console_short_japanese():
    fuzzer = LineFuzzer(SHORT_SEED + 1)
    lines = [fuzzer.line() for _ in range(SHORT_LINES // 3)]
    code, items = run_console(lines, "--lang", "ja", "--user", "haruka")
    problems = check_session(lines, code, items, "ja")
    assert problems == [], "\n".join(problems[:20])


@pytest.mark.soak
def test_fuzz_console_soak(capsys):
    total = 0
    for seed in SOAK_SEEDS:
        fuzzer = LineFuzzer(seed)
        lines = [fuzzer.line() for _ in range(SOAK_LINES)]
        lang = "ja" if seed % 2 else "en"
        code, items = run_console(lines, "--lang", lang)
        found = check_session(lines, code, items, "ja" if lang == "ja" else "en-US")
        problems = [p for p in found if known_bug({}, [p]) is None]
        errors = sum(1 for i in items if "error" in i) - len(lines)
        with capsys.disabled():
            print(
                f"\n[console fuzz seed {seed}, {lang}] {len(lines)} lines, {errors} reported as bad, "
                f"{len(items)} outputs, exit {code}, problems {len(problems)} "
                f"(+{len(found) - len(problems)} from known bugs)"
            )
        assert problems == [], "\n".join(problems[:20])
        total += len(lines)
    assert total == SOAK_LINES * len(SOAK_SEEDS)


def test_the_session_check_sees_an_early_stop_and_a_silent_line():
    lines = ["/game help", "press 0"]
    items = [
        {"content": "help"},
        {"error": f"Unknown command {marker(0)}. Commands: /game", "key": "console.error.unknown_command"},
    ]
    problems = check_session(lines, 0, items, "en-US")
    assert any("stopped early" in p for p in problems)
    items.append(
        {"error": f"Unknown command {marker(1)}. Commands: /game", "key": "console.error.unknown_command"}
    )
    assert any("line 1 got no answer" in p for p in check_session(lines, 0, items, "en-US"))


# -- bugs the fuzz found and the owner fixed (223f66a), kept as regression tests -----------------------------


def test_a_byte_that_is_not_utf8_is_a_bad_line_not_the_end():
    # PYTHONIOENCODING=utf-8:strict is what Python uses for stdin under any UTF-8 locale but C/POSIX
    # (en_US.UTF-8, ja_JP.UTF-8...), where most people run the console.
    env = dict(os.environ, PYTHONIOENCODING="utf-8:strict")
    script = b"/game help\n\xff\xfe junk \x80\n/game help\n"
    done = subprocess.run(
        [sys.executable, "-m", "bot", "console"],
        input=script,
        capture_output=True,
        cwd=ROOT,
        env=env,
        timeout=60,
    )
    assert done.returncode == 0, done.stderr.decode(errors="replace")[-500:]
    assert done.stdout.decode().count("Playing solo") == 2


@pytest.mark.parametrize("number", ["²", "1" * 5000])
def test_press_with_a_number_int_cannot_read_is_a_bad_line(number):
    lines = ["/seasons start difficulty:wizard dice:bot", f"press {number}"]  # the start message has buttons
    code, items = run_console(lines)
    assert code == 0
    assert check_session(lines, code, items, "en-US") == []
