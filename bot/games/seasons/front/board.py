"""The Seasons picture: the season wheel with the token on the current month and the year, and Dummbot's
score, crystals, hand and summoned cards. Shared drawing (fonts, caches, the PNG writer) is bot/render/picture.py.
"""

from __future__ import annotations

import dataclasses
import functools
import math
from collections.abc import Callable, Mapping, Sequence
from typing import Any

from PIL import Image, ImageDraw

from engine.seasons.summary import Season, SeasonsSummary

from ....i18n import has, t
from ....render import picture as p
from ....render import text as picture_text
from ....render.picture import BACKGROUND, FAINT, GOLD, PANEL, PANEL_EDGE, TEXT, Colour

CRYSTAL: Colour = (110, 210, 235)
SEASON_MONTHS = {"winter": (1, 2, 3), "spring": (4, 5, 6), "summer": (7, 8, 9), "autumn": (10, 11, 12)}
SEASON_COLOURS: dict[str, Colour] = {
    "winter": (72, 132, 206),
    "spring": (86, 172, 92),
    "summer": (240, 172, 44),
    "autumn": (168, 86, 52),
}
SEASONS_TILE: dict[str, Colour] = {"magic_item": (64, 66, 118), "familiar": (110, 74, 46)}
ROMAN = {1: "I", 2: "II", 3: "III"}

LABELS = {
    "en": {"dummbot": "Dummbot", "dice": "dice {dice}", "round_dice": "{season} dice: {first} | {second}"},
    "ja": {"dummbot": "ダムボット", "dice": "ダイス: {dice}", "round_dice": "{season}のダイス: {first}｜{second}"},
}
# The header's dice are one short word ("ダイス: 手元"), not the state field's phrase (word.table: 手元のダイス).
BOARD_WORDS = {"table": "word.board_dice_table", "bot": "word.board_dice_bot"}

# The Dummbot header's regions, each a layer by the values it shows: the name, level and score above, the
# crystals and the hand below (the count that changes most often redraws only its own row).
HEADER = (440, 0, 800, 150)
HEADER_TOP = (440, 0, 800, 70)
HEADER_BOTTOM = (440, 70, 800, 150)


def _label(name: str, **params: Any) -> str:
    return p.label(LABELS, name, **params)


def _word(value: str) -> str:
    """A difficulty, a season or the dice on the board: its ``word.*`` of the game's locale in Japanese (a value
    without one as itself), the value in English."""
    key = BOARD_WORDS.get(value, f"word.{value}")
    return t("ja", key) if p.lang() == "ja" and has(key) else value


def board(summary: SeasonsSummary | Mapping[str, Any], lang: str = "en",
          cards: Mapping[str, Mapping[str, Any]] | None = None) -> bytes:
    """The season wheel with the token on the current month, the year, and Dummbot's crystals, hand and cards.

    ``summary`` is the game's summary, or its JSON form (the export's ``state``; the bench's figures).
    ``cards`` maps card ids to ``{"name": str, "prestige": int}``; without it the names and prestige come
    from ``engine.seasons.CATALOG`` (or the engine's card data) when available, else tiles show ids only.
    ``lang`` is the language of the labels and card names ("en" or "ja"). A picture already drawn for the
    same parts of the summary is not drawn again.
    """
    s = summary if isinstance(summary, SeasonsSummary) else SeasonsSummary.from_json(summary)
    with p.drawing_in(lang):
        bot = s.dummbot
        parts = [s.month, s.year, s.season, s.past_end, s.difficulty, s.dice, s.dice_season, s.round_dice,
                 bot.score, bot.crystals, bot.hand_size, bot.summoned]
        return p.remembered("seasons", [parts, cards], lambda: p.png(_board(s, cards), p.palette_file(__package__)))


def _board(summary: SeasonsSummary, cards: Mapping[str, Mapping[str, Any]] | None) -> Image.Image:
    image = Image.new("RGB", (p.WIDTH, p.HEIGHT), BACKGROUND)
    draw = ImageDraw.Draw(image)
    month = p.clamp(summary.month, 1, 12)
    year = p.clamp(summary.year, 1, 3)
    past_end = bool(summary.past_end)
    # Past month 12 of year 3 (S-9.4, the game's end) the token stands on the winter space (README's ruling).
    season = "winter" if past_end else str(summary.season)
    if p.USE_LAYERS:  # the ring every month shares, then what this month changes on it
        image.paste(_reduced_ring(), WHEEL_AT)
        patch, (x, y) = _season_wheel(month, year, season, past_end)
        image.paste(patch, (WHEEL_AT[0] + x, WHEEL_AT[1] + y))
    else:
        image.paste(_wheel_in_full(month, year, season, past_end), WHEEL_AT)

    bot = summary.dummbot
    header = (_word(summary.difficulty), _word(summary.dice), bot.score, bot.crystals, max(0, bot.hand_size))
    if p.USE_LAYERS:
        image.paste(_header_top(p.lang(), *header[:3]), HEADER_TOP[:2])
        image.paste(_header_bottom(p.lang(), *header[3:]), HEADER_BOTTOM[:2])
    else:
        _dummbot_header(draw, *header)
    _summoned_tiles(draw, list(bot.summoned), cards, box=TILES, image=image)
    _round_dice(draw, summary.dice_season, summary.round_dice)
    return image


def palette_samples() -> list[Image.Image]:
    """The pictures the board's palette is made from (tools/build_palettes.py): one of each season — its
    colours and the token — with Dummbot's tiles of both kinds, the round's dice and a score, crystals and hand;
    in English (the Japanese text has the same colours)."""
    catalog = _catalog_ids() or [str(n) for n in range(1, 101)]
    samples = []
    with p.drawing_in("en"):
        for n, month in enumerate((2, 5, 8, 11)):
            summary = SeasonsSummary.from_json({
                "year": n % 3 + 1, "month": month, "season": _season_of(month), "difficulty": "wizard",
                "dice": ("bot", "table")[n % 2], "round_dice": [1, 2] if n % 2 else [],
                "dummbot": {"crystals": 10 * month, "hand_size": month, "summoned": catalog[25 * n:25 * n + 25],
                            "score": 9 * month}})
            samples.append(_board(summary, None))
    return samples


def _round_dice(draw: ImageDraw.ImageDraw, season: Season, dice: tuple[int, ...]) -> None:
    """S-1.4: the round's two dice, each by the face only it has, under Dummbot's cards (older table-dice games,
    which took any die, have none)."""
    if len(dice) != 2:
        return
    from engine.seasons import face_text

    from ..text import die_mark

    marks = [mark for d in dice if (mark := die_mark(season, d)) is not None]
    if len(marks) < len(dice):
        return
    first, second = (face_text(m, p.lang()) for m in marks)
    text = _label("round_dice", season=_word(season), first=first, second=second)
    draw.text((452, DICE_Y), p.fit(text, p.font(15), TILES[2] - 452), font=p.font(15), fill=p.MUTED, anchor="lm")


# --- the season wheel -----------------------------------------------------------------------------------

WHEEL = 430  # side of the wheel's square, in output pixels
WHEEL_AT = (10, 10)  # its corner on the board
SUPERSAMPLE = 2  # the wheel is drawn at twice the size and reduced, for smooth edges
_S = SUPERSAMPLE
_SIZE = WHEEL * _S
_C = _SIZE / 2
_OUTER, _INNER = 212 * _S, 104 * _S


# Every month of every year (36) is prepared at start, as the part it changes on the ring only (about 250 KB
# each); a season that is not its month's (odd input) is drawn when asked for.
@p.layer_cache(maxsize=48, static=True)
def _season_wheel(month: int, year: int, season: str, past_end: bool) -> tuple[Image.Image, tuple[int, int]]:
    """What this month and year change on the reduced ring (``_reduced_ring``), and where: the ring every
    month shares (drawn once) with this month lit, the token and the hub drawn on a copy, and only the part
    they changed reduced. Pasted on the ring: the same pixels as drawing it whole (``_wheel_in_full``;
    tests check). ``past_end``: the token has passed month 12 of year 3 (S-9.4), and stands beyond it on the
    winter space; month 12 stays lit, the last month of the game."""
    wheel = _wheel_ring().copy()
    draw = ImageDraw.Draw(wheel)
    _month_segment(draw, month, lit=True)
    _spokes(draw)
    _month_number(draw, month, lit=True)
    _wheel_top(draw, month, year, season, past_end)
    # Only what this month changed is reduced again, into the reduced ring: each output pixel comes from its
    # own 2x2 block, so the rest is the ring's own (the same pixels as reducing the whole wheel).
    box = _changed_box(month)
    if past_end:  # and the token's space, beyond month 12
        box = _union(box, _changed_box(1))
    return wheel.reduce(_S, box=box), (box[0] // _S, box[1] // _S)


@p.layer_cache(maxsize=1, static=True)
def _reduced_ring() -> Image.Image:
    return _wheel_ring().reduce(_S)


def _union(a: tuple[int, int, int, int], b: tuple[int, int, int, int]) -> tuple[int, int, int, int]:
    return min(a[0], b[0]), min(a[1], b[1]), max(a[2], b[2]), max(a[3], b[3])


def _changed_box(month: int) -> tuple[int, int, int, int]:
    """The part of the supersampled wheel a month draws over the ring: its segment (from the centre to the
    rim, with the spokes on its edges and its number, rim and token) and the hub, with a margin, on the 2x2
    grid."""
    start = math.radians(-90 + (month - 1) * 30)
    points = [p.polar(_C, _C, _OUTER, start + math.radians(k)) for k in range(0, 31, 5)] + [(_C, _C)]
    margin = 8 * _S
    hub = _INNER
    xs = [x for x, _ in points] + [_C - hub, _C + hub]
    ys = [y for _, y in points] + [_C - hub, _C + hub]

    def snap(v: float, up: bool) -> int:
        v = max(0, min(_SIZE, v + (margin if up else -margin)))
        return int(math.ceil(v / _S) * _S) if up else int(v // _S * _S)

    return (snap(min(xs), False), snap(min(ys), False), snap(max(xs), True), snap(max(ys), True))


@p.layer_cache(maxsize=1, static=True)
def _wheel_ring() -> Image.Image:
    """The ring with no month lit, at the supersampled size: the segments, spokes and numbers."""
    wheel = Image.new("RGB", (_SIZE, _SIZE), BACKGROUND)
    draw = ImageDraw.Draw(wheel)
    for m in range(1, 13):
        _month_segment(draw, m, lit=False)
    _spokes(draw)
    for m in range(1, 13):
        _month_number(draw, m, lit=False)
    return wheel


def _wheel_in_full(month: int, year: int, season: str, past_end: bool) -> Image.Image:
    """The wheel drawn whole, every segment and number (the reference for ``_season_wheel``). The lit month's
    segment goes on last, over the others (where neighbouring segments meet at the hub, the lit one wins)."""
    wheel = Image.new("RGB", (_SIZE, _SIZE), BACKGROUND)
    draw = ImageDraw.Draw(wheel)
    for m in range(1, 13):
        _month_segment(draw, m, lit=False)
    _month_segment(draw, month, lit=True)
    _spokes(draw)
    for m in range(1, 13):
        _month_number(draw, m, lit=m == month)
    _wheel_top(draw, month, year, season, past_end)
    return wheel.reduce(_S)


def _month_segment(draw: ImageDraw.ImageDraw, m: int, lit: bool) -> None:
    start = -90 + (m - 1) * 30
    colour = SEASON_COLOURS[_season_of(m)]
    if not lit:
        colour = p.mix(colour, BACKGROUND, 0.35)
    draw.pieslice(p.circle(_C, _C, _OUTER), start, start + 30, fill=colour)


def _spokes(draw: ImageDraw.ImageDraw) -> None:
    for m in range(12):  # spokes; thicker between seasons
        angle = math.radians(-90 + m * 30)
        width = 5 * _S if m % 3 == 0 else 2 * _S
        draw.line([p.polar(_C, _C, _INNER, angle), p.polar(_C, _C, _OUTER, angle)], fill=BACKGROUND, width=width)
    draw.ellipse(p.circle(_C, _C, _OUTER), outline=BACKGROUND, width=3 * _S)


def _month_number(draw: ImageDraw.ImageDraw, m: int, lit: bool) -> None:
    x, y = p.polar(_C, _C, _OUTER - 26 * _S, math.radians(-75 + (m - 1) * 30))
    ink = TEXT if lit else p.mix(TEXT, BACKGROUND, 0.25)
    # The wheel is cached: the same font in every language.
    draw.text((x, y), str(m), font=picture_text.default_font(22 * _S), fill=ink, anchor="mm")


def _wheel_top(draw: ImageDraw.ImageDraw, month: int, year: int, season: str, past_end: bool = False) -> None:
    """The current month's rim, the season token on it (past the end, on the next space: winter's), and the
    hub (season glyph, year, pips)."""
    s, c = _S, _C
    current = math.radians(-75 + (month if past_end else month - 1) * 30)
    start = -90 + (month - 1) * 30
    draw.arc(p.circle(c, c, _OUTER - 2 * s), start + 1, start + 29, fill=TEXT, width=5 * s)

    # The season token: a bright disc on the current month, inside the ring of numbers.
    tx, ty = p.polar(c, c, (_OUTER + _INNER) / 2 - 18 * s, current)
    draw.ellipse(p.circle(tx, ty, 22 * s), fill=(250, 250, 250), outline=(20, 20, 24), width=4 * s)
    _season_glyph(draw, season, tx, ty, 13 * s, SEASON_COLOURS.get(season, TEXT), width=3 * s)

    # The hub: the current season's glyph, the year in Roman numerals, three pips.
    draw.ellipse(p.circle(c, c, _INNER - 6 * s), fill=PANEL, outline=PANEL_EDGE, width=2 * s)
    _season_glyph(draw, season, c, c - 52 * s, 16 * s, SEASON_COLOURS.get(season, TEXT), width=3 * s)
    draw.text((c, c + 2 * s), ROMAN[year], font=picture_text.default_font(52 * s), fill=TEXT, anchor="mm")
    for i in range(3):
        px = c + (i - 1) * 24 * s
        filled = i < year
        draw.ellipse(
            p.circle(px, c + 52 * s, 7 * s),
            fill=GOLD if filled else PANEL,
            outline=GOLD if filled else FAINT,
            width=2 * s,
        )


def _season_glyph(
    draw: ImageDraw.ImageDraw, season: str, x: float, y: float, r: float, colour: Colour, width: int
) -> None:
    """A tiny picture of the season: snowflake, sprout, sun, falling leaf."""
    if season == "winter":
        for k in range(3):
            a = math.radians(90 + k * 60)
            draw.line([p.polar(x, y, r, a), p.polar(x, y, r, a + math.pi)], fill=colour, width=width)
    elif season == "spring":
        draw.line([(x, y + r), (x, y - r * 0.2)], fill=colour, width=width)
        draw.ellipse((x - r, y - r * 0.9, x, y - r * 0.1), fill=colour)
        draw.ellipse((x, y - r * 0.6, x + r, y + r * 0.2), fill=colour)
    elif season == "summer":
        draw.ellipse(p.circle(x, y, r * 0.5), fill=colour)
        for k in range(8):
            a = math.radians(k * 45)
            draw.line([p.polar(x, y, r * 0.7, a), p.polar(x, y, r, a)], fill=colour, width=width)
    else:
        leaf = [(x, y - r), (x + r * 0.75, y), (x, y + r), (x - r * 0.75, y)]
        draw.polygon(leaf, fill=colour)
        draw.line([(x, y - r * 0.6), (x, y + r * 1.2)], fill=BACKGROUND, width=max(1, width // 2))


# --- Dummbot --------------------------------------------------------------------------------------------


@p.layer_cache(maxsize=64)
def _header_top(lang: str, difficulty: str, dice: str, score: int) -> Image.Image:
    """The header's name, level and score as drawn on the board, cut out (drawn in ``lang``)."""
    return p.cut(HEADER_TOP, lambda d: _header_name_and_score(d, difficulty, dice, score))


@p.layer_cache(maxsize=64)
def _header_bottom(lang: str, crystals: int, hand: int) -> Image.Image:
    """The header's crystals and hand as drawn on the board, cut out (drawn in ``lang``)."""
    return p.cut(HEADER_BOTTOM, lambda d: _header_crystals_and_hand(d, crystals, hand))


def _dummbot_header(draw: ImageDraw.ImageDraw, difficulty: str, dice: str, score: int, crystals: int,
                    hand: int) -> None:
    _header_name_and_score(draw, difficulty, dice, score)
    _header_crystals_and_hand(draw, crystals, hand)


def _header_name_and_score(draw: ImageDraw.ImageDraw, difficulty: str, dice: str, score: int) -> None:
    draw.text((452, 10), _label("dummbot"), font=p.font(24), fill=TEXT)
    caption = [difficulty] if difficulty else []
    if dice:
        caption.append(_label("dice", dice=dice))
    draw.text((453, 42), " · ".join(caption), font=p.font(14), fill=p.MUTED)

    # Score (prestige so far) at the top right, beside the name.
    score_text = str(score)
    score_font = p.font(28)
    draw.text((790, 26), score_text, font=score_font, fill=TEXT, anchor="rm")
    p.star(draw, 790 - draw.textlength(score_text, font=score_font) - 20, 26, 15, GOLD)


def _header_crystals_and_hand(draw: ImageDraw.ImageDraw, crystals: int, hand: int) -> None:
    # Crystals, the number players look for first, then the hand as a fan of card backs; the hand is
    # placed after the crystals' measured width so that big numbers never collide.
    y = 102
    crystals_text = str(crystals)
    crystal_font = p.font(46)
    _crystal_glyph(draw, 478, y, 24)
    draw.text((512, y), crystals_text, font=crystal_font, fill=TEXT, anchor="lm")
    x = max(640, 512 + draw.textlength(crystals_text, font=crystal_font) + 36)

    shown = min(hand, 5)
    for i in range(shown):
        cx = x + i * 7
        draw.rounded_rectangle(
            (cx, y - 22, cx + 26, y + 20), radius=4, fill=p.CARD_BACK, outline=(196, 180, 226), width=2
        )
    if hand == 0:
        draw.rounded_rectangle((x, y - 22, x + 26, y + 20), radius=4, outline=FAINT, width=2)
    x += max(shown - 1, 0) * 7 + 34
    draw.text((x, y), f"x{hand}", font=p.font(30), fill=TEXT, anchor="lm")
    draw.line((452, 146, 790, 146), fill=PANEL_EDGE, width=2)


def _summoned_tiles(
    draw: ImageDraw.ImageDraw, summoned: Sequence[str], cards: Mapping[str, Mapping[str, Any]] | None, box: tuple[int, int, int, int],
    image: Image.Image | None = None,
) -> None:
    left, top, _right, _bottom = box
    cols, rows, gap = TILE_GRID
    tile_w, tile_h = _tile_size(box)
    if not summoned:
        draw.rounded_rectangle((left, top, left + tile_w, top + tile_h), radius=6, outline=FAINT, width=2)
        draw.text((left + tile_w / 2, top + tile_h / 2), "0", font=p.font(20), fill=FAINT, anchor="mm")
        return
    capacity = cols * rows
    overflow = len(summoned) - capacity
    visible = summoned if overflow <= 0 else summoned[: capacity - 1]
    info = _seasons_card_info(cards)
    for i, card_id in enumerate(visible):
        x = left + (i % cols) * (tile_w + gap)
        y = top + (i // cols) * (tile_h + gap)
        name, prestige, kind = info(card_id)
        if image is None or not p.USE_LAYERS:
            _card_tile(draw, (x, y, x + tile_w, y + tile_h), card_id, name, prestige, kind)
        else:  # the tile as drawn once (a static layer), pasted: the same pixels (tests/render checks)
            image.paste(_tile_layer(p.lang(), tile_w, tile_h, card_id, name, prestige, kind), (x, y))
    if overflow > 0:
        i = capacity - 1
        x = left + (i % cols) * (tile_w + gap)
        y = top + (i // cols) * (tile_h + gap)
        p.more_tile(draw, (x, y, x + tile_w, y + tile_h), overflow + 1, 20, fill=PANEL)


TILES = (452, 156, 790, 414)  # where the summoned cards' tiles go
DICE_Y = 428  # the line naming the round's two dice, below the tiles
TILE_GRID = (4, 5, 5)  # columns, rows, gap


def _tile_size(box: tuple[int, int, int, int]) -> tuple[int, int]:
    left, top, right, bottom = box
    cols, rows, gap = TILE_GRID
    return (right - left - gap * (cols - 1)) // cols, (bottom - top - gap * (rows - 1)) // rows


@p.layer_cache(maxsize=1024, static=True)
def _tile_layer(lang: str, width: int, height: int, card_id: str, name: str | None, prestige: int | None,
                kind: str | None) -> Image.Image:
    """One card's tile, drawn once per language on the board's background and reused (issue 12): the tiles
    were half of a Seasons picture's drawing. ``lang`` is in the key: the tile is drawn in it."""
    tile = Image.new("RGB", (width + 1, height + 1), BACKGROUND)
    _card_tile(ImageDraw.Draw(tile), (0, 0, width, height), card_id, name, prestige, kind)
    return tile


def _card_tile(
    draw: ImageDraw.ImageDraw,
    box: tuple[int, int, int, int],
    card_id: str,
    name: str | None,
    prestige: int | None,
    kind: str | None,
) -> None:
    x0, y0, x1, y1 = box
    draw.rounded_rectangle(
        box, radius=6, fill=SEASONS_TILE.get(kind or "", PANEL), outline=PANEL_EDGE, width=1
    )
    if name and p.lang() == "en":
        name = p.latin(name)
    layout = tile_layout(x1 - x0, y1 - y0, card_id, name, prestige)
    draw.text((x0 + layout.id_at[0], y0 + layout.id_at[1]), layout.id_text, font=layout.id_font, fill=TEXT,
              anchor="ls")
    if layout.coin is not None:
        cx, cy, r = layout.coin
        p.coin(draw, x0 + cx, y0 + cy, r, badge_text(prestige), size=layout.coin_size)
    for line, (x, y) in layout.lines:
        draw.text((x0 + x, y0 + y), line, font=layout.name_font, fill=(214, 216, 224), anchor="ls")


Box = tuple[float, float, float, float]


@dataclasses.dataclass(frozen=True)
class TileLayout:
    """Where a card tile's parts go, from its top-left corner: the number (its baseline's left end), the
    prestige badge (centre and radius) and each line of the name (baseline's left end). ``boxes`` are what
    they cover, measured as Pillow draws them."""

    id_text: str
    id_font: p.Font
    id_at: tuple[float, float]
    coin: tuple[float, float, float] | None
    coin_size: int
    name_font: p.Font
    lines: tuple[tuple[str, tuple[float, float]], ...]

    def boxes(self) -> dict[str, Box]:
        """Each part's box: "id", "coin" and "name 1", "name 2" (top line first)."""
        found = {"id": _MEASURE.textbbox(self.id_at, self.id_text, font=self.id_font, anchor="ls")}
        if self.coin is not None:
            found["coin"] = p.circle(*self.coin)
        for k, (line, at) in enumerate(self.lines, 1):
            found[f"name {k}"] = _MEASURE.textbbox(at, line, font=self.name_font, anchor="ls")
        return found

    def overlaps(self) -> list[tuple[str, str]]:
        """The pairs of parts that meet: the number, the badge and the name (its own lines may touch)."""
        parts = list(self.boxes().items())
        return [(a, b) for i, (a, box_a) in enumerate(parts) for b, box_b in parts[i + 1:]
                if not (a.startswith("name") and b.startswith("name")) and _meet(box_a, box_b)]


_MEASURE = ImageDraw.Draw(Image.new("L", (1, 1)))
PAD = 3  # the tile's inner margin, and the least space between two of its parts
# The tile's styles, best first: the number's size, the badge's radius and text size, the name's size and lines.
# A name that fits one line leaves room for a large number; a longer one takes two lines, made smaller until
# neither line runs into the number or the badge (「イシュターの天秤」, "Pendant of Ragnor", "Yjang's
# Forgotten Vase").
TILE_STYLES = ((17, 10, 13, 11, 1), (17, 10, 13, 10, 1), (13, 8, 11, 11, 2), (13, 8, 11, 10, 2), (12, 8, 11, 9, 2),
               (11, 7, 10, 9, 2))


def badge_text(prestige: int | None) -> str:
    """A prestige badge's number; a negative one with the true minus sign (U+2212) where the picture's font has it
    (the Japanese pictures' CJK font: ja-style writes no ASCII minus), else the hyphen-minus (Pillow's bundled font
    has no U+2212 and would draw a box)."""
    minus = "\u2212" if p.latin("\u2212") == "\u2212" else "-"
    return str(prestige).replace("-", minus)


def tile_layout(width: int, height: int, card_id: str, name: str | None, prestige: int | None) -> TileLayout:
    """The first style whose parts all fit apart (the smallest otherwise, its name cut with "…")."""
    layout = None
    for n, style in enumerate(TILE_STYLES):
        layout, cut = _tile_style(width, height, card_id, name, prestige, *style)
        if n == len(TILE_STYLES) - 1 or not (cut or layout.overlaps()):
            break
    assert layout is not None
    return layout


def _tile_style(width: int, height: int, card_id: str, name: str | None, prestige: int | None, id_size: int,
                radius: int, coin_size: int, name_size: int, max_lines: int) -> tuple[TileLayout, bool]:
    """One style laid out, and whether the name had to be cut. The number and the badge share the top row;
    the name's lines stand on the bottom edge, upwards."""
    id_font, name_font = p.font(id_size), p.font(name_size)
    coin = None if prestige is None else (width - PAD - radius, PAD + radius, float(radius))
    while coin_size > 8 and p.font(coin_size).getlength(badge_text(prestige)) > 2 * radius - 3:  # "−10" inside it
        coin_size -= 1
    room = width - 2 * PAD - (2 * radius + PAD if coin else 0)
    id_text = p.fit(card_id, id_font, room)
    top = id_font.getbbox(id_text, anchor="ls")[1]
    lines = picture_text.wrap(name, name_font, width - 2 * PAD - 2, max_lines=max_lines) if name else []
    cut = bool(lines) and (len(lines) > max_lines or (lines[-1].endswith("…") and not (name or "").endswith("…")))
    step = name_size + 2
    bottom = height - PAD - name_font.getbbox("g", anchor="ls")[3]
    placed = tuple((line, (PAD + 1.0, bottom - (len(lines) - 1 - k) * step)) for k, line in enumerate(lines))
    return TileLayout(id_text, id_font, (PAD + 1.0, PAD - top), coin, coin_size, name_font, placed), cut


def _meet(a: Box, b: Box) -> bool:
    """Whether two boxes overlap or come closer than one pixel."""
    return a[0] < b[2] + 1 and b[0] < a[2] + 1 and a[1] < b[3] + 1 and b[1] < a[3] + 1


def _seasons_card_info(
    cards: Mapping[str, Mapping[str, Any]] | None,
) -> Callable[[str], tuple[str | None, int | None, str | None]]:
    """``id -> (English name, prestige, type)`` from ``cards``, else the catalog or the data, else ids only."""
    from engine.seasons import CATALOG  # the game's own catalog

    def info(card_id: str) -> tuple[str | None, int | None, str | None]:
        given = (cards or {}).get(card_id)
        if given is not None:
            return (
                p.str_or_none(p.field(given, "name", "name_en")),
                p.int_or_none(p.field(given, "prestige")),
                p.str_or_none(p.field(given, "type")),
            )
        card = CATALOG[card_id] if card_id in CATALOG else CATALOG.find(card_id)
        if card is None:
            return None, None, None
        ja = p.str_or_none(card.name_ja) if p.lang() == "ja" else None
        return (
            ja if ja and picture_text.drawable(ja) else p.str_or_none(card.name_en),
            p.int_or_none(card.prestige),
            p.str_or_none(card.type),
        )

    return info


def _crystal_glyph(draw: ImageDraw.ImageDraw, x: float, y: float, r: float) -> None:
    outline = [
        (x, y - r),
        (x + r * 0.7, y - r * 0.35),
        (x + r * 0.7, y + r * 0.35),
        (x, y + r),
        (x - r * 0.7, y + r * 0.35),
        (x - r * 0.7, y - r * 0.35),
    ]
    draw.polygon(outline, fill=CRYSTAL)
    draw.polygon(
        [(x, y - r), (x + r * 0.7, y - r * 0.35), (x, y), (x - r * 0.7, y - r * 0.35)],
        fill=p.mix(CRYSTAL, (255, 255, 255), 0.45),
    )
    draw.polygon(outline, outline=(40, 120, 150), width=2)


def _season_of(month: int) -> str:
    return next(season for season, months in SEASON_MONTHS.items() if month in months)


# --- prepared at start (bot/render/picture.py, ``prepare``) ---------------------------------------------


@p.preparing(first=True)
def _first_steps() -> list[p.Step]:
    """The ring and the wheel of every game's first picture (month 1, year I), the card data, and the board's
    palette."""
    return [_wheel_ring, _reduced_ring, lambda: _season_wheel(1, 1, _season_of(1), False),
            lambda: _seasons_card_info(None), functools.partial(p.palette_file, __package__)]


@p.preparing()
def _later_steps() -> list[p.Step]:
    """The wheel of every other month and year, and every card's tile in each language pictures have been
    drawn in (about 100 cards, a third of a millisecond each): one step each."""
    steps: list[p.Step] = [functools.partial(_season_wheel, month, year, _season_of(month), False)
                           for year in (1, 2, 3) for month in range(1, 13)]
    ids = _catalog_ids()
    for lang in p.languages():
        steps += [functools.partial(_prepare_tile, lang, card_id) for card_id in ids]
    return steps


def _prepare_tile(lang: str, card_id: str) -> None:
    with p.drawing_in(lang) as drawn_in:
        _tile_layer(drawn_in, *_tile_size(TILES), card_id, *_seasons_card_info(None)(card_id))


def _catalog_ids() -> list[str]:
    from engine.seasons import CATALOG  # the game's own catalog

    return CATALOG.ids()
