"""Japanese and English everywhere: every message in both languages, command strings within Discord's rules."""

from __future__ import annotations

import json
import re
import string
from importlib import resources
from pathlib import Path

import discord
import pytest
from discord import app_commands

from bot.app import create_bot
from bot.config import Config
from bot.i18n import CommandTranslator, catalog_texts, lang_of, t

LOCALES = resources.files("bot.locales")
NAME = re.compile(r"^[-_\w]{1,32}$")


def _files(lang: str) -> dict[str, dict[str, str]]:
    return {e.name: json.loads(e.read_text(encoding="utf-8")) for e in LOCALES.iterdir()
            if e.name.endswith(f".{lang}.json")}


def _fields(template: str) -> set[str]:
    return {name for _, name, _, _ in string.Formatter().parse(template) if name}


def test_every_message_exists_in_both_languages_with_the_same_placeholders():
    en, ja = catalog_texts()["en"], catalog_texts()["ja"]
    only_ja = {k for k in ja if not k.startswith(("cmd.", "opt."))}
    assert sorted(set(en) - only_ja) == [], "messages with no Japanese text"
    assert sorted(only_ja - set(en)) == [], "messages with no English text"
    for key in en:
        assert _fields(en[key]) == _fields(ja[key]), key


def test_every_key_the_bot_code_uses_is_translated():
    used: set[str] = set()
    pattern = re.compile(r'"((?:refuse|reply|button|form|field|result|history|export|abandon|leaderboard|stats|'
                         r'help|forecast|danger|word)\.[a-z_.]+)"')
    for path in Path("bot").rglob("*.py"):
        used |= set(pattern.findall(path.read_text(encoding="utf-8")))
    missing = [k for k in sorted(used) if k not in catalog_texts()["en"] or k not in catalog_texts()["ja"]]
    assert missing == []


def test_t_formats_cards_faces_and_words_in_the_users_language():
    assert "破壊者ケアン" in t("ja", "action.seasons.played", card="16")
    assert "Kairn the Destroyer" in t("en", "action.seasons.played", card="16")
    face = {"energy": {"water": 2}, "crystals": 3, "star": 0, "draw": 0, "transmute": False, "dots": 1}
    assert "水" in t("ja", "action.seasons.die", face=face)
    assert "2 water" in t("en", "action.seasons.die", face=face)
    assert t("ja", "no.such.key") == "no.such.key"
    assert lang_of(discord.Locale.japanese) == "ja" and lang_of(discord.Locale.american_english) == "en"


@pytest.fixture
async def command_payloads(tmp_path):
    bot = create_bot(Config(db_path=tmp_path / "db.sqlite3"))
    await bot.setup_hook()
    try:
        translator = CommandTranslator()
        yield [await c.get_translated_payload(bot.tree, translator) for c in bot.tree.get_commands()]
    finally:
        await bot.store.close()


def _walk(node: dict):
    yield node
    for option in node.get("options", []):
        yield from _walk(option)


async def test_command_strings_follow_discords_rules_in_both_languages(command_payloads):
    names = {p["name"] for p in command_payloads}
    assert names == {"seasons", "volfyrion", "game"}
    for command in command_payloads:
        size = 0
        for node in _walk(command):
            assert NAME.match(node["name"]) and node["name"] == node["name"].lower(), node["name"]
            for name in (node.get("name_localizations") or {}).values():
                assert NAME.match(name) and name == name.lower(), name
            descriptions = [node["description"], *(node.get("description_localizations") or {}).values()]
            assert all(1 <= len(d) <= 100 for d in descriptions), node["name"]
            assert (node.get("description_localizations") or {}).get("ja"), f"no Japanese for {node['name']}"
            for choice in node.get("choices", []):
                localized = [choice["name"], *(choice.get("name_localizations") or {}).values()]
                assert all(1 <= len(n) <= 100 for n in localized), choice
                assert (choice.get("name_localizations") or {}).get("ja"), choice
            assert len(node.get("options", [])) <= 25 and len(node.get("choices", [])) <= 25
            size += len(node["name"]) + sum(len(d) for d in descriptions)
            size += sum(len(c["name"]) + len(str(c["value"])) for c in node.get("choices", []))
            size += sum(len(n) for c in node.get("choices", []) for n in (c.get("name_localizations") or {}).values())
        assert size <= 8000, (command["name"], size)


async def test_translator_answers_japanese_only_for_japanese():
    translator = CommandTranslator()
    text = app_commands.locale_str("Start", key="cmd.seasons.start")
    context = app_commands.TranslationContext(app_commands.TranslationContextLocation.other, None)
    assert await translator.translate(text, discord.Locale.japanese, context)
    assert await translator.translate(text, discord.Locale.french, context) is None
