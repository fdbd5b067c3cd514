"""Shared bot modules name no game: each game's words come from its plugin in the registry (bot/games)."""

from __future__ import annotations

import re
import subprocess
from pathlib import Path

import pytest

from bot import games, i18n
from bot.games import GamePlugin, Words
from bot.i18n import card_name, event_lines, t
from bot.store import Ranking
from engine.core import Event

ROOT = Path(__file__).resolve().parents[2]
GAME_NAMES = r"(?i)seasons|volfyirion|volfyrion|dummbot"


def test_i18n_names_no_game():
    source = Path(i18n.__file__).read_text(encoding="utf-8")
    assert re.findall(GAME_NAMES, source) == []


def test_shared_bot_modules_name_no_game():
    """Only a game's package, the registry's list and the parts still to leave bot/ name a game."""
    files = subprocess.run(["git", "grep", "-liE", GAME_NAMES, "--", "bot/*.py", "bot/*.json"], cwd=ROOT,
                           capture_output=True, text=True, check=False).stdout.split()
    allowed = ("bot/games/seasons/", "bot/games/volfyirion/", "bot/store/", "bot/standin/")
    assert [f for f in files if not f.startswith(allowed) and f != "bot/games/__init__.py"] == []


def test_both_games_give_their_words():
    assert {"seasons", "volfyirion"} <= set(games.by_kind())
    assert card_name("en", "seasons", "16") == "Kairn the Destroyer (#16)"
    assert card_name("ja", "seasons", "16") == "破壊者ケアン（#16）"
    assert card_name("en", "volfyirion", "elite troper") == "Elite Trooper"
    assert card_name("en", "nogame", "16") == "16"


class Tiny(GamePlugin[dict]):
    kind = "tiny"
    name = "Tiny"
    command = "tiny"
    colour = 0
    ranking = Ranking(order=(("margin", "desc"),), outcomes=("won", "lost"))

    def make_words(self) -> Words:
        return Words(card_name=lambda lang, c: {"a": "Ace", "b": "Bee"}.get(c), split_cards=True,
                     event_keys={("tiny.x", "tiny.y"): "tiny.z"})

    def texts(self) -> dict[str, dict[str, str]]:
        return {"en": {"tiny.took": "took {card}; next {expected}", "tiny.z": "last", "tiny.y": "y"}}


@pytest.fixture
def third_game():
    """A game known only to this test: in the registry's list while it runs (the registry handed down reads the
    list whenever asked)."""
    tiny = Tiny()
    games.GAMES.append(tiny)
    yield tiny
    games.GAMES.remove(tiny)


def test_a_game_in_the_list_gets_card_names_commands_event_keys_and_its_strings(third_game):
    assert t("en", "tiny.took", card="a, b", expected="roll, end") == "took Ace, Bee; next `/tiny roll`, `/tiny end`"
    assert t("en", "tiny.took", card=["b"], expected="roll") == "took Bee; next `/tiny roll`"
    assert event_lines("en", [Event("tiny.x"), Event("tiny.y")]) == ["last", "y"]
    assert t("en", "refuse.no_game").endswith("`/volfyrion start` or `/tiny start`.")


def test_a_game_gone_from_the_list_takes_its_strings_with_it():
    assert "tiny.took" not in i18n.catalog_texts()["en"]
    assert t("en", "refuse.no_game") == ("There is no game here. Start one with `/seasons start` or "
                                         "`/volfyrion start`.")
    assert t("ja", "refuse.no_game") == "ここにはゲームがありません。`/seasons start` か `/volfyrion start`で始めてください。"
