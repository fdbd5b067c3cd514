"""Every message key the engine can produce has an English and a Japanese template with the same
placeholders, and those placeholders are parameters the engine really sends."""

from __future__ import annotations

import json
import re
import string
from pathlib import Path

import pytest

from bot.i18n import t
from engine.core import Rng, RuleError
from engine.volfyirion import RULES
from engine.volfyirion.autoplay import play_game, random_action
from tests.support.locales import engine_names

ROOT = Path(__file__).resolve().parents[2]
KEY = re.compile(r"[\"'](volfyirion\.[a-z_][a-z0-9_.]*)[\"']")


def _templates(lang: str) -> dict[str, str]:
    return json.loads((ROOT / "bot" / "games" / "volfyirion" / "locales" / f"volfyirion.{lang}.json").read_text(encoding="utf-8"))


def _fields(template: str) -> set[str]:
    return {name for _, name, _, _ in string.Formatter().parse(template) if name}


def _engine_keys() -> set[str]:
    found: set[str] = set()
    for path in (ROOT / "engine" / "volfyirion").rglob("*.py"):
        found |= set(KEY.findall(path.read_text(encoding="utf-8")))
    return found


def test_every_engine_key_has_both_templates_with_the_same_placeholders():
    en, ja = _templates("en"), _templates("ja")
    keys = _engine_keys()
    assert len(keys) > 60
    assert sorted(keys - set(en)) == [] and sorted(keys - set(ja)) == []
    for key in keys:
        assert _fields(en[key]) == _fields(ja[key]), key
    # The command group's Japanese (cmd.*, opt.*) has no English twin: its English is in the code.
    assert set(en) == {key for key in ja if not key.startswith(("cmd.", "opt."))}


def test_japanese_templates_use_the_glossary_words():
    ja = _templates("ja")
    text = "".join(ja.values())
    for word in ("街", "部隊", "建物", "憤怒パイル", "脇に置", "除去", "封印", "ワンダー", "コマンドカード"):
        assert word in text, word
    assert "ヴォルフィーリオン" in ja["volfyirion.event.token_returned"]


@pytest.mark.parametrize("seed", range(12))
def test_templates_render_with_the_params_the_engine_sends(seed):
    en, ja = _templates("en"), _templates("ja")
    record = play_game(seed, max_actions=150)
    steps = [RULES.new_game(record.options, record.seed)]
    for action in record.actions:
        steps.append(RULES.apply(steps[-1].state, action))
    messages = [(e.key, e.params) for s in steps for e in s.events] + [(s.waiting.key, s.waiting.params) for s in steps]
    rng = Rng(seed)
    state = steps[-1].state
    for _ in range(30):  # refusals too
        try:
            RULES.apply(state, random_action(state, rng) if not state.finished else _bogus())
        except RuleError as err:
            messages.append((err.key, err.params))
    for key, params in messages:
        for lang, templates in (("en", en), ("ja", ja)):
            # The bot's formatter (bot.i18n.t): renamed placeholders, variants, plurals.
            assert engine_names(key, templates[key]) <= set(params), key
            assert not re.search(r"\{\w+", t(lang, key, **params)), key


def _bogus():
    from engine.core import Action

    return Action("end")
