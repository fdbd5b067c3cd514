"""The bot's Japanese follows ../shared/i18n/ja-style.md as far as a test can tell (issue 10, point 7).

Every Japanese string of bot/locales and of the console: full-width brackets and marks, no English words
outside commands (in backticks or after a slash) and card names, no spaces around parameters, the glossary's
words; and the die-face suggestions of a Japanese reply are Japanese.
"""

from __future__ import annotations

import re
import string

from bot.console import MESSAGES
from bot.i18n import catalog_texts, t
from engine.volfyirion.cards import CATALOG as VOLF

KANA_KANJI = "\u3040-\u30ff\u3400-\u9fff"
# Proper names the Japanese text keeps in English: Volfyirion's cards (the Japanese edition's names are not
# known), and the box's card types Perk and Ploy (not used in the solo game).
CARD_WORDS = {w for c in VOLF for w in re.findall(r"[A-Za-z]+", c.name)} | {"Perk", "Ploy"}
# Names of products and formats, which Japanese writes as they are.
PROPER_NAMES = {"Discord", "JSON", "SQLite"}


def _japanese() -> dict[str, str]:
    texts = dict(catalog_texts()["ja"])
    texts.update({f"console:{k}": v for k, v in MESSAGES["ja"].items()})
    return texts


def _prose(text: str) -> str:
    """The text a reader reads as Japanese: without commands, placeholders and code spans."""
    text = re.sub(r"`[^`]*`", " ", text)
    text = re.sub(r"\{[^}]*\}", " ", text)
    text = re.sub(r"/(seasons|volfyrion|game)( [a-z]+)?", " ", text)
    text = re.sub(r"\b(press|form) ", " ", text)  # the console's own commands
    return text


def test_japanese_uses_full_width_brackets_and_marks():
    bad = {k: v for k, v in _japanese().items() if re.search(r"[()!?]", _prose(v).replace("(…)", ""))}
    assert bad == {}


def test_japanese_has_no_english_words_outside_commands_and_card_names():
    bad = {}
    for key, text in _japanese().items():
        words = set(re.findall(r"[A-Za-z]{2,}", _prose(text))) - CARD_WORDS - PROPER_NAMES
        if words:
            bad[key] = sorted(words)
    assert bad == {}


def test_japanese_has_no_spaces_around_parameters():
    bad = {}
    for key, text in catalog_texts()["ja"].items():
        if re.search(rf"\}} +[{KANA_KANJI}]|[{KANA_KANJI}] +\{{", text):
            bad[key] = text
    assert bad == {}


def test_japanese_uses_the_glossarys_words():
    """山札 is Seasons' draw pile, ハウスデッキ Volfyirion's deck; 修正 not 訂正; スコア not 得点; 変転のサークル."""
    for key, text in catalog_texts()["ja"].items():
        assert "訂正" not in text and "得点" not in text, key
        assert "変転サークル" not in text, key
        if "volfyirion" in key or "volfyrion" in text:
            assert "山札" not in text, key


def test_placeholders_are_the_same_in_every_language_file():
    en, ja = catalog_texts()["en"], catalog_texts()["ja"]

    def names(template: str) -> set[str]:
        return {n for _, n, _, _ in string.Formatter().parse(template) if n}

    assert [k for k in en if names(en[k]) != names(ja.get(k, en[k]))] == []
    for key in MESSAGES["en"]:
        assert names(MESSAGES["en"][key]) == names(MESSAGES["ja"][key]), key


def test_die_face_suggestions_in_a_japanese_reply_are_japanese():
    face = {"energy": {"water": 2}, "crystals": 0, "star": 0, "draw": 0, "transmute": False, "dots": 1}
    text = t("ja", "seasons.face_not_in_season", season="winter", face=face,
             closest_faces=["2 water, star, 2 dots", "draw, 3 dots"])
    assert "「水2、星、2点」" in text and "「ドロー、3点」" in text
    assert not re.search(r"[A-Za-z]", text)
