"""The player's House Deck as far as the bot knows it, and when the next reshuffle — so the next attack — comes
(V-1.5, V-3.4).

The bot never sees the deck. It starts from the 10 cards of V-1.5 with 5 in hand and 5 left to draw, and follows
what the player reports: an acquired card goes to the discard pile (one card more in the deck's cycle), a Troop,
Building or Wonder played from hand leaves it, a Command card removed leaves it. The end-of-turn draw takes 5
cards; when fewer are left to draw, the player reshuffles in that draw and the dragon attacks at the end of that
turn (V-3.4). After a reshuffle everything but the new hand is in the draw pile again.

``state.house`` is ``{"cards": n | None, "draw": n | None, "why"?}``: the cards of the cycle (hand, draw pile, discard
pile) and those left to draw. ``draw`` is None while the bot cannot know it (a card played that was never
reported acquired, a reshuffle during a turn) and is counted anew at the next end-of-turn reshuffle; ``cards`` is
None once a reshuffle that was due did not come (the deck holds cards the bot was not told about). A card that
makes the player draw more is not reported: the count says "unless a card makes you draw more".
"""

from __future__ import annotations

from dataclasses import dataclass
from enum import StrEnum

from engine.core import Event

from .danger import danger
from .state import HouseCount, VolfState

HOUSE_DECK_SIZE = 10  # V-1.5: 8 Prospector, 1 Captain, 1 Diviner
HAND = 5  # the cards of a hand, drawn at the end of each turn
# Above this many unseen Rage cards at the predicted attack, its figures are left to /volfyrion danger:
# the exact meter stays under ~20 ms up to here (engine/volfyirion/danger.py), and the prompt is composed often.
CHEAP_UNKNOWN = 6


class Unknown(StrEnum):
    """Why the next attack's turn cannot be known (``volfyirion.next.unknown.<why>``; ``state.house["why"]``).
    The next end-of-turn reshuffle counts anew after ``unreported`` and ``reshuffled``; ``missing`` stays."""

    UNTRACKED = "untracked"  # a game saved before the bot counted the House Deck
    UNREPORTED = "unreported"  # a card played or removed that was never reported acquired
    RESHUFFLED = "reshuffled"  # a reshuffle during the turn
    MISSING = "missing"  # a reshuffle that was due did not come: the deck holds cards the bot was not told about


def new_house() -> HouseCount:
    """At setup: the 10 cards, the first hand drawn (V-1.5)."""
    return {"cards": HOUSE_DECK_SIZE, "draw": HOUSE_DECK_SIZE - HAND}


def acquired(state: VolfState) -> None:
    """An acquired card goes to the discard pile: one card more to reshuffle, none more to draw now."""
    if state.house and state.house["cards"] is not None:
        state.house["cards"] += 1


def left_the_deck(state: VolfState, *, reported: bool) -> None:
    """A card of the deck left it (played into play, removed). ``reported``: the bot was told it was acquired;
    otherwise an unreported acquisition passed through the draw pile, which the bot cannot count."""
    if not state.house:
        return
    if reported:
        if state.house["cards"] is not None:
            state.house["cards"] -= 1
    else:
        _lost_count(state.house, Unknown.UNREPORTED)


def reshuffled_during_turn(state: VolfState) -> None:
    """A card's draw made the player reshuffle during the turn: how many were drawn is not reported."""
    if state.house:
        _lost_count(state.house, Unknown.RESHUFFLED)


def _lost_count(house: HouseCount, why: Unknown) -> None:
    """The draw pile can no longer be counted, until the next end-of-turn reshuffle counts it anew."""
    house["draw"] = None
    house["why"] = why.value  # the stored state holds plain JSON


def end_of_turn_draw(state: VolfState, reshuffled: bool, events: list[Event]) -> None:
    """The new hand of 5 drawn at the end of the turn (V-3.4), said when it disagrees with the bot's count."""
    house = state.house
    if not house:
        return
    cards, draw = house["cards"], house["draw"]
    due = draw is not None and draw < HAND
    if reshuffled:
        if draw is not None and not due:
            events.append(Event("volfyirion.event.house_reshuffle_early", left=draw))
        if cards is not None:  # counted anew: all but the new hand is to draw
            house["draw"] = max(cards - HAND, 0)
            house.pop("why", None)
    elif due:
        events.append(Event("volfyirion.event.house_reshuffle_missing", left=draw))
        house["cards"] = house["draw"] = None
        house["why"] = Unknown.MISSING.value
    elif draw is not None:
        house["draw"] = draw - HAND


@dataclass(frozen=True, slots=True)
class AttackChances:
    """The danger meter's two figures for the predicted attack, the Rage Pile grown to ``size``."""

    size: int
    p_city_falls: float
    p_game_lost: float


@dataclass(frozen=True, slots=True)
class NextAttack:
    """When the next reshuffle — and so the next attack — comes (``next_attack``): known, or ``why`` not.

    ``draw``: the cards left to draw; ``cards``: the House Deck's size; ``turn``: the turn whose end-of-turn draw
    reshuffles, ``turns`` from now; ``chances``: that attack's figures (None when too costly to say here)."""

    why: Unknown | None
    draw: int = 0
    cards: int = 0
    turn: int = 0
    turns: int = 0
    chances: AttackChances | None = None

    @property
    def known(self) -> bool:
        return self.why is None


def next_attack(state: VolfState) -> NextAttack:
    """The turn whose end-of-turn draw reshuffles (this one when fewer than 5 are left to draw), if nothing makes
    the player draw more, with that attack's chances: the Rage Pile grown by a card at each turn's start (V-3.1a)
    and nothing else changed. Or why it cannot be known (``Unknown``)."""
    house = state.house
    if not house:
        return NextAttack(Unknown.UNTRACKED)
    draw, cards = house["draw"], house["cards"]
    if draw is None:
        return NextAttack(Unknown(house.get("why", Unknown.UNREPORTED)))
    assert cards is not None, "the cycle's count is lost only with the draw pile's"
    turns = draw // HAND
    return NextAttack(None, draw, cards, state.turn + turns, turns, _chances(state, turns))


def _chances(state: VolfState, turns: int) -> AttackChances | None:
    later = state.clone()
    later.rage_size += turns
    if later.unknown_in_pile > CHEAP_UNKNOWN or not later.standing():
        return None
    report = danger(later, method="exact")
    return AttackChances(later.rage_size, report.p_city_falls, report.p_game_lost)
