"""Seasons' reports as selects (issue 35, point 4): the face of Dummbot's die with table dice, a card the player
summoned that touches Dummbot (S-8) and a time move. Each pick builds the very action its typed command builds
(`/seasons die`, `/seasons played`, `/seasons time`), so replay, export and undo cannot tell them apart.

A reply holds at most 5 rows (a select fills one, buttons share rows of 5): ``bot.buttons.fit`` drops the least
needed controls until the reply fits, keeping a place for the "State" button the controller adds to compact replies."""

from __future__ import annotations

from engine.core import Action, GameRecord
from engine.seasons import S8_CARDS, SeasonsState, resolve_face
from engine.seasons.cards import COPIES
from engine.seasons.faces import die_faces

from ....buttons import MENU_OPTIONS, SelectSpec, fit, rows_needed
from ....controller import Builder
from ....i18n import card_name, remembered, t
from ...seasons.text import die_mark, face_text

__all__ = ["die_picker", "fit", "picked_action", "played_picker", "rows_needed", "time_picker"]

KIND = "seasons"
TIME_STEPS = (1, 2, 3, -1, -2, -3)  # `/seasons time steps:` takes -3…3 but 0


def die_picker(state: SeasonsState, lg: str) -> SelectSpec | None:
    """Table dice: the faces of the round's two dice (S-1.4, S-3.2), die by die, each in the die's own words
    and the die named as a player finds it in the box. None for games before the chosen dice (any of five)."""
    season, options = state.dice_season, list[tuple[str, str, str | None]]()
    for die in state.round_dice:
        options += _die_options(lg, season, die)
    if not options:
        return None
    return SelectSpec("pick", t(lg, "pick.die.placeholder"), tuple(options[:MENU_OPTIONS]), arg="die")


def _die_options(lg: str, season: str, die: int) -> tuple[tuple[str, str, str | None], ...]:
    """A die's faces as options, the die named: the same in every reply, so a die of the box is worded once a
    language (an unknown die, which has no faces, each time)."""
    def options() -> tuple[tuple[str, str, str | None], ...]:
        mark = die_mark(season, die)
        named = t(lg, "pick.die.on", face=face_text(lg, mark)) if mark else str(die)
        return tuple((face_text(lg, face), f"{die}.{i}", named) for i, face in enumerate(die_faces(season, die)))

    return remembered(lg, "pick.die", (season, die), options) if die_mark(season, die) else options()


def played_picker(state: SeasonsState, lg: str) -> SelectSpec | None:
    """The cards `/seasons played` acts on (S-8, the list `/game help` names) of which a copy can still be
    summoned (the box's copies minus those known in play or in Dummbot's hand), by card number."""
    known = state.summoned + state.player_area + state.hand_known
    cards = sorted((c for c in S8_CARDS if known.count(c) < COPIES[c]), key=int)
    if not cards:
        return None
    options = tuple((card_name(lg, KIND, c), c, None) for c in cards[:MENU_OPTIONS])  # 13 cards: all fit
    return SelectSpec("pick", t(lg, "pick.played.placeholder"), options, arg="played")


def time_picker(lg: str) -> SelectSpec:
    """The time moves: the same in every reply, made once a language."""
    return remembered(lg, "pick.time", None, lambda: _time_picker(lg))


def _time_picker(lg: str) -> SelectSpec:
    options = tuple((t(lg, "pick.time.forward" if n > 0 else "pick.time.back", steps=abs(n)), str(n), None)
                    for n in TIME_STEPS)
    return SelectSpec("pick", t(lg, "pick.time.placeholder"), options, arg="time")


def picked_action(arg: str | None, value: str, record: GameRecord[SeasonsState]) -> Builder[SeasonsState] | None:
    """The action a pick stands for, as its typed command makes it; None for a value no reply offered. The die's
    is built as `/seasons die` builds it (from the record acted on, its refusals worded the same way)."""
    state = record.state
    if arg == "die":
        die, _, index = value.partition(".")
        if not (die.isdecimal() and index.isdecimal()) or int(die) not in state.round_dice:
            return None
        faces = die_faces(state.dice_season, int(die))
        if int(index) >= len(faces):
            return None
        face = faces[int(index)]
        return lambda acted: Action("die", face=resolve_face(acted.state, face))
    if arg == "played" and value in S8_CARDS:
        return Action("played", card=value)
    if arg == "time" and value.lstrip("-").isdecimal() and int(value) in TIME_STEPS:
        return Action("time", steps=int(value))
    return None
