"""Embeds: what the automaton did, what the player must do now, and the state that matters.

The text here is the authoritative record of a game (pictures are a glance); every string comes from
bot/locales through ``t``.
"""

from __future__ import annotations

from typing import Any

import discord

from engine.core import Event, Waiting
from engine.volfyirion import city_defence

from ..i18n import card_name, event_lines, t

COLOURS = {"seasons": 0x3B82F6, "volfyirion": 0xB91C1C, "error": 0xDC2626, "won": 0x16A34A, "lost": 0x6B7280}
SEASON_COLOURS = {"winter": 0x60A5FA, "spring": 0x4ADE80, "summer": 0xF59E0B, "autumn": 0xB45309}
MAX_DESCRIPTION = 4000
MAX_FIELD = 1000


def clip(text: str, limit: int) -> str:
    return text if len(text) <= limit else text[: limit - 1] + "…"


def events_text(lang: str, events: tuple[Event, ...] | list[Event]) -> str:
    lines = [f"• {line}" for line in event_lines(lang, events)]
    return clip("\n".join(lines), MAX_DESCRIPTION)


def waiting_text(lang: str, waiting: Waiting) -> str:
    return clip(t(lang, waiting.key, **waiting.params), MAX_FIELD)


def game_embed(
    lang: str, *, kind: str, game_id: int, ply: int, summary: dict[str, Any], events: tuple[Event, ...] | list[Event],
    waiting: Waiting | None, title_key: str = "reply.title", image: bool = False, state: bool = True,
) -> discord.Embed:
    colour = COLOURS[kind]
    if kind == "seasons" and summary.get("season") in SEASON_COLOURS:
        colour = SEASON_COLOURS[summary["season"]]
    embed = discord.Embed(title=t(lang, title_key, game=kind), colour=colour)
    text = events_text(lang, events)
    if text:
        embed.description = text
    if waiting is not None and waiting.legal:
        embed.add_field(name=t(lang, "reply.now"), value=waiting_text(lang, waiting), inline=False)
    for name, value, inline in state_fields(lang, kind, summary) if state else ():
        embed.add_field(name=name, value=clip(value, MAX_FIELD) or "—", inline=inline)
    embed.set_footer(text=t(lang, "reply.footer", game_id=game_id, ply=ply))
    if image:
        embed.set_image(url="attachment://board.png")
    return embed


def state_fields(lang: str, kind: str, summary: dict[str, Any]) -> list[tuple[str, str, bool]]:
    if kind == "seasons":
        return seasons_fields(lang, summary)
    return volfyirion_fields(lang, summary)


def seasons_fields(lang: str, s: dict[str, Any]) -> list[tuple[str, str, bool]]:
    bot = s.get("dummbot", {})
    summoned = bot.get("summoned", [])
    # One line, not one per card: a full reply stays short even late in a game.
    sep = "、" if lang == "ja" else " · "
    summoned_text = sep.join(card_name(lang, "seasons", c) for c in summoned) if summoned else t(lang, "word.none")
    return [
        (t(lang, "field.seasons.time"), t(lang, "field.seasons.time_value", year=s.get("year"),
                                          month=s.get("month"), season=s.get("season")), True),
        (t(lang, "field.seasons.crystals"), t(lang, "field.seasons.crystals_value", n=bot.get("crystals", 0)), True),
        (t(lang, "field.seasons.hand"), t(lang, "field.seasons.hand_value", count=bot.get("hand_size", 0)), True),
        (t(lang, "field.seasons.summoned", n=len(summoned)), summoned_text, False),
        (t(lang, "field.seasons.final_score" if s.get("game_over") else "field.seasons.score"),
         t(lang, "field.seasons.score_value", score=bot.get("score", 0)), True),
        (t(lang, "field.seasons.difficulty"), t(lang, f"word.{s.get('difficulty')}") + " · "
         + t(lang, f"word.dice_{s.get('dice')}"), True),
    ]


# V-5.3: a summary stored before the readings were renamed says ``official`` for the per-city table.
_BONUS_READING = {"official": "per_city", None: "flat"}


def volfyirion_fields(lang: str, s: dict[str, Any]) -> list[tuple[str, str, bool]]:
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


def notice_embed(lang: str, key: str, *, kind: str = "error", params: dict[str, Any] | None = None,
                 **more: Any) -> discord.Embed:
    """``params`` passes a message's parameters whatever their names (an engine error's ``kind`` is not the
    colour)."""
    text = t(lang, key, **{**(params or {}), **more})
    return discord.Embed(description=clip(text, MAX_DESCRIPTION), colour=COLOURS.get(kind, 0x6B7280))


# -- plain text, for a channel where the bot may not embed (no Embed Links) ------------------------------------

MAX_CONTENT = 2000


def embed_text(embed: discord.Embed) -> str:
    """Everything an embed shows, as message text: the title in bold, the description, each field as its
    name in bold and its value, the footer in italics (the picture is left to the caller)."""
    lines: list[str] = []
    if embed.title:
        lines.append(f"**{embed.title}**")
    if embed.description:
        lines.append(embed.description)
    for fld in embed.fields:
        if fld.name and fld.value:
            lines.append(f"**{fld.name}**\n{fld.value}")
    if embed.footer and embed.footer.text:
        lines.append(f"*{embed.footer.text}*")
    return "\n".join(lines)


def text_chunks(text: str, limit: int = MAX_CONTENT) -> list[str]:
    """``text`` cut into messages of at most ``limit`` characters, between lines where it can be."""
    chunks: list[str] = []
    current = ""
    for line in text.split("\n"):
        while len(line) > limit:  # a single overlong line: cut it
            if current:
                chunks.append(current)
                current = ""
            chunks.append(line[:limit])
            line = line[limit:]
        candidate = f"{current}\n{line}" if current else line
        if len(candidate) > limit:
            chunks.append(current)
            current = line
        else:
            current = candidate
    if current:
        chunks.append(current)
    return chunks or [""]
