"""Tug in replies: the state's field, the result card's line and its leaderboard row, read from the typed
summary and result."""

from __future__ import annotations

from bot.i18n import t
from bot.store.base import ResultRow
from engine.core import Result
from tests.thirdgame.engine import TugSummary


def state_fields(lang: str, s: TugSummary) -> list[tuple[str, str, bool]]:
    return [(t(lang, "tug.field.score"), _score(lang, s.player, s.automaton, s.turn), True)]


def result_lines(lang: str, result: Result) -> list[tuple[str, str]]:
    return [(t(lang, "tug.field.score"), _score(lang, result.player_score, result.opponent_score, result.length))]


def leaderboard_row(lang: str, row: ResultRow) -> str:
    return t(lang, "tug.leaderboard_row", margin=f"{row.margin:+d}", player=row.player_score,
             automaton=row.opponent_score)


def _score(lang: str, player: int | None, automaton: int | None, turn: int | None) -> str:
    return t(lang, "tug.field.score_value", player=player, automaton=automaton, turn=turn)
