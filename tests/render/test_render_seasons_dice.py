"""The Seasons picture names the round's two chosen dice (S-1.4), each by a face only it has."""

from __future__ import annotations

import pytest
from PIL import ImageDraw

from bot.games.seasons.front.board import board
from bot.render import picture
from engine.seasons import RULES
from engine.seasons.summary import SeasonsSummary


def drawn_texts(monkeypatch, summary: SeasonsSummary, lang: str) -> list[str]:
    picture.clear_caches()  # a picture drawn before would not be drawn again
    drawn: list[str] = []
    original = ImageDraw.ImageDraw.text

    def spy(self, xy, text, *args, **kwargs):
        drawn.append(str(text))
        return original(self, xy, text, *args, **kwargs)

    monkeypatch.setattr(ImageDraw.ImageDraw, "text", spy)
    board(summary, lang=lang)
    return drawn


@pytest.mark.parametrize(("lang", "line"), [("en", "winter dice: draw, 3 dots | draw, 1 dot"),
                                            ("ja", "冬のダイス: ドロー、ドット3｜ドロー、ドット1")])
def test_s1_4_the_picture_names_the_rounds_two_dice(monkeypatch, lang, line):
    summary = RULES.new_game({"difficulty": "wizard", "dice": "table"}, 1).state.summary()
    assert line in drawn_texts(monkeypatch, summary, lang)


def test_s1_4_a_game_begun_before_the_chosen_dice_shows_none(monkeypatch):
    summary = RULES.new_game({"difficulty": "wizard", "dice": "table", "edition": 2}, 1).state.summary()
    assert not any("dice:" in text for text in drawn_texts(monkeypatch, summary, "en"))
