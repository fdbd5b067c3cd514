"""The player's House Deck as the bot counts it, and when the next reshuffle — so the next attack — comes (V-3.4,
V-1.5; issue 25 point 5)."""

from __future__ import annotations

import pytest
from volfyirion_helpers import counted, events, keys, new, push

from engine.core import GameRecord, RuleError
from engine.volfyirion import RULES, danger
from engine.volfyirion.house import CHEAP_UNKNOWN, AttackChances, NextAttack, Unknown, next_attack
from engine.volfyirion.state import VolfState


def test_v3_4_a_ten_card_house_deck_first_reshuffles_in_the_draw_at_the_end_of_turn_2():
    record = new(difficulty="normal")
    found = next_attack(record.state)
    assert found.known and (found.draw, found.cards, found.turn, found.turns) == (5, 10, 2, 1)
    push(record, "end")
    found = next_attack(record.state)
    assert (found.draw, found.turn, found.turns) == (0, 2, 0)
    step = push(record, "end", reshuffled=True)  # as counted: nothing said about the count
    assert not events(step, "house_reshuffle_early")
    assert counted(record) == {"cards": 10, "draw": 5, "fresh": [], "last": 2}


def test_v3_4_acquisitions_wait_in_the_discard_pile_and_cards_played_leave_the_deck():
    record = new(difficulty="normal")
    push(record, "acquire", card="Elite Trooper")
    push(record, "acquire", card="Shrewd Deal")
    assert next_attack(record.state).turn == 2  # bought cards go to the discard: the draw pile is the same
    push(record, "end")
    push(record, "end", reshuffled=True)
    push(record, "reveal", cards=["Stab", "Guard"])
    found = next_attack(record.state)  # turn 3: 12 cards, 7 to draw: 5 at the end of turn 3, the rest short
    assert (found.cards, found.draw, found.turn) == (12, 7, 4)
    push(record, "play", card="Elite Trooper", city="Tylaris")  # from hand into a city: out of the deck
    assert next_attack(record.state).cards == 11


def test_v3_4_the_figures_are_the_meter_of_the_pile_grown_by_a_card_a_turn():
    record = new(difficulty="normal")
    chances = next_attack(record.state).chances
    grown = record.state.clone()
    grown.rage_size += 1  # turn 2 starts with a Rage card (V-3.1a)
    meter = danger(grown)
    assert chances == AttackChances(size=2, p_city_falls=meter.p_city_falls, p_game_lost=meter.p_game_lost)
    big = record.state.clone()
    big.rage_size = CHEAP_UNKNOWN + 1
    big.house = {"cards": 10, "draw": 0}
    assert next_attack(big).known and next_attack(big).chances is None  # left to /volfyrion danger


def test_v3_4_edition_2_a_card_played_that_was_never_reported_acquired_cannot_be_counted_until_the_next_reshuffle():
    record = new(difficulty="normal", edition=2)  # games of edition 2 replay as they were played
    push(record, "play", card="Elite Trooper", city="Tylaris")
    assert next_attack(record.state) == NextAttack(Unknown.UNREPORTED) and not next_attack(record.state).known
    push(record, "end")
    push(record, "end", reshuffled=True)  # counted anew from the reshuffle at the end of a turn
    push(record, "reveal", cards=["Stab", "Shrewd Deal", "Library"])
    assert next_attack(record.state).known and record.state.house["draw"] == 5


def test_v3_4_a_reshuffle_during_the_turn_cannot_be_counted():
    record = new(difficulty="normal")
    push(record, "reshuffle")
    assert next_attack(record.state) == NextAttack(Unknown.RESHUFFLED)


def test_v3_4_a_reshuffle_that_was_due_and_did_not_come_makes_it_unknowable():
    record = new(difficulty="normal")
    push(record, "end")
    step = push(record, "end")  # 0 left to draw, yet no reshuffle: cards the bot was not told about
    assert events(step, "house_reshuffle_missing") == [{"left": 0}]
    assert next_attack(record.state) == NextAttack(Unknown.MISSING)
    push(record, "end", reshuffled=True)
    assert next_attack(record.state) == NextAttack(Unknown.MISSING)  # the deck's size stays unknown


def test_v3_4_a_reshuffle_earlier_than_counted_is_said_and_counted_anew():
    record = new(difficulty="normal")
    step = push(record, "end", reshuffled=True)  # turn 1: 5 still to draw by the count (a card drew more)
    assert events(step, "house_reshuffle_early") == [{"left": 5}]
    assert counted(record) == {"cards": 10, "draw": 5, "fresh": [], "last": 1}


def test_v3_4_a_game_saved_before_the_count_says_it_cannot_be_known_and_replays_with_it():
    record = new(difficulty="normal")
    push(record, "end")
    saved = record.state.to_json()
    del saved["house"]
    assert next_attack(VolfState.from_json(saved)) == NextAttack(Unknown.UNTRACKED)
    # Replayed from its actions (as a stored game is), the same game counts its House Deck from the start.
    replayed = GameRecord(RULES, {"difficulty": "normal"}, seed=1)
    push(replayed, "end")
    assert counted(replayed) == {"cards": 10, "draw": 0, "fresh": [], "last": None}
    record.pop()  # undone, the count is back where it was
    assert counted(record) == {"cards": 10, "draw": 5, "fresh": [], "last": None}


def test_v3_4_a_starting_card_removed_leaves_the_house_deck_and_its_copies_are_counted():
    record = new(difficulty="normal")
    step = push(record, "remove", card="Prospector")
    assert events(step, "card_removed") == [{"card": "Prospector"}] and record.state.house["cards"] == 9
    push(record, "remove", card="Captain")
    with pytest.raises(RuleError) as refused:
        push(record, "remove", card="Captain")  # the House Deck has one Captain (V-1.5)
    assert refused.value.key == "volfyirion.too_many_copies" and record.state.house["cards"] == 8


# -- issue 33: acquired Wonders, and cards played that were never reported acquired (rules edition 3) ---------------
def _past_the_first_reshuffle(record: GameRecord) -> None:
    push(record, "end")
    push(record, "end", reshuffled=True)
    push(record, "reveal", cards=["Stab", "Shrewd Deal", "Library", "Mint"][:record.state.unknown_in_pile])


def test_v3_4_an_acquired_wonder_goes_to_the_discard_pile_and_is_counted_like_an_asset_card():
    record = new(difficulty="normal")
    push(record, "acquire", card="Void Fluid")  # a Wonder from the Lair: no Rage card (V-3.1), one card more
    assert counted(record) == {"cards": 11, "draw": 5, "fresh": ["Void Fluid"], "last": None}
    assert record.state.rage_size == 1 and record.state.deck == 62 - 5 - 1  # the Lair's refill is no Asset card
    _past_the_first_reshuffle(record)
    assert counted(record) == {"cards": 11, "draw": 6, "fresh": [], "last": 2}
    step = push(record, "play", card="Void Fluid")  # drawn since the reshuffle: it leaves the cycle, said nothing
    assert counted(record) == {"cards": 10, "draw": 6, "fresh": [], "last": 2}
    assert not [k for k in keys(step) if k.startswith("house_")] and next_attack(record.state).known


def test_v3_4_a_card_played_never_reported_acquired_after_a_reshuffle_corrects_the_count():
    record = new(difficulty="normal")
    _past_the_first_reshuffle(record)
    deck = record.state.deck
    step = push(record, "play", card="Soldier", city="Tylaris")
    # Acquired before the reshuffle (the only way into the hand): the draw pile held one card more ever since.
    assert events(step, "house_corrected") == [{"card": "Soldier", "draw": 6}]
    assert counted(record) == {"cards": 10, "draw": 6, "fresh": [], "last": 2}
    assert record.state.deck == deck - 1 - 1  # its Row refill, then the play's Rage card (V-3.5)
    found = next_attack(record.state)
    assert found.known and (found.draw, found.turn) == (6, 4)


def test_v3_4_a_card_that_cannot_be_in_hand_is_questioned_and_the_count_kept():
    record = new(difficulty="normal")
    step = push(record, "play", card="Void Fluid")  # turn 1: the 10 starting cards only
    assert events(step, "house_questioned") == [{"card": "Void Fluid"}]
    assert counted(record) == {"cards": 10, "draw": 5, "fresh": [], "last": None}
    assert record.state.wonders == [{"name": "Void Fluid", "cost": 4, "sealed": False}]  # noted in play, as said
    assert next_attack(record.state).known
    # Acquired, then played the same turn: that copy is in the discard pile. Questioned; it left the cycle.
    record = new(difficulty="normal")
    push(record, "acquire", card="Sibilant Crystal")
    step = push(record, "play", card="Sibilant Crystal")
    assert events(step, "house_questioned_fresh") == [{"card": "Sibilant Crystal"}]
    assert counted(record) == {"cards": 10, "draw": 5, "fresh": [], "last": None} and record.state.owned == []
    # The same after a reshuffle, for a copy reported acquired since it.
    _past_the_first_reshuffle(record)
    push(record, "acquire", card="Sibilant Crystal")
    step = push(record, "play", card="Sibilant Crystal")
    assert events(step, "house_questioned_fresh") == [{"card": "Sibilant Crystal"}]


def test_v3_4_a_command_card_removed_before_any_reshuffle_keeps_the_count():
    record = new(difficulty="normal")
    push(record, "remove", card="Shrewd Deal")  # unreported, so acquired this cycle: from the discard pile
    assert counted(record) == {"cards": 10, "draw": 5, "fresh": [], "last": None}
    push(record, "acquire", card="Stab")
    push(record, "remove", card="Stab")  # from the discard pile: out of the cycle and of the fresh copies
    assert counted(record) == {"cards": 10, "draw": 5, "fresh": [], "last": None}


def test_v3_4_games_of_edition_2_count_as_they_were_played():
    record = new(difficulty="normal", edition=2)
    push(record, "acquire", card="Void Fluid")
    push(record, "play", card="Void Fluid")
    assert counted(record) == {"cards": 10, "draw": 5}
    step = push(record, "play", card="Soldier", city="Tylaris")
    assert not [k for k in keys(step) if k.startswith("house_")]
    assert next_attack(record.state) == NextAttack(Unknown.UNREPORTED)
    assert "brief" not in record.state.waiting.params  # the full turn prompt every turn, as before


def test_v3_4_the_turn_prompt_is_in_full_once_at_turn_1_and_after_a_reshuffle():
    record = new(difficulty="normal")
    assert "brief" not in record.state.waiting.params  # turn 1's prompt
    push(record, "acquire", card="Stab")
    assert record.state.waiting.params.get("brief") is True  # read once: the replies later in the turn are brief
    push(record, "end")
    assert record.state.waiting.params.get("brief") is True  # turn 2: nothing new
    push(record, "end", reshuffled=True)
    push(record, "reveal", cards=["Stab", "Shrewd Deal"])
    assert "brief" not in record.state.waiting.params  # turn 3: right after the reshuffle
    push(record, "acquire", card="Barter")
    assert record.state.waiting.params.get("brief") is True
    push(record, "end")
    assert record.state.waiting.params.get("brief") is True
    push(record, "reshuffle")  # during turn 4: the token is away, its own short prompt
    assert record.state.waiting.params.get("token") == "rage_pile"


def test_v3_4_the_undo_of_a_card_played_from_the_discard_pile_puts_it_back_there():
    record = new(difficulty="normal")
    push(record, "acquire", card="Void Fluid")
    push(record, "play", card="Void Fluid")  # questioned: acquired this turn, so from the discard pile
    undone = record.pop()
    assert [e.key for e in record.reversal(undone)] == ["volfyirion.undo.rage_card_added",
                                                          "volfyirion.undo.wonder_played_discard"]
    push(record, "end")
    push(record, "end", reshuffled=True)
    push(record, "reveal", cards=["Stab", "Barter"])
    push(record, "play", card="Void Fluid")  # drawn after the reshuffle: from the hand, back to the hand
    assert [e.key for e in record.reversal(record.pop())][-1] == "volfyirion.undo.wonder_played"
