"""Seasons, "Dummbot's Challenge": the automaton engine (rules S-1 … S-9 of seasons-dummbot.md).

    >>> from engine.core import Action, GameRecord
    >>> from engine.seasons import RULES, resolve_face
    >>> game = GameRecord(RULES, {"difficulty": "wizard", "dice": "table"}, seed=42)
    >>> game.state.chosen["winter"]  # S-1.4: the two winter dice the seed chose; the face is one of theirs
    [2, 3]
    >>> step = game.push(Action("die", face=resolve_face(game.state, "2 water, 1 crystal, 2 dots")))  # the face left
    >>> [e.key for e in step.events]  # in order: what the player does physically
    ['seasons.event.dummbot_die', 'seasons.event.crystals_from_energy', 'seasons.event.crystals_from_die', 'seasons.event.token_moved']
    >>> step.waiting.key, step.waiting.params["season"], step.waiting.legal[:2]
    ('seasons.waiting.die', 'winter', ('die', 'played'))
    >>> game.state.summary().dummbot.crystals
    3
    >>> game.push(Action("played", card="10")).events[0].key  # Syllas: Dummbot has nothing to sacrifice yet
    'seasons.event.nothing_in_play'
    >>> game.pop(), game.ply  # undo
    (Action(type='played', args={'card': '10'}), 1)
"""

from .cards import CATALOG, S8_CARDS, Card, card_by_id
from .faces import (
    ELEMENTS,
    RATES,
    SEASONS,
    canonical,
    check_face,
    face_text,
    parse_face,
    resolve_face,
    search_faces,
    season_faces,
)
from .rules import EFFECT_KINDS, RULES, SeasonsRules
from .state import SeasonsState

__all__ = [
    "CATALOG", "EFFECT_KINDS", "ELEMENTS", "RATES", "RULES", "S8_CARDS", "SEASONS", "Card", "SeasonsRules",
    "SeasonsState",
    "canonical", "card_by_id", "check_face", "face_text", "parse_face", "resolve_face", "search_faces", "season_faces",
]
