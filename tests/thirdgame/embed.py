"""Tug in replies: state fields, result lines, a board picture, its leaderboard row and typed commands."""

from __future__ import annotations

import io
from typing import Any

from PIL import Image

from bot.i18n import t
from engine.core import Action, Result


def state_fields(lang: str, s: dict[str, Any]) -> list[tuple[str, str, bool]]:
    return [(t(lang, "tug.field.score"), t(lang, "tug.field.score_value", player=s["player"],
                                           automaton=s["automaton"], turn=s["turn"]), True)]


def result_lines(lang: str, result: Result, parts: dict[str, Any]) -> list[tuple[str, str]]:
    return [(t(lang, "tug.field.score"), t(lang, "tug.field.score_value", player=result.player_score,
                                           automaton=result.opponent_score, turn=result.length))]


def board(summary: dict[str, Any], lang: str = "en") -> bytes:
    image = Image.new("RGB", (40, 20), (summary["player"] * 40 % 256, summary["automaton"] * 40 % 256, 90))
    out = io.BytesIO()
    image.save(out, format="PNG")
    return out.getvalue()


def leaderboard_row(lang: str, row: Any) -> str:
    return t(lang, "tug.leaderboard_row", margin=f"{row.margin:+d}", player=row.player_score,
             automaton=row.opponent_score)


def typed_command(action: Action) -> tuple[str, dict[str, Any]]:
    return f"tug {action.type}", {}
