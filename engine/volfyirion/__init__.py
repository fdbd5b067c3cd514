"""Volfyirion's official solo mode: the dragon as a pure, deterministic engine.

    >>> from engine.core import Action, GameRecord
    >>> from engine.volfyirion import RULES, danger
    >>> game = GameRecord(RULES, {"difficulty": "normal"}, seed=1)
    >>> game.push(Action("play", card="Elite Trooper", city="Tylaris")).state.rage_size
    2
"""

from .attack import attack_bonus, attack_rule_key, city_defence
from .canonical import canonical_action
from .cards import CATALOG, SOLO_ASSET_DECK, Card, card_named
from .danger import danger
from .options import resolve_cities
from .rules import RULES, VolfyirionRules
from .state import VolfState

__all__ = ["CATALOG", "RULES", "SOLO_ASSET_DECK", "Card", "VolfState", "VolfyirionRules", "attack_bonus", "attack_rule_key", "canonical_action", "card_named", "city_defence", "danger", "resolve_cities"]
