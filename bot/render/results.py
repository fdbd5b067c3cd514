"""The public result post: the breakdown, the margin and a picture made for sharing; and its withdrawn form.

``parts`` is the breakdown a game's UI gives (``result_parts``): for Seasons ``{"player": {crystals, prestige,
bonuses, bonus_penalty, hand, extra, total}, "dummbot": {crystals, prestige, card_count, total}}``; for
Volfyirion ``{"cities": [{"name", "destroyed"}], "turn", "how"}``. Every part is optional: a result without
parts (an older game) still gets its card.
"""

from __future__ import annotations

import io
from typing import Any

import discord
from PIL import Image, ImageDraw

from ..i18n import t
from . import text as picture_text
from .embeds import COLOURS

WIDTH, HEIGHT = 800, 420
BACKGROUND = (24, 27, 34)
TEXT = (236, 237, 241)
MUTED = (150, 155, 168)
WON = (74, 196, 120)
LOST = (200, 96, 88)
GOLD = (232, 188, 72)


def result_card(lang: str, *, kind: str, owner_id: int, options: dict[str, Any], result: dict[str, Any],
                parts: dict[str, Any], date: str) -> tuple[discord.Embed, bytes | None]:
    """The result embed and its picture (None if drawing failed: the embed alone still tells it all)."""
    embed = result_embed(lang, kind=kind, owner_id=owner_id, options=options, result=result, parts=parts, date=date)
    try:
        png: bytes | None = result_picture(lang, kind=kind, options=options, result=result, parts=parts)
    except (OSError, ValueError):
        png = None
    if png:
        embed.set_image(url="attachment://result-card.png")
    return embed, png


def result_embed(lang: str, *, kind: str, owner_id: int, options: dict[str, Any], result: dict[str, Any],
                 parts: dict[str, Any], date: str) -> discord.Embed:
    outcome = result.get("outcome", "lost")
    embed = discord.Embed(title=t(lang, f"result.title.{kind}.{outcome}"),
                          colour=COLOURS["won" if outcome == "won" else "lost"])
    embed.add_field(name=t(lang, "result.player"), value=f"<@{owner_id}>", inline=True)
    embed.add_field(name=t(lang, "result.difficulty"), value=t(lang, f"word.{options.get('difficulty')}"), inline=True)
    for name, value in (seasons_lines(lang, result, parts) if kind == "seasons" else
                        volfyirion_lines(lang, result, parts)):
        embed.add_field(name=name, value=value[:1024], inline=False)
    embed.set_footer(text=date)
    return embed


def seasons_lines(lang: str, result: dict[str, Any], parts: dict[str, Any]) -> list[tuple[str, str]]:
    player, dummbot = result.get("player_score"), result.get("dummbot_score")
    lines = [(t(lang, "result.margin.name"), margin_text(lang, player, dummbot))]
    mine = parts.get("player")
    if mine:
        extra = mine.get("extra") or 0
        extra_text = ("" if not extra else t(lang, "result.breakdown.player.extra", extra=extra) if extra > 0
                      else t(lang, "result.breakdown.player.extra_minus", extra=-extra))
        lines.append((t(lang, "result.breakdown.player.name"), t(
            lang, "result.breakdown.player", crystals=mine.get("crystals"), prestige=mine.get("prestige"),
            extra=extra_text, bonus_penalty=mine.get("bonus_penalty"), hand_count=mine.get("hand"),
            total=player)))
    bot = parts.get("dummbot")
    if bot:
        lines.append((t(lang, "result.breakdown.dummbot.name"), t(
            lang, "result.breakdown.dummbot", crystals=bot.get("crystals"), prestige=bot.get("prestige"),
            card_count=bot.get("card_count"), total=dummbot)))
    return lines


def margin_text(lang: str, player: Any, dummbot: Any) -> str:
    if not isinstance(player, int) or not isinstance(dummbot, int):
        return "—"
    if player == dummbot:
        return t(lang, "result.margin.tie", player=player)
    if player > dummbot:
        return t(lang, "result.margin.won", margin=player - dummbot)
    return t(lang, "result.margin.lost", margin=dummbot - player)


def volfyirion_lines(lang: str, result: dict[str, Any], parts: dict[str, Any]) -> list[tuple[str, str]]:
    lines = [(t(lang, "result.how"), t(lang, f"result.how.{result.get('how')}", turn=result.get("turn"),
                                       cities=result.get("cities_left")))]
    lines.append((t(lang, "result.turn.name"), str(result.get("turn"))))
    cities = parts.get("cities") or []
    if cities:
        standing = [c["name"] for c in cities if not c.get("destroyed")]
        fallen = [c["name"] for c in cities if c.get("destroyed")]
        text = t(lang, "result.cities", standing=len(standing), total=len(cities),
                 names=("、" if lang == "ja" else ", ").join(standing) or "—")
        if fallen:
            text += t(lang, "result.cities.fallen", names=("、" if lang == "ja" else ", ").join(fallen))
        lines.append((t(lang, "result.cities.name"), text))
    return lines


def withdrawn_embed(lang: str, *, kind: str, owner_id: int, options: dict[str, Any], result: dict[str, Any],
                    game_id: int) -> discord.Embed:
    """What a result post becomes once the end of its game is undone."""
    embed = result_embed(lang, kind=kind, owner_id=owner_id, options=options, result=result, parts={}, date="")
    embed.title = t(lang, "result.withdrawn.title", title=embed.title)
    embed.colour = discord.Colour(COLOURS["lost"])
    embed.description = t(lang, "result.withdrawn", game_id=game_id)
    embed.remove_footer()
    return embed


# -- the picture -----------------------------------------------------------------------------------------
def result_picture(lang: str, *, kind: str, options: dict[str, Any], result: dict[str, Any],
                   parts: dict[str, Any]) -> bytes:
    """An 800×420 card to share: who won, the scores (Seasons) or the cities and the turn (Volfyirion)."""
    lang = picture_text.picture_lang(lang)
    won = result.get("outcome") == "won"
    image = Image.new("RGB", (WIDTH, HEIGHT), BACKGROUND)
    draw = ImageDraw.Draw(image)
    accent = WON if won else LOST
    draw.rectangle((0, 0, WIDTH, 10), fill=accent)
    title = t(lang, f"result.title.{kind}.{'won' if won else 'lost'}").replace("🏆", "").strip()
    title_font = _fitting_font(title, 40, WIDTH - 80, lang)
    draw.text((WIDTH / 2, 62), title, font=title_font, fill=TEXT, anchor="mm")
    game = t(lang, f"word.{kind}")
    difficulty = t(lang, f"word.{options.get('difficulty')}")
    draw.text((WIDTH / 2, 108), f"{game} · {difficulty}", font=picture_text.font(20, lang), fill=MUTED,
              anchor="mm")
    if kind == "seasons":
        _seasons_scores(draw, lang, result, won)
    else:
        _volfyirion_cities(draw, lang, result, parts, won)
    out = io.BytesIO()
    image.save(out, format="PNG", compress_level=3)
    return out.getvalue()


def _fitting_font(text: str, size: int, width: float, lang: str) -> picture_text.AnyFont:
    f = picture_text.font(size, lang)
    while size > 14 and f.getlength(text) > width:
        size -= 2
        f = picture_text.font(size, lang)
    return f


def _seasons_scores(draw: ImageDraw.ImageDraw, lang: str, result: dict[str, Any], won: bool) -> None:
    player, dummbot = result.get("player_score"), result.get("dummbot_score")
    big, label = picture_text.font(84, lang), picture_text.font(24, lang)
    for x, name, score, lit in ((220, "result.picture.player", player, won),
                                (580, "result.picture.dummbot", dummbot, not won)):
        draw.text((x, 170), t(lang, name), font=label, fill=MUTED, anchor="mm")
        draw.text((x, 250), str(score if score is not None else "—"), font=big, fill=GOLD if lit else TEXT,
                  anchor="mm")
    draw.text((WIDTH / 2, 250), "—", font=label, fill=MUTED, anchor="mm")
    if isinstance(player, int) and isinstance(dummbot, int):
        margin = player - dummbot
        text = f"{margin:+d}".replace("-", "−")
        draw.text((WIDTH / 2, 350), text, font=picture_text.font(44, lang), fill=WON if won else LOST, anchor="mm")


def _volfyirion_cities(draw: ImageDraw.ImageDraw, lang: str, result: dict[str, Any], parts: dict[str, Any],
                       won: bool) -> None:
    cities = parts.get("cities") or []
    label = picture_text.font(22, lang)
    turn = t(lang, "result.picture.turn", turn=result.get("turn"))
    draw.text((WIDTH / 2, 160), turn, font=picture_text.font(34, lang), fill=TEXT, anchor="mm")
    if not cities:
        left = result.get("cities_left")
        draw.text((WIDTH / 2, 260), f"{t(lang, 'result.picture.cities')}: {left}", font=label, fill=TEXT,
                  anchor="mm")
        return
    width = 220
    start = WIDTH / 2 - (len(cities) * width + (len(cities) - 1) * 20) / 2
    for i, city in enumerate(cities):
        x0 = start + i * (width + 20)
        fallen = bool(city.get("destroyed"))
        draw.rounded_rectangle((x0, 210, x0 + width, 330), radius=12, fill=(78, 78, 78) if fallen else (50, 66, 92),
                               outline=LOST if fallen else WON, width=3)
        name = str(city.get("name") or "?")
        draw.text((x0 + width / 2, 270), name, font=_fitting_font(name, 26, width - 20, lang),
                  fill=(150, 150, 150) if fallen else TEXT, anchor="mm")
        if fallen:
            draw.line((x0 + 14, 224, x0 + width - 14, 316), fill=(30, 30, 30), width=6)
            draw.line((x0 + 14, 316, x0 + width - 14, 224), fill=(30, 30, 30), width=6)
    standing = sum(1 for c in cities if not c.get("destroyed"))
    draw.text((WIDTH / 2, 372), f"{t(lang, 'result.picture.cities')}: {standing}/{len(cities)}", font=label,
              fill=WON if won else MUTED, anchor="mm")
