"""Volfyirion in replies: the embed's state fields, and the result card's lines (its picture: front/)."""

from __future__ import annotations

from typing import Any

from engine.core import Result
from engine.volfyirion.summary import Ending, VolfyirionSummary

from ...i18n import t


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
