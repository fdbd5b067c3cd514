"""Game options (V-1.1, V-1.6, V-5.3, V-2.3): checked once, recorded with the game."""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from engine.core import JSON, RuleError, split_list

from .cards import DEFAULT_CITIES, city_by_id, city_named_card
from .summary import BONUS_ALIASES, Difficulty

# V-5.3: ``flat`` (the original's formula, the default) or ``per_city`` (the English rulebook's table).
BONUS_READINGS = ("flat", "per_city")
# The rules' edition a game is played under: 2 counts the Asset Deck (V-3.5: an empty deck adds no Rage card,
# a refill before the count can have emptied it asks for a confirmation). Games recorded before it are
# edition 1 (a store migration says so) and replay as they were played. 3 follows the House Deck through
# unreported acquisitions (V-3.4's count, ``house``): a card played that was never reported acquired corrects the
# count, and one that cannot be in hand yet is questioned. Games of edition 2 replay as they were played.
EDITION = 3
EDITIONS = (1, 2, 3)
_KNOWN = ("difficulty", "bonus", "cities", "unseal", "edition")


def normalize_options(options: Mapping[str, Any] | None) -> JSON:
    """``{"difficulty", "bonus", "cities" (by defence 8, 9, 10), "unseal", "edition"}`` or a RuleError."""
    options = dict(options or {})
    for name in options:
        if name not in _KNOWN:
            raise RuleError("volfyirion.unknown_option", option=str(name))
    difficulty = options.get("difficulty") or "normal"
    if difficulty not in {d.value for d in Difficulty}:
        raise RuleError("volfyirion.bad_difficulty", value=str(difficulty))
    bonus = options.get("bonus") or "flat"
    bonus = BONUS_ALIASES.get(bonus, bonus)
    if bonus not in BONUS_READINGS:
        raise RuleError("volfyirion.bad_bonus", value=str(bonus))
    unseal = options.get("unseal", False)
    if not isinstance(unseal, bool):
        raise RuleError("volfyirion.bad_unseal", value=str(unseal))
    edition = options.get("edition", EDITION)
    if edition not in EDITIONS or isinstance(edition, bool):
        raise RuleError("volfyirion.bad_edition", value=str(edition), choices=", ".join(map(str, EDITIONS)))
    return {"difficulty": difficulty, "bonus": bonus, "cities": _cities(options.get("cities")), "unseal": unseal,
            "edition": edition}


def resolve_cities(typed: str | list[str]) -> list[str]:
    """The city names a player means by what they typed for ``cities`` ("tyla, akao, kyr"), for the bot to
    hand ``normalize_options``; a miss is ``volfyirion.unknown_city``, a count other than three
    ``volfyirion.cities_count``."""
    names = split_list(typed) if isinstance(typed, str) else list(typed)
    _check_count(names)
    return [city_named_card(name).name for name in names]


def _cities(value: Any) -> list[str]:
    """Three city names, one of each defence 8, 9 and 10 (V-1.1), ordered by defence."""
    if value is None:
        return list(DEFAULT_CITIES)
    if not isinstance(value, (list, tuple)):
        raise RuleError("volfyirion.cities_count", count=1)
    _check_count(value)
    cards = [city_by_id(name) for name in value]
    defences = sorted(c.defence or 0 for c in cards)
    if defences != [8, 9, 10]:
        raise RuleError("volfyirion.cities_defences", defences=", ".join(map(str, defences)))
    return [c.name for c in sorted(cards, key=lambda c: c.defence or 0)]


def _check_count(names: Any) -> None:
    if len(names) != 3:
        raise RuleError("volfyirion.cities_count", count=len(names))
