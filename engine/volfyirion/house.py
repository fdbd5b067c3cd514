"""The player's House Deck as far as the bot knows it, and when the next reshuffle — so the next attack — comes
(V-1.5, V-3.4).

The bot never sees the deck. It starts from the 10 cards of V-1.5 with 5 in hand and 5 left to draw, and follows
what the player reports: an acquired card goes to the discard pile (one card more in the deck's cycle), a Troop,
Building or Wonder played from hand leaves it, a Command card removed leaves it. The end-of-turn draw takes 5
cards; when fewer are left to draw, the player reshuffles in that draw and the dragon attacks at the end of that
turn (V-3.4). After a reshuffle everything but the new hand is in the draw pile again.

``state.house`` is ``{"cards": n | None, "draw": n | None, "why"?, "fresh"?, "last"?}``: the cards of the cycle (hand,
draw pile, discard pile) and those left to draw. ``draw`` is None while the bot cannot know it (a reshuffle during
a turn; in edition 2, a card played that was never reported acquired) and is counted anew at the next end-of-turn
reshuffle; ``cards`` is None once a reshuffle that was due did not come (the deck holds cards the bot was not told
about). A card that makes the player draw more is not reported: the count says "unless a card makes you draw more".

Edition 3 also keeps ``fresh``, the cards acquired since the last reshuffle (they wait in the discard pile), and
``last``, the turn of the last reshuffle (None: none yet). An acquired card — an Asset card or a Wonder, V-1.5's
"as usual" with V-3.1, which adds a Rage card when a Wonder is played, not when it is acquired — goes to the
discard pile, so it reaches the hand only through a reshuffle. A card played from hand that was never reported
acquired was therefore acquired before the last reshuffle: the draw pile held one card more than counted, and the
count is corrected instead of given up. A card that cannot be in hand — before any reshuffle the hand holds only
starting cards; a card reported acquired since the last reshuffle is in the discard pile — is questioned, not
taken into the count: the reply says why and how to take it back.
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


def new_house(edition: int) -> HouseCount:
    """At setup: the 10 cards, the first hand drawn (V-1.5); from edition 3, no card acquired and no reshuffle yet."""
    house: HouseCount = {"cards": HOUSE_DECK_SIZE, "draw": HOUSE_DECK_SIZE - HAND}
    if edition >= 3:
        house["fresh"], house["last"] = [], None
    return house


def acquired(state: VolfState, name: str) -> None:
    """An acquired card (Asset card or Wonder) goes to the discard pile: one card more to reshuffle, none more to
    draw now."""
    house = state.house
    if not house:
        return
    if house["cards"] is not None:
        house["cards"] += 1
    if "fresh" in house:
        house["fresh"] = [*house["fresh"], name]  # a new list: a clone shares the old one


class FromHand(StrEnum):
    """How a card played from hand was counted (``played_from_hand``; ``volfyirion.event.house_<value>``)."""

    REPORTED = "reported"  # reported acquired before the last reshuffle: it leaves the cycle
    CORRECTED = "corrected"  # never reported, after a reshuffle: acquired before it, so one card more to draw
    QUESTIONED = "questioned"  # never reported, before any reshuffle: it cannot be in hand; the count is kept
    QUESTIONED_FRESH = "questioned_fresh"  # reported acquired since the last reshuffle: in the discard pile
    LOST = "lost"  # edition 2: the count is given up until the next end-of-turn reshuffle


def played_from_hand(state: VolfState, name: str) -> FromHand:
    """A Troop, Building or Wonder played from hand leaves the cycle (V-3.4's count). A card that cannot be in hand
    (edition 3) is questioned, not taken: it is in play, as the player says, and the count stays what the table
    can hold — the copy acquired since the last reshuffle left the discard pile, an unreported one was never
    counted."""
    house = state.house
    if not house:
        return FromHand.REPORTED
    if "fresh" not in house:  # edition 2
        left_the_deck(state, reported=name in state.owned)
        return FromHand.REPORTED if name in state.owned else FromHand.LOST
    fresh = house["fresh"]
    if state.owned.count(name) > fresh.count(name):  # a copy acquired before the last reshuffle, drawn since
        left_the_deck(state, reported=True)
        return FromHand.REPORTED
    if name in fresh:  # acquired since the last reshuffle: in the discard pile, not in hand
        kept = list(fresh)
        kept.remove(name)
        house["fresh"] = kept
        left_the_deck(state, reported=True)
        return FromHand.QUESTIONED_FRESH
    if house.get("last") is None:  # before any reshuffle the hand holds starting cards only
        return FromHand.QUESTIONED
    # Acquired before the last reshuffle and never reported: the draw pile held one card more than counted ever
    # since. The cycle is the same (+1 acquired, −1 played).
    if house["draw"] is not None:
        house["draw"] += 1
    return FromHand.CORRECTED


def removed_from_deck(state: VolfState, name: str) -> None:
    """A card of the cycle removed from the game from hand or discard pile (a REMOVE ability): not the draw pile."""
    house = state.house
    if not house:
        return
    reported = name in state.owned
    if "fresh" in house and not reported and house.get("last") is None:
        return  # acquired unreported since the start, so from the discard pile: +1 acquired, −1 removed
    if "fresh" in house and reported and state.owned.count(name) <= house["fresh"].count(name):
        fresh = list(house["fresh"])
        fresh.remove(name)  # only copies acquired since the last reshuffle: one of those, from the discard pile
        house["fresh"] = fresh
    left_the_deck(state, reported=reported)


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
        _cycled(state.house, state.turn)


def acted(state: VolfState) -> None:
    """Edition 3: the player acted in this turn, so its prompt was read (the turn prompt's long form is said once)."""
    if state.house and "last" in state.house:
        state.house["quiet"] = True


def turn_started(state: VolfState) -> None:
    if state.house:
        state.house.pop("quiet", None)


def _cycled(house: HouseCount, turn: int) -> None:
    """A reshuffle (edition 3): every acquired card is in the House Deck now."""
    if "fresh" in house:
        house["fresh"], house["last"] = [], turn


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
        _cycled(house, state.turn)
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
