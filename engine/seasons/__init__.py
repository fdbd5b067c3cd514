"""Seasons, "Dummbot's Challenge": the automaton engine (rules in shared/rules/seasons-dummbot.md)."""

from .cards import CATALOG, Card, card_id
from .faces import (
    ELEMENTS,
    RATES,
    SEASONS,
    canonical,
    face_text,
    parse_face,
    resolve_face,
    search_faces,
    season_faces,
)
from .rules import EFFECT_KINDS, RULES, SeasonsRules
from .state import SeasonsState

__all__ = [
    "CATALOG", "EFFECT_KINDS", "ELEMENTS", "RATES", "RULES", "SEASONS", "Card", "SeasonsRules", "SeasonsState",
    "canonical", "card_id", "face_text", "parse_face", "resolve_face", "search_faces", "season_faces",
]
