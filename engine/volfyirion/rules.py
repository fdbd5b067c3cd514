"""The rules of Volfyirion's solo mode: ``RULES.apply(state, action) -> Step``.

Each action type has one handler that reads top to bottom: check everything (RuleError, nothing
changed), then change a clone of the state and say what happened as events. The attack (V-4) runs
across several actions when the bot needs the player: the reveal, then each Troop or Building choice.
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Callable, Mapping
from typing import Any, ClassVar

from engine.core import JSON, Action, Event, Params, RuleError, Step

from . import attack as arith
from . import house, undo
from .cards import CATALOG, HOUSE_DECK, SOLO_ASSET_DECK, SOLO_REMOVED, Card, card_by_id
from .options import normalize_options
from .state import ASSET_ROW, CHOOSE_BUILDING, CHOOSE_TROOP, FINISHED, REVEAL, TURN, VolfState

Events = list[Event]
PUT_ASIDE_COST = 6  # V-2.2: 6 Battle or 6 Knowledge points
WIN_POINTS = 16  # V-2.1, V-2.2, V-5.1: 16 Battle points attack Volfyirion, 16 Knowledge points subjugate it


class VolfyirionRules:
    game = "volfyirion"
    version = 1
    # The result's fields as the export has always named them (docs/playing.md, the export).
    result_names: ClassVar[Mapping[str, str]] = {"length": "turn"}

    def normalize_options(self, options: Mapping[str, Any]) -> JSON:
        return normalize_options(options)

    def new_game(self, options: Mapping[str, Any], seed: int) -> Step[VolfState]:
        """Set-up checklist (V-1), then the start of turn 1 (its Rage card, V-3.1a).

        Nothing in the solo dragon is random on the bot's side (the player shuffles the real decks),
        so the seed is only recorded by the GameRecord.
        """
        opts = normalize_options(options)
        cities = [{"name": n, "defence": CATALOG[n].defence, "destroyed": False, "troop": None, "building": None}
                  for n in opts["cities"]]
        state = VolfState(options=opts, cities=cities)
        if opts["edition"] >= 2:  # V-3.5: the bot counts the Asset Deck's cards, V-3.4: and the House Deck's
            state.deck = sum(SOLO_ASSET_DECK.values()) - ASSET_ROW
            state.house = house.new_house(opts["edition"])
        events: Events = [
            Event("volfyirion.event.setup_cities", city8=cities[0]["name"], city9=cities[1]["name"],
                  city10=cities[2]["name"]),
            Event("volfyirion.event.setup_remove", cards=[n for n in SOLO_REMOVED for _ in range(CATALOG[n].qty)],
                  count=sum(CATALOG[n].qty for n in SOLO_REMOVED)),
            Event("volfyirion.event.setup_decks"),
            Event("volfyirion.event.setup_asset_row"),
            Event("volfyirion.event.setup_lair", max_cost=3),
            Event("volfyirion.event.setup_house_deck", prospectors=HOUSE_DECK["Prospector"],
                  captains=HOUSE_DECK["Captain"], diviners=HOUSE_DECK["Diviner"]),
            Event("volfyirion.event.setup_token"),
            Event(arith.attack_rule_key(opts["bonus"], state.k), difficulty=opts["difficulty"], bonus=opts["bonus"],
                  d=state.k),
        ]
        _start_turn(state, events)
        return Step(state, tuple(events), state.waiting)

    def apply(self, state: VolfState, action: Action) -> Step[VolfState]:
        handler = _HANDLERS.get(action.type)
        if handler is None:
            raise RuleError("volfyirion.unknown_action", action=str(action.type))
        if action.type not in state.waiting.legal:
            waiting = state.waiting
            raise RuleError("volfyirion.not_now", action=action.type, waiting=waiting.key,
                            expected=", ".join(waiting.legal) or "—")
        new = state.clone()
        events: Events = []
        if new.phase == TURN:
            house.acted(new)  # the turn's prompt was read: what follows in this turn is said briefly
        handler(new, action.args, events)
        _check_supply(state, new)
        return Step(new, tuple(events), new.waiting)

    def reversal(self, before: VolfState, action: Action, step: Step[VolfState]) -> tuple[Event, ...]:
        """What to put back on the table to undo ``step`` (see ``undo``)."""
        return undo.reversal(before, action, step)

    def state_from_json(self, data: JSON) -> VolfState:
        return VolfState.from_json(data)


# -- helpers ---------------------------------------------------------------------------------------
def _start_turn(state: VolfState, events: Events) -> None:
    """V-3.1a: each turn starts with a Rage card, before the player draws."""
    state.turn += 1
    house.turn_started(state)
    events.append(Event("volfyirion.event.turn_started", turn=state.turn))
    _add_rage_card(state, events)


def _add_rage_card(state: VolfState, events: Events) -> None:
    """The top card of the Asset Deck goes to the bottom of the Rage Pile (V-3.1) — if there is one."""
    if state.deck_empty():
        if state.put_aside or state.put_aside_unknown:
            # The Asset Deck is empty: the put-aside cards are shuffled into a new one (V-2.4).
            _refill_deck(state, events)
        elif state.deck is not None:  # V-3.5: no card to add; the turn goes on without one
            events.append(Event("volfyirion.event.no_rage_card", size=state.rage_size))
            return
    state.rage_size += 1
    state.added += 1
    _draw_from_deck(state)
    events.append(Event("volfyirion.event.rage_card_added", size=state.rage_size))


def _draw_from_deck(state: VolfState) -> None:
    """V-3.5: one card fewer in the Asset Deck by the bot's count (never below none)."""
    if state.deck is not None:
        state.deck = max(state.deck - 1, 0)


def _check_supply(before: VolfState, after: VolfState) -> None:
    """The Asset Deck is finite (V-1.2, V-2.4): the Rage Pile's unseen cards can never outnumber the
    solo Asset Deck's 62 cards less those known to be elsewhere. An action that would pass that (or go
    further past it, in a game recorded before the check) is refused."""
    excess = -after.deck_left()
    if excess <= 0 or excess <= -before.deck_left():
        return
    supply = after.supply()
    params = {"pile": after.unknown_in_pile, "supply": supply, "deck": sum(SOLO_ASSET_DECK.values()),
              "elsewhere": sum(SOLO_ASSET_DECK.values()) - supply}
    put_aside = len(after.put_aside) + after.put_aside_unknown
    if put_aside:
        raise RuleError("volfyirion.asset_deck_exhausted_refill", put_aside=put_aside, **params)
    raise RuleError("volfyirion.asset_deck_exhausted", **params)


def _city(state: VolfState, query: Any) -> dict[str, Any]:
    """One of this game's cities, by its name (the bot reads a typed one: ``canonical_action``)."""
    if query is None or str(query).strip() == "":
        raise RuleError("volfyirion.city_needed", cities=[c["name"] for c in state.standing()])
    city = next((c for c in state.cities if c["name"] == query), None)
    if city is not None:
        return city
    raise RuleError("volfyirion.unknown_city", query=str(query), cities=[c["name"] for c in state.cities])


def _standing_city(state: VolfState, query: Any) -> dict[str, Any]:
    city = _city(state, query)
    if city["destroyed"]:
        raise RuleError("volfyirion.city_destroyed", city=city["name"])
    return city


def _arg_card(args: Params, name: str = "card") -> Card:
    if args.get(name) in (None, ""):
        raise RuleError("volfyirion.missing_arg", arg=name)
    return card_by_id(args[name])


def _copies_left(state: VolfState, card: Card, *, count_owned: bool) -> int:
    return card.qty - state.known_elsewhere(count_owned=count_owned)[card.name]


def _check_copies(state: VolfState, card: Card, wanted: int = 1, *, count_owned: bool = True) -> None:
    left = _copies_left(state, card, count_owned=count_owned)
    if wanted > left:
        raise RuleError("volfyirion.too_many_copies", card=card.name, count=wanted, available=max(left, 0),
                        qty=card.qty)


def _check_solo(card: Card) -> None:
    if not card.solo:
        raise RuleError("volfyirion.not_in_solo", card=card.name)


def _slot(card: Card) -> str:
    return "troop" if card.type == "troop" else "building"


# -- the main phase (V-2, V-3) ---------------------------------------------------------------------
def _play(state: VolfState, args: Params, events: Events) -> None:
    """A Troop, Building or Wonder enters play (V-3.1b adds a Rage card; V-3.2 replaces a slot)."""
    card = _arg_card(args)
    _check_solo(card)
    if card.type == "command":
        raise RuleError("volfyirion.command_not_recorded", card=card.name)
    if card.type not in ("troop", "building", "wonder"):
        raise RuleError("volfyirion.cannot_play", card=card.name)
    _check_copies(state, card, count_owned=False)
    if card.type == "wonder" and args.get("city") not in (None, ""):
        raise RuleError("volfyirion.wonder_takes_no_city", card=card.name)
    counted = house.played_from_hand(state, card.name)  # played from hand (V-3.4's count)
    if card.type == "wonder":
        state.wonders.append({"name": card.name, "cost": card.cost, "sealed": False})
        events.append(Event("volfyirion.event.wonder_played", card=card.name, cost=card.cost))
    else:
        city = _standing_city(state, args.get("city"))
        slot = _slot(card)
        old = city[slot]
        if old:
            state.removed.append(old)
            events.append(Event("volfyirion.event.card_replaced", card=old, new_card=card.name, city=city["name"]))
        city[slot] = card.name
        key = "volfyirion.event.troop_played" if slot == "troop" else "volfyirion.event.building_played"
        events.append(Event(key, card=card.name, city=city["name"]))
    if card.name in state.owned:
        state.owned.remove(card.name)
    _said_from_hand(state, card, counted, events)
    _add_rage_card(state, events)


def _said_from_hand(state: VolfState, card: Card, counted: house.FromHand, events: Events) -> None:
    """Edition 3: a card played that was never reported acquired corrects the count (it was acquired before the
    last reshuffle, and the Asset Row's refill then drew from the Asset Deck, V-3.5); one that cannot be in hand
    is questioned. Each is said."""
    if counted is house.FromHand.CORRECTED:
        if card.in_asset_deck:
            _draw_from_deck(state)
        assert state.house is not None  # only a counted House Deck corrects
        events.append(Event("volfyirion.event.house_corrected", card=card.name, draw=state.house["draw"]))
    elif counted in (house.FromHand.QUESTIONED, house.FromHand.QUESTIONED_FRESH):
        events.append(Event(f"volfyirion.event.house_{counted.value}", card=card.name))


def _remove(state: VolfState, args: Params, events: Events) -> None:
    """The player removes one of their own cards from the game (a REMOVE ability, for instance)."""
    card = _arg_card(args)
    _check_solo(card)
    if card.type in ("troop", "building"):
        slot = _slot(card)
        holders = [city for city in state.standing() if city[slot] == card.name]
        if args.get("city") not in (None, ""):
            city = _city(state, args["city"])
            holders = [h for h in holders if h is city]
        if not holders:
            raise RuleError("volfyirion.not_in_play", card=card.name)
        if len(holders) > 1:
            raise RuleError("volfyirion.which_city", card=card.name, cities=[h["name"] for h in holders])
        holders[0][slot] = None
        state.removed.append(card.name)
        # The player removed it and reported it: said as done, not as an order (V-4's own removals order it).
        events.append(Event("volfyirion.event.card_removed_reported", card=card.name, city=holders[0]["name"]))
        return
    if card.type == "wonder":
        # Prefer an unsealed copy: the sealed one is the one the player cannot use anyway.
        copies = sorted((w for w in state.wonders if w["name"] == card.name), key=lambda w: w["sealed"])
        if not copies:
            raise RuleError("volfyirion.not_in_play", card=card.name)
        state.wonders.remove(copies[0])
        state.removed.append(card.name)
        events.append(Event("volfyirion.event.card_removed", card=card.name))
        return
    if card.type == "starting":  # a Prospector thinned from the House Deck: one card fewer to draw (V-3.4's count)
        _remove_starting(state, card, events)
        return
    if card.type != "command":
        raise RuleError("volfyirion.cannot_remove", card=card.name)
    # A Command card from the player's deck: tracked so it no longer counts as a possible Rage card.
    house.removed_from_deck(state, card.name)
    if card.name in state.owned:
        state.owned.remove(card.name)
    else:
        _check_copies(state, card)
    state.removed.append(card.name)
    events.append(Event("volfyirion.event.card_removed", card=card.name))


def _remove_starting(state: VolfState, card: Card, events: Events) -> None:
    """A card of the starting House Deck (V-1.5) removed from the game: it leaves the deck the bot counts."""
    left = HOUSE_DECK[card.name] - state.removed.count(card.name)
    if left < 1:
        raise RuleError("volfyirion.too_many_copies", card=card.name, count=1, available=0, qty=HOUSE_DECK[card.name])
    house.left_the_deck(state, reported=True)
    state.removed.append(card.name)
    events.append(Event("volfyirion.event.card_removed", card=card.name))


def _redeploy(state: VolfState, args: Params, events: Events) -> None:
    """Move a Troop to another city's empty Troop slot (V-2.1); no Rage card."""
    card = _arg_card(args, "troop")
    if card.type != "troop":
        raise RuleError("volfyirion.not_a_troop", card=card.name)
    target = _standing_city(state, args.get("city"))
    sources = [city for city in state.standing() if city["troop"] == card.name and city is not target]
    if not sources:
        if target["troop"] == card.name:
            raise RuleError("volfyirion.already_there", card=card.name, city=target["name"])
        raise RuleError("volfyirion.not_in_play", card=card.name)
    if target["troop"]:
        raise RuleError("volfyirion.troop_slot_taken", city=target["name"], card=target["troop"])
    source = sources[0]
    source["troop"], target["troop"] = None, card.name
    events.append(Event("volfyirion.event.troop_redeployed", card=card.name, from_city=source["name"],
                        city=target["name"]))


def _acquire(state: VolfState, args: Params, events: Events) -> None:
    """The player acquired an Asset card or a Wonder: it goes to their discard pile (``house``) and is no longer a
    possible Rage card. Adds nothing (V-3.1)."""
    card = _arg_card(args)
    _check_solo(card)
    if card.type not in ("command", "troop", "building", "wonder"):
        raise RuleError("volfyirion.cannot_acquire", card=card.name)
    _check_copies(state, card)
    state.owned.append(card.name)
    house.acquired(state, card.name)
    if card.in_asset_deck:  # its place in the Asset Row is filled from the Asset Deck (V-3.5); a Wonder's is not
        _draw_from_deck(state)
    events.append(Event("volfyirion.event.card_acquired", card=card.name))


def _reshuffle(state: VolfState, args: Params, events: Events) -> None:
    """V-3.4: a new House Deck sends the token to the Rage Pile: it attacks at the end of this turn."""
    if state.token != "lair":
        raise RuleError("volfyirion.token_already_away")
    state.token = "rage_pile"
    house.reshuffled_during_turn(state)
    events.append(Event("volfyirion.event.token_to_rage_pile"))


def _putaside(state: VolfState, args: Params, events: Events) -> None:
    """V-2.2: 6 Battle or 6 Knowledge points put aside the top card of the Rage Pile."""
    paid = args.get("paid")
    if paid not in ("battle", "knowledge"):
        raise RuleError("volfyirion.bad_paid", value=str(paid))
    if state.rage_size == 0:
        raise RuleError("volfyirion.rage_pile_empty")
    named = args.get("card")
    if state.rage_top:
        if named not in (None, "") and card_by_id(named).name != state.rage_top:
            raise RuleError("volfyirion.top_is_known", card=state.rage_top)
        state.put_aside.append(state.rage_top)
        events.append(Event("volfyirion.event.top_put_aside", card=state.rage_top, paid=paid, points=PUT_ASIDE_COST))
        state.rage_top = None
    elif named not in (None, ""):
        card = card_by_id(named)
        if not card.in_asset_deck:
            raise RuleError("volfyirion.not_in_asset_deck", card=card.name)
        _check_copies(state, card)
        state.put_aside.append(card.name)
        events.append(Event("volfyirion.event.top_put_aside", card=card.name, paid=paid, points=PUT_ASIDE_COST))
    else:
        state.put_aside_unknown += 1
        events.append(Event("volfyirion.event.unknown_put_aside", paid=paid, points=PUT_ASIDE_COST))
    state.rage_size -= 1
    state.taken += 1


def _refill(state: VolfState, args: Params, events: Events) -> None:
    """V-2.4, V-3.5: the Asset Deck ran out; the put-aside cards were shuffled into a new one.

    In a game that counts the deck (V-3.5), a refill before the count can have emptied it needs a
    confirmation (``confirm``: the player replaced Row cards, which are not reported); with nothing put
    aside it records that the deck is empty, so no Rage card is added until cards are put aside.
    """
    confirm = args.get("confirm", False)
    if not isinstance(confirm, bool):
        raise RuleError("volfyirion.bad_confirm", value=str(confirm))
    put_aside = len(state.put_aside) + state.put_aside_unknown
    if state.deck is None:  # edition 1
        if not put_aside:
            raise RuleError("volfyirion.nothing_to_refill")
        _refill_deck(state, events)
        return
    if not state.deck_empty():
        if not confirm:
            raise RuleError("volfyirion.refill_confirm", left=state.deck, put_aside=put_aside)
        events.append(Event("volfyirion.event.deck_ran_out_sooner", left=state.deck))
    elif not put_aside:
        raise RuleError("volfyirion.deck_already_empty")
    if put_aside:
        _refill_deck(state, events)
    else:
        state.deck = 0
        events.append(Event("volfyirion.event.deck_empty_noted"))


def _refill_deck(state: VolfState, events: Events) -> None:
    count = len(state.put_aside) + state.put_aside_unknown
    state.put_aside.clear()
    state.put_aside_unknown = 0
    if state.deck is not None:
        state.deck = count
    events.append(Event("volfyirion.event.asset_deck_refilled", count=count))


def _unseal(state: VolfState, args: Params, events: Events) -> None:
    """Only with the ``unseal`` option (V-2.3 ruling): the player unseals a sealed Wonder."""
    card = _arg_card(args)
    sealed = [w for w in state.wonders if w["name"] == card.name and w["sealed"]]
    if not sealed:
        raise RuleError("volfyirion.not_sealed", card=card.name)
    sealed[0]["sealed"] = False
    events.append(Event("volfyirion.event.wonder_unsealed", card=card.name))


def _win(state: VolfState, args: Params, events: Events) -> None:
    """V-5.1: 16 Battle points attack Volfyirion, 16 Knowledge points subjugate it; the player wins."""
    how = args.get("how")
    if how not in ("attack", "subjugate"):
        raise RuleError("volfyirion.bad_how", value=str(how))
    _check_win_possible(state)
    _finish(state, "won", how)
    key = "volfyirion.event.won_attack" if how == "attack" else "volfyirion.event.won_subjugate"
    events.append(Event(key, turn=state.turn, points=WIN_POINTS))


def _check_win_possible(state: VolfState) -> None:
    """A win the bot knows is impossible is refused (V-5.1 with V-1.5).

    On turn 1, as long as nothing but the starting House Deck is known (no card acquired, played or
    removed), the player's hand holds only Prospectors, the Captain and the Diviner: no secondary
    ability, so no card drawn beyond the hand, and all ten together give 3 Battle and 3 Knowledge
    points, far from 16. Anything reported beyond that deck (a Wonder bought from the Lair, a card
    played) and the bot no longer claims to know.
    """
    if state.turn != 1 or state.owned or state.wonders or state.removed:
        return
    if any(city[slot] for city in state.cities for slot in ("troop", "building")):
        return
    battle = sum(n * (CATALOG[name].bp or 0) for name, n in HOUSE_DECK.items())
    knowledge = sum(n * (CATALOG[name].kp or 0) for name, n in HOUSE_DECK.items())
    if max(battle, knowledge) < WIN_POINTS:
        raise RuleError("volfyirion.win_impossible_turn_1", battle=battle, knowledge=knowledge, points=WIN_POINTS)


def _finish(state: VolfState, outcome: str, how: str) -> None:
    state.phase = FINISHED
    state.pending = None
    state.outcome = {"outcome": outcome, "turn": state.turn, "how": how, "cities_left": len(state.standing())}


# -- the end of turn and the attack (V-4) ---------------------------------------------------------
def _end(state: VolfState, args: Params, events: Events) -> None:
    """The end of the turn (V-4). ``reshuffled``: drawing the new hand made the player reshuffle, which
    happens during this turn (V-3.4): the token moves now and the dragon attacks at the end of this turn."""
    reshuffled = args.get("reshuffled", False)
    if not isinstance(reshuffled, bool):
        raise RuleError("volfyirion.bad_reshuffled", value=str(reshuffled))
    if state.token == "lair":  # after a reshuffle during the turn the bot no longer counts the draw pile
        house.end_of_turn_draw(state, reshuffled, events)
    if reshuffled and state.token == "lair":
        state.token = "rage_pile"
        events.append(Event("volfyirion.event.reshuffled_while_drawing"))
    events.append(Event("volfyirion.event.turn_ended", turn=state.turn))
    if state.token == "lair":
        events.append(Event("volfyirion.event.no_attack_token_on_lair"))
        _start_turn(state, events)
        return
    if state.rage_size == 0:  # V-4.9
        events.append(Event("volfyirion.event.empty_rage_pile"))
        _token_home(state, events)
        return
    events.append(Event("volfyirion.event.attack_begins", size=state.rage_size))
    if state.unknown_in_pile == 0:
        _reveal_cards(state, [], events)
    else:
        state.phase = REVEAL


def _reveal(state: VolfState, args: Params, events: Events) -> None:
    """The player names the unknown cards of the Rage Pile (V-6); the known top card is counted.

    The list may name the known top card as well (all the pile's cards, the top card among them): one
    copy of the top card is then taken as the top card itself. Any other count is refused.
    """
    raw = args.get("cards")
    if raw is not None and not isinstance(raw, (list, tuple)):  # a list of card ids (the bot splits a typed one)
        raise RuleError("volfyirion.reveal_count", expected=state.unknown_in_pile, got=0)
    cards = [card_by_id(n) for n in raw or []]
    for c in cards:
        if not c.in_asset_deck:
            raise RuleError("volfyirion.not_in_asset_deck", card=c.name)
    expected = state.unknown_in_pile
    if state.rage_top and len(cards) == expected + 1:
        top = next((i for i, c in enumerate(cards) if c.name == state.rage_top), None)
        if top is None:
            raise RuleError("volfyirion.reveal_top_missing", card=state.rage_top, expected=expected,
                            total=expected + 1)
        cards.pop(top)
    elif len(cards) != expected:
        if state.rage_top:
            raise RuleError("volfyirion.reveal_count_top", card=state.rage_top, expected=expected,
                            total=expected + 1, got=len(cards))
        raise RuleError("volfyirion.reveal_count", expected=expected, got=len(cards))
    known = state.known_elsewhere()
    for name, n in Counter(c.name for c in cards).items():
        left = CATALOG[name].qty - known[name]
        if n > left:
            raise RuleError("volfyirion.too_many_copies", card=name, count=n, available=max(left, 0),
                            qty=CATALOG[name].qty)
    _reveal_cards(state, [c.name for c in cards], events)


def _reveal_cards(state: VolfState, unknown: list[str], events: Events) -> None:
    revealed = ([state.rage_top] if state.rage_top else []) + unknown
    events.append(Event("volfyirion.event.revealed", cards=revealed))
    state.taken += state.rage_size
    state.rage_size, state.rage_top = 0, None
    troops = sum(1 for n in revealed if CATALOG[n].type == "troop")
    buildings = sum(1 for n in revealed if CATALOG[n].type == "building")
    in_play_troops = sum(1 for c in state.standing() if c["troop"])
    in_play_buildings = sum(1 for c in state.standing() if c["building"])
    # V-4.1/V-4.2: revealed Troops (Buildings) beyond those in play do nothing; said once the others are gone.
    state.pending = {"revealed": revealed, "troops": min(troops, in_play_troops),
                     "buildings": min(buildings, in_play_buildings),
                     "extra_troops": max(troops - in_play_troops, 0),
                     "extra_buildings": max(buildings - in_play_buildings, 0)}
    _continue_attack(state, events)


def _choose(state: VolfState, args: Params, events: Events) -> None:
    """The player picks the city whose Troop (or Building) the attack removes (V-4.1, V-4.2)."""
    slot = "troop" if state.phase == CHOOSE_TROOP else "building"
    city = _city(state, args.get("city"))
    eligible = [c["name"] for c in state.standing() if c[slot]]
    if city["name"] not in eligible:
        raise RuleError("volfyirion.city_not_eligible", city=city["name"], cities=eligible)
    _lose_slot(state, city, slot, events)
    assert state.pending is not None  # a choice is asked only while an attack is resolved
    state.pending[slot + "s"] -= 1
    _continue_attack(state, events)


def _lose_slot(state: VolfState, city: dict[str, Any], slot: str, events: Events) -> None:
    name = city[slot]
    city[slot] = None
    state.removed.append(name)
    key = "volfyirion.event.troop_lost" if slot == "troop" else "volfyirion.event.building_lost"
    events.append(Event(key, card=name, city=city["name"]))


EXTRA_REVEALED = {"troop": "volfyirion.event.extra_troops", "building": "volfyirion.event.extra_buildings"}


def _continue_attack(state: VolfState, events: Events) -> None:
    """Remove Troops, then Buildings, asking only when there is a real choice; then resolve."""
    assert state.pending is not None
    for slot, phase in (("troop", CHOOSE_TROOP), ("building", CHOOSE_BUILDING)):
        key = slot + "s"
        while state.pending[key] > 0:
            holders = [c for c in state.standing() if c[slot]]
            if len(holders) > state.pending[key]:
                state.phase = phase
                return
            for city in holders:
                _lose_slot(state, city, slot, events)
            state.pending[key] = 0
        extra = state.pending.pop("extra_" + key, 0)  # absent from a state saved before it was kept here
        if extra:
            events.append(Event(EXTRA_REVEALED[slot], count=extra))
    state.phase = TURN
    _resolve(state, events)


def _resolve(state: VolfState, events: Events) -> None:
    """V-4.1 … V-4.8 once Troops and Buildings are gone."""
    assert state.pending is not None
    revealed = state.pending["revealed"]
    state.pending = None
    shown = [n for n in revealed if CATALOG[n].type in ("troop", "building")]
    if shown:
        state.put_aside.extend(shown)
        events.append(Event("volfyirion.event.cards_put_aside", cards=shown))
    commands = [n for n in revealed if CATALOG[n].type == "command"]
    if not commands:  # V-4.3: no Command card, no attack and no sealing
        events.append(Event("volfyirion.event.no_command_cards"))
        _token_home(state, events)
        return
    if not _city_attack(state, commands, events):
        return
    _seal(state, commands, events)
    kept = arith.kept_command(commands)
    tie = arith.kept_command_tie(commands)
    if tie is not None:  # V-4.7's Ruling decided (the original: 「不明」)
        tied, by = tie
        events.append(Event(f"volfyirion.event.command_tie_{by}", card=kept, cost=CATALOG[kept].cost,
                            kp=CATALOG[kept].kp or 0, tied_cards=tied))
    state.rage_top, state.rage_size = kept, 1
    state.added += 1
    events.append(Event("volfyirion.event.command_kept", card=kept, cost=CATALOG[kept].cost))
    others = list(commands)
    others.remove(kept)
    if others:
        state.put_aside.extend(others)
        events.append(Event("volfyirion.event.cards_put_aside", cards=others))
    _token_home(state, events)


def _city_attack(state: VolfState, commands: list[str], events: Events) -> bool:
    """V-4.3 … V-4.5. False when the last city fell (the game is over)."""
    destroyed_before = sum(1 for c in state.cities if c["destroyed"])
    costs = sum(CATALOG[n].cost or 0 for n in commands)
    reading = state.options["bonus"]
    bonus = arith.attack_bonus(destroyed_before, state.k, reading)
    total = costs + bonus
    events.append(Event(arith.attack_line_key(reading, state.k, destroyed_before), attack=total, costs=costs,
                        bonus=bonus, destroyed_before=destroyed_before, d=state.k, difficulty=state.options["difficulty"]))
    standing = state.standing()
    defences = [(arith.city_defence(c), c["defence"]) for c in standing]
    steps, left = arith.destroy_steps(total, defences)
    fallen = [i for i, _ in steps]
    remaining = total
    for i, tied in steps:
        city = standing[i]
        defence = defences[i][0]
        if tied:  # V-4.4's Ruling decided between cities of equal defence
            events.append(Event("volfyirion.event.city_tie", city=city["name"], defence=defence,
                                cities=[standing[j]["name"] for j in tied]))
        events.append(Event("volfyirion.event.city_destroyed", city=city["name"], defence=defence,
                            printed=city["defence"], troop_defence=defence - city["defence"],
                            attack_before=remaining, attack_after=remaining - defence))
        remaining -= defence
        city["destroyed"] = True
        for slot in ("troop", "building"):
            if city[slot]:
                state.removed.append(city[slot])
                events.append(Event("volfyirion.event.card_removed_from_city", card=city[slot], city=city["name"]))
                city[slot] = None
    if not fallen:
        events.append(Event("volfyirion.event.no_city_falls", attack=total,
                            weakest=min(d for d, _ in defences) if defences else 0))
    if not state.standing():  # V-4.5
        _finish(state, "lost", "cities_destroyed")
        events.append(Event("volfyirion.event.lost", turn=state.turn))
        return False
    if left and fallen:  # with no city fallen, ``no_city_falls`` already said the attack could pay for none
        events.append(Event("volfyirion.event.attack_left_over", points=left))
    return True


def _seal(state: VolfState, commands: list[str], events: Events) -> None:
    """V-4.6: the Knowledge points of the revealed Command cards seal Wonders, most expensive first. The
    Rulings the original leaves 「不明」 are said each time they decide: a Wonder passed over because it
    costs more than the points left, and equal costs taken in the order of play."""
    kp = sum(CATALOG[n].kp or 0 for n in commands)
    unsealed = [w for w in state.wonders if not w["sealed"]]
    steps, left = arith.seal_steps(kp, [w["cost"] for w in unsealed])
    events.append(Event("volfyirion.event.knowledge", kp=kp, wonders=len(unsealed),
                        sealing=sum(1 for _, sealed, _ in steps if sealed)))
    passed = []
    for i, sealed, points in steps:
        wonder = unsealed[i]
        if not sealed:
            if points:  # with no point left nothing is passed over: the sealing is simply done
                passed.append(wonder["name"])
            continue
        wonder["sealed"] = True
        events.append(Event("volfyirion.event.wonder_sealed", card=wonder["name"], cost=wonder["cost"],
                            kp_before=points, kp_after=points - wonder["cost"]))
    if passed:  # all in one line, copies counted (the reply says "Void Fluid ×2")
        events.append(Event("volfyirion.event.wonders_passed_over", wonders_passed=passed, count=len(passed)))
    for cost, sealed_names, tied in _split_equal_costs(unsealed, steps):
        events.append(Event("volfyirion.event.wonder_tie", cost=cost, cards=sealed_names, tied_cards=tied))
    if left and unsealed:
        events.append(Event("volfyirion.event.knowledge_left_over", points=left))


def _split_equal_costs(unsealed: list[dict[str, Any]], steps: list[tuple[int, bool, int]]
                       ) -> list[tuple[int, list[str], list[str]]]:
    """Wonders of one cost of which some were sealed and some not: the order of play decided (V-4.6's
    Ruling). ``(cost, sealed names, names left unsealed)`` per such cost, each Wonder named once: a copy of a
    sealed Wonder left unsealed is the same card, so only other Wonders are named unsealed (the copy only when
    there is no other, and the order still chose between two Wonders), and a cost where only copies of one Wonder
    were told apart is no tie at all."""
    by_cost: dict[int, tuple[list[str], list[str]]] = {}
    for i, was_sealed, _ in steps:
        names = by_cost.setdefault(unsealed[i]["cost"], ([], []))[0 if was_sealed else 1]
        if unsealed[i]["name"] not in names:
            names.append(unsealed[i]["name"])
    ties = []
    for cost, (sealed, passed) in by_cost.items():
        others = [name for name in passed if name not in sealed] or (passed if len({*sealed, *passed}) > 1 else [])
        if sealed and others:
            ties.append((cost, sealed, others))
    return ties


def _token_home(state: VolfState, events: Events) -> None:
    """V-4.8: the token goes back to its Lair, the turn ends, the next one begins."""
    state.token = "lair"
    events.append(Event("volfyirion.event.token_returned"))
    _start_turn(state, events)


_HANDLERS: dict[str, Callable[[VolfState, Params, Events], None]] = {
    "play": _play,
    "remove": _remove,
    "redeploy": _redeploy,
    "acquire": _acquire,
    "reshuffle": _reshuffle,
    "putaside": _putaside,
    "refill": _refill,
    "unseal": _unseal,
    "end": _end,
    "reveal": _reveal,
    "choose": _choose,
    "win": _win,
}

RULES = VolfyirionRules()
