"""Every example the bot or its docs show is accepted when typed into the console (issue 10, point 3).

The examples are read from where players read them — `/game help` as the bot answers it, in both languages,
and README.md with the docs it links (`docs/*.md`) — never copied here, so a rewritten help or doc is checked
as written. A command shown with its options (`/seasons die face:水2、星、2点`) is typed in a game where it belongs: after its game's
start and, for a reveal, once the bot asks for that many cards. A bare command name in a sentence
(`/seasons score`) is a mention, not an example, unless it is one of `/game`'s.
"""

from __future__ import annotations

import re
from pathlib import Path

import pytest
from console_session import console_session, refusals, text_of

from bot.standin.driver import message_text

ROOT = Path(__file__).resolve().parents[2]
# The README and the documents it sends a player to (docs/playing.md, docs/console.md …).
DOCS = [ROOT / "README.md", *sorted((ROOT / "docs").glob("*.md"))]
STARTS = {"seasons": "/seasons start difficulty:wizard dice:table", "volfyrion": "/volfyrion start difficulty:normal"}
INPUT = re.compile(r"^(/|press \d|select \d|form )")
# The examples' faces (`2 water, 3 crystals, 1 dot`, `fire star transmute 3 dots`) are winter die 1's: a game of
# this seed chose it (S-1.4: a face of neither chosen die is refused, naming them).
EXAMPLES_SEED = 8


def is_example(span: str) -> bool:
    """A command with concrete options, or a `/game` command (no placeholders like `…`, `(a|b)`, `[x]`)."""
    if not span.startswith("/") or re.search(r"[…\[\]|]|\(\w", span):
        return False
    return ":" in span or span.split()[0] == "/game"


def help_examples(items: list[dict]) -> dict[str, list[str]]:
    """The examples of each section of `/game help`'s reply, by the game they belong to."""
    sections: dict[str, list[str]] = {}
    for item in items:
        for text in message_text(item):  # the help: one V2 notice, its sections as "**name**: value" lines
            for line in text.split("\n"):
                for span in re.findall(r"`([^`]+)`", line):
                    game = span.split()[0].lstrip("/")
                    if is_example(span) and span not in sections.get(game, []):
                        sections.setdefault(game, []).append(span)
    return sections


def readme_sessions() -> list[tuple[str, list[str]]]:
    """The docs' transcripts: (language, the lines typed), language from `--lang ja` or the Japanese in it."""
    blocks = [b for doc in DOCS for b in re.findall(r"```text\n(.*?)```", doc.read_text(encoding="utf-8"), re.S)]
    sessions = []
    for block in blocks:
        typed = [line.strip() for line in block.splitlines() if INPUT.match(line.strip())]
        typed = [re.sub(r"\s+#.*$", "", line) for line in typed]
        if typed:
            lang = "ja" if "--lang ja" in block or re.search(r"[\u3040-\u30ff]", block) else "en"
            sessions.append((lang, typed))
    return sessions


def readme_option_examples() -> list[str]:
    """Option values the docs' command tables show as examples: faces for `/seasons die`, cities for a start."""
    lines = []
    for row in (line for doc in DOCS for line in doc.read_text(encoding="utf-8").splitlines()):
        spans = re.findall(r"`([^`]+)`", row)
        if not row.startswith("|") or not spans:
            continue
        command = spans[0].split()[:2]
        if command == ["/seasons", "die"]:
            lines += [f"/seasons die face:{s}" for s in spans[1:] if not s.startswith("/") and ":" not in s]
        if command == ["/volfyrion", "start"]:
            lines += [f"{STARTS['volfyrion']} {s}" for s in spans[1:] if re.fullmatch(r'\w+:".*"', s)]
    return lines


async def reach_reveal(session, count: int) -> None:
    """Play table-dice rounds until the bot asks for ``count`` cards (faces without a draw; other reveals
    answered with the first cards that can still be there)."""
    import json

    for _ in range(40):
        items = await session.type("/game export")
        record = json.loads(next(f["text"] for i in items for f in i.get("files", []) if f["filename"].endswith(".json")))
        state = record["state"]
        wanted = state["pending_params"].get("count")
        if state["pending"].startswith("seasons.waiting.reveal"):
            if wanted == count:
                return
            items = await session.type("/seasons reveal cards:" + ", ".join(str(n) for n in range(1, wanted + 1)))
        else:
            from engine.seasons.faces import die_faces

            faces = [f for d in state["round_dice"] for f in die_faces(state["dice_season"], d)]
            face = next(f for f in faces if f["crystals"] and not f["draw"])  # the round's dice (S-1.4), no draw
            from engine.seasons import face_text

            items = await session.type(f"/seasons die face:{face_text(face)}")
        assert refusals(items) == [], text_of(items)
    raise AssertionError(f"the bot never asked for {count} cards")


async def type_examples(session, examples: list[str]) -> None:
    for line in examples:
        match = re.match(r"/seasons reveal cards:(.*)", line)
        if match:
            await reach_reveal(session, len(re.split(r"[,、\s]+", match[1].strip())))
        items = await session.type(line)
        assert refusals(items) == [], (line, refusals(items))


@pytest.mark.parametrize("lang", ["en", "ja"])
async def test_every_example_of_game_help_is_accepted(tmp_path, lang):
    async with console_session(tmp_path / "help.sqlite3", lang=lang) as session:
        shown = help_examples(await session.type("/game help"))
    assert set(shown) >= {"seasons", "volfyrion", "game"}, shown
    for game in ("seasons", "volfyrion"):
        examples = shown[game]
        assert examples, game
        async with console_session(tmp_path / f"{game}.sqlite3", lang=lang, seed=EXAMPLES_SEED) as session:
            if not examples[0].startswith(f"/{game} start"):
                examples = [STARTS[game]] + examples
            await type_examples(session, examples + [e for e in shown["game"] if e != "/game abandon"])


async def test_every_session_and_example_of_the_readme_is_accepted(tmp_path):
    sessions = readme_sessions()
    assert len(sessions) >= 3
    for number, (lang, typed) in enumerate(sessions):
        async with console_session(tmp_path / f"readme-{number}.sqlite3", lang=lang, seed=1) as session:
            await type_examples(session, typed)
    for number, line in enumerate(readme_option_examples()):
        game = line.split()[0].lstrip("/")
        async with console_session(tmp_path / f"option-{number}.sqlite3", seed=EXAMPLES_SEED) as session:
            await type_examples(session, ([] if " start " in line else [STARTS[game]]) + [line])


def test_the_examples_are_found():
    """The readers above find what is there (a reader that finds nothing would pass anything)."""
    assert any(line.startswith("/seasons die face:") for line in readme_option_examples())
    assert any("cities:" in line for line in readme_option_examples())
    assert is_example("/seasons die face:水2、星、2点") and not is_example("/seasons score")
    assert not is_example("/seasons start difficulty:(apprentice|wizard|archmage)")
