"""Issue 33, point 5: the Seasons board's card tiles never draw a name over the card's number or its prestige
badge (the longest names of each language, two-line names among them), and past the end of year 3 the token is
drawn where the game ended (S-9.4: beyond month 12, on the winter space)."""

from __future__ import annotations

import io

import pytest
from PIL import Image, ImageChops, ImageDraw
from test_render_images import seasons_summary, token_spot

from bot.games.seasons.front import board as sb
from bot.games.seasons.front.board import board as seasons_board
from bot.render import picture
from engine.seasons import CATALOG
from engine.seasons.autoplay import play_game

WHITE = (255, 255, 255)
NAMED_IN_THE_ISSUE = {"48", "43", "5"}  # Pendant of Ragnor, Lantern of Xidit, 「イシュターの天秤」


def name_in(lang: str, card) -> str:
    return card.name_ja if lang == "ja" and card.name_ja else card.name_en


def longest(lang: str, n: int = 12) -> list[str]:
    """The ``n`` card ids whose names are widest in ``lang`` as the tiles draw them, and the issue's three."""
    with picture.drawing_in(lang):
        width = picture.font(11).getlength
        ranked = sorted(CATALOG, key=lambda card: -width(name_in(lang, card)))
    return [card.id for card in ranked[:n]] + sorted(NAMED_IN_THE_ISSUE)


def tile_of(lang: str, card_id: str) -> tuple[sb.TileLayout, str]:
    card = CATALOG[card_id]
    name = name_in(lang, card)
    with picture.drawing_in(lang):
        return sb.tile_layout(*sb._tile_size(sb.TILES), card_id, name, card.prestige), name


@pytest.mark.parametrize("lang", ["en", "ja"])
def test_no_tile_draws_a_name_over_its_number_or_badge(lang):
    width, height = sb._tile_size(sb.TILES)
    for card_id in longest(lang):
        layout, name = tile_of(lang, card_id)
        boxes = layout.boxes()
        assert {"id", "coin", "name 1"} <= set(boxes), (card_id, boxes)
        assert layout.overlaps() == [], (card_id, name, boxes)
        for part, (x0, y0, x1, y1) in boxes.items():  # every part inside the tile
            assert x0 >= 0 and y0 >= 0 and x1 <= width and y1 <= height, (card_id, part, boxes[part])
        drawn = "".join(line for line, _ in layout.lines)
        assert "…" not in drawn and drawn.replace(" ", "") == name.replace(" ", ""), (card_id, drawn)
    two_lines = [card_id for card_id in NAMED_IN_THE_ISSUE if len(tile_of(lang, card_id)[0].lines) == 2]
    assert two_lines, lang  # the two-line layout is among those checked


def draw_part(draw: ImageDraw.ImageDraw, layout: sb.TileLayout, part: str) -> None:
    """One part of a tile as ``_card_tile`` draws it (in white, alone)."""
    if part == "id":
        draw.text(layout.id_at, layout.id_text, font=layout.id_font, fill=WHITE, anchor="ls")
    elif part == "coin":
        assert layout.coin is not None
        picture.coin(draw, *layout.coin, "0", size=layout.coin_size)
    else:
        line, at = layout.lines[int(part.split()[1]) - 1]
        draw.text(at, line, font=layout.name_font, fill=WHITE, anchor="ls")


@pytest.mark.parametrize("lang", ["en", "ja"])
def test_each_part_of_a_tile_inks_only_its_own_box(lang):
    """The boxes are the drawing's own: each part drawn alone on a blank tile inks inside its box, so boxes
    apart mean ink apart."""
    width, height = sb._tile_size(sb.TILES)
    for card_id in longest(lang, n=6):
        layout, _ = tile_of(lang, card_id)
        for part, (x0, y0, x1, y1) in layout.boxes().items():
            alone = Image.new("RGB", (width + 1, height + 1), (0, 0, 0))
            with picture.drawing_in(lang):
                draw_part(ImageDraw.Draw(alone), layout, part)
            ink = alone.convert("L").point(lambda v: 255 if v > 40 else 0).getbbox()
            assert ink is not None and x0 - 1 <= ink[0] and y0 - 1 <= ink[1] and ink[2] <= x1 + 1 \
                and ink[3] <= y1 + 1, (card_id, part, ink, (x0, y0, x1, y1))


@pytest.mark.parametrize("lang", ["en", "ja"])
def test_a_board_of_the_longest_names_draws_every_tile(lang):
    ids = longest(lang, n=19)[:19]
    png = seasons_board(seasons_summary(dummbot={"crystals": 3, "hand_size": 2, "summoned": ids, "score": 90}),
                        lang=lang)
    image = Image.open(io.BytesIO(png)).convert("RGB")
    assert image.size == (picture.WIDTH, picture.HEIGHT)
    tiles = image.crop(sb.TILES)
    assert ImageChops.difference(tiles, Image.new("RGB", tiles.size, picture.BACKGROUND)).getbbox() is not None


def test_s9_4_past_the_end_of_year_3_the_token_stands_beyond_month_12():
    """A finished game (Dummbot's dots carried the token past month 12 of year 3): the token is drawn on the
    winter space beyond month 12, not on month 12."""
    _, steps = play_game(seed=0)
    summary = steps[-1].state.summary()
    assert summary.game_over and summary.past_end and (summary.year, summary.month) == (3, 12)
    ended = Image.open(io.BytesIO(seasons_board(summary))).convert("RGB")
    assert min(ended.getpixel(token_spot(1))) > 230  # the token's white face, beyond month 12
    assert min(ended.getpixel(token_spot(12))) < 230
    month_12 = Image.open(io.BytesIO(seasons_board(seasons_summary(year=3, month=12, season="autumn"))))
    assert min(month_12.convert("RGB").getpixel(token_spot(12))) > 230  # before the end: on month 12


def test_past_the_end_the_wheel_from_its_ring_is_the_wheel_drawn_whole():
    wheel = sb._reduced_ring().copy()
    patch, corner = sb._season_wheel(12, 3, "winter", True)
    wheel.paste(patch, corner)
    assert wheel.tobytes() == sb._wheel_in_full(12, 3, "winter", True).tobytes()


@pytest.mark.asyncio
@pytest.mark.parametrize("lang", ["en", "ja"])
async def test_the_picture_a_player_gets_draws_a_two_line_name_clear_of_the_badge(tmp_path, lang):
    """Through the console: Dummbot summons Pendant of Ragnor (#48), whose name takes two lines; the status
    reply's picture is the board drawn from the game's state, its tile laid out with nothing meeting."""
    import base64
    import json
    import sys
    from pathlib import Path

    sys.path.insert(0, str(Path(__file__).resolve().parents[1] / "bot"))
    from console_session import console_session

    async with console_session(tmp_path / "g.sqlite3", lang=lang, seed=1) as session:
        await session.type("/seasons start difficulty:wizard dice:table")
        await session.type("/seasons die face:draw, 1 dot")
        await session.type("/seasons reveal cards:48")
        items = await session.type("/game status")
        pngs = [base64.b64decode(f["base64"]) for item in items for f in item.get("files") or []
                if f["filename"] == "board.png"]
        exported = await session.type("/game export")
        state = next(json.loads(f["text"]) for item in exported for f in item.get("files") or []
                     if f["filename"].endswith(".json"))["state"]
    assert pngs and state["dummbot"]["summoned"] == ["48"]
    assert pngs[-1] == seasons_board(state, lang=lang)
    layout, name = tile_of(lang, "48")
    assert len(layout.lines) == 2 and layout.overlaps() == [], (name, layout.boxes())


def test_a_negative_prestige_badge_has_a_true_minus_in_japanese_and_a_drawable_one_in_english():
    """ja-style writes no ASCII minus: the Japanese picture's badge says −10 (U+2212, which its CJK font has);
    the English picture keeps the hyphen-minus, since Pillow's bundled font has no U+2212."""
    from bot.render import picture as p

    for lang, expected in (("ja", "\u221210"), ("en", "-10")):
        token = p.LANG.set(lang)
        try:
            assert sb.badge_text(-10) == expected
            assert sb.badge_text(4) == "4"
        finally:
            p.LANG.reset(token)
