"""Seasons, "Dummbot's Challenge": the automaton engine (rules S-1 … S-9 of seasons-dummbot.md).

    from engine.core import Action, GameRecord
    from engine.seasons import RULES

    game = GameRecord(RULES, {"difficulty": "wizard", "dice": "table"}, seed=42)
    step = game.push(Action("die", face="2 water, 3 crystals, 1 dot"))   # the face left for Dummbot
    step.events          # seasons.event.* keys with params, in order: what the player does physically
    step.waiting.key     # e.g. seasons.waiting.reveal_hand, params {"count": 4}, legal ("reveal", …)
    game.push(Action("reveal", cards=["1", "38", "Kairn the Destroyer", "25"]))
    game.push(Action("played", card="10"))     # the player summoned Syllas: Dummbot sacrifices
    game.state.summary()["dummbot"]            # crystals, hand_size, summoned, score
    game.pop()                                 # undo
"""

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
