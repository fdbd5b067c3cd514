"""The pictures as drawn before this change (bot/render/images.py at 3f01f6f), kept only as the bench's
baseline measured in the same run. Not used by the bot.

Pictures for the bot's replies: the Seasons season wheel and Dummbot, the Volfyirion cities and Rage Pile.

The embed text stays the authoritative record; these PNGs are a glance. In English (the default) they are
drawn with Pillow's bundled scalable font and English names only; with ``lang="ja"`` the labels and card
names are Japanese, drawn with the CJK font the project ships (bot/render/text.py), and long names wrap
instead of being cut. Without that font a Japanese picture falls back to English. The same summary always gives
the same bytes (no timestamps, no randomness, the basic text layout engine rather than whatever Raqm the
machine happens to have).
"""

from __future__ import annotations

import asyncio
import contextvars
import functools
import importlib
import math
import struct
import zlib
from collections.abc import Callable, Mapping, Sequence
from concurrent.futures import ThreadPoolExecutor
from functools import lru_cache
from typing import Any

from PIL import Image, ImageDraw, ImageFont

from bot.render import text as picture_text

WIDTH, HEIGHT = 800, 450

Colour = tuple[int, int, int]

BACKGROUND: Colour = (30, 33, 40)
PANEL: Colour = (43, 47, 57)
PANEL_EDGE: Colour = (66, 71, 84)
TEXT: Colour = (236, 237, 241)
MUTED: Colour = (150, 155, 168)
FAINT: Colour = (96, 101, 114)
GOLD: Colour = (232, 188, 72)
CRYSTAL: Colour = (110, 210, 235)
CARD_BACK: Colour = (86, 62, 130)
DRAGON: Colour = (200, 48, 44)

SEASON_MONTHS = {"winter": (1, 2, 3), "spring": (4, 5, 6), "summer": (7, 8, 9), "autumn": (10, 11, 12)}
SEASON_COLOURS: dict[str, Colour] = {
    "winter": (72, 132, 206),
    "spring": (86, 172, 92),
    "summer": (240, 172, 44),
    "autumn": (168, 86, 52),
}
SEASONS_TILE: dict[str, Colour] = {"magic_item": (64, 66, 118), "familiar": (110, 74, 46)}
VOLF_COLOURS: dict[str, Colour] = {
    "purple": (104, 66, 150),
    "red": (160, 56, 52),
    "turquoise": (40, 140, 140),
    "neutral": (96, 100, 112),
}
CITY_STONE: Colour = (50, 66, 92)
CITY_RUIN: Colour = (78, 78, 78)
CITY_RUIN_INK: Colour = (122, 122, 122)

ROMAN = {1: "I", 2: "II", 3: "III"}

# The language of the picture being drawn (set by the public functions; drawing happens in one call).
_LANG: contextvars.ContextVar[str] = contextvars.ContextVar("picture_lang", default="en")
LABELS = {
    "en": {"dummbot": "Dummbot", "dice": "dice {dice}", "turn": "Turn {turn}", "lair": "Lair",
           "rage_pile": "Rage Pile", "wonders": "Wonders"},
    "ja": {"dummbot": "ダムボット", "dice": "ダイス: {dice}", "turn": "ターン{turn}", "lair": "ヴォルフィーリオンの巣",
           "rage_pile": "憤怒パイル", "wonders": "ワンダー"},
}
WORDS_JA = {"apprentice": "見習い", "wizard": "魔法使い", "archmage": "大魔導師", "table": "手元", "bot": "ボット",
            "easy": "イージー", "normal": "ノーマル", "hard": "ハード"}


def _label(name: str, **params: Any) -> str:
    return LABELS[_LANG.get()][name].format(**params)


def _word(value: str) -> str:
    return WORDS_JA.get(value, value) if _LANG.get() == "ja" else value


# --- public API -----------------------------------------------------------------------------------------

# Pictures are drawn on one thread of their own (issue 12): a burst of them queues there, one at a time,
# instead of taking every thread of the default executor (which the forecasts and the danger meter use)
# and competing with the event loop for the interpreter on every core.
PICTURE_THREADS = 1
_pictures = ThreadPoolExecutor(max_workers=PICTURE_THREADS, thread_name_prefix="picture")


async def drawn(render: Callable[..., bytes], *args: Any) -> bytes:
    """``render(*args)`` on the picture thread, awaited without blocking the event loop."""
    return await asyncio.get_running_loop().run_in_executor(_pictures, functools.partial(render, *args))



def seasons_board(summary: Mapping[str, Any], cards: Mapping[str, Mapping[str, Any]] | None = None,
                  lang: str = "en") -> bytes:
    """The season wheel with the token on the current month, the year, and Dummbot's crystals, hand and cards.

    ``cards`` maps card ids to ``{"name": str, "prestige": int}``; without it the names and prestige come
    from ``engine.seasons.CATALOG`` (or the engine's card data) when available, else tiles show ids only.
    ``lang`` is the language of the labels and card names ("en" or "ja").
    """
    token = _LANG.set(picture_text.picture_lang(lang))
    try:
        return _seasons_board(summary, cards)
    finally:
        _LANG.reset(token)


def _seasons_board(summary: Mapping[str, Any], cards: Mapping[str, Mapping[str, Any]] | None) -> bytes:
    image = Image.new("RGB", (WIDTH, HEIGHT), BACKGROUND)
    draw = ImageDraw.Draw(image)
    month = _clamp(_int(summary.get("month"), 1), 1, 12)
    year = _clamp(_int(summary.get("year"), 1), 1, 3)
    season = str(summary.get("season") or "").lower()
    if season not in SEASON_MONTHS:
        season = _season_of(month)
    image.paste(_season_wheel(month, year, season), (10, 10))

    bot = summary.get("dummbot") or {}
    _dummbot_header(draw, summary, bot)
    summoned = [str(c) for c in bot.get("summoned") or []]
    _summoned_tiles(draw, summoned, cards, box=(452, 162, 790, 440), image=image)
    return _png(image)


def volfyirion_board(summary: Mapping[str, Any], troop_defence: Mapping[str, int] | None = None,
                     lang: str = "en") -> bytes:
    """Three cities (destroyed ones greyed and crossed), the Lair, the Rage Pile, the dragon token, Wonders.

    ``troop_defence`` maps Troop names to the defence they add; without it the values come from
    ``engine.volfyirion.CATALOG`` (or the engine's card data) when available, else only printed defence shows.
    ``lang`` is the language of the labels (Volfyirion's card names are English in every language).
    """
    token = _LANG.set(picture_text.picture_lang(lang))
    try:
        return _volfyirion_board(summary, troop_defence)
    finally:
        _LANG.reset(token)


def _volfyirion_board(summary: Mapping[str, Any], troop_defence: Mapping[str, int] | None) -> bytes:
    image = Image.new("RGB", (WIDTH, HEIGHT), BACKGROUND)
    draw = ImageDraw.Draw(image)

    draw.text((18, 12), _label("turn", turn=_int(summary.get("turn"), 0)), font=_font(22), fill=TEXT)
    difficulty = str(summary.get("difficulty") or "")
    if difficulty:
        draw.text((782, 16), _word(difficulty), font=_font(15), fill=MUTED, anchor="ra")

    cities = list(summary.get("cities") or [])[:3]
    for i in range(3):
        box = (15 + i * 260, 48, 15 + i * 260 + 250, 248)
        city = cities[i] if i < len(cities) else None
        layer = _city_layer_for(city, box, troop_defence) if USE_LAYERS else None
        if layer is None:
            _city_panel(draw, city, box, troop_defence)
        else:  # the panel as drawn once (a static layer), pasted: the same pixels (tests/render checks)
            image.paste(layer, box[:2])

    pile = summary.get("rage_pile") or {}
    token = str(summary.get("token") or "lair")
    _lair(draw, (15, 262, 165, 440), token_here=token != "rage_pile")
    _rage_pile(draw, pile, (178, 262, 430, 440), token_here=token == "rage_pile")
    _wonders(draw, list(summary.get("wonders") or []), (444, 262, 785, 440))
    return _png(image)


# --- Seasons --------------------------------------------------------------------------------------------

WHEEL = 430  # side of the wheel's square, in output pixels
SUPERSAMPLE = 2  # the wheel is drawn at twice the size and reduced, for smooth edges


@lru_cache(
    maxsize=8
)  # a game sits on the same month for a few replies; callers only paste it, never draw on it
def _season_wheel(month: int, year: int, season: str) -> Image.Image:
    s = SUPERSAMPLE
    size = WHEEL * s
    wheel = Image.new("RGB", (size, size), BACKGROUND)
    draw = ImageDraw.Draw(wheel)
    c = size / 2
    outer, inner = 212 * s, 104 * s

    for m in range(1, 13):
        start = -90 + (m - 1) * 30
        colour = SEASON_COLOURS[_season_of(m)]
        if m != month:
            colour = _mix(colour, BACKGROUND, 0.35)
        draw.pieslice(_circle(c, c, outer), start, start + 30, fill=colour)
    for m in range(12):  # spokes; thicker between seasons
        angle = math.radians(-90 + m * 30)
        width = 5 * s if m % 3 == 0 else 2 * s
        draw.line([_polar(c, c, inner, angle), _polar(c, c, outer, angle)], fill=BACKGROUND, width=width)
    draw.ellipse(_circle(c, c, outer), outline=BACKGROUND, width=3 * s)

    current = math.radians(-75 + (month - 1) * 30)
    start = -90 + (month - 1) * 30
    draw.arc(_circle(c, c, outer - 2 * s), start + 1, start + 29, fill=TEXT, width=5 * s)

    number_font = picture_text.default_font(22 * s)  # the wheel is cached: the same font in every language
    for m in range(1, 13):
        x, y = _polar(c, c, outer - 26 * s, math.radians(-75 + (m - 1) * 30))
        ink = TEXT if m == month else _mix(TEXT, BACKGROUND, 0.25)
        draw.text((x, y), str(m), font=number_font, fill=ink, anchor="mm")

    # The season token: a bright disc on the current month, inside the ring of numbers.
    tx, ty = _polar(c, c, (outer + inner) / 2 - 18 * s, current)
    draw.ellipse(_circle(tx, ty, 22 * s), fill=(250, 250, 250), outline=(20, 20, 24), width=4 * s)
    _season_glyph(draw, season, tx, ty, 13 * s, SEASON_COLOURS.get(season, TEXT), width=3 * s)

    # The hub: the current season's glyph, the year in Roman numerals, three pips.
    draw.ellipse(_circle(c, c, inner - 6 * s), fill=PANEL, outline=PANEL_EDGE, width=2 * s)
    _season_glyph(draw, season, c, c - 52 * s, 16 * s, SEASON_COLOURS.get(season, TEXT), width=3 * s)
    draw.text((c, c + 2 * s), ROMAN[year], font=picture_text.default_font(52 * s), fill=TEXT, anchor="mm")
    for i in range(3):
        px = c + (i - 1) * 24 * s
        filled = i < year
        draw.ellipse(
            _circle(px, c + 52 * s, 7 * s),
            fill=GOLD if filled else PANEL,
            outline=GOLD if filled else FAINT,
            width=2 * s,
        )
    return wheel.reduce(s)


def _season_glyph(
    draw: ImageDraw.ImageDraw, season: str, x: float, y: float, r: float, colour: Colour, width: int
) -> None:
    """A tiny picture of the season: snowflake, sprout, sun, falling leaf."""
    if season == "winter":
        for k in range(3):
            a = math.radians(90 + k * 60)
            draw.line([_polar(x, y, r, a), _polar(x, y, r, a + math.pi)], fill=colour, width=width)
    elif season == "spring":
        draw.line([(x, y + r), (x, y - r * 0.2)], fill=colour, width=width)
        draw.ellipse((x - r, y - r * 0.9, x, y - r * 0.1), fill=colour)
        draw.ellipse((x, y - r * 0.6, x + r, y + r * 0.2), fill=colour)
    elif season == "summer":
        draw.ellipse(_circle(x, y, r * 0.5), fill=colour)
        for k in range(8):
            a = math.radians(k * 45)
            draw.line([_polar(x, y, r * 0.7, a), _polar(x, y, r, a)], fill=colour, width=width)
    else:
        leaf = [(x, y - r), (x + r * 0.75, y), (x, y + r), (x - r * 0.75, y)]
        draw.polygon(leaf, fill=colour)
        draw.line([(x, y - r * 0.6), (x, y + r * 1.2)], fill=BACKGROUND, width=max(1, width // 2))


def _dummbot_header(draw: ImageDraw.ImageDraw, summary: Mapping[str, Any], bot: Mapping[str, Any]) -> None:
    draw.text((452, 10), _label("dummbot"), font=_font(24), fill=TEXT)
    caption = [_word(str(summary["difficulty"]))] if summary.get("difficulty") else []
    if summary.get("dice"):
        caption.append(_label("dice", dice=_word(str(summary["dice"]))))
    draw.text((453, 42), " · ".join(caption), font=_font(14), fill=MUTED)

    # Score (prestige so far) at the top right, beside the name.
    score = str(_int(bot.get("score"), 0))
    score_font = _font(28)
    draw.text((790, 26), score, font=score_font, fill=TEXT, anchor="rm")
    _star(draw, 790 - draw.textlength(score, font=score_font) - 20, 26, 15, GOLD)

    # Crystals, the number players look for first, then the hand as a fan of card backs; the hand is
    # placed after the crystals' measured width so that big numbers never collide.
    y = 102
    crystals = str(_int(bot.get("crystals"), 0))
    crystal_font = _font(46)
    _crystal_glyph(draw, 478, y, 24)
    draw.text((512, y), crystals, font=crystal_font, fill=TEXT, anchor="lm")
    x = max(640, 512 + draw.textlength(crystals, font=crystal_font) + 36)

    hand = max(0, _int(bot.get("hand_size"), 0))
    shown = min(hand, 5)
    for i in range(shown):
        cx = x + i * 7
        draw.rounded_rectangle(
            (cx, y - 22, cx + 26, y + 20), radius=4, fill=CARD_BACK, outline=(196, 180, 226), width=2
        )
    if hand == 0:
        draw.rounded_rectangle((x, y - 22, x + 26, y + 20), radius=4, outline=FAINT, width=2)
    x += max(shown - 1, 0) * 7 + 34
    draw.text((x, y), f"x{hand}", font=_font(30), fill=TEXT, anchor="lm")
    draw.line((452, 146, 790, 146), fill=PANEL_EDGE, width=2)


def _summoned_tiles(
    draw: ImageDraw.ImageDraw, summoned: Sequence[str], cards: Mapping | None, box: tuple[int, int, int, int],
    image: Image.Image | None = None,
) -> None:
    left, top, right, bottom = box
    cols, rows, gap = 4, 5, 6
    tile_w = (right - left - gap * (cols - 1)) // cols
    tile_h = (bottom - top - gap * (rows - 1)) // rows
    if not summoned:
        draw.rounded_rectangle((left, top, left + tile_w, top + tile_h), radius=6, outline=FAINT, width=2)
        draw.text((left + tile_w / 2, top + tile_h / 2), "0", font=_font(20), fill=FAINT, anchor="mm")
        return
    capacity = cols * rows
    overflow = len(summoned) - capacity
    visible = summoned if overflow <= 0 else summoned[: capacity - 1]
    info = _seasons_card_info(cards)
    for i, card_id in enumerate(visible):
        x = left + (i % cols) * (tile_w + gap)
        y = top + (i // cols) * (tile_h + gap)
        name, prestige, kind = info(card_id)
        if image is None or not USE_LAYERS:
            _card_tile(draw, (x, y, x + tile_w, y + tile_h), card_id, name, prestige, kind)
        else:  # the tile as drawn once (a static layer), pasted: the same pixels (tests/render checks)
            image.paste(_tile_layer(_LANG.get(), tile_w, tile_h, card_id, name, prestige, kind), (x, y))
    if overflow > 0:
        i = capacity - 1
        x = left + (i % cols) * (tile_w + gap)
        y = top + (i // cols) * (tile_h + gap)
        draw.rounded_rectangle(
            (x, y, x + tile_w, y + tile_h), radius=6, fill=PANEL, outline=PANEL_EDGE, width=2
        )
        draw.text(
            (x + tile_w / 2, y + tile_h / 2),
            f"+{overflow + 1}",
            font=_font(20),
            fill=TEXT,
            anchor="mm",
        )


USE_LAYERS = True  # False draws every tile straight onto the board (the reference the tests compare with)


@lru_cache(maxsize=1024)
def _tile_layer(lang: str, width: int, height: int, card_id: str, name: str | None, prestige: int | None,
                kind: str | None) -> Image.Image:
    """One card's tile, drawn once per language on the board's background and reused (issue 12): the tiles
    were half of a Seasons picture's drawing. ``lang`` is in the key: the tile is drawn in it."""
    tile = Image.new("RGB", (width + 1, height + 1), BACKGROUND)
    _card_tile(ImageDraw.Draw(tile), (0, 0, width, height), card_id, name, prestige, kind)
    return tile


def clear_layer_caches() -> None:
    """Forget every layer drawn once (the season wheels, the card tiles): the next picture draws them anew."""
    _season_wheel.cache_clear()
    _tile_layer.cache_clear()
    _city_layer.cache_clear()


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
    name_font = _font(11)
    if name and _LANG.get() == "en":
        name = _latin(name)
    # A long name wraps onto a second line (never cut mid-word with "…"); the id is smaller then.
    lines = picture_text.wrap(name, name_font, x1 - x0 - 10, max_lines=2) if name else []
    id_font = _font(17 if len(lines) < 2 else 13)
    draw.text((x0 + 6, y0 + (5 if len(lines) < 2 else 2)), _fit(card_id, id_font, x1 - x0 - 34), font=id_font,
              fill=TEXT)
    if prestige is not None:
        _coin(draw, x1 - 14, y0 + (14 if len(lines) < 2 else 11), 10 if len(lines) < 2 else 8, str(prestige))
    for k, line in enumerate(reversed(lines)):  # upwards from the tile's bottom edge
        draw.text((x0 + 6, y1 - 4 - k * 13), line, font=name_font, fill=(214, 216, 224), anchor="ld")


def _seasons_card_info(
    cards: Mapping[str, Mapping[str, Any]] | None,
) -> Callable[[str], tuple[str | None, int | None, str | None]]:
    """``id -> (English name, prestige, type)`` from ``cards``, else the catalog or the data, else ids only."""
    catalog = _engine_catalog("engine.seasons")
    data = None if catalog is not None else {c["id"]: c for c in _engine_data("seasons_cards") or []}

    def info(card_id: str) -> tuple[str | None, int | None, str | None]:
        given = (cards or {}).get(card_id)
        if given is not None:
            return (
                _str_or_none(_field(given, "name", "name_en")),
                _int_or_none(_field(given, "prestige")),
                _str_or_none(_field(given, "type")),
            )
        card = _catalog_find(catalog, card_id) if catalog is not None else (data or {}).get(card_id)
        if card is None:
            return None, None, None
        ja = _str_or_none(_field(card, "name_ja")) if _LANG.get() == "ja" else None
        return (
            ja if ja and picture_text.drawable(ja) else _str_or_none(_field(card, "name_en", "name")),
            _int_or_none(_field(card, "prestige")),
            _str_or_none(_field(card, "type", "kind")),
        )

    return info


# --- Volfyirion -----------------------------------------------------------------------------------------


def _city_layer_for(city: Any, box: tuple[int, int, int, int],
                    troop_defence: Mapping[str, int] | None) -> Image.Image | None:
    """The city's panel from the layer cache, or None when its values cannot be a key (odd input)."""
    try:
        key = None if city is None else tuple(sorted(city.items()))
        troop = None if city is None or city.get("destroyed") else _str_or_none(city.get("troop"))
        # Only this city's troop bonus is in the key: another city's troop does not redraw this panel.
        given = ((troop, _troop_defence(troop, troop_defence)),) if troop else None
        return _city_layer(_LANG.get(), box[2] - box[0], box[3] - box[1], key, given)
    except (TypeError, AttributeError):
        return None


@lru_cache(maxsize=256)
def _city_layer(lang: str, width: int, height: int, city: tuple | None, given: tuple | None) -> Image.Image:
    """One city's panel, drawn once per language and reused (issue 12): the panels were half of a Volfyirion
    picture's drawing, and a city changes far less often than the turn."""
    layer = Image.new("RGB", (width + 1, height + 1), BACKGROUND)
    _city_panel(ImageDraw.Draw(layer), None if city is None else dict(city), (0, 0, width, height),
                None if given is None else dict(given))
    return layer


def _city_panel(
    draw: ImageDraw.ImageDraw,
    city: Mapping[str, Any] | None,
    box: tuple[int, int, int, int],
    troop_defence: Mapping[str, int] | None,
) -> None:
    x0, y0, x1, y1 = box
    if city is None:
        draw.rounded_rectangle(box, radius=10, outline=FAINT, width=2)
        return
    destroyed = bool(city.get("destroyed"))
    fill, ink, muted = (CITY_RUIN, CITY_RUIN_INK, CITY_RUIN_INK) if destroyed else (CITY_STONE, TEXT, MUTED)
    draw.rounded_rectangle(
        box, radius=10, fill=fill, outline=PANEL_EDGE if not destroyed else (96, 96, 96), width=2
    )
    name_font = _font(21)
    draw.text(
        (x0 + 14, y0 + 12),
        _fit(str(city.get("name") or "?"), name_font, x1 - x0 - 28),
        font=name_font,
        fill=ink,
    )

    printed = _int(city.get("defence"), 0)
    troop = None if destroyed else _str_or_none(city.get("troop"))
    bonus = _troop_defence(troop, troop_defence) if troop else None
    total = printed + (bonus or 0)
    _shield(draw, x0 + 44, y0 + 84, 30, (70, 96, 140) if not destroyed else (96, 96, 96))
    draw.text((x0 + 44, y0 + 82), str(total), font=_font(30), fill=ink, anchor="mm")
    breakdown = f"{printed} + {bonus}" if bonus else f"{printed} + ?" if troop else ""
    draw.text((x0 + 88, y0 + 84), breakdown, font=_font(20), fill=muted, anchor="lm")

    slot_font = _font(16)
    slots = (("troop", city.get("troop")), ("building", city.get("building")))
    for k, (kind, name) in enumerate(slots):
        sy = y0 + 128 + k * 32
        draw.rounded_rectangle(
            (x0 + 10, sy, x1 - 10, sy + 26), radius=5, fill=_mix(fill, BACKGROUND, 0.35), outline=None
        )
        glyph = _sword if kind == "troop" else _house
        glyph(draw, x0 + 24, sy + 13, 8, muted if not name else ink)
        label = _fit(str(name), slot_font, x1 - x0 - 56) if name else "-"
        draw.text((x0 + 38, sy + 13), label, font=slot_font, fill=ink if name else FAINT, anchor="lm")

    if destroyed:
        cross = (30, 30, 30)
        draw.line((x0 + 16, y0 + 16, x1 - 16, y1 - 16), fill=cross, width=7)
        draw.line((x0 + 16, y1 - 16, x1 - 16, y0 + 16), fill=cross, width=7)


def _troop_defence(troop: str, given: Mapping[str, int] | None) -> int | None:
    if given is not None and troop in given:
        return _int_or_none(given[troop])
    catalog = _engine_catalog("engine.volfyirion")
    if catalog is not None:
        card = _catalog_find(catalog, troop)
        return None if card is None else _int_or_none(_field(card, "defence"))
    for card in _engine_data("volfyirion_cards") or []:
        if card.get("name") == troop and card.get("type") == "troop":
            return _int_or_none(card.get("defence"))
    return None


def _lair(draw: ImageDraw.ImageDraw, box: tuple[int, int, int, int], token_here: bool) -> None:
    x0, y0, x1, y1 = box
    draw.rounded_rectangle(box, radius=10, fill=PANEL, outline=PANEL_EDGE, width=2)
    cx = (x0 + x1) / 2
    # A cave mouth: a dark arch on a rocky mound.
    draw.pieslice((x0 + 18, y0 + 40, x1 - 18, y1 + 40), 180, 360, fill=(74, 64, 58))
    draw.pieslice((x0 + 42, y0 + 80, x1 - 42, y1 + 20), 180, 360, fill=(18, 16, 18))
    draw.rectangle((x0 + 2, y1 - 34, x1 - 2, y1 - 2), fill=PANEL)
    label_font = _font(16) if _font(16).getlength(_label("lair")) <= x1 - x0 - 8 else _font(12)
    draw.text((cx, y1 - 18), _label("lair"), font=label_font, fill=MUTED, anchor="mm")
    if token_here:
        _dragon_token(draw, cx, y0 + 100, 30)


def _rage_pile(
    draw: ImageDraw.ImageDraw, pile: Mapping[str, Any], box: tuple[int, int, int, int], token_here: bool
) -> None:
    x0, y0, x1, y1 = box
    draw.rounded_rectangle(box, radius=10, fill=PANEL, outline=PANEL_EDGE, width=2)
    size = max(0, _int(pile.get("size"), 0))
    top = _str_or_none(pile.get("top")) if size else None
    card_w, card_h = 110, 114
    base_x, base_y = x0 + 14, y0 + 12
    layers = min(size, 6)
    for i in range(max(layers - 1, 0)):  # the backs under the top card, offset to look like a stack
        off = (layers - 1 - i) * 4
        cx0, cy0 = base_x + off, base_y + off
        draw.rounded_rectangle(
            (cx0, cy0, cx0 + card_w, cy0 + card_h), radius=6, fill=CARD_BACK, outline=(40, 28, 60), width=2
        )
    if size == 0:
        draw.rounded_rectangle(
            (base_x, base_y, base_x + card_w, base_y + card_h), radius=6, outline=FAINT, width=2
        )
    elif top:
        colour = VOLF_COLOURS.get(_volf_colour(top) or "", (176, 170, 150))
        draw.rounded_rectangle(
            (base_x, base_y, base_x + card_w, base_y + card_h),
            radius=6,
            fill=(236, 230, 214),
            outline=colour,
            width=4,
        )
        draw.rectangle((base_x + 4, base_y + 4, base_x + card_w - 4, base_y + 22), fill=colour)
        _wrapped(
            draw,
            top,
            (base_x + 8, base_y + 30, base_x + card_w - 8, base_y + card_h - 8),
            _font(15),
            (34, 30, 28),
        )
    else:
        draw.rounded_rectangle(
            (base_x, base_y, base_x + card_w, base_y + card_h),
            radius=6,
            fill=CARD_BACK,
            outline=(196, 180, 226),
            width=2,
        )
        draw.text(
            (base_x + card_w / 2, base_y + card_h / 2),
            "?",
            font=_font(40),
            fill=(196, 180, 226),
            anchor="mm",
        )
    count_x = base_x + card_w + 64
    draw.text((count_x, y0 + 40), f"x{size}", font=_font(34), fill=TEXT, anchor="mm")
    draw.text(((x0 + x1) / 2, y1 - 18), _label("rage_pile"), font=_font(16), fill=MUTED, anchor="mm")
    if token_here:
        _dragon_token(draw, count_x, y0 + 104, 30)


def _wonders(
    draw: ImageDraw.ImageDraw, wonders: Sequence[Mapping[str, Any]], box: tuple[int, int, int, int]
) -> None:
    x0, y0, x1, y1 = box
    draw.rounded_rectangle(box, radius=10, fill=PANEL, outline=PANEL_EDGE, width=2)
    draw.text(((x0 + x1) / 2, y1 - 18), _label("wonders"), font=_font(16), fill=MUTED, anchor="mm")
    cols, rows, gap = 2, 3, 6
    left, top, right, bottom = x0 + 10, y0 + 10, x1 - 10, y1 - 34
    tile_w = (right - left - gap * (cols - 1)) // cols
    tile_h = (bottom - top - gap * (rows - 1)) // rows
    capacity = cols * rows
    overflow = len(wonders) - capacity
    visible = wonders if overflow <= 0 else wonders[: capacity - 1]
    if not wonders:
        draw.text(((x0 + x1) / 2, (top + bottom) / 2), "0", font=_font(24), fill=FAINT, anchor="mm")
    name_font = _font(15)
    for i, wonder in enumerate(visible):
        tx = left + (i % cols) * (tile_w + gap)
        ty = top + (i // cols) * (tile_h + gap)
        sealed = bool(wonder.get("sealed"))
        fill = (58, 54, 52) if sealed else (60, 92, 76)
        draw.rounded_rectangle(
            (tx, ty, tx + tile_w, ty + tile_h),
            radius=6,
            fill=fill,
            outline=(110, 100, 96) if sealed else (98, 150, 122),
            width=2,
        )
        cost = _int_or_none(wonder.get("cost"))
        _coin(draw, tx + 16, ty + tile_h / 2, 11, "" if cost is None else str(cost))
        lines = picture_text.wrap(_latin(str(wonder.get("name") or "?")), name_font,
                                  tile_w - 36 - (22 if sealed else 0), max_lines=2)
        for k, line in enumerate(lines):  # a long name wraps onto a second line rather than being cut
            draw.text((tx + 32, ty + tile_h / 2 + (k - (len(lines) - 1) / 2) * 16), line, font=name_font,
                      fill=MUTED if sealed else TEXT, anchor="lm")
        if sealed:
            _lock(draw, tx + tile_w - 16, ty + tile_h / 2, 9, (214, 120, 96))
    if overflow > 0:
        i = capacity - 1
        tx = left + (i % cols) * (tile_w + gap)
        ty = top + (i // cols) * (tile_h + gap)
        draw.rounded_rectangle((tx, ty, tx + tile_w, ty + tile_h), radius=6, outline=PANEL_EDGE, width=2)
        draw.text(
            (tx + tile_w / 2, ty + tile_h / 2),
            f"+{overflow + 1}",
            font=_font(18),
            fill=TEXT,
            anchor="mm",
        )


def _volf_colour(name: str) -> str | None:
    catalog = _engine_catalog("engine.volfyirion")
    if catalog is not None:
        card = _catalog_find(catalog, name)
        return None if card is None else _str_or_none(_field(card, "colour", "color"))
    for card in _engine_data("volfyirion_cards") or []:
        if card.get("name") == name:
            return card.get("colour")
    return None


# --- glyphs ---------------------------------------------------------------------------------------------


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
        fill=_mix(CRYSTAL, (255, 255, 255), 0.45),
    )
    draw.polygon(outline, outline=(40, 120, 150), width=2)


def _star(draw: ImageDraw.ImageDraw, x: float, y: float, r: float, colour: Colour) -> None:
    points = []
    for k in range(10):
        radius = r if k % 2 == 0 else r * 0.48
        points.append(_polar(x, y, radius, math.radians(-90 + k * 36)))
    draw.polygon(points, fill=colour)


def _shield(draw: ImageDraw.ImageDraw, x: float, y: float, r: float, colour: Colour) -> None:
    points = [(x - r, y - r), (x + r, y - r), (x + r, y + r * 0.2), (x, y + r * 1.1), (x - r, y + r * 0.2)]
    draw.polygon(points, fill=colour, outline=_mix(colour, (255, 255, 255), 0.3), width=2)


def _sword(draw: ImageDraw.ImageDraw, x: float, y: float, r: float, colour: Colour) -> None:
    draw.line((x - r, y + r, x + r, y - r), fill=colour, width=3)
    draw.line((x - r * 0.9, y + r * 0.1, x - r * 0.1, y + r * 0.9), fill=colour, width=3)


def _house(draw: ImageDraw.ImageDraw, x: float, y: float, r: float, colour: Colour) -> None:
    draw.polygon([(x - r, y), (x, y - r), (x + r, y)], fill=colour)
    draw.rectangle((x - r * 0.7, y, x + r * 0.7, y + r), fill=colour)


def _coin(draw: ImageDraw.ImageDraw, x: float, y: float, r: float, label: str) -> None:
    draw.ellipse(_circle(x, y, r), fill=GOLD, outline=(150, 110, 30), width=1)
    draw.text((x, y), label, font=_font(13), fill=(40, 30, 10), anchor="mm")


def _lock(draw: ImageDraw.ImageDraw, x: float, y: float, r: float, colour: Colour) -> None:
    draw.arc((x - r * 0.6, y - r * 1.3, x + r * 0.6, y), 180, 360, fill=colour, width=2)
    draw.rectangle((x - r, y - r * 0.4, x + r, y + r), fill=colour)


def _dragon_token(draw: ImageDraw.ImageDraw, x: float, y: float, r: float) -> None:
    """Volfyirion's token: a red disc with a gold rim and a spread-wing silhouette."""
    draw.ellipse(_circle(x, y, r), fill=DRAGON, outline=GOLD, width=3)
    wing = [
        (x, y - r * 0.15),
        (x - r * 0.75, y - r * 0.55),
        (x - r * 0.55, y + r * 0.05),
        (x - r * 0.7, y + r * 0.35),
        (x, y + r * 0.2),
        (x + r * 0.7, y + r * 0.35),
        (x + r * 0.55, y + r * 0.05),
        (x + r * 0.75, y - r * 0.55),
    ]
    draw.polygon(wing, fill=(30, 12, 12))
    draw.polygon(
        [(x, y - r * 0.6), (x - r * 0.18, y - r * 0.1), (x, y + r * 0.6), (x + r * 0.18, y - r * 0.1)],
        fill=(30, 12, 12),
    )


# --- helpers --------------------------------------------------------------------------------------------


def _font(size: int) -> ImageFont.FreeTypeFont | ImageFont.ImageFont:
    """The picture's font at ``size``: Pillow's bundled font in English (one regular weight: hierarchy comes
    from size and colour), the shipped CJK font in Japanese."""
    if _LANG.get() == "en":
        return picture_text.default_font(size)
    return picture_text.font(size, _LANG.get())


def _fit(text: str, font: ImageFont.FreeTypeFont | ImageFont.ImageFont, width: float) -> str:
    """``text`` cut to ``width`` pixels, with an ellipsis when anything was cut."""
    text = _latin(text)
    if font.getlength(text) <= width:
        return text
    while text and font.getlength(text + "…") > width:
        text = text[:-1]
    return text.rstrip() + "…"


def _wrapped(
    draw: ImageDraw.ImageDraw,
    text: str,
    box: tuple[float, float, float, float],
    font: ImageFont.FreeTypeFont | ImageFont.ImageFont,
    fill: Colour,
) -> None:
    """Word-wrap ``text`` centred into ``box``; the last line that fits is cut with an ellipsis."""
    x0, y0, x1, y1 = box
    text = _latin(text)
    line_height = font.size + 4 if hasattr(font, "size") else 14
    max_lines = max(1, int((y1 - y0) // line_height))
    lines: list[str] = []
    for word in text.split():
        if lines and font.getlength(lines[-1] + " " + word) <= x1 - x0:
            lines[-1] += " " + word
        else:
            lines.append(word)
    if len(lines) > max_lines:
        lines = lines[:max_lines]
        lines[-1] += "…"
    for i, line in enumerate(lines):
        draw.text(
            ((x0 + x1) / 2, y0 + i * line_height),
            _fit(line, font, x1 - x0),
            font=font,
            fill=fill,
            anchor="ma",
        )


def _latin(text: str) -> str:
    """``text`` without the characters the bundled font cannot draw (CJK and the like would show as boxes).

    Callers pass English names; this only guards against a localized name slipping through. In a Japanese
    picture (drawn with the CJK font) only characters that font lacks are dropped.
    """
    if _LANG.get() != "en":
        kept = "".join(ch for ch in text if picture_text.has_glyph(ch))
        return kept.strip() or "?"
    kept = "".join(ch for ch in text if ord(ch) < 0x2000 or ch in "…·")
    return kept.strip() or "?"


PNG_LEVEL = 1  # zlib level: see _png


def _png(image: Image.Image) -> bytes:
    """The picture as a PNG, written here rather than by Pillow's encoder (issue 12): Pillow tries every
    PNG row filter on every row (adaptive filtering), which took about two thirds of a picture's time. The
    pictures are flat colours with anti-aliased edges, which deflate well unfiltered: filter "none" on every
    row and zlib level 1 give files about the size of Pillow's at level 3 in about a third of the time, with the
    same pixels (lossless; tests/render checks). Deterministic: no timestamp, no text chunk."""
    rgb = image if image.mode == "RGB" else image.convert("RGB")
    width, height = rgb.size
    raw = rgb.tobytes()
    stride = width * 3
    rows = b"".join(b"\x00" + raw[i:i + stride] for i in range(0, len(raw), stride))
    header = struct.pack(">IIBBBBB", width, height, 8, 2, 0, 0, 0)  # 8-bit RGB, no interlace
    return b"".join((PNG_SIGNATURE, _chunk(b"IHDR", header), _chunk(b"IDAT", zlib.compress(rows, PNG_LEVEL)),
                     _chunk(b"IEND", b"")))


PNG_SIGNATURE = b"\x89PNG\r\n\x1a\n"


def _chunk(kind: bytes, data: bytes) -> bytes:
    return struct.pack(">I", len(data)) + kind + data + struct.pack(">I", zlib.crc32(data, zlib.crc32(kind)))


def _season_of(month: int) -> str:
    return next(season for season, months in SEASON_MONTHS.items() if month in months)


def _mix(a: Colour, b: Colour, t: float) -> Colour:
    r, g, bl = (round(x + (y - x) * t) for x, y in zip(a, b, strict=True))
    return (r, g, bl)


def _circle(x: float, y: float, r: float) -> tuple[float, float, float, float]:
    return (x - r, y - r, x + r, y + r)


def _polar(x: float, y: float, r: float, angle: float) -> tuple[float, float]:
    return (x + r * math.cos(angle), y + r * math.sin(angle))


def _clamp(value: int, low: int, high: int) -> int:
    return max(low, min(high, value))


def _int(value: Any, default: int) -> int:
    try:
        return int(value)
    except (TypeError, ValueError):
        return default


def _int_or_none(value: Any) -> int | None:
    return None if value is None else _int(value, 0)


def _str_or_none(value: Any) -> str | None:
    return None if value is None or value == "" else str(value)


def _field(card: Any, *names: str) -> Any:
    """The first of ``names`` that ``card`` has, as an attribute or a key (catalog cards may be either)."""
    for name in names:
        if isinstance(card, Mapping):
            if name in card:
                return card[name]
        elif hasattr(card, name):
            return getattr(card, name)
    return None


def _engine_catalog(package: str) -> Any:
    """The engine's ``CATALOG`` (from the package or its ``cards`` module) when importable, else None."""
    for module in (package, f"{package}.cards"):
        try:
            imported = importlib.import_module(module)
        except Exception:  # an engine mid-edit must never break a picture
            continue
        catalog = getattr(imported, "CATALOG", None)
        if catalog is not None:
            return catalog
    return None


def _catalog_find(catalog: Any, query: str) -> Any:
    """The card whose id is ``query``, else the catalog's forgiving match on any of its names."""
    try:
        if query in catalog:
            return catalog[query]
    except TypeError:
        pass
    finder = getattr(catalog, "find", None)
    return finder(query) if finder is not None else None


def _engine_data(name: str) -> Any:
    try:
        from engine import data

        return data.load(name)
    except Exception:
        return None
