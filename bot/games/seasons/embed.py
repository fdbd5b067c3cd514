"""Seasons in replies: the embed's colour and state fields, and the result card's lines (its picture: front/)."""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from engine.core import Result
from engine.seasons.summary import DummbotScore, DummbotSummary, PlayerScore, SeasonsSummary

from ...i18n import card_name, t

SEASON_COLOURS = {"winter": 0x60A5FA, "spring": 0x4ADE80, "summer": 0xF59E0B, "autumn": 0xB45309}


def colour(summary: SeasonsSummary) -> int | None:
    """The season's colour (None: the game's own)."""
    return SEASON_COLOURS.get(summary.season)


def state_fields(lang: str, s: SeasonsSummary) -> list[tuple[str, str, bool]]:
    bot = s.dummbot
    # One line, not one per card: a full reply stays short even late in a game.
    sep = "、" if lang == "ja" else " · "
    summoned_text = sep.join(card_name(lang, "seasons", c) for c in bot.summoned) if bot.summoned \
        else t(lang, "word.none")
    return [
        (t(lang, "field.seasons.time"), t(lang, "field.seasons.time_value", year=s.year, month=s.month,
                                          season=s.season), True),
        (t(lang, "field.seasons.crystals"), t(lang, "field.seasons.crystals_value", n=bot.crystals), True),
        (t(lang, "field.seasons.hand"), t(lang, "field.seasons.hand_value", count=bot.hand_size), True),
        *_known_hand_field(lang, bot),
        (t(lang, "field.seasons.summoned", n=len(bot.summoned)), summoned_text, False),
        (t(lang, "field.seasons.final_score" if s.game_over else "field.seasons.score"),
         t(lang, "field.seasons.score_value", score=bot.score), True),
        (t(lang, "field.seasons.difficulty"), t(lang, f"word.{s.difficulty}") + _dot(lang) + t(lang, f"word.dice_{s.dice}"),
         True),
        *_dice_field(lang, s),
    ]


def _dot(lang: str) -> str:
    """Between two facts of one field: Japanese writes its own middle dot, without spaces (docs/japanese.md)."""
    return "・" if lang == "ja" else " · "


def _known_hand_field(lang: str, bot: DummbotSummary) -> list[tuple[str, str, bool]]:
    """S-2.4: Dummbot's hand as far as it is known: the known cards and how many others (none while empty)."""
    if not bot.hand_size:
        return []
    value = t(lang, "field.seasons.hand_known_value", cards=list(bot.hand_known), unknown=bot.hand_unknown)
    return [(t(lang, "field.seasons.hand_known"), value, False)]


def _dice_field(lang: str, s: SeasonsSummary) -> list[tuple[str, str, bool]]:
    """S-1.4: the two dice of each season, named by a face only they have (none for older table-dice games)."""
    lines = [t(lang, "field.seasons.dice_value", season=season, first_die=first, second_die=second)
             for season, (first, second) in s.chosen_dice.items()]
    return [(t(lang, "field.seasons.dice"), "\n".join(lines), False)] if lines else []


def result_lines(lang: str, result: Result, parts: Mapping[str, PlayerScore | DummbotScore]) -> list[tuple[str, str]]:
    """The margin, then each side's breakdown the engine gave (``final_scores``; none for an older game)."""
    player, dummbot = result.player_score, result.opponent_score
    lines = [(t(lang, "result.margin.name"), margin_text(lang, player, dummbot))]
    mine = parts.get("player")
    if isinstance(mine, PlayerScore):
        extra = mine.extra
        extra_text = ("" if not extra else t(lang, "result.breakdown.player.extra", extra=extra) if extra > 0
                      else t(lang, "result.breakdown.player.extra_minus", extra=-extra))
        # A penalty of zero is not said (no bonus used, no card left in hand).
        bonus_text = t(lang, "result.breakdown.player.bonus", bonus_penalty=mine.bonus_penalty) \
            if mine.bonus_penalty else ""
        hand_text = t(lang, "result.breakdown.player.hand", hand_count=mine.hand) if mine.hand else ""
        lines.append((t(lang, "result.breakdown.player.name"), t(
            lang, "result.breakdown.player", crystals=mine.crystals, prestige=mine.prestige,
            extra=extra_text, bonus=bonus_text, hand=hand_text, total=player)))
    bot = parts.get("dummbot")
    if isinstance(bot, DummbotScore):
        lines.append((t(lang, "result.breakdown.dummbot.name"), t(
            lang, "result.breakdown.dummbot", crystals=bot.crystals, prestige=bot.prestige,
            card_count=bot.card_count, total=dummbot)))
    return lines


def margin_text(lang: str, player: Any, dummbot: Any) -> str:
    if not isinstance(player, int) or not isinstance(dummbot, int):
        return "—"
    if player == dummbot:
        return t(lang, "result.margin.tie", player=player)
    if player > dummbot:
        return t(lang, "result.margin.won", margin=player - dummbot)
    return t(lang, "result.margin.lost", margin=dummbot - player)
