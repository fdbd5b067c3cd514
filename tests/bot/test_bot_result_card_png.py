"""The result card is written by the boards' PNG writer (issue 12): the same pixels as drawn, lossless."""

from __future__ import annotations

import io

import pytest
from PIL import Image

from bot import games
from bot.render import picture, results


@pytest.mark.parametrize("lang", ["en", "ja"])
@pytest.mark.parametrize("kind", ["seasons", "volfyirion"])
def test_the_result_card_keeps_every_pixel_it_drew(monkeypatch, kind, lang):
    drawn: list[Image.Image] = []

    def keep(image: Image.Image) -> bytes:
        drawn.append(image.copy())
        return picture.png(image)

    monkeypatch.setattr(results, "png", keep)
    result = ({"outcome": "won", "player_score": 150, "dummbot_score": 140} if kind == "seasons"
              else {"outcome": "lost", "turn": 9, "how": "cities_destroyed", "cities_left": 0})
    data = results.result_picture(lang, game=games.get(kind), options={"difficulty": "hard"}, result=result, parts={})
    read = Image.open(io.BytesIO(data))
    assert read.format == "PNG" and read.size == (results.WIDTH, results.HEIGHT)
    assert read.convert("RGB").tobytes() == drawn[0].convert("RGB").tobytes()
