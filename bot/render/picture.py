"""What every reply picture shares: size, colours, the language and fonts, text fitting, small glyphs, the
layer and picture caches, the PNG, and the picture thread. Each game draws its own board in its own
module (``bot/games/<game>/front/board.py``, one entry ``board(summary, lang, …) -> bytes``).

The embed text stays the authoritative record; the pictures are a glance. In English (the default) they are
drawn with Pillow's bundled scalable font and English names only; with ``lang="ja"`` the labels and card
names are Japanese, drawn with the CJK font the project ships (bot/render/text.py), and long names wrap
instead of being cut. Without that font a Japanese picture falls back to English. The same summary always gives
the same bytes (no timestamps, no randomness, the basic text layout engine rather than whatever Raqm the
machine happens to have).

Cheap pictures (issue 12): what does not change is not drawn again. A board is pasted together from layers
(panels, tiles, a wheel) each drawn once per language and the summary parts it shows; a whole picture
is remembered by the summary parts it depends on. The static
layers, those that show nothing of one game in progress (a game's wheel of each month, every card's tile, each
panel of its board), are drawn on the picture thread at start and
while no picture waits (``prepare``; bot/pictures.py), in the languages pictures have been drawn in, so that
the first picture of a game draws none of them.
"""

from __future__ import annotations

import asyncio
import contextlib
import contextvars
import functools
import importlib
import importlib.resources
import io
import json
import logging
import math
import threading
from collections import Counter, OrderedDict
from collections.abc import Callable, Iterable, Iterator, Mapping, Sequence
from concurrent.futures import ThreadPoolExecutor
from typing import TYPE_CHECKING, Any, TypeVar

from PIL import Image, ImageDraw, ImageFont

from . import text as picture_text

if TYPE_CHECKING:
    pass

T = TypeVar("T")

WIDTH, HEIGHT = 800, 450

Colour = tuple[int, int, int]

BACKGROUND: Colour = (30, 33, 40)
PANEL: Colour = (43, 47, 57)
PANEL_EDGE: Colour = (66, 71, 84)
TEXT: Colour = (236, 237, 241)
MUTED: Colour = (150, 155, 168)
FAINT: Colour = (96, 101, 114)
GOLD: Colour = (232, 188, 72)
CARD_BACK: Colour = (86, 62, 130)

Font = ImageFont.FreeTypeFont | ImageFont.ImageFont

# The language of the picture being drawn (set by a board's entry function; drawing happens in one call).
LANG: contextvars.ContextVar[str] = contextvars.ContextVar("picture_lang", default="en")

# False draws everything straight onto the board, every time: no layer, no remembered picture (the reference
# the tests compare the cached pictures with, and the bench's "drawn in full").
USE_LAYERS = True


@contextlib.contextmanager
def drawing_in(lang: str) -> Iterator[str]:
    """Draw in ``lang`` (the language actually used: Japanese falls back to English without its font)."""
    token = LANG.set(picture_text.picture_lang(lang))
    if LANG.get() not in _LANGS:  # the static layers are prepared in this language too from now on
        _seen(LANG.get())
    try:
        yield LANG.get()
    finally:
        LANG.reset(token)


def lang() -> str:
    return LANG.get()


def label(labels: Mapping[str, Mapping[str, str]], name: str, **params: Any) -> str:
    return labels[LANG.get()][name].format(**params)


# --- remembered layers and pictures ---------------------------------------------------------------------

_CACHES: list[Callable[[], None]] = []  # what one game's pictures leave behind
_STATIC: list[Callable[[], None]] = []  # what every game shares (the wheel's ring, card tiles): prepared at start


def layer_cache(maxsize: int, static: bool = False) -> Callable[[Callable[..., T]], functools._lru_cache_wrapper[T]]:
    """``functools.lru_cache`` for a layer drawn once and pasted after (callers never draw on it), cleared by
    ``clear_caches``. A ``static`` layer shows nothing of one game's state (a card's tile, the wheel for a
    month): ``prepare`` draws it at start and ``clear_caches(static=False)`` keeps it."""

    def wrap(fn: Callable[..., T]) -> functools._lru_cache_wrapper[T]:  # what lru_cache returns (typeshed's name)
        cached = functools.lru_cache(maxsize=maxsize)(fn)
        (_STATIC if static else _CACHES).append(cached.cache_clear)
        return cached

    return wrap


class Remembered:
    """A small thread-safe LRU map (the pictures are drawn on the picture thread, the tests call directly)."""

    def __init__(self, maxsize: int) -> None:
        self.maxsize = maxsize
        self._items: OrderedDict[Any, Any] = OrderedDict()
        self._lock = threading.Lock()
        self.hits = self.misses = 0
        _CACHES.append(self.clear)

    def get(self, key: Any) -> Any:
        with self._lock:
            value = self._items.get(key)
            if value is None:
                self.misses += 1
            else:
                self.hits += 1
                self._items.move_to_end(key)
            return value

    def put(self, key: Any, value: Any) -> None:
        with self._lock:
            self._items[key] = value
            self._items.move_to_end(key)
            while len(self._items) > self.maxsize:
                self._items.popitem(last=False)

    def clear(self) -> None:
        with self._lock:
            self._items.clear()
            self.hits = self.misses = 0

    def __len__(self) -> int:
        return len(self._items)


PICTURES = Remembered(64)  # whole PNGs by (board, language, the summary parts they show)


def remembered(board: str, parts: Any, render: Callable[[], bytes]) -> bytes:
    """The PNG of ``board`` for ``parts`` (the summary parts and options the picture shows, in the drawing
    language), drawn by ``render`` only when not drawn already: a picture asked for again (``/game status``,
    the State button, an undo back to a state just shown) costs nothing."""
    if not USE_LAYERS:
        return render()
    try:
        key = (board, LANG.get(), json.dumps(parts, sort_keys=True, default=repr))
    except (TypeError, ValueError):  # odd input (keys of mixed types): draw, do not remember
        return render()
    png: bytes | None = PICTURES.get(key)
    if png is None:
        png = render()
        PICTURES.put(key, png)
    return png


def cut(region: tuple[int, int, int, int], draw: Callable[[ImageDraw.ImageDraw], None]) -> Image.Image:
    """What ``draw`` draws on an empty board, cut to ``region``: a layer to remember and paste back at
    ``region``'s corner, the same pixels as drawing it there (nothing else on the board may overlap it)."""
    full = Image.new("RGB", (min(WIDTH, region[2]), min(HEIGHT, region[3])), BACKGROUND)  # up to its far corner
    draw(ImageDraw.Draw(full))
    return full.crop(region)


def clear_caches(static: bool = True) -> None:
    """Forget every layer and picture: the next picture is drawn anew. With
    ``static=False`` the static layers (prepared at start) stay: what the first picture of a game costs."""
    global _prepared
    for clear in _CACHES:
        clear()
    if static:
        for clear in _STATIC:
            clear()
        _prepared = False


# --- prepared at start ----------------------------------------------------------------------------------

# Each board registers what it draws the same for every game (``preparing``); the picture worker
# (bot/pictures.py) draws it a step at a time on the picture thread, first the few layers every game's
# first picture needs, then the rest while no picture waits, so that a first picture does not pay for them.
Step = Callable[[], object]
_FIRST: list[Callable[[], list[Step]]] = []
_LATER: list[Callable[[], list[Step]]] = []
_prepared = False
# The languages pictures have been drawn in by this process (English always): static layers are prepared in
# these only (a process that never draws a Japanese picture never loads the Japanese font for them).
_LANGS = {"en"}


_generation = 0  # counts the languages added: steps listed before one was added do not cover it


def _seen(lang: str) -> None:
    global _prepared, _generation
    _LANGS.add(lang)
    _generation += 1
    _prepared = False  # the new language's static layers are still to draw


def languages() -> list[str]:
    """The languages to prepare the static layers in: those pictures have been drawn in, English first."""
    return sorted(_LANGS, key=lambda lang: (lang != "en", lang))


def preparing(first: bool = False) -> Callable[[Callable[[], list[Step]]], Callable[[], list[Step]]]:
    """Register a board's function that lists its static steps (``first``: needed by every game's first
    picture, drawn before the others)."""

    def register(steps: Callable[[], list[Step]]) -> Callable[[], list[Step]]:
        (_FIRST if first else _LATER).append(steps)
        return steps

    return register


def prepare_steps(first: bool | None = None) -> Iterator[Step]:
    """The static layers still to draw, one small step each (``first``: only those every first picture
    needs; False: only the others; None: all, the first ones first). Nothing once they are all drawn."""
    if _prepared:
        return
    for steps in ([_FIRST] if first else [_LATER] if first is False else [_FIRST, _LATER]):
        for listed in list(steps):
            yield from listed()


def steps_to_draw(first: bool | None = None) -> Iterator[Step]:
    """``prepare_steps``, for a caller that draws each step before it takes the next: once the last one has
    been taken (so drawn), every layer is known to be drawn — unless a language was added meanwhile."""
    global _prepared
    listed_at = _generation
    yield from prepare_steps(first)
    if first is None and listed_at == _generation:
        _prepared = True


def prepare(first: bool | None = None) -> int:
    """Draw the static layers now (on the calling thread); returns the number of steps."""
    done = 0
    for step in steps_to_draw(first):
        step()
        done += 1
    return done


def is_prepared() -> bool:
    """Whether every static layer has been drawn (and not forgotten since)."""
    return _prepared


# --- the picture thread ---------------------------------------------------------------------------------

# Pictures are drawn on one thread of their own (issue 12): a burst of them queues there, one at a time,
# instead of taking every thread of the default executor (which the forecasts and the danger meter use)
# and competing with the event loop for the interpreter on every core.
PICTURE_THREADS = 1
_pictures = ThreadPoolExecutor(max_workers=PICTURE_THREADS, thread_name_prefix="picture")


async def drawn(render: Callable[..., T], *args: Any, **kwargs: Any) -> T:
    """``render(*args, **kwargs)`` on the picture thread, awaited without blocking the event loop."""
    return await asyncio.get_running_loop().run_in_executor(_pictures, functools.partial(render, *args, **kwargs))


def prepare_first() -> None:
    """Draw, on the picture thread and without waiting for it, the static layers every game's first picture
    needs (a few milliseconds, once a process): queued there before any picture can be."""
    if not _prepared:
        _pictures.submit(_prepare_first_quietly)


def _prepare_first_quietly() -> None:
    try:
        prepare(first=True)
    except Exception:  # a layer that cannot be drawn now is drawn when a picture needs it
        logging.getLogger(__name__).warning("static picture layers could not be prepared", exc_info=True)


# --- text -----------------------------------------------------------------------------------------------


def font(size: int) -> Font:
    """The picture's font at ``size``: Pillow's bundled font in English (one regular weight: hierarchy comes
    from size and colour), the shipped CJK font in Japanese."""
    if LANG.get() == "en":
        return picture_text.default_font(size)
    return picture_text.font(size, LANG.get())


def fit(text: str, f: Font, width: float) -> str:
    """``text`` cut to ``width`` pixels, with an ellipsis when anything was cut."""
    text = latin(text)
    if f.getlength(text) <= width:
        return text
    while text and f.getlength(text + "…") > width:
        text = text[:-1]
    return text.rstrip() + "…"


def wrapped(draw: ImageDraw.ImageDraw, text: str, box: tuple[float, float, float, float], f: Font,
            fill: Colour) -> None:
    """Word-wrap ``text`` centred into ``box``; the last line that fits is cut with an ellipsis."""
    x0, y0, x1, y1 = box
    text = latin(text)
    line_height = f.size + 4 if hasattr(f, "size") else 14
    max_lines = max(1, int((y1 - y0) // line_height))
    lines: list[str] = []
    for w in text.split():
        if lines and f.getlength(lines[-1] + " " + w) <= x1 - x0:
            lines[-1] += " " + w
        else:
            lines.append(w)
    if len(lines) > max_lines:
        lines = lines[:max_lines]
        lines[-1] += "…"
    for i, line in enumerate(lines):
        draw.text(((x0 + x1) / 2, y0 + i * line_height), fit(line, f, x1 - x0), font=f, fill=fill, anchor="ma")


def latin(text: str) -> str:
    """``text`` without the characters the bundled font cannot draw (CJK and the like would show as boxes).

    Callers pass English names; this only guards against a localized name slipping through. In a Japanese
    picture (drawn with the CJK font) only characters that font lacks are dropped.
    """
    if LANG.get() != "en":
        kept = "".join(ch for ch in text if picture_text.has_glyph(ch))
        return kept.strip() or "?"
    kept = "".join(ch for ch in text if ord(ch) < 0x2000 or ch in "…·")
    return kept.strip() or "?"


# --- glyphs both boards use -----------------------------------------------------------------------------


def star(draw: ImageDraw.ImageDraw, x: float, y: float, r: float, colour: Colour) -> None:
    points = []
    for k in range(10):
        radius = r if k % 2 == 0 else r * 0.48
        points.append(polar(x, y, radius, math.radians(-90 + k * 36)))
    draw.polygon(points, fill=colour)


def more_tile(draw: ImageDraw.ImageDraw, box: tuple[float, float, float, float], hidden: int, size: int,
              fill: Colour | None = None) -> None:
    """The last tile of a full grid: "+N", the cards it stands for (a board shows its last ``capacity − 1``
    tiles and this one)."""
    x0, y0, x1, y1 = box
    draw.rounded_rectangle(box, radius=6, fill=fill, outline=PANEL_EDGE, width=2)
    draw.text(((x0 + x1) / 2, (y0 + y1) / 2), f"+{hidden}", font=font(size), fill=TEXT, anchor="mm")


def coin(draw: ImageDraw.ImageDraw, x: float, y: float, r: float, text: str, size: int = 13) -> None:
    """A gold disc of radius ``r`` with ``text`` (a cost, a prestige) in it, at ``size``: a small disc takes a
    smaller size, so that two digits stay inside it."""
    draw.ellipse(circle(x, y, r), fill=GOLD, outline=(150, 110, 30), width=1)
    draw.text((x, y), text, font=font(size), fill=(40, 30, 10), anchor="mm")


# --- the PNG ------------------------------------------------------------------------------------------

# Pillow's encoder spends most of its time choosing each row's filter for a full-colour image (about 8 ms of
# 800×450 here, at any zlib level) and none for a palette image, so each picture is mapped to its board's
# palette first (about 1 ms), then written at zlib's fastest level: a third of the time and half the bytes
# (bench/bench_images measures it). The palette is the board's, fixed: each pixel maps by its own colour alone,
# so what did not change between two pictures looks the same in both (an adaptive palette would shift it).
PNG_COLOURS = 256
EXACT = 96  # a palette's colours kept exact: more than any board has flat colours
PALETTE_FILE = "palette.json"
PNG_LEVEL = 1


def palette(samples: Iterable[Image.Image]) -> list[Colour]:
    """A board's palette from sample pictures: their ``EXACT`` commonest colours as they are (the fills of the
    panels, the tiles, the seasons), and for the other colours (the edges of text and shapes) Pillow's fast
    octree over them, each weighted by how many pixels have it. tools/build_palettes.py writes it to the board's
    ``palette.json``; a test checks that file against the board's samples."""
    counts: Counter[Colour] = Counter()
    for sample in samples:
        counts.update(_counts(sample))
    exact = [colour for colour, _ in counts.most_common(EXACT)]
    edges = [colour for colour, count in counts.items() if colour not in exact for _ in range(max(1, count // 16))]
    colours = list(exact)
    if edges:
        strip = Image.new("RGB", (len(edges), 1))
        strip.putdata(edges)
        reduced = strip.quantize(PNG_COLOURS - len(exact), method=Image.Quantize.FASTOCTREE).convert("RGB")
        colours += sorted(_counts(reduced))
    return _keeping_exact(exact, colours)


def _counts(image: Image.Image) -> Counter[Colour]:
    """How many pixels of the RGB ``image`` have each colour."""
    found = image.getcolors(image.width * image.height) or []
    return Counter({(c[0], c[1], c[2]): n for n, c in found if isinstance(c, tuple)})


def _keeping_exact(exact: list[Colour], colours: list[Colour]) -> list[Colour]:
    """``colours`` without the entries that Pillow's mapping would take for one of the ``exact`` colours (it
    maps a colour to the entry nearest the corner of its 4×4×4 cell, which may be a neighbour): each such
    entry goes, or, when it is itself an exact colour commoner than the one it takes, that one goes."""
    while True:
        image = Image.new("RGB", (len(exact), 1))
        image.putdata(exact)
        back = image.quantize(palette=palette_image(colours), dither=Image.Dither.NONE).convert("RGB").tobytes()
        mapped = [(back[i], back[i + 1], back[i + 2]) for i in range(0, len(back), 3)]
        taken = next(((want, got) for want, got in zip(exact, mapped, strict=True) if want != got), None)
        if taken is None:
            return colours
        want, got = taken
        loser = want if got in exact and exact.index(got) < exact.index(want) else got
        colours.remove(loser)
        if loser in exact:
            exact.remove(loser)


@functools.cache  # a file of the package: read once a process (a static step of each board)
def palette_file(package: str) -> Image.Image:
    """The palette a board's package ships (``palette.json``, a list of ``#rrggbb``), for ``png``."""
    colours = json.loads(importlib.resources.files(package).joinpath(PALETTE_FILE).read_text(encoding="utf-8"))
    return palette_image([(int(c[1:3], 16), int(c[3:5], 16), int(c[5:7], 16)) for c in colours])


def palette_image(colours: Sequence[Colour]) -> Image.Image:
    out = Image.new("P", (1, 1))
    out.putpalette([value for colour in colours for value in colour])
    return out


def png(image: Image.Image, colours: Image.Image | None = None) -> bytes:
    """The picture as a PNG by Pillow's own encoder: of the palette ``colours`` (a board's), or as it is (the
    result card, drawn once a game, keeps every pixel). Deterministic: Pillow writes no timestamp."""
    if colours is not None:
        image = image.quantize(palette=colours, dither=Image.Dither.NONE)
    out = io.BytesIO()
    image.save(out, format="PNG", compress_level=PNG_LEVEL)
    return out.getvalue()


# --- small helpers --------------------------------------------------------------------------------------


def mix(a: Colour, b: Colour, t: float) -> Colour:
    r, g, bl = (round(x + (y - x) * t) for x, y in zip(a, b, strict=True))
    return (r, g, bl)


def circle(x: float, y: float, r: float) -> tuple[float, float, float, float]:
    return (x - r, y - r, x + r, y + r)


def polar(x: float, y: float, r: float, angle: float) -> tuple[float, float]:
    return (x + r * math.cos(angle), y + r * math.sin(angle))


def clamp(value: int, low: int, high: int) -> int:
    return max(low, min(high, value))


def as_int(value: Any, default: int) -> int:
    try:
        return int(value)
    except (TypeError, ValueError):
        return default


def int_or_none(value: Any) -> int | None:
    return None if value is None else as_int(value, 0)


def str_or_none(value: Any) -> str | None:
    return None if value is None or value == "" else str(value)


def field(card: Any, *names: str) -> Any:
    """The first of ``names`` that ``card`` has, as an attribute or a key (catalog cards may be either)."""
    for name in names:
        if isinstance(card, Mapping):
            if name in card:
                return card[name]
        elif hasattr(card, name):
            return getattr(card, name)
    return None
