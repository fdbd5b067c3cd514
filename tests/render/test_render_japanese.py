"""Pictures in the user's language (issue 10, point 7): the shipped CJK font has the glyphs, Japanese names are
drawn and wrapped rather than cut, and without the font a picture falls back cleanly to English."""

from __future__ import annotations

import io

import pytest
from PIL import Image, ImageDraw

from bot import games
from bot.games.seasons.front import board as sb
from bot.games.volfyirion.front import board as vb
from bot.i18n import t
from bot.render import picture, results
from bot.render import text as picture_text
from engine.core import Result
from engine.seasons import CATALOG as SEASONS_CARDS
from engine.volfyirion.summary import CityEnding, Difficulty, Ending, How, Outcome


def drawn_texts(monkeypatch) -> list[str]:
    picture.clear_caches()  # layers drawn once and reused (card tiles) would not be drawn again
    drawn: list[str] = []
    original = ImageDraw.ImageDraw.text

    def spy(self, xy, text, *args, **kwargs):
        drawn.append(str(text))
        return original(self, xy, text, *args, **kwargs)

    monkeypatch.setattr(ImageDraw.ImageDraw, "text", spy)
    return drawn


def test_the_shipped_font_loads_and_has_every_japanese_glyph_the_pictures_draw():
    assert picture_text.cjk_font(20) is not None
    texts = [c.name_ja for c in SEASONS_CARDS if getattr(c, "name_ja", None)]
    texts += [t("ja", key) for key in ("result.title.seasons.won", "result.title.seasons.lost",
                                        "result.title.volfyirion.won", "result.title.volfyirion.lost",
                                        "result.picture.player", "result.picture.dummbot", "result.picture.cities",
                                        "word.seasons", "word.volfyirion", "word.wizard", "word.hard")]
    for board in (sb, vb):
        texts += list(board.LABELS["ja"].values())
    # The words the Seasons board reads from the game's locale: its levels, seasons and short dice words.
    texts += [t("ja", key) for key in sb.BOARD_WORDS.values()]
    texts += [t("ja", f"word.{w}") for w in ("apprentice", "wizard", "archmage", "winter", "spring", "summer",
                                             "autumn")]
    texts += [t("ja", f"word.{d}") for d in Difficulty]
    missing = sorted({ch for text in texts for ch in text if not picture_text.has_glyph(ch)} - {"🏆"})
    assert missing == []
    # Kana and the common kanji (JIS level 1) are all there, so a new card name rarely needs a rebuild.
    assert all(picture_text.has_glyph(ch) for ch in "あいうえおアイウエオ季節魔法使召喚破壊街")


def test_a_missing_glyph_is_told_apart_from_a_real_one():
    assert picture_text.has_glyph("護") and picture_text.has_glyph("A")
    assert not picture_text.has_glyph("\U0001f600")  # an emoji: not in the font
    assert not picture_text.drawable("護符😀")


def test_japanese_card_names_are_drawn_in_japanese_and_wrapped_not_cut(monkeypatch):
    drawn = drawn_texts(monkeypatch)
    summary = {"year": 1, "month": 2, "season": "winter", "difficulty": "wizard", "dice": "table",
               "dummbot": {"crystals": 3, "hand_size": 4, "summoned": ["1", "11", "30"], "score": 5}}
    png = sb.board(summary, lang="ja")
    assert Image.open(io.BytesIO(png)).size == (picture.WIDTH, picture.HEIGHT)
    joined = "".join(drawn)
    assert "ダムボット" in joined and "魔法使い" in joined
    assert SEASONS_CARDS["1"].name_ja in drawn
    long_name = SEASONS_CARDS["30"].name_ja  # ヤンの忘れられた花瓶: two lines on its tile
    with picture.drawing_in("ja"):
        layout = sb.tile_layout(*sb._tile_size(sb.TILES), "30", long_name, SEASONS_CARDS["30"].prestige)
    lines = [line for line, _ in layout.lines]
    assert len(lines) == 2 and "".join(lines) == long_name and all(line in drawn for line in lines)
    assert not any("…" in text for text in drawn)


def test_english_pictures_wrap_long_card_names_instead_of_cutting_them(monkeypatch):
    drawn = drawn_texts(monkeypatch)
    summary = {"year": 1, "month": 2, "season": "winter", "difficulty": "wizard", "dice": "table",
               "dummbot": {"crystals": 0, "hand_size": 0, "summoned": ["11"], "score": 0}}
    sb.board(summary)
    name = SEASONS_CARDS["11"].name_en  # Figrim the Avaricious: cut to "Figrim the A…" before
    assert name.startswith("Figrim")
    assert "Figrim the" in drawn and "Avaricious" in drawn
    assert not any(d.endswith("…") for d in drawn)


def test_wrap_breaks_at_spaces_or_between_japanese_characters():
    f = picture_text.cjk_font(11)
    assert picture_text.wrap("Figrim the Avaricious", f, 70) == ["Figrim the", "Avaricious"]
    lines = picture_text.wrap("ヤンの忘れられた花瓶", f, 60)
    assert "".join(lines) == "ヤンの忘れられた花瓶" and len(lines) == 2
    assert all(f.getlength(line) <= 60 for line in lines)
    assert picture_text.wrap("a b c d e f g h i j k l m n o p", f, 20, max_lines=2)[-1].endswith("…")


@pytest.mark.parametrize("kind", ["seasons", "volfyirion"])
def test_the_result_picture_is_drawn_in_japanese(monkeypatch, kind):
    drawn = drawn_texts(monkeypatch)
    ending = Ending(Outcome.LOST, How.CITIES_DESTROYED, 9, 0, (CityEnding("Kyr", destroyed=True),))
    result = (Result.from_json({"outcome": "won", "player_score": 150, "dummbot_score": 140}) if kind == "seasons"
              else Result("lost", length=9, how="cities_destroyed", details={"cities_left": 0}, breakdown=ending))
    parts: dict = {}
    png = results.result_picture("ja", game=games.get(kind), options={"difficulty": "hard"}, result=result, parts=parts)
    assert Image.open(io.BytesIO(png)).size == (results.WIDTH, results.HEIGHT)
    joined = "".join(drawn)
    assert t("ja", f"word.{kind}") in joined and "ハード" in joined
    if kind == "seasons":
        assert "+10" in joined and "あなた" in joined


def test_without_the_font_pictures_fall_back_to_english(monkeypatch):
    for cached in (picture_text._font_bytes, picture_text.cjk_font, picture_text.has_glyph,
                   picture_text._notdef_signature):
        cached.cache_clear()
    monkeypatch.setattr(picture_text, "FONT_FILE", "missing.otf")
    try:
        assert picture_text.cjk_font(20) is None and picture_text.picture_lang("ja") == "en"
        drawn = drawn_texts(monkeypatch)
        summary = {"year": 1, "month": 2, "season": "winter", "difficulty": "wizard", "dice": "table",
                   "dummbot": {"crystals": 0, "hand_size": 0, "summoned": ["1"], "score": 0}}
        sb.board(summary, lang="ja")
        assert "Dummbot" in drawn and all(ord(ch) < 0x3000 for text in drawn for ch in text)
        results.result_picture("ja", game=games.get("seasons"), options={"difficulty": "wizard"},
                               result={"outcome": "lost", "player_score": 1, "dummbot_score": 2}, parts={})
    finally:
        monkeypatch.undo()
        for cached in (picture_text._font_bytes, picture_text.cjk_font, picture_text.has_glyph,
                       picture_text._notdef_signature):
            cached.cache_clear()
