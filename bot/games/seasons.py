"""Seasons, Dummbot's Challenge: its registry entry, and its rows on the leaderboard and in /game stats."""

from __future__ import annotations

from typing import TYPE_CHECKING

from ..store.base import Ranking

if TYPE_CHECKING:
    from ..store.base import ResultRow


def leaderboard_row(lang: str, row: ResultRow) -> str:
    """The margin over Dummbot, both scores and the difficulty."""
    from ..i18n import t

    margin = row.margin
    return t(lang, "leaderboard.seasons_row", margin="—" if margin is None else t(lang, "leaderboard.margin", margin=margin),
             player=row.player_score, dummbot=row.opponent_score, difficulty=row.difficulty)


def help_params() -> dict[str, dict[str, object]]:
    """The cards to report with `/seasons played`: every card of the S-8 table (the engine's list)."""
    from engine.seasons import S8_CARDS

    return {"help.seasons_report": {"cards": list(S8_CARDS), "game": "seasons"}}  # game: whose card ids


def _entry():  # noqa: ANN202 - the registry imports this module, not the other way round at import time
    from . import Game

    return Game(
        kind="seasons",
        name="Seasons",
        command="seasons",
        rules="engine.seasons:RULES",
        autoplay="engine.seasons.autoplay:autoplay",
        commands="bot.commands.seasons",
        colour=0x3B82F6,
        # The largest margin over Dummbot, won or lost; then the higher score.
        ranking=Ranking(order=(("margin", "desc"), ("player_score", "desc")), outcomes=("won", "lost")),
        embed="bot.render.seasons_embed",
        board="bot.render.seasons_board:board",
        typed="bot.standin.seasons_typed:seasons_command",
        leaderboard_row="bot.games.seasons:leaderboard_row",
        difficulties=("apprentice", "wizard", "archmage"),
        options={"difficulty": ("apprentice", "wizard", "archmage"), "dice": ("table", "bot")},
        help_keys=("help.seasons", "help.seasons_report", "help.seasons_report_effects"),
        help_params="bot.games.seasons:help_params",
        cards="bot.commands.seasons:CARDS",
        card_fields="bot.render.seasons_card:card_fields",
    )
