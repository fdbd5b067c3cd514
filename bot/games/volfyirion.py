"""Volfyirion's solo mode: its registry entry, its leaderboard rows, and the names read from typed actions."""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from ..store.base import Ranking

if TYPE_CHECKING:
    from engine.core import Action

    from ..store.base import ResultRow

KIND = "volfyirion"
CARD_ARGS = ("card", "cards", "troop")


def leaderboard_row(lang: str, row: ResultRow) -> str:
    """The turn of the win, how, and the difficulty."""
    from ..i18n import t

    return t(lang, "leaderboard.volfyirion_row", turns=row.length, how=row.how, difficulty=row.difficulty)


def names_read(action: Action) -> list[tuple[str, str]]:
    """Names in an action that were not exact (a part of a name, a typo): (typed, card). The engine reads
    typed names itself, so they are read back from the action."""
    from engine.core import split_list
    from engine.volfyirion.cards import CATALOG

    found = []
    for name in CARD_ARGS:
        value: Any = action.args.get(name)
        typed = split_list(value) if isinstance(value, str) else value if isinstance(value, list) else []
        for text in typed:
            if not isinstance(text, str) or text in CATALOG:
                continue
            resolved = CATALOG.resolve(text)
            if resolved is not None and not resolved[1]:
                found.append((text, resolved[0].name))
    return found


def _entry():  # noqa: ANN202
    from . import Game

    return Game(
        kind=KIND,
        name="Volfyirion",
        command="volfyrion",  # the spelling players type
        rules="engine.volfyirion:RULES",
        autoplay="engine.volfyirion.autoplay:autoplay",
        commands="bot.commands.volfyirion",
        colour=0xB91C1C,
        ranking=Ranking(order=(("length", "asc"),), outcomes=("won",)),  # the fewest turns to a win
        embed="bot.render.volfyirion_embed",
        board="bot.render.volfyirion_board:board",
        typed="bot.standin.volfyirion_typed:volfyirion_command",
        leaderboard_row="bot.games.volfyirion:leaderboard_row",
        difficulties=("easy", "normal", "hard"),
        options={"difficulty": ("easy", "normal", "hard"), "bonus": ("flat", "per_city")},
        help_keys=("help.volfyirion", "help.volfyirion_report"),
        cards="bot.commands.volfyirion:CARDS",
        card_fields="bot.render.volfyirion_card:card_fields",
        read_names="bot.games.volfyirion:names_read",
    )
