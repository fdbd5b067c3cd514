"""Volfyirion's result picture: the turn and the cities, standing or crossed out, drawn on the result card
(bot/render/results)."""

from __future__ import annotations

from typing import Any

from PIL import ImageDraw

from engine.core import Result
from engine.volfyirion.summary import Ending

from ....i18n import t
from ....render import text as picture_text
from ....render.results import LOST, MUTED, TEXT, WIDTH, WON, fitting_font


def result_picture(draw: ImageDraw.ImageDraw, lang: str, result: Result, parts: dict[str, Any], won: bool) -> None:
    """The turn, and the cities: standing or crossed out."""
    ending = Ending.of(result)
    cities = ending.cities
    label = picture_text.font(22, lang)
    turn = t(lang, "result.picture.turn", turn=result.length)
    draw.text((WIDTH / 2, 160), turn, font=picture_text.font(34, lang), fill=TEXT, anchor="mm")
    if not cities:
        draw.text((WIDTH / 2, 260), f"{t(lang, 'result.picture.cities')}: {ending.cities_left}", font=label,
                  fill=TEXT, anchor="mm")
        return
    width = 220
    start = WIDTH / 2 - (len(cities) * width + (len(cities) - 1) * 20) / 2
    for i, city in enumerate(cities):
        x0 = start + i * (width + 20)
        fallen = city.destroyed
        draw.rounded_rectangle((x0, 210, x0 + width, 330), radius=12, fill=(78, 78, 78) if fallen else (50, 66, 92),
                               outline=LOST if fallen else WON, width=3)
        draw.text((x0 + width / 2, 270), city.name, font=fitting_font(city.name, 26, width - 20, lang),
                  fill=(150, 150, 150) if fallen else TEXT, anchor="mm")
        if fallen:
            draw.line((x0 + 14, 224, x0 + width - 14, 316), fill=(30, 30, 30), width=6)
            draw.line((x0 + 14, 316, x0 + width - 14, 224), fill=(30, 30, 30), width=6)
    draw.text((WIDTH / 2, 372), f"{t(lang, 'result.picture.cities')}: {len(ending.standing)}/{len(cities)}",
              font=label, fill=WON if won else MUTED, anchor="mm")
