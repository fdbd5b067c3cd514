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
    # What a card Dummbot summoned made the player do with their own cards (S-8): the player takes it back too.
    "player_sacrifices": lambda p: ("player_sacrifices", {"card": p["card"]}),
    "player_returns_item": lambda p: ("player_returns_item", {"card": p["card"]}),
    "player_argos": lambda p: ("player_argos", {"card": p["card"]}),
    "player_air": lambda p: ("player_air", {"card": p["card"]}),
}


# Undoing a reveal from Dummbot's hand (a change of season, Demon of Argos, Air Elemental) takes back the report,
# not the draw: the rules draw once, at random (S-5.1), so the cards drawn go back in front of the player, to be
# told again — never reshuffled and drawn anew, which would give Dummbot a second chance at a better card.
_REVERSED_TO_DRAWN: dict[str, Callable[[Params], tuple[str, Params] | None]] = {
    "summoned": lambda p: ("summoned_to_drawn", {"card": p["card"]}),
    "onys_to_player": lambda p: ("onys_to_drawn", {"card": p["card"]}),
    "discarded": lambda p: ("discarded_to_drawn", {"card": p["card"]}),
    "discarded_from_hand": lambda p: ("discarded_to_drawn", {"card": p["card"]}),
    "returned_to_hand": lambda p: ("returned_to_drawn", {"count": p["count"], "cards": p.get("cards", [])}),
}
_FROM_HAND = frozenset({"seasons.waiting.reveal_hand", "seasons.waiting.reveal_discard"})


def _event(name: str, **params: Any) -> Event:
    return Event(f"seasons.undo.{name}", params)


def reversal(before: SeasonsState, action: Action, step: Step[SeasonsState]) -> tuple[Event, ...]:
    """The instructions that take ``step`` (``action`` applied to ``before``) back off the table."""
    after: SeasonsState = step.state
    out: list[Event] = []
    if action.type == "played":
        out.append(_event("played", card=after.player_area[-1] if after.player_area else action.get("card")))
    drawn = action.type == "reveal" and before.wait_key in _FROM_HAND
    for event in reversed(step.events):
        name = event.key.rpartition(".")[2]
        reverse = (_REVERSED_TO_DRAWN.get(name) if drawn else None) or _REVERSED.get(name)
        found = reverse(event.params) if reverse is not None else None
        if found is not None:
            out.append(_event(found[0], **found[1]))
    if before.position != after.position:
        out.append(_event("token", year=before.year, month=before.month, season=before.season))
    if before.crystals != after.crystals:
        out.append(_event("crystals", total=before.crystals))
    if action.type == "score":
        out.append(_event("score"))
    if drawn:
        out.append(_reveal_again(before, step))
    return tuple(out)


def _reveal_again(before: SeasonsState, step: Step[SeasonsState]) -> Event:
    """The last line of a reveal's undo: keep the same cards out and tell them again; what the bot then asks."""
    params: dict[str, Any] = {"count": before.wait_params.get("drawn", before.wait_params.get("count"))}
    if before.wait_key == "seasons.waiting.reveal_discard":
        params["reason_card"] = before.wait_params.get("card")
    new_year = [e.params["year"] for e in step.events if e.key.endswith(".new_year")]
    if new_year:
        params["year"] = new_year[0]
    return _event("reveal_again", **params)
