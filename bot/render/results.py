"""The public result post (a Components V2 notice, bot/render/notices.py): the breakdown, the margin and a picture made for sharing; and its withdrawn form.

``parts`` is the breakdown a game's UI gives (``result_parts``); the game's own lines and picture come from
its plugin (``result_lines``, ``result_picture``), which the caller hands in. Every part is optional: a result
without parts (an older game) still gets its card. ``result`` is the engine's ``Result`` (or its JSON).
"""

from __future__ import annotations

import dataclasses
from typing import Any, Protocol

from PIL import Image, ImageDraw

from engine.core import Result

from ..i18n import t
from . import text as picture_text
from .embeds import COLOURS
from .notices import Notice
from .picture import png

ResultLike = Result | dict[str, Any]
PICTURE = "result-card.png"  # the picture's file name, shown by the card's gallery


class Resulting(Protocol):
    """A game as its result card shows it: its own lines and its part of the picture."""

    @property
    def kind(self) -> str: ...
    def result_lines(self, lang: str, result: Result, parts: dict[str, Any]) -> list[tuple[str, str]]: ...
    def result_picture(self, draw: ImageDraw.ImageDraw, lang: str, result: Result, parts: dict[str, Any],
                       won: bool) -> None: ...


WIDTH, HEIGHT = 800, 420
BACKGROUND = (24, 27, 34)
TEXT = (236, 237, 241)
MUTED = (150, 155, 168)
WON = (74, 196, 120)
LOST = (200, 96, 88)
GOLD = (232, 188, 72)


def result_card(lang: str, *, game: Resulting, owner_id: int, options: dict[str, Any], result: ResultLike,
                parts: dict[str, Any], date: str) -> tuple[Notice, bytes | None]:
    """The result notice and its picture (None if drawing failed: the notice alone still tells it all)."""
    card = result_notice(lang, game=game, owner_id=owner_id, options=options, result=result, parts=parts, date=date)
    try:
        png: bytes | None = result_picture(lang, game=game, options=options, result=result, parts=parts)
    except (OSError, ValueError):
        png = None
    if png:
        card.picture = PICTURE
    return card, png


def _typed(result: ResultLike) -> Result:
    if isinstance(result, Result):
        return result
    return Result.from_json(result) if result.get("outcome") else Result("lost")


def result_notice(lang: str, *, game: Resulting, owner_id: int, options: dict[str, Any], result: ResultLike,
                  parts: dict[str, Any], date: str) -> Notice:
    """The card's words: who played (``<@id>``: a mention that pings nobody, allowed_mentions is none), at what
    difficulty, the game's own lines, the date."""
    result = _typed(result)
    outcome = result.outcome
    card = Notice(accent=COLOURS["won" if outcome == "won" else "lost"], title=t(lang, f"result.title.{game.kind}.{outcome}"),
                  footer=date)
    card.add_field(t(lang, "result.player"), f"<@{owner_id}>")
    card.add_field(t(lang, "result.difficulty"), t(lang, f"word.{options.get('difficulty')}"))
    for name, value in game.result_lines(lang, result, parts):
        card.add_field(name, value[:1024])
    return card


def withdrawn_notice(lang: str, *, game: Resulting, owner_id: int, options: dict[str, Any], result: ResultLike,
                     game_id: int) -> Notice:
    """What a result post becomes once the end of its game is undone: the result alone, without its breakdown."""
    bare = dataclasses.replace(_typed(result), breakdown=None)
    card = result_notice(lang, game=game, owner_id=owner_id, options=options, result=bare, parts={}, date="")
    return dataclasses.replace(card, title=t(lang, "result.withdrawn.title", title=card.title), accent=COLOURS["lost"],
                               description=t(lang, "result.withdrawn", game_id=game_id), footer="")


# -- the picture -----------------------------------------------------------------------------------------
def result_picture(lang: str, *, game: Resulting, options: dict[str, Any], result: ResultLike,
                   parts: dict[str, Any]) -> bytes:
    """An 800×420 card to share: who won, and below what the game draws (its ``result_picture``)."""
    lang = picture_text.picture_lang(lang)
    result = _typed(result)
    won = result.won
    image = Image.new("RGB", (WIDTH, HEIGHT), BACKGROUND)
    draw = ImageDraw.Draw(image)
    accent = WON if won else LOST
    draw.rectangle((0, 0, WIDTH, 10), fill=accent)
    title = t(lang, f"result.title.{game.kind}.{'won' if won else 'lost'}").replace("🏆", "").strip()
    title_font = fitting_font(title, 40, WIDTH - 80, lang)
    draw.text((WIDTH / 2, 62), title, font=title_font, fill=TEXT, anchor="mm")
    name = t(lang, f"word.{game.kind}")
    difficulty = t(lang, f"word.{options.get('difficulty')}")
    draw.text((WIDTH / 2, 108), f"{name} · {difficulty}", font=picture_text.font(20, lang), fill=MUTED,
              anchor="mm")
    game.result_picture(draw, lang, result, parts, won)
    return png(image)


def fitting_font(text: str, size: int, width: float, lang: str) -> picture_text.AnyFont:
    f = picture_text.font(size, lang)
    while size > 14 and f.getlength(text) > width:
        size -= 2
        f = picture_text.font(size, lang)
    return f

