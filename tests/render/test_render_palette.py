"""Each board's PNG is a palette image of the board's own palette (bot/render/picture.py, ``png``): the palette
file is what the board's samples give, the board's flat colours are in it exactly, and a pixel maps by its own
colour alone, so what did not change between two pictures is written the same in both."""

from __future__ import annotations

import io
import sys
from pathlib import Path

import pytest
from PIL import Image, ImageDraw

from bot.games.seasons.front import board as sb
from bot.games.volfyirion.front import board as vb
from bot.render import picture

sys.path.insert(0, str(Path(__file__).resolve().parents[2] / "tools"))
import build_palettes

BOARDS = build_palettes.boards()


def test_both_boards_make_a_palette_of_their_own():
    assert [sb, vb] == BOARDS


@pytest.mark.parametrize("board", BOARDS, ids=lambda board: board.__name__)
def test_the_shipped_palette_is_what_the_board_s_samples_give(board):
    try:
        made = build_palettes.colours(board)
    finally:
        picture.clear_caches()  # the samples leave layers behind: the other tests count them
    shipped = picture.palette_file(board.__package__).getpalette()
    assert 0 < len(made) <= picture.PNG_COLOURS
    assert shipped[:3 * len(made)] == [int(c[i:i + 2], 16) for c in made for i in (1, 3, 5)], "run `make palettes`"


@pytest.mark.parametrize("board, flat", [
    (sb, [picture.BACKGROUND, picture.PANEL, picture.TEXT, *sb.SEASON_COLOURS.values(), *sb.SEASONS_TILE.values()]),
    (vb, [picture.BACKGROUND, picture.PANEL, vb.DRAGON, vb.CITY_STONE, vb.CITY_RUIN, *vb.VOLF_COLOURS.values()]),
])
def test_a_board_s_flat_colours_are_written_exactly(board, flat):
    image = Image.new("RGB", (len(flat) * 10, 10))
    draw = ImageDraw.Draw(image)
    for i, colour in enumerate(flat):
        draw.rectangle((10 * i, 0, 10 * i + 9, 9), fill=colour)
    written = Image.open(io.BytesIO(picture.png(image, picture.palette_file(board.__package__))))
    assert written.mode == "P"
    assert written.convert("RGB").tobytes() == image.tobytes()


def test_a_pixel_is_written_by_its_own_colour_alone():
    """The same colours on two pictures, one of them with much else drawn beside: the same indices."""
    plain = Image.new("RGB", (200, 100), picture.PANEL)
    ImageDraw.Draw(plain).text((10, 10), "Dummbot 42", font=picture.font(30), fill=picture.TEXT)
    busy = plain.copy()
    draw = ImageDraw.Draw(busy)
    for i in range(0, 200, 3):
        draw.line((i, 60, 200 - i, 99), fill=(i, 255 - i, (7 * i) % 256))
    decode = [Image.open(io.BytesIO(picture.png(im, picture.palette_file(sb.__package__)))) for im in (plain, busy)]
    top = (0, 0, 200, 55)
    assert decode[0].crop(top).tobytes() == decode[1].crop(top).tobytes()


def test_the_png_is_valid_deterministic_and_close():
    image = Image.new("RGB", (picture.WIDTH, picture.HEIGHT), picture.BACKGROUND)
    draw = ImageDraw.Draw(image)
    draw.text((20, 20), "Dummbot 42", font=picture.font(40), fill=picture.TEXT)
    png = picture.png(image, picture.palette_file(sb.__package__))
    checked = Image.open(io.BytesIO(png))
    checked.verify()  # chunk CRCs and structure
    back = Image.open(io.BytesIO(png)).convert("RGB")
    assert max(abs(a - b) for a, b in zip(back.tobytes(), image.tobytes(), strict=True)) <= 16  # the text's edges
    assert picture.png(image, picture.palette_file(sb.__package__)) == png  # the same picture, the same bytes
