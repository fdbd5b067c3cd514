"""Actions as they were meant, not as they were typed: card ids and this game's city names.

``RULES.apply`` takes canonical values only. ``canonical_action(state, action)`` resolves what a player typed
("elite trooper", "8", "ＳＴＡＢ") the way a player means it in ``state`` and returns the action with card ids
(Volfyirion's catalog ids are the English names) and city names: the bot calls it before ``apply``, so a
stored game never depends on name matching staying the same. Whatever cannot be resolved is left as typed:
applying the action then raises the rules' own error, in the rules' own order. Resolving twice changes
nothing. ``apply_typed`` is how the rules read a typed action before they took canonical values only: the
store's migration of logs stored as typed (schema V2) replays them with it.
"""

from __future__ import annotations

from typing import Any

from engine.core import Action, RuleError, Step, split_list

from .cards import card_named
from .rules import RULES
from .state import VolfState, city_named

_CARD_ARGS = {"play": ("card",), "remove": ("card",), "acquire": ("card",), "putaside": ("card",),
              "unseal": ("card",), "redeploy": ("troop",)}
_CITY_ARGS = {"play": ("city",), "remove": ("city",), "redeploy": ("city",), "choose": ("city",)}
_WORD_ARGS = {"putaside": ("paid",), "win": ("how",)}


def canonical_action(state: VolfState, action: Action) -> Action:
    args: dict[str, Any] = {}
    for name, value in action.args.items():
        if value is None or value == "":
            pass  # an option left out stays as it was given
        elif name in _CARD_ARGS.get(action.type, ()):
            value = _card_id(value)
        elif name in _CITY_ARGS.get(action.type, ()):
            value = _city_name(state, value)
        elif name in _WORD_ARGS.get(action.type, ()) and isinstance(value, str):
            value = value.strip().casefold()
        elif action.type == "reveal" and name == "cards":
            names = split_list(value) if isinstance(value, str) else list(value or [])
            value = [_card_id(n) for n in names]
        args[name] = value
    return Action(action.type, args)


def _card_id(value: Any) -> Any:
    try:
        return card_named(value).name
    except RuleError:
        return value


def _city_name(state: VolfState, value: Any) -> Any:
    """The city the rules' lookup finds (name, forgiving, or printed defence), or the value as typed."""
    city = city_named(state.cities, value)
    return value if city is None else city["name"]


def apply_typed(state: VolfState, action: Action) -> Step[VolfState]:
    """``RULES.apply`` of an action as it was typed, read as the rules read it before they took canonical
    values only (with the lookups above)."""
    return RULES.apply(state, canonical_action(state, action))
