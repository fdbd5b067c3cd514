"""What to put back on the table when an action is undone: the action's own instructions, reversed.

``reversal`` reads the events of the step being undone (last first, as one takes things back) and the states
before and after it, and gives the instructions as events of their own (``seasons.undo.*``): which card goes
back into Dummbot's hand, which comes back from the discard pile, where the season token and Dummbot's crystals
go back to. Only what touches the table is said; a report the bot merely noted is said as no longer noted.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping
from typing import Any

from engine.core import Action, Event, Step

from .state import SeasonsState

Params = Mapping[str, Any]  # an event's frozen params in, an undo event's params out

# Event → its reversal: the undo event's name and its parameters (None: nothing on the table to put back).
_REVERSED: dict[str, Callable[[Params], tuple[str, Params] | None]] = {
    "summoned": lambda p: (f"summoned_{p['source']}", {"card": p["card"]}),
    "onys_to_player": lambda p: (f"onys_to_player_{p['source']}", {"card": p["card"]}),
    "discarded": lambda p: ("discarded", {"card": p["card"]}),
    "discarded_from_hand": lambda p: ("discarded", {"card": p["card"]}),
    "dummbot_sacrifices": lambda p: ("sacrificed", {"card": p["card"]}),
    "dummbot_titus_sacrificed": lambda p: ("sacrificed", {"card": p["card"]}),
    "player_titus_sacrificed": lambda p: ("player_titus_sacrificed", {"card": p["card"]}),
    "item_to_hand": lambda p: ("item_to_hand", {"card": p["card"]}),
    "onys_to_dummbot": lambda p: ("onys_to_dummbot", {"card": p["card"]}),
    "onys_returned": lambda p: ("onys_returned", {"card": p["card"]}),
    "draw_to_hand": lambda p: ("draw_to_hand", {"n": p["n"]}),
    "draw_from_hand": lambda p: ("draw_from_hand", {"count": p["count"]}),
    "draw_to_discard": lambda p: ("draw_from_hand", {"count": p["count"]}),
    "reveal_top_card": lambda p: ("reveal_top_card", {}),
    "crystals_to_player": lambda p: ("crystals_to_player", {"n": p["n"], "card": p["card"]}),
    "player_gains": lambda p: ("player_gains", {"n": p["n"], "card": p["card"]}),
    "crystals_from_player": lambda p: ("crystals_from_player", {"n": p["n"], "card": p["card"]}),
    "funded_payment_back": lambda p: ("funded_payment_back", {"card": p["card"]}),
    "new_year": lambda p: ("new_year", {"year": p["year"]}),
    "player_card_left": lambda p: ("player_card_left", {"card": p["card"]}),
}


def _event(name: str, **params: Any) -> Event:
    return Event(f"seasons.undo.{name}", params)


def reversal(before: SeasonsState, action: Action, step: Step[SeasonsState]) -> tuple[Event, ...]:
    """The instructions that take ``step`` (``action`` applied to ``before``) back off the table."""
    after: SeasonsState = step.state
    out: list[Event] = []
    if action.type == "played":
        out.append(_event("played", card=after.player_area[-1] if after.player_area else action.get("card")))
    for event in reversed(step.events):
        reverse = _REVERSED.get(event.key.rpartition(".")[2])
        found = reverse(event.params) if reverse is not None else None
        if found is not None:
            out.append(_event(found[0], **found[1]))
    if before.position != after.position:
        out.append(_event("token", year=before.year, month=before.month, season=before.season))
    if before.crystals != after.crystals:
        out.append(_event("crystals", total=before.crystals))
    if action.type == "score":
        out.append(_event("score"))
    return tuple(out)
