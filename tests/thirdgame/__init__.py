"""Tug, a third game that exists only under tests/: the proof that a game is its own files plus a registry entry.

An automaton with two actions: each turn the player pushes (+1 for the player, then the automaton pulls with a
seeded die) or passes (the automaton gains 1). After five turns the higher score wins; a tie goes to the
automaton. ``register()`` adds it to the bot's registry (its strings included); nothing outside tests/thirdgame
names it.
"""

from __future__ import annotations

KIND = "tug"


def entry():  # noqa: ANN201
    from bot.games import Game
    from bot.store import Ranking

    from .texts import TEXTS

    return Game(
        kind=KIND,
        name="Tug",
        command="tug",
        rules="tests.thirdgame.rules:RULES",
        autoplay="tests.thirdgame.rules:autoplay",
        commands="tests.thirdgame.commands",
        colour=0x10B981,
        ranking=Ranking(order=(("margin", "desc"), ("length", "asc")), outcomes=("won", "lost")),
        embed="tests.thirdgame.embed",
        board="tests.thirdgame.embed:board",
        typed="tests.thirdgame.embed:typed_command",
        leaderboard_row="tests.thirdgame.embed:leaderboard_row",
        difficulties=("normal",),
        options={"difficulty": ("normal",)},
        help_keys=("help.tug",),
        texts=lambda: TEXTS,
    )


def register() -> None:
    from bot import games

    if KIND not in games.KINDS:
        games.register(entry())
