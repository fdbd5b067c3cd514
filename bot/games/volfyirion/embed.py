"""Volfyirion in replies: the embed's state fields, and the result card's lines and cities."""

from __future__ import annotations

from typing import Any

from PIL import ImageDraw

from engine.core import Result
from engine.volfyirion.summary import Ending, VolfyirionSummary

from ...i18n import t
from ...render import text as picture_text
from ...render.results import LOST, MUTED, TEXT, WIDTH, WON, fitting_font


def colour(summary: VolfyirionSummary) -> int | None:
    return None


def state_fields(lang: str, s: VolfyirionSummary) -> list[tuple[str, str, bool]]:
    fields: list[tuple[str, str, bool]] = [(t(lang, "field.volfyirion.turn"), str(s.turn), True)]
    if not s.finished:  # after the game's end the dragon attacks no more
        fields.append((t(lang, "field.volfyirion.token"), t(lang, f"word.token_{s.token}"), True))
    pile_text = t(lang, "field.volfyirion.pile_value", size=s.rage_pile.size)
    if s.rage_pile.top:
        pile_text += "\n" + t(lang, "field.volfyirion.pile_top", card=s.rage_pile.top)
    fields.append((t(lang, "field.volfyirion.pile"), pile_text, True))
    for city in s.cities:
        if city.destroyed:
            value = t(lang, "field.volfyirion.city_destroyed")
        else:
            value = t(lang, "field.volfyirion.city_value", defence=city.defence_now,
                      troop=city.troop or "—", building=city.building or "—")
        fields.append((t(lang, "field.volfyirion.city", city=city.name, defence=city.defence), value, True))
    if s.wonders:
        lines = [
            t(lang, "field.volfyirion.wonder", card=w.name, cost=w.cost)
            + (("・" if lang == "ja" else " — ") + t(lang, "field.volfyirion.sealed") if w.sealed else "")
            for w in s.wonders
        ]
        fields.append((t(lang, "field.volfyirion.wonders"), "\n".join(lines), False))
    fields.append((t(lang, "field.volfyirion.difficulty"), t(lang, f"word.{s.difficulty}") + ("・" if lang == "ja" else " · ")
                   + t(lang, f"word.bonus_{s.bonus}"), True))
    return fields


def result_lines(lang: str, result: Result, parts: dict[str, Any]) -> list[tuple[str, str]]:
    """The result card's lines, worded from the engine's breakdown (``Ending``)."""
    ending = Ending.of(result)
    lines = [(t(lang, "result.how"), t(lang, f"result.how.{result.how}", turn=result.length,
                                        cities=ending.cities_left))]
    lines.append((t(lang, "result.turn.name"), str(result.length)))
    if ending.cities:
        standing, fallen, total = ending.standing, ending.fallen, len(ending.cities)
        join = ("、" if lang == "ja" else ", ").join
        if not standing:  # no "0 of 3 standing": every city fell
            text = t(lang, "result.cities.all_fallen", total=total, names=join(fallen))
        else:
            text = t(lang, "result.cities", standing=len(standing), total=total, names=join(standing))
        if fallen and standing:
            text += t(lang, "result.cities.fallen", names=join(fallen))
        lines.append((t(lang, "result.cities.name"), text))
    return lines


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
