"""bot.i18n names no game: each game's words come from its registered TextHooks (bot/text/<game>.py)."""

from __future__ import annotations

import re
from pathlib import Path

import pytest

from bot import i18n
from bot.i18n import TextHooks, card_name, event_lines, register_text, t
from engine.core import Event


def test_i18n_names_no_game():
    source = Path(i18n.__file__).read_text(encoding="utf-8")
    assert re.findall(r"(?i)seasons|volfyirion|volfyrion|dummbot", source) == []


def test_both_games_register_their_words():
    assert {"seasons", "volfyirion"} <= set(i18n.TEXT_HOOKS)
    assert card_name("en", "seasons", "16") == "Kairn the Destroyer (#16)"
    assert card_name("ja", "seasons", "16") == "破壊者ケアン（#16）"
    assert card_name("en", "volfyirion", "elite troper") == "Elite Trooper"
    assert card_name("en", "nogame", "16") == "16"


@pytest.fixture
def third_game():
    """A game known only to this test, registered and removed again."""
    saved = (dict(i18n.TEXT_HOOKS), dict(i18n.VARIANTS), dict(i18n.PARAM_NAMES), dict(i18n.EVENT_KEYS))
    hooks = TextHooks(command="tiny", card_name=lambda lang, c: {"a": "Ace", "b": "Bee"}.get(c),
                      split_cards=True, event_keys={("tiny.x", "tiny.y"): "tiny.z"})
    register_text("tiny", hooks)
    yield hooks
    for live, old in zip((i18n.TEXT_HOOKS, i18n.VARIANTS, i18n.PARAM_NAMES, i18n.EVENT_KEYS), saved, strict=True):
        live.clear()
        live.update(old)


def test_a_registered_game_gets_card_names_commands_and_event_keys(third_game, monkeypatch):
    texts = {"en": {"tiny.took": "took {card}; next {expected}", "tiny.z": "last", "tiny.y": "y"}, "ja": {}}
    monkeypatch.setattr(i18n, "catalog_texts", lambda: texts)
    assert t("en", "tiny.took", card="a, b", expected="roll, end") == "took Ace, Bee; next `/tiny roll`, `/tiny end`"
    assert t("en", "tiny.took", card=["b"], expected="roll") == "took Bee; next `/tiny roll`"
    assert event_lines("en", [Event("tiny.x"), Event("tiny.y")]) == ["last", "y"]
