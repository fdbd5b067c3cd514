"""What to put back on the table when an action is undone: the action's own instructions, reversed.

``reversal`` reads the events of the step being undone, last first (as one takes things back), and gives the
instructions as events of their own (``volfyirion.undo.*``): a play's Rage card goes back onto the Asset Deck,
the token back where it stood, the cards an attack took back into their cities, the Rage Pile face down again.
The player's own cards are said too: a card played goes back into their hand, a card acquired back into the
Asset Row (a Wonder into Volfyirion's Lair).
"""

from __future__ import annotations

from collections.abc import Callable, Mapping
from typing import Any

from engine.core import Action, Event, Step

from .cards import CATALOG
from .state import VolfState

Params = Mapping[str, Any]  # an event's frozen params in, an undo event's params out


def _same(name: str, *keys: str) -> Callable[[Params], tuple[str, Params]]:
    return lambda p: (name, {k: p[k] for k in keys})


# Event → its reversal: the undo event's name and its parameters.
_REVERSED: dict[str, Callable[[Params], tuple[str, Params]]] = {
    "rage_card_added": _same("rage_card_added"),
    "wonder_played": _same("wonder_played", "card"),
    "troop_played": _same("played", "card", "city"),
    "building_played": _same("played", "card", "city"),
    "card_replaced": _same("card_replaced", "card", "new_card", "city"),
    "card_removed": _same("card_removed", "card"),
    "card_removed_from_city": _same("card_back_in_city", "card", "city"),
    "card_removed_reported": _same("card_back_in_city", "card", "city"),
    "troop_lost": _same("card_back_in_city", "card", "city"),
    "building_lost": _same("card_back_in_city", "card", "city"),
    "troop_redeployed": _same("troop_redeployed", "card", "from_city", "city"),
    "card_acquired": lambda p: ("card_acquired_wonder" if CATALOG[p["card"]].type == "wonder" else "card_acquired",
                                {"card": p["card"]}),
    "token_to_rage_pile": _same("token_to_lair"),
    "token_returned": _same("token_to_rage_pile"),
    "top_put_aside": _same("put_aside", "card"),
    "unknown_put_aside": _same("unknown_put_aside"),
    "asset_deck_refilled": _same("asset_deck_refilled", "count"),
    "wonder_unsealed": _same("wonder_unsealed", "card"),
    "wonder_sealed": _same("wonder_sealed", "card"),
    "city_destroyed": _same("city_destroyed", "city"),
    "revealed": _same("revealed", "cards"),
    "attack_begins": _same("attack_begins"),
}


# A card played that was reported acquired since the last reshuffle came from the discard pile, not the hand
# (``house_questioned_fresh``): its undo puts it back there.
_FROM_DISCARD = {"wonder_played": "wonder_played_discard", "played": "played_discard"}


def reversal(before: VolfState, action: Action, step: Step[VolfState]) -> tuple[Event, ...]:
    """The instructions that take ``step`` (``action`` applied to ``before``) back off the table."""
    from_discard = {e.params["card"] for e in step.events if e.key == "volfyirion.event.house_questioned_fresh"}
    out = []
    for event in reversed(step.events):
        reverse = _REVERSED.get(event.key.rpartition(".")[2])
        if reverse is not None:
            name, params = reverse(event.params)
            if name in _FROM_DISCARD and params.get("card") in from_discard:
                name = _FROM_DISCARD[name]
            out.append(Event(f"volfyirion.undo.{name}", params))
    return tuple(out)
