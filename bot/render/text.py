"""Fonts and text for pictures: drawn in the user's language, wrapped rather than cut.

The project ships a subset of Noto Sans CJK JP (SIL Open Font License 1.1, ``fonts/OFL.txt``; rebuilt by
``tools/build_font.py``) that covers kana, the JIS level-1 kanji and every character of the Japanese
locale files and card data. It draws English as well. Without it (a trimmed install, a damaged file) the
pictures fall back cleanly to Pillow's bundled font and English: ``picture_lang`` says which language a
picture can be drawn in, and ``drawable`` whether one string can be.
"""

from __future__ import annotations

from functools import cache
from importlib import resources

from PIL import ImageFont

FONT_FILE = "NotoSansCJKjp-Subset.otf"
AnyFont = ImageFont.FreeTypeFont | ImageFont.ImageFont


@cache
def _font_bytes() -> bytes | None:
    try:
        return (resources.files("bot.render") / "fonts" / FONT_FILE).read_bytes()
    except (FileNotFoundError, OSError, ModuleNotFoundError):
        return None


@cache
def cjk_font(size: int) -> ImageFont.FreeTypeFont | None:
    """The shipped CJK font at ``size``, or None when it cannot be loaded."""
    data = _font_bytes()
    if data is None:
        return None
    try:
        import io

        return ImageFont.truetype(io.BytesIO(data), size=size, layout_engine=ImageFont.Layout.BASIC)
    except (OSError, ValueError):
        return None


@cache
def default_font(size: int) -> AnyFont:
    """Pillow's bundled font (Latin only) at ``size``."""
    font = ImageFont.load_default(size=size)
    if isinstance(font, ImageFont.FreeTypeFont):
        return font.font_variant(layout_engine=ImageFont.Layout.BASIC)
    return font  # Pillow without FreeType: the fixed bitmap font, still legible


def font(size: int, lang: str = "en") -> AnyFont:
    """The font a picture in ``lang`` is drawn with: the shipped CJK font, or Pillow's for English when the
    shipped one is missing."""
    found = cjk_font(size)
    if found is not None:
        return found
    return default_font(size)


def picture_lang(lang: str) -> str:
    """The language a picture can really be drawn in: ``lang``, or English when no CJK font is there."""
    return lang if lang == "en" or cjk_font(20) is not None else "en"


@cache
def _notdef_signature() -> bytes | None:
    f = cjk_font(24)
    if f is None:
        return None
    return bytes(f.getmask("\U0010fffd"))  # a private-use code point no font covers: the .notdef box


@cache
def has_glyph(char: str) -> bool:
    """True when the shipped font draws ``char`` itself (not the empty box of a missing glyph)."""
    if char.isspace():
        return True
    f = cjk_font(24)
    if f is None:
        return char.isascii()
    mask = f.getmask(char)
    return mask.getbbox() is not None and bytes(mask) != _notdef_signature()


def drawable(text: str) -> bool:
    """Every character of ``text`` has a glyph in the picture font."""
    return all(has_glyph(c) for c in text)


def wrap(text: str, f: AnyFont, width: float, max_lines: int = 2) -> list[str]:
    """``text`` in lines no wider than ``width``: broken at spaces, or in Japanese after a particle 「の」 when
    one is in the line's second half and the rest still fits (「ラグノールの｜ペンダント」), else between any two
    characters; only a
    text that needs more than ``max_lines`` lines ends with "…"."""
    if f.getlength(text) <= width:
        return [text]
    lines, cut = _wrap(text, f, width, max_lines, particles=True)
    return _wrap(text, f, width, max_lines, particles=False)[0] if cut else lines


def _wrap(text: str, f: AnyFont, width: float, max_lines: int, particles: bool) -> tuple[list[str], bool]:
    """``wrap``'s lines (breaking Japanese after a particle when ``particles``) and whether the text was cut."""
    lines: list[str] = []
    rest = text
    while rest and len(lines) < max_lines:
        if f.getlength(rest) <= width:
            lines.append(rest)
            rest = ""
            break
        cut = 1
        while cut < len(rest) and f.getlength(rest[: cut + 1]) <= width:
            cut += 1
        space = rest.rfind(" ", 0, cut + 1)
        if space > 0 and rest[cut:cut + 1] != " ":
            cut = space
        elif space < 0 and particles:
            cut = _japanese_break(rest, cut)
        lines.append(rest[:cut].rstrip())
        rest = rest[cut:].lstrip()
    if rest:
        last = lines[-1]
        while last and f.getlength(last + "…") > width:
            last = last[:-1]
        lines[-1] = last.rstrip() + "…"
    return lines, bool(rest)


def _japanese_break(text: str, cut: int) -> int:
    """Where to end a line of Japanese that would end at ``cut``: after the last 「の」 or 「・」 in its second
    half (a name read in its parts), else at ``cut``."""
    found = max(text.rfind("の", 0, cut), text.rfind("・", 0, cut))
    return found + 1 if found + 1 >= (cut + 1) // 2 and found + 1 < len(text) else cut
