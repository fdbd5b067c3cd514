"""The Volfyirion picture: three cities (destroyed ones greyed and crossed), the Lair, the Rage Pile, the dragon
token, the Wonders. Shared drawing (fonts, caches, the PNG writer) is bot/render/picture.py.
"""

from __future__ import annotations

import functools
from collections.abc import Mapping, Sequence
from typing import Any

from PIL import Image, ImageDraw

from engine.volfyirion.summary import CitySummary, Token, VolfyirionSummary, WonderSummary

from ....i18n import t
from ....render import picture as p
from ....render import text as picture_text
from ....render.picture import BACKGROUND, CARD_BACK, FAINT, GOLD, MUTED, PANEL, PANEL_EDGE, TEXT, Colour

DRAGON: Colour = (200, 48, 44)
VOLF_COLOURS: dict[str, Colour] = {
    "purple": (104, 66, 150),
    "red": (160, 56, 52),
    "turquoise": (40, 140, 140),
    "neutral": (96, 100, 112),
}
CITY_STONE: Colour = (50, 66, 92)
CITY_RUIN: Colour = (78, 78, 78)
CITY_RUIN_INK: Colour = (122, 122, 122)

LABELS = {
    "en": {"turn": "Turn {turn}", "lair": "Lair", "rage_pile": "Rage Pile", "wonders": "Wonders"},
    "ja": {"turn": "ターン{turn}", "lair": "ヴォルフィーリオンの巣", "rage_pile": "憤怒パイル", "wonders": "ワンダー"},
}

# Regions drawn as layers, each by the summary parts it shows (nothing else on the board overlaps them).
HEADER = (0, 0, 800, 48)
LAIR = (15, 262, 165, 440)
RAGE_PILE = (178, 262, 430, 440)
WONDERS = (444, 262, 785, 440)
WONDER_GRID = (2, 3, 6)  # columns, rows, gap


def _label(name: str, **params: Any) -> str:
    return p.label(LABELS, name, **params)


def _word(value: str) -> str:
    """A difficulty on the header: its ``word.<value>`` of the game's locale in Japanese, the value in English."""
    return t("ja", f"word.{value}") if p.LANG.get() == "ja" else value


def board(summary: VolfyirionSummary, lang: str = "en") -> bytes:
    """Three cities (destroyed ones greyed and crossed), the Lair, the Rage Pile, the dragon token, Wonders.

    ``lang`` is the language of the labels (Volfyirion's card names are English in every language). A picture
    already drawn for the same parts of the summary is not drawn again.
    """
    with p.drawing_in(lang):
        parts = [summary.turn, summary.difficulty, summary.cities, summary.rage_pile, summary.token, summary.wonders]
        return p.remembered("volfyirion", parts, lambda: p.png(_board(summary), p.palette_file(__package__)))


def _board(summary: VolfyirionSummary) -> Image.Image:
    image = Image.new("RGB", (p.WIDTH, p.HEIGHT), BACKGROUND)
    draw = ImageDraw.Draw(image)
    turn = summary.turn
    difficulty = _word(str(summary.difficulty))
    _layer(image, draw, HEADER, _header_layer, (turn, difficulty), lambda d: _header(d, turn, difficulty))

    cities = summary.cities[:3]
    for i in range(3):
        box = _city_box(i)
        city = cities[i] if i < len(cities) else None
        if p.USE_LAYERS:  # the panel as drawn once (a static layer), pasted: the same pixels (tests/render checks)
            image.paste(_city_layer_for(city, box), box[:2])
        else:
            _city_panel(draw, city, box)

    pile = summary.rage_pile
    on_pile = summary.token is Token.RAGE_PILE
    on_lair = not on_pile
    _layer(image, draw, LAIR, _lair_layer, (on_lair,), lambda d: _lair(d, LAIR, token_here=on_lair))
    size = max(0, pile.size)
    top = (pile.top or None) if size else None
    _layer(image, draw, RAGE_PILE, _rage_pile_layer, (size, top, on_pile),
           lambda d: _rage_pile(d, size, top, RAGE_PILE, token_here=on_pile))
    wonders = summary.wonders
    _layer(image, draw, WONDERS, _wonders_layer, (wonders,), lambda d: _wonders(d, wonders, WONDERS))
    return image


def palette_samples() -> list[Image.Image]:
    """The pictures the board's palette is made from (tools/build_palettes.py): every city, standing and
    destroyed, with every Troop and Building in turn, the token on the Lair and on the Rage Pile, a top card of
    each colour on the pile, and every Wonder, sealed and not; in English (the labels' colours are the same in
    Japanese)."""
    cities = list(_cities().items()) or [("Tylaris", 8), ("Akao Uket", 9), ("Kyr", 10)]
    slots = _slot_cards()
    wonders = _wonder_cards() or [("Sibilant Crystal", 3)]
    cards = _engine_cards()
    tops = {_volf_colour(c.name): c.name for c in cards.CARDS} if cards else {}  # a top card of each colour
    samples = []
    with p.drawing_in("en"):
        for n in range(4):  # three cities each: every city, Troop and Building at least once
            shown = [(3 * n + k, *cities[(3 * n + k) % len(cities)]) for k in range(3)]
            summary = VolfyirionSummary.from_json({
                "turn": n + 1, "difficulty": ("easy", "normal", "hard")[n % 3], "phase": "turn",
                "cities": [{"name": name, "defence": defence, "destroyed": i % 4 == 1,
                            "troop": slots["troop"][i % len(slots["troop"])],
                            "building": slots["building"][(i + 1) % len(slots["building"])]}
                           for i, name, defence in shown],
                "rage_pile": {"size": 3 * n + 1, "top": tops.get(list(VOLF_COLOURS)[n])},
                "token": "lair" if n % 2 else "rage_pile",
                "wonders": [{"name": name, "cost": cost or 0, "sealed": k % 2 == n % 2}
                            for k, (name, cost) in enumerate((wonders * 2)[6 * n % len(wonders):][:6])]})
            samples.append(_board(summary))
    return samples


def _city_box(slot: int) -> tuple[int, int, int, int]:
    return (15 + slot * 260, 48, 15 + slot * 260 + 250, 248)


def _layer(image: Image.Image, draw: ImageDraw.ImageDraw, region: tuple[int, int, int, int], cached: Any,
           key: tuple[Any, ...], paint: Any) -> None:
    """Paste the region's layer remembered by ``key`` (in the drawing language), or draw it straight on the
    board (no layers)."""
    if not p.USE_LAYERS:
        paint(draw)
    else:
        image.paste(cached(p.lang(), *key), region[:2])


def _region(region: tuple[int, int, int, int], paint: Any) -> Image.Image:
    x0, y0, x1, y1 = region
    return p.cut((x0, y0, x1 + 1, y1 + 1), paint)  # outlines end on the box's last row and column


@p.layer_cache(maxsize=64)
def _header_layer(lang: str, turn: int, difficulty: str) -> Image.Image:
    return p.cut(HEADER, lambda d: _header(d, turn, difficulty))


@p.layer_cache(maxsize=4, static=True)
def _lair_layer(lang: str, token_here: bool) -> Image.Image:
    return _region(LAIR, lambda d: _lair(d, LAIR, token_here=token_here))


@p.layer_cache(maxsize=128)
def _rage_pile_layer(lang: str, size: int, top: str | None, token_here: bool) -> Image.Image:
    return _region(RAGE_PILE, lambda d: _rage_pile(d, size, top, RAGE_PILE, token_here=token_here))


@p.layer_cache(maxsize=128)
def _wonders_layer(lang: str, wonders: tuple[WonderSummary, ...]) -> Image.Image:
    """The Wonders panel drawn at the origin, each Wonder's tile pasted (a static layer), not drawn."""
    x0, y0, x1, y1 = WONDERS
    layer = Image.new("RGB", (x1 - x0 + 1, y1 - y0 + 1), BACKGROUND)
    _wonders(ImageDraw.Draw(layer), wonders, (0, 0, x1 - x0, y1 - y0), image=layer)
    return layer


@p.layer_cache(maxsize=128, static=True)
def _wonder_tile(lang: str, width: int, height: int, name: str, cost: int | None, sealed: bool) -> Image.Image:
    """One Wonder's tile at the origin, on the panel's colour (every Wonder, sealed or not, prepared at start)."""
    tile = Image.new("RGB", (width + 1, height + 1), PANEL)
    _wonder(ImageDraw.Draw(tile), (0, 0), width, height, name, cost, sealed)
    return tile


def _header(draw: ImageDraw.ImageDraw, turn: int, difficulty: str) -> None:
    draw.text((18, 12), _label("turn", turn=turn), font=p.font(22), fill=TEXT)
    if difficulty:
        draw.text((782, 16), difficulty, font=p.font(15), fill=MUTED, anchor="ra")


def _city_layer_for(city: CitySummary | None, box: tuple[int, int, int, int]) -> Image.Image:
    """The city's panel from the layer cache (a city as games start with it: prepared at start)."""
    width, height = box[2] - box[0], box[3] - box[1]
    if city is not None and _as_it_starts(city):
        return _start_city_layer(p.lang(), width, height, city)
    return _city_layer(p.lang(), width, height, city)


def _as_it_starts(city: CitySummary) -> bool:
    """A city as every game starts with it: intact, its printed defence, no Troop, no Building."""
    return (not city.destroyed and city.troop is None and city.building is None
            and city.defence == _cities().get(city.name))


@p.layer_cache(maxsize=256)
def _city_layer(lang: str, width: int, height: int, city: CitySummary | None) -> Image.Image:
    """One city's panel, drawn once per language and reused (issue 12): the panels were half of a Volfyirion
    picture's drawing, and a city changes far less often than the turn. Drawn from its static parts (the
    panel with the name, each Troop and Building row): only the defence is drawn here."""
    layer = Image.new("RGB", (width + 1, height + 1), BACKGROUND)
    _city_panel(ImageDraw.Draw(layer), city, (0, 0, width, height), image=layer)
    return layer


@p.layer_cache(maxsize=32, static=True)  # prepared at start: the cities every first picture shows
def _start_city_layer(lang: str, width: int, height: int, city: CitySummary) -> Image.Image:
    """A city as a game starts with it (``_as_it_starts``): the same panel, prepared at start."""
    return _city_layer.__wrapped__(lang, width, height, city)


@p.layer_cache(maxsize=32, static=True)
def _city_base(lang: str, width: int, height: int, name: str, destroyed: bool) -> Image.Image:
    """A city's panel with its name and nothing else, at the origin (what every state of the city shares)."""
    layer = Image.new("RGB", (width + 1, height + 1), BACKGROUND)
    _city_frame(ImageDraw.Draw(layer), name, (0, 0, width, height), destroyed)
    return layer


@p.layer_cache(maxsize=256, static=True)
def _city_slot(lang: str, width: int, destroyed: bool, kind: str, name: str | None) -> Image.Image:
    """One Troop or Building row of a city's panel, at the origin on the panel's colour."""
    fill = CITY_RUIN if destroyed else CITY_STONE
    layer = Image.new("RGB", (width + 1, SLOT_HEIGHT + 1), fill)
    _slot(ImageDraw.Draw(layer), (0, 0, width, SLOT_HEIGHT), destroyed, kind, name)
    return layer


SLOT_HEIGHT = 26


def _city_frame(draw: ImageDraw.ImageDraw, name: str, box: tuple[int, int, int, int], destroyed: bool) -> None:
    x0, y0, x1, _y1 = box
    fill, ink = (CITY_RUIN, CITY_RUIN_INK) if destroyed else (CITY_STONE, TEXT)
    draw.rounded_rectangle(
        box, radius=10, fill=fill, outline=PANEL_EDGE if not destroyed else (96, 96, 96), width=2
    )
    name_font = p.font(21)
    draw.text((x0 + 14, y0 + 12), p.fit(name, name_font, x1 - x0 - 28), font=name_font, fill=ink)


def _slot(draw: ImageDraw.ImageDraw, box: tuple[int, int, int, int], destroyed: bool, kind: str,
          name: Any) -> None:
    """A Troop or Building row in ``box`` (its label fitted to the row, after the glyph)."""
    x0, sy, x1, _ = box
    fill, ink, muted = (CITY_RUIN, CITY_RUIN_INK, CITY_RUIN_INK) if destroyed else (CITY_STONE, TEXT, MUTED)
    draw.rounded_rectangle((x0, sy, x1, sy + SLOT_HEIGHT), radius=5, fill=p.mix(fill, BACKGROUND, 0.35),
                           outline=None)
    glyph = _sword if kind == "troop" else _house
    glyph(draw, x0 + 14, sy + 13, 8, muted if not name else ink)
    label = p.fit(str(name), p.font(16), x1 - x0 - 36) if name else "-"
    draw.text((x0 + 28, sy + 13), label, font=p.font(16), fill=ink if name else FAINT, anchor="lm")


def _city_panel(
    draw: ImageDraw.ImageDraw,
    city: CitySummary | None,
    box: tuple[int, int, int, int],
    image: Image.Image | None = None,
) -> None:
    """The city's panel in ``box``; on ``image`` (and with layers) its static parts are pasted, not drawn."""
    x0, y0, x1, y1 = box
    if city is None:
        draw.rounded_rectangle(box, radius=10, outline=FAINT, width=2)
        return
    destroyed = city.destroyed
    _fill, ink, muted = (CITY_RUIN, CITY_RUIN_INK, CITY_RUIN_INK) if destroyed else (CITY_STONE, TEXT, MUTED)
    pasted = image if p.USE_LAYERS else None  # where the static parts are pasted, if they are
    name = city.name or "?"
    if pasted is not None:
        pasted.paste(_city_base(p.lang(), x1 - x0, y1 - y0, name, destroyed), (x0, y0))
    else:
        _city_frame(draw, name, box, destroyed)

    printed = city.defence
    troop = None if destroyed else city.troop or None
    bonus = city.troop_defence if troop else None  # V-4.4, as the engine counts it
    total = printed + (bonus or 0)
    _shield(draw, x0 + 44, y0 + 84, 30, (70, 96, 140) if not destroyed else (96, 96, 96))
    draw.text((x0 + 44, y0 + 82), str(total), font=p.font(30), fill=ink, anchor="mm")
    breakdown = f"{printed} + {bonus}" if bonus else f"{printed} + ?" if troop else ""
    draw.text((x0 + 88, y0 + 84), breakdown, font=p.font(20), fill=muted, anchor="lm")

    slots = (("troop", city.troop), ("building", city.building))
    for k, (kind, slot_name) in enumerate(slots):
        sy = y0 + 128 + k * 32
        if pasted is not None:
            pasted.paste(_city_slot(p.lang(), x1 - x0 - 20, destroyed, kind, slot_name or None), (x0 + 10, sy))
        else:
            _slot(draw, (x0 + 10, sy, x1 - 10, sy + SLOT_HEIGHT), destroyed, kind, slot_name)

    if destroyed:
        cross = (30, 30, 30)
        draw.line((x0 + 16, y0 + 16, x1 - 16, y1 - 16), fill=cross, width=7)
        draw.line((x0 + 16, y1 - 16, x1 - 16, y0 + 16), fill=cross, width=7)


def _lair(draw: ImageDraw.ImageDraw, box: tuple[int, int, int, int], token_here: bool) -> None:
    x0, y0, x1, y1 = box
    draw.rounded_rectangle(box, radius=10, fill=PANEL, outline=PANEL_EDGE, width=2)
    cx = (x0 + x1) / 2
    # A cave mouth: a dark arch on a rocky mound.
    draw.pieslice((x0 + 18, y0 + 40, x1 - 18, y1 + 40), 180, 360, fill=(74, 64, 58))
    draw.pieslice((x0 + 42, y0 + 80, x1 - 42, y1 + 20), 180, 360, fill=(18, 16, 18))
    draw.rectangle((x0 + 2, y1 - 34, x1 - 2, y1 - 2), fill=PANEL)
    label_font = p.font(16) if p.font(16).getlength(_label("lair")) <= x1 - x0 - 8 else p.font(12)
    draw.text((cx, y1 - 18), _label("lair"), font=label_font, fill=MUTED, anchor="mm")
    if token_here:
        _dragon_token(draw, cx, y0 + 100, 30)


def _rage_pile(
    draw: ImageDraw.ImageDraw, size: int, top: str | None, box: tuple[int, int, int, int], token_here: bool
) -> None:
    x0, y0, x1, y1 = box
    draw.rounded_rectangle(box, radius=10, fill=PANEL, outline=PANEL_EDGE, width=2)
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
        p.wrapped(
            draw,
            top,
            (base_x + 8, base_y + 30, base_x + card_w - 8, base_y + card_h - 8),
            p.font(15),
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
            font=p.font(40),
            fill=(196, 180, 226),
            anchor="mm",
        )
    count_x = base_x + card_w + 64
    draw.text((count_x, y0 + 40), f"x{size}", font=p.font(34), fill=TEXT, anchor="mm")
    draw.text(((x0 + x1) / 2, y1 - 18), _label("rage_pile"), font=p.font(16), fill=MUTED, anchor="mm")
    if token_here:
        _dragon_token(draw, count_x, y0 + 104, 30)


def _wonders(
    draw: ImageDraw.ImageDraw, wonders: Sequence[WonderSummary], box: tuple[int, int, int, int],
    image: Image.Image | None = None,
) -> None:
    """The Wonders panel in ``box``; on ``image`` (and with layers) each tile is pasted, not drawn."""
    x0, y0, x1, y1 = box
    draw.rounded_rectangle(box, radius=10, fill=PANEL, outline=PANEL_EDGE, width=2)
    draw.text(((x0 + x1) / 2, y1 - 18), _label("wonders"), font=p.font(16), fill=MUTED, anchor="mm")
    cols, rows, gap = WONDER_GRID
    left, top, bottom = x0 + 10, y0 + 10, y1 - 34
    tile_w, tile_h = _wonder_tile_size(box)
    capacity = cols * rows
    overflow = len(wonders) - capacity
    visible = wonders if overflow <= 0 else wonders[: capacity - 1]
    if not wonders:
        draw.text(((x0 + x1) / 2, (top + bottom) / 2), "0", font=p.font(24), fill=FAINT, anchor="mm")
    for i, wonder in enumerate(visible):
        tx = left + (i % cols) * (tile_w + gap)
        ty = top + (i // cols) * (tile_h + gap)
        name, cost, sealed = wonder.name or "?", wonder.cost, wonder.sealed
        if image is not None and p.USE_LAYERS:
            image.paste(_wonder_tile(p.lang(), tile_w, tile_h, name, cost, sealed), (tx, ty))
        else:
            _wonder(draw, (tx, ty), tile_w, tile_h, name, cost, sealed)
    if overflow > 0:
        i = capacity - 1
        tx = left + (i % cols) * (tile_w + gap)
        ty = top + (i // cols) * (tile_h + gap)
        p.more_tile(draw, (tx, ty, tx + tile_w, ty + tile_h), overflow + 1, 18)


def _wonder(draw: ImageDraw.ImageDraw, at: tuple[int, int], tile_w: int, tile_h: int, name: str,
            cost: int | None, sealed: bool) -> None:
    tx, ty = at
    fill = (58, 54, 52) if sealed else (60, 92, 76)
    draw.rounded_rectangle(
        (tx, ty, tx + tile_w, ty + tile_h),
        radius=6,
        fill=fill,
        outline=(110, 100, 96) if sealed else (98, 150, 122),
        width=2,
    )
    p.coin(draw, tx + 16, ty + tile_h / 2, 11, "" if cost is None else str(cost))
    name_font = p.font(15)
    lines = picture_text.wrap(p.latin(name), name_font, tile_w - 36 - (22 if sealed else 0), max_lines=2)
    for k, line in enumerate(lines):  # a long name wraps onto a second line rather than being cut
        draw.text((tx + 32, ty + tile_h / 2 + (k - (len(lines) - 1) / 2) * 16), line, font=name_font,
                  fill=MUTED if sealed else TEXT, anchor="lm")
    if sealed:
        _lock(draw, tx + tile_w - 16, ty + tile_h / 2, 9, (214, 120, 96))


def _volf_colour(name: str) -> str | None:
    from engine.volfyirion.cards import find  # the game's own catalog

    card = find(name)
    return None if card is None else p.str_or_none(card.colour)



# --- glyphs ---


def _shield(draw: ImageDraw.ImageDraw, x: float, y: float, r: float, colour: Colour) -> None:
    points = [(x - r, y - r), (x + r, y - r), (x + r, y + r * 0.2), (x, y + r * 1.1), (x - r, y + r * 0.2)]
    draw.polygon(points, fill=colour, outline=p.mix(colour, (255, 255, 255), 0.3), width=2)


def _sword(draw: ImageDraw.ImageDraw, x: float, y: float, r: float, colour: Colour) -> None:
    draw.line((x - r, y + r, x + r, y - r), fill=colour, width=3)
    draw.line((x - r * 0.9, y + r * 0.1, x - r * 0.1, y + r * 0.9), fill=colour, width=3)


def _house(draw: ImageDraw.ImageDraw, x: float, y: float, r: float, colour: Colour) -> None:
    draw.polygon([(x - r, y), (x, y - r), (x + r, y)], fill=colour)
    draw.rectangle((x - r * 0.7, y, x + r * 0.7, y + r), fill=colour)


def _lock(draw: ImageDraw.ImageDraw, x: float, y: float, r: float, colour: Colour) -> None:
    draw.arc((x - r * 0.6, y - r * 1.3, x + r * 0.6, y), 180, 360, fill=colour, width=2)
    draw.rectangle((x - r, y - r * 0.4, x + r, y + r), fill=colour)


def _dragon_token(draw: ImageDraw.ImageDraw, x: float, y: float, r: float) -> None:
    """Volfyirion's token: a red disc with a gold rim and a spread-wing silhouette."""
    draw.ellipse(p.circle(x, y, r), fill=DRAGON, outline=GOLD, width=3)
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


# --- prepared at start (bot/render/picture.py, ``prepare``) ---------------------------------------------


@p.preparing(first=True)
def _first_steps() -> list[p.Step]:
    """The Lair with and without the dragon and the cities a game starts with, in each language pictures have
    been drawn in, the card data, and the board's palette."""
    from engine.volfyirion.cards import CATALOG

    steps: list[p.Step] = [lambda: CATALOG]
    for lang in p.languages():
        steps += [functools.partial(_prepare, lang, _lair_layer, here) for here in (True, False)]
        steps += [functools.partial(_prepare_city, lang, name) for name in _default_cities()]
    return [*steps, functools.partial(p.palette_file, __package__)]


@p.preparing()
def _later_steps() -> list[p.Step]:
    """Every other city as a game starts with it (intact, empty); every city's panel with its name, and every
    Troop and Building row, intact and destroyed, that a city's other states are made from; every Wonder's
    tile, sealed or not."""
    steps: list[p.Step] = []
    width, height = _city_size()
    for lang in p.languages():
        steps += [functools.partial(_prepare_city, lang, name) for name in _cities() if name not in _default_cities()]
        for destroyed in (False, True):
            steps += [functools.partial(_prepare, lang, _city_base, width, height, name, destroyed)
                      for name in _cities()]
            steps += [functools.partial(_prepare, lang, _city_slot, width - 20, destroyed, kind, name)
                      for kind, names in _slot_cards().items() for name in names]
        steps += [functools.partial(_prepare, lang, _wonder_tile, *_wonder_tile_size(), name, cost, sealed)
                  for name, cost in _wonder_cards() for sealed in (False, True)]
    return steps


def _wonder_tile_size(box: tuple[int, int, int, int] = WONDERS) -> tuple[int, int]:
    """A Wonder tile's size in the panel ``box`` (the grid inside its margins and the label below)."""
    x0, y0, x1, y1 = box
    (cols, rows, gap), left, top, right, bottom = WONDER_GRID, x0 + 10, y0 + 10, x1 - 10, y1 - 34
    return (right - left - gap * (cols - 1)) // cols, (bottom - top - gap * (rows - 1)) // rows


def _engine_cards() -> Any:
    """``engine.volfyirion.cards`` when importable, else None: an engine mid-edit must never break a picture
    (not remembered: it is read again once the engine imports)."""
    try:
        from engine.volfyirion import cards
    except Exception:
        return None
    return cards


def _wonder_cards() -> list[tuple[str, int | None]]:
    cards = _engine_cards()
    return [(c.name, c.cost) for c in cards.CARDS if c.type == "wonder"] if cards else []


def _prepare(lang: str, layer: Any, *key: Any) -> None:
    with p.drawing_in(lang) as drawn_in:
        layer(drawn_in, *key)


def _city_size() -> tuple[int, int]:
    x0, y0, x1, y1 = _city_box(0)
    return x1 - x0, y1 - y0


def _slot_cards() -> dict[str, list[str | None]]:
    """The Troop and Building names a city's rows can show (None: the empty row)."""
    cards = _engine_cards()
    return {kind: [None] + ([c.name for c in cards.CARDS if c.type == kind] if cards else [])
            for kind in ("troop", "building")}


def _prepare_city(lang: str, name: str) -> None:
    """The city ``name`` as a game starts with it: the key the board's summary gives (every slot is the same
    size: one layer serves the three)."""
    city = CitySummary(name, _cities().get(name, 0), destroyed=False, troop=None, building=None)
    with p.drawing_in(lang):
        _city_layer_for(city, _city_box(0))


def _cities() -> Mapping[str, int]:
    """City names and printed defence, the engine's own (empty when it is not importable)."""
    cards = _engine_cards()
    return cards.CITIES if cards else {}


def _default_cities() -> tuple[str, ...]:
    cards = _engine_cards()
    return tuple(cards.DEFAULT_CITIES) if cards else ()
