"""Tug is laid out as a built-in game and registered by one line: the proof docs/architecture.md's "Adding a game" gives."""

from __future__ import annotations

import dataclasses
import doctest
from pathlib import Path

import pytest

from bot import games
from bot.standin.driver import message_text
from tests.thirdgame import GAME, KIND, registered
from tests.thirdgame import engine as tug_engine
from tests.thirdgame.engine import RULES, TugSummary, autoplay

ROOT = Path(__file__).resolve().parents[2]
HERE = Path(__file__).resolve().parent


def _modules(folder: Path) -> set[str]:
    return {p.relative_to(folder).as_posix() for p in folder.rglob("*.py") if "__pycache__" not in p.parts}


@pytest.mark.parametrize("game", ["seasons", "volfyirion"])
def test_its_engine_and_bot_packages_have_a_built_in_games_files(game: str) -> None:
    assert _modules(HERE / "engine") <= _modules(ROOT / "engine" / game)
    assert _modules(HERE / "tug") <= _modules(ROOT / "bot" / "games" / game)
    assert {p.name.replace("tug", game) for p in (HERE / "tug" / "locales").iterdir()} == \
        {p.name for p in (ROOT / "bot" / "games" / game / "locales").iterdir()}


def test_nothing_in_bot_names_it() -> None:
    named = [p.relative_to(ROOT).as_posix() for p in (ROOT / "bot").rglob("*")
             if p.suffix in (".py", ".json") and KIND in p.read_text(encoding="utf-8").lower()]
    assert named == []


def test_registering_it_is_one_entry_in_the_registry_and_its_strings_come_with_it() -> None:
    from bot.i18n import catalog_texts, t

    before = list(games.GAMES)
    assert KIND not in games.by_kind() and "word.tug" not in catalog_texts()["ja"]
    with registered():
        assert [*before, GAME] == games.GAMES and games.rules_for(KIND) is RULES
        assert t("ja", "word.tug") == "綱引き" and t("en", "word.tug") == "Tug"
        # The plugin's default texts(): its locales folder, the same keys in both languages.
        texts = GAME.texts()
        assert set(texts) == {"en", "ja"} and set(texts["en"]) == set(texts["ja"])
    assert before == games.GAMES and "word.tug" not in catalog_texts()["ja"]


def test_its_summary_is_a_frozen_dataclass_read_back_from_its_json() -> None:
    record = autoplay(None, 3)
    summary = record.state.summary()
    assert isinstance(summary, TugSummary) and dataclasses.is_dataclass(summary)
    with pytest.raises(dataclasses.FrozenInstanceError):
        summary.turn = 1  # type: ignore[misc]
    assert TugSummary(**summary.to_json()) == summary
    assert summary.finished and record.state.result().length == 5


def test_its_engine_examples_hold() -> None:
    tried = doctest.testmod(tug_engine)
    assert tried.attempted and not tried.failed


def test_its_console_entry_point_plays_it(tmp_path: Path) -> None:
    """``python -m tests.thirdgame.console``: the console's own main, with Tug registered in its process."""
    import json
    import os
    import subprocess
    import sys

    env = dict(os.environ, SOLO_BOT_SEED="1")
    env.pop("DISCORD_TOKEN", None)
    done = subprocess.run([sys.executable, "-m", "tests.thirdgame.console", "--json", "--lang", "en", "--db",
                           str(tmp_path / "tug.sqlite3")], input="/tug start\n/tug pass\n", capture_output=True,
                          text=True, cwd=ROOT, env=env, timeout=120)
    assert done.returncode == 0, done.stderr[-2000:]
    items = [json.loads(line) for line in done.stdout.splitlines() if line.strip()]
    said = [part for item in items for part in message_text(item)]
    assert any("A tug of 5 turns begins." in d for d in said) and any("You pass" in d for d in said), said
