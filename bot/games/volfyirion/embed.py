"""Volfyirion in replies: the embed's state fields, and the result card's lines and cities."""

from __future__ import annotations

from typing import Any

from PIL import ImageDraw

from engine.core import Result
from engine.volfyirion.summary import VolfyirionSummary

from ...i18n import t
from ...render import text as picture_text
from ...render.results import LOST, MUTED, TEXT, WIDTH, WON, fitting_font

# V-5.3: a summary stored before the readings were renamed says ``official`` for the per-city table.
_BONUS_READING = {"official": "per_city", None: "flat"}


def colour(summary: VolfyirionSummary) -> int | None:
    return None


def state_fields(lang: str, s: VolfyirionSummary) -> list[tuple[str, str, bool]]:
    from engine.volfyirion import city_defence

    fields: list[tuple[str, str, bool]] = [(t(lang, "field.volfyirion.turn"), str(s.get("turn")), True)]
    if s.get("phase") != "finished":  # after the game's end the dragon attacks no more
        fields.append((t(lang, "field.volfyirion.token"), t(lang, f"word.token_{s.get('token')}"), True))
    pile = s.get("rage_pile", {})
    top = pile.get("top")
    pile_text = t(lang, "field.volfyirion.pile_value", size=pile.get("size", 0))
    if top:
        pile_text += "\n" + t(lang, "field.volfyirion.pile_top", card=top)
    fields.append((t(lang, "field.volfyirion.pile"), pile_text, True))
    for city in s.get("cities", []):
        if city.get("destroyed"):
            value = t(lang, "field.volfyirion.city_destroyed")
        else:
            value = t(lang, "field.volfyirion.city_value", defence=city_defence(city),
                      troop=city.get("troop") or "—", building=city.get("building") or "—")
        fields.append((t(lang, "field.volfyirion.city", city=city.get("name"), defence=city.get("defence")), value, True))
    wonders = s.get("wonders", [])
    if wonders:
        lines = [
            t(lang, "field.volfyirion.wonder", card=w["name"], cost=w["cost"])
            + (" — " + t(lang, "field.volfyirion.sealed") if w.get("sealed") else "")
            for w in wonders
        ]
        fields.append((t(lang, "field.volfyirion.wonders"), "\n".join(lines), False))
    fields.append((t(lang, "field.volfyirion.difficulty"), t(lang, f"word.{s.get('difficulty')}") + " · "
                   + t(lang, f"word.bonus_{_BONUS_READING.get(s.get('bonus'), s.get('bonus'))}"), True))
    return fields


def result_lines(lang: str, result: Result, parts: dict[str, Any]) -> list[tuple[str, str]]:
    cities_left = result.details.get("cities_left")
    lines = [(t(lang, "result.how"), t(lang, f"result.how.{result.how}", turn=result.length, cities=cities_left))]
    lines.append((t(lang, "result.turn.name"), str(result.length)))
    cities = parts.get("cities") or []
    if cities:
        standing = [c["name"] for c in cities if not c.get("destroyed")]
        fallen = [c["name"] for c in cities if c.get("destroyed")]
        join = ("、" if lang == "ja" else ", ").join
        if not standing:  # no "0 of 3 standing": every city fell
            text = t(lang, "result.cities.all_fallen", total=len(cities), names=join(fallen))
        else:
            text = t(lang, "result.cities", standing=len(standing), total=len(cities), names=join(standing))
        if fallen and standing:
            text += t(lang, "result.cities.fallen", names=join(fallen))
        lines.append((t(lang, "result.cities.name"), text))
    return lines


def result_picture(draw: ImageDraw.ImageDraw, lang: str, result: Result, parts: dict[str, Any], won: bool) -> None:
    """The turn, and the cities: standing or crossed out."""
    cities = parts.get("cities") or []
    label = picture_text.font(22, lang)
    turn = t(lang, "result.picture.turn", turn=result.length)
    draw.text((WIDTH / 2, 160), turn, font=picture_text.font(34, lang), fill=TEXT, anchor="mm")
    if not cities:
        left = result.details.get("cities_left")
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
        draw.text((x0 + width / 2, 270), name, font=fitting_font(name, 26, width - 20, lang),
                  fill=(150, 150, 150) if fallen else TEXT, anchor="mm")
        if fallen:
            draw.line((x0 + 14, 224, x0 + width - 14, 316), fill=(30, 30, 30), width=6)
            draw.line((x0 + 14, 316, x0 + width - 14, 224), fill=(30, 30, 30), width=6)
    standing = sum(1 for c in cities if not c.get("destroyed"))
    draw.text((WIDTH / 2, 372), f"{t(lang, 'result.picture.cities')}: {standing}/{len(cities)}", font=label,
              fill=WON if won else MUTED, anchor="mm")
