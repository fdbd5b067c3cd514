"""Every message key the engine can produce has an English and a Japanese template, same placeholders."""

from __future__ import annotations

import json
import re
import string
from pathlib import Path

import pytest

from bot.i18n import t
from engine.seasons.autoplay import play_game
from engine.seasons.rules import DUMMBOT_ONGOING, PLAYER_ONGOING
from tests.support.locales import engine_names

ROOT = Path(__file__).resolve().parents[2]
SOURCES = sorted((ROOT / "engine" / "seasons").glob("*.py"))


def _locale(lang: str) -> dict[str, str]:
    return json.loads((ROOT / "bot" / "games" / "seasons" / "locales" / f"seasons.{lang}.json").read_text(encoding="utf-8"))


def _fields(template: str) -> set[str]:
    return {name for _, name, _, _ in string.Formatter().parse(template) if name}


def _static_keys() -> set[str]:
    keys: set[str] = set()
    for path in SOURCES:
        text = path.read_text(encoding="utf-8")
        keys |= set(re.findall(r'"(seasons\.(?:waiting\.)?[a-z_]+)"', text))
        keys |= {f"seasons.event.{k}" for k in re.findall(r'_ev\(events, "([a-z_]+)"', text)}
        keys |= {f"seasons.event.crystals_from_{k}" for k in re.findall(r'_gain\([^"]*"([a-z_]+)"', text)}
    keys |= {f"seasons.event.{k}" for k in (*DUMMBOT_ONGOING.values(), *PLAYER_ONGOING.values())}
    return keys


def test_static_scan_finds_keys():
    keys = _static_keys()
    assert "seasons.not_now" in keys and "seasons.event.game_lost" in keys
    assert "seasons.event.crystals_from_transmute" in keys and "seasons.waiting.take_die" in keys


@pytest.mark.parametrize("lang", ["en", "ja"])
def test_every_engine_key_has_a_template(lang):
    missing = sorted(_static_keys() - set(_locale(lang)))
    assert not missing


def test_same_placeholders_in_both_languages():
    en, ja = _locale("en"), _locale("ja")
    # The command group's Japanese (cmd.*, opt.*) has no English twin: its English is in the code.
    assert set(en) == {key for key in ja if not key.startswith(("cmd.", "opt."))}
    for key in en:
        assert _fields(en[key]) == _fields(ja[key]), key


def test_templates_format_with_the_params_the_engine_sends():
    en, ja = _locale("en"), _locale("ja")
    seen: set[str] = set()
    for seed in range(40):
        for difficulty in ("apprentice", "wizard", "archmage"):
            _, steps = play_game(difficulty, "bot" if seed % 2 else "table", seed)
            for step in steps:
                items = [(e.key, e.params) for e in step.events] + [(step.waiting.key, step.waiting.params)]
                for key, params in items:
                    seen.add(key)
                    for lang, table in (("en", en), ("ja", ja)):
                        # The bot's formatter (bot.i18n.t): renamed placeholders, variants, plurals.
                        assert engine_names(key, table[key]) <= set(params), key
                        assert not re.search(r"\{\w+", t(lang, key, **params)), key
    assert len(seen) > 30
