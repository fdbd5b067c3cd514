"""What the bot knows about the cards (issue 8): the known top card may be named in a reveal (V-3.3, V-6),
the solo Asset Deck is finite (V-1.2, V-2.4), and actions are stored as they were meant (V-6)."""

from __future__ import annotations

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from volfyirion_helpers import attack, events, grow_pile, keys, new, push

from engine.core import Action, RuleError
from engine.volfyirion import RULES, SOLO_ASSET_DECK, canonical_action
from engine.volfyirion.autoplay import play_game
from engine.volfyirion.canonical import apply_typed


def refused(record, kind: str, **args) -> RuleError:
    """The action is refused and changes nothing."""
    before, ply = record.state.to_json(), record.ply
    with pytest.raises(RuleError) as err:
        push(record, kind, **args)
    assert record.state.to_json() == before and record.ply == ply
    return err.value


def _top_known_reveal():
    """Book of Wisdom face up on top, one unknown card under it, the dragon attacking."""
    record = new(difficulty="easy")
    grow_pile(record, 2)
    attack(record, ["Book of Wisdom", "Stab"])
    push(record, "reshuffle")
    push(record, "end")
    assert record.state.phase == "reveal" and record.waiting.params == {"count": 1}
    return record


# -- V-3.3 / V-6: the known top card may be named ---------------------------------------------------
def test_v3_3_a_reveal_may_name_the_known_top_card_as_well():
    unknown_only, with_top = _top_known_reveal(), _top_known_reveal()
    step = push(unknown_only, "reveal", cards=["Barter"])
    step_top = push(with_top, "reveal", cards=["Barter", "Book of Wisdom"])  # N + 1 names, the top among them
    assert events(step_top, "revealed") == events(step, "revealed") == [{"cards": ["Book of Wisdom", "Barter"]}]
    assert with_top.state.to_json() == unknown_only.state.to_json()
    assert step_top.events == step.events


def test_v6_a_reveal_that_disagrees_with_the_known_top_card_is_refused_clearly():
    record = _top_known_reveal()
    err = refused(record, "reveal", cards=["Barter", "Stab"])  # 2 names, but the known top is not among them
    assert err.key == "volfyirion.reveal_top_missing"
    assert err.params == {"card": "Book of Wisdom", "expected": 1, "total": 2}
    err = refused(record, "reveal", cards=["Barter", "Stab", "Book of Wisdom"])
    assert err.key == "volfyirion.reveal_count_top"
    assert err.params == {"card": "Book of Wisdom", "expected": 1, "total": 2, "got": 3}
    err = refused(record, "reveal", cards=[])
    assert err.key == "volfyirion.reveal_count_top" and err.params["got"] == 0
    # Book of Wisdom has one copy: the top card, so no second one can be under it.
    err = refused(record, "reveal", cards=["Book of Wisdom", "Book of Wisdom"])
    assert err.key == "volfyirion.too_many_copies" and err.params["available"] == 0
    # Without a known top card the count is simply the pile's.
    plain = new()
    push(plain, "reshuffle")
    push(plain, "end")
    err = refused(plain, "reveal", cards=["Stab", "Barter"])
    assert err.key == "volfyirion.reveal_count" and err.params == {"expected": 1, "got": 2}


# -- V-1.2 / V-2.4: the Asset Deck is finite ---------------------------------------------------------
def _acquire_all_but(record, keep: int, skip: tuple[str, ...] = ()) -> None:
    """Acquire copies of the solo Asset Deck until only ``keep`` cards can still be in the deck or the pile."""
    copies = [name for name, n in SOLO_ASSET_DECK.items() if name not in skip for _ in range(n)]
    while record.state.supply() > keep:
        push(record, "acquire", card=copies.pop())


# Games of edition 1 (recorded before V-3.5) did not count the Asset Deck: they replay as they were played.
def test_v1_2_the_rage_pile_never_holds_more_cards_than_the_asset_deck_can_supply():
    record = new(edition=1)  # turn 1: one unseen Rage card
    _acquire_all_but(record, 2, skip=("Guard",))
    assert record.state.supply() == 2 and record.state.deck_left() == 1
    push(record, "end")  # turn 2 takes the last card the deck can hold
    assert record.state.unknown_in_pile == 2 and record.state.deck_left() == 0
    # Each would need a third unseen Rage card (or leave only one card for the two unseen ones).
    for kind, args, pile, supply in (("end", {}, 3, 2), ("play", {"card": "Guard", "city": "Tylaris"}, 3, 1),
                                     ("acquire", {"card": "Guard"}, 2, 1)):
        err = refused(record, kind, **args)
        assert err.key == "volfyirion.asset_deck_exhausted", kind
        assert err.params == {"pile": pile, "supply": supply, "deck": 62, "elsewhere": 62 - supply}
    # Putting the top card aside unseen leaves the count as it was: still no card for a new Rage card.
    push(record, "putaside", paid="battle")
    assert record.state.deck_left() == 0
    # What the pile holds can still be revealed, and the attack goes on to the next turn... only once the
    # put-aside cards are back in a deck (done by the bot when it knows the deck is empty, V-2.4).
    push(record, "reshuffle")
    push(record, "end")
    step = push(record, "reveal", cards=["Guard"])
    assert "asset_deck_refilled" in keys(step)
    assert events(step, "asset_deck_refilled") == [{"count": 2}]  # the unseen put-aside card and the Guard


def test_v2_4_when_the_deck_is_known_to_be_empty_the_put_aside_cards_make_a_new_one():
    record = new(edition=1)
    push(record, "putaside", paid="battle", card="Stab")  # the pile is empty, Stab is put aside
    _acquire_all_but(record, 1, skip=("Stab",))
    assert record.state.deck_left() == 1
    step = push(record, "end")  # turn 2: the last card of the deck
    assert "asset_deck_refilled" not in keys(step) and record.state.deck_left() == 0
    step = push(record, "end")  # turn 3: the deck is known to be empty: Stab comes back in a new one first
    assert keys(step)[-3:] == ["turn_started", "asset_deck_refilled", "rage_card_added"]
    assert record.state.summary().put_aside == () and record.state.rage_size == 2
    err = refused(record, "end")  # edition 1: nothing left and nothing put aside was refused (V-3.5 adds none)
    assert err.key == "volfyirion.asset_deck_exhausted"


def test_v2_4_a_report_that_passes_the_deck_suggests_the_refill_when_cards_are_put_aside():
    record = new(edition=1)
    grow_pile(record, 3)
    push(record, "putaside", paid="battle", card="Stab")  # 2 unseen Rage cards, Stab put aside
    _acquire_all_but(record, 3, skip=("Stab", "Barter"))  # left: one Stab and two Barters for 2 unseen cards
    push(record, "acquire", card="Barter")
    err = refused(record, "acquire", card="Barter")
    assert err.key == "volfyirion.asset_deck_exhausted_refill" and err.params["put_aside"] == 1
    push(record, "refill")  # the player says the put-aside card went back into a deck
    push(record, "acquire", card="Barter")


def test_v2_4_refill_only_when_there_are_put_aside_cards():
    record = new(edition=1)
    err = refused(record, "refill")
    assert err.key == "volfyirion.nothing_to_refill" and err.params == {}
    push(record, "putaside", paid="knowledge")  # unseen
    step = push(record, "refill")
    assert events(step, "asset_deck_refilled") == [{"count": 1}]
    assert refused(record, "refill").key == "volfyirion.nothing_to_refill"


# -- V-6: actions are stored as they were meant -----------------------------------------------------
def test_v6_actions_are_resolved_to_card_ids_and_city_names():
    record = new(cities=["Yrdesh", "Akao Uket", "Kyr"])
    state = record.state
    typed = Action("play", card="elite  TROOPER", city="8")
    meant = canonical_action(state, typed)
    assert meant == Action("play", card="Elite Trooper", city="Yrdesh")
    assert canonical_action(state, meant) == meant  # resolving twice changes nothing
    assert RULES.apply(state, meant).state == apply_typed(state, typed).state
    with pytest.raises(RuleError, match="unknown_card"):  # apply takes what was meant only: typed text is refused
        RULES.apply(state, typed)
    assert canonical_action(state, Action("reveal", cards="stab, ＢＯＯＫ ＯＦ ＷＩＳＤＯＭ")) == Action(
        "reveal", cards=["Stab", "Book of Wisdom"])
    assert canonical_action(state, Action("redeploy", troop="guard", city="kyr")) == Action(
        "redeploy", troop="Guard", city="Kyr")
    assert canonical_action(state, Action("putaside", paid=" Battle ", card=None)) == Action(
        "putaside", paid="battle", card=None)
    assert canonical_action(state, Action("win", how="SUBJUGATE")) == Action("win", how="subjugate")
    # What cannot be resolved is left as typed, so the rules give their own error.
    odd = canonical_action(state, Action("play", card="Crystal Zeppelin", city="Atlantis"))
    assert odd == Action("play", card="Crystal Zeppelin", city="Atlantis")
    with pytest.raises(RuleError, match="unknown_card"):
        RULES.apply(state, odd)


def _typed(action: Action, state) -> Action:
    """What a player might have typed for ``action``: lower-case names, a city by its printed defence."""
    args = dict(action.args)
    for name in ("card", "troop"):
        if isinstance(args.get(name), str):
            args[name] = args[name].lower()
    if isinstance(args.get("city"), str):
        city = next((c for c in state.cities if c["name"] == args["city"]), None)
        args["city"] = str(city["defence"]) if city else args["city"]
    if isinstance(args.get("cards"), list):
        args["cards"] = ", ".join(n.upper() for n in args["cards"])
    return Action(action.type, args)


@settings(max_examples=15, deadline=None)
@given(st.integers(min_value=0, max_value=2**32), st.sampled_from(["flat", "per_city"]))
def test_v6_property_typed_and_meant_actions_reach_the_same_states(seed, bonus):
    game = play_game(seed, max_actions=120, options={"bonus": bonus})
    state = RULES.new_game(game.options, game.seed).state
    for action in game.actions:
        typed = _typed(action, state)
        meant = canonical_action(state, typed)
        assert canonical_action(state, meant) == meant
        after = RULES.apply(state, meant).state
        assert after == apply_typed(state, typed).state
        if typed != meant:  # apply itself never reads typed text
            with pytest.raises(RuleError):
                RULES.apply(state, typed)
        state = after
    assert state == game.state
