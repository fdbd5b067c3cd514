"""The public result post: the breakdown, the margin and a picture made for sharing; and its withdrawn form.

``parts`` is the breakdown a game's UI gives (``result_parts``); the game's own lines and picture come from
its plugin (``result_lines``, ``result_picture``), which the caller hands in. Every part is optional: a result
without parts (an older game) still gets its card. ``result`` is the engine's ``Result`` (or its JSON).
"""

from __future__ import annotations

import dataclasses
from typing import Any, Protocol

import discord
from PIL import Image, ImageDraw

from engine.core import Result

from ..i18n import t
from . import text as picture_text
from .embeds import COLOURS
from .picture import png

ResultLike = Result | dict[str, Any]


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
                parts: dict[str, Any], date: str) -> tuple[discord.Embed, bytes | None]:
    """The result embed and its picture (None if drawing failed: the embed alone still tells it all)."""
    embed = result_embed(lang, game=game, owner_id=owner_id, options=options, result=result, parts=parts, date=date)
    try:
        png: bytes | None = result_picture(lang, game=game, options=options, result=result, parts=parts)
    except (OSError, ValueError):
        png = None
    if png:
        embed.set_image(url="attachment://result-card.png")
    return embed, png


def _typed(result: ResultLike) -> Result:
    if isinstance(result, Result):
        return result
    return Result.from_json(result) if result.get("outcome") else Result("lost")


def result_embed(lang: str, *, game: Resulting, owner_id: int, options: dict[str, Any], result: ResultLike,
                 parts: dict[str, Any], date: str) -> discord.Embed:
    result = _typed(result)
    outcome = result.outcome
    embed = discord.Embed(title=t(lang, f"result.title.{game.kind}.{outcome}"),
                          colour=COLOURS["won" if outcome == "won" else "lost"])
    embed.add_field(name=t(lang, "result.player"), value=f"<@{owner_id}>", inline=True)
    embed.add_field(name=t(lang, "result.difficulty"), value=t(lang, f"word.{options.get('difficulty')}"), inline=True)
    for name, value in game.result_lines(lang, result, parts):
        embed.add_field(name=name, value=value[:1024], inline=False)
    embed.set_footer(text=date)
    return embed


def withdrawn_embed(lang: str, *, game: Resulting, owner_id: int, options: dict[str, Any], result: ResultLike,
                    game_id: int) -> discord.Embed:
    """What a result post becomes once the end of its game is undone: the result alone, without its breakdown."""
    bare = dataclasses.replace(_typed(result), breakdown=None)
    embed = result_embed(lang, game=game, owner_id=owner_id, options=options, result=bare, parts={}, date="")
    embed.title = t(lang, "result.withdrawn.title", title=embed.title)
    embed.colour = discord.Colour(COLOURS["lost"])
    embed.description = t(lang, "result.withdrawn", game_id=game_id)
    embed.remove_footer()
    return embed


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

