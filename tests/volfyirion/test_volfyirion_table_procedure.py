"""The procedure around the automaton at a physical table (issue 23, Volfyirion): the reshuffle while drawing at
the end of the turn (V-3.4), the rulings the original leaves open said every time they decide (V-4.4, V-4.6,
V-4.7), and an Asset Deck that runs out without stalling the game (V-3.5)."""

from __future__ import annotations

from dataclasses import replace

import pytest
from volfyirion_helpers import counted, events, keys, new, push

from engine.core import Action, GameRecord, RuleError
from engine.volfyirion import RULES


def refused(record: GameRecord, kind: str, **args) -> RuleError:
    """The action is refused and changes nothing."""
    before, ply = record.state.to_json(), record.ply
    with pytest.raises(RuleError) as err:
        push(record, kind, **args)
    assert record.state.to_json() == before and record.ply == ply
    return err.value


# -- V-3.4: the reshuffle while drawing the new hand ------------------------------------------------
def test_v3_4_seed_case_end_reshuffled_on_turn_2_attacks_at_the_end_of_turn_2():
    record = new(difficulty="normal")
    push(record, "end")  # turn 1: the token stays on its Lair
    step = push(record, "end", reshuffled=True)  # turn 2: drawing the new hand made the player reshuffle
    assert keys(step) == ["reshuffled_while_drawing", "turn_ended", "attack_begins"]
    assert events(step, "turn_ended") == [{"turn": 2}] and events(step, "attack_begins") == [{"size": 2}]
    assert record.waiting.key == "volfyirion.waiting.reveal" and record.waiting.params == {"count": 2}
    step = push(record, "reveal", cards=["Shrewd Deal", "Stab"])
    # Turn 3 begins with the kept Command card face up and one new card under it.
    assert events(step, "turn_started") == [{"turn": 3}]
    assert record.state.rage_top == "Shrewd Deal" and record.state.rage_size == 2
    assert record.state.token == "lair"


def test_v3_4_end_reshuffled_is_a_reshuffle_in_the_turn_followed_by_end():
    flagged, earlier = new(), new()
    push(flagged, "end")
    push(earlier, "end")
    step = push(flagged, "end", reshuffled=True)
    push(earlier, "reshuffle")
    step_earlier = push(earlier, "end")
    # The same table, except for the House Deck's count: a reshuffle during the turn leaves the bot unable to
    # count the draw pile (the cards drawn are not reported), the end-of-turn one counts it anew (V-3.4).
    assert replace(flagged.state, house=None) == replace(earlier.state, house=None)
    assert counted(flagged) == {"cards": 10, "draw": 5, "fresh": [], "last": 2}
    assert counted(earlier) == {"cards": 10, "draw": None, "why": "reshuffled", "fresh": [], "last": 2}
    assert [e for e in step.events if e.key != "volfyirion.event.reshuffled_while_drawing"] == list(step_earlier.events)


def test_v3_4_the_end_action_carries_the_flag_and_older_end_actions_replay_unchanged():
    record = new()
    push(record, "end", reshuffled=False)
    push(record, "end")
    plain = GameRecord.replay(RULES, record.options, record.seed, [{"type": "end"}, {"type": "end"}])
    assert plain.state == record.state  # no flag is an End as it always was: no attack from the Lair
    assert record.state.token == "lair" and record.state.turn == 3
    assert Action.from_json({"type": "end", "reshuffled": True}).args == {"reshuffled": True}
    err = refused(record, "end", reshuffled="yes")
    assert err.key == "volfyirion.bad_reshuffled" and err.params == {"value": "yes"}


def test_v3_4_a_reshuffle_earlier_in_the_turn_and_another_while_drawing_make_one_attack():
    record = new()
    push(record, "reshuffle")
    step = push(record, "end", reshuffled=True)  # the token is already away: nothing more to move
    assert keys(step) == ["turn_ended", "attack_begins"]


# -- V-4.4, V-4.6, V-4.7: the rulings said each time they decide -----------------------------------
def _ties_game() -> tuple[GameRecord, object]:
    """Tylaris 8 + Novice 2 = 10 against Alantar 10; Wonders Void Fluid 4, Sibilant Crystal 3, Pure Qoam 3,
    Divining Petals 2 (in that order of play); revealed Book of Wisdom (8, 5 KP) and Endless Tactic (8, 3 KP).
    Attack 16 + 1 = 17: Alantar (10) falls, 7 left < 9. KP 8: Void Fluid (8 → 4), Sibilant Crystal (4 → 1),
    Pure Qoam and Divining Petals passed over with 1 point left."""
    record = new(difficulty="normal")
    push(record, "play", card="Novice", city="Tylaris")
    for wonder in ("Void Fluid", "Sibilant Crystal", "Pure Qoam", "Divining Petals"):
        push(record, "play", card=wonder)
    push(record, "end", reshuffled=True)
    step = push(record, "reveal", cards=["Book of Wisdom", "Endless Tactic", "Library", "Mint", "Bank", "Barracks"])
    return record, step


def test_v4_4_a_tie_between_cities_of_equal_defence_is_said():
    record, step = _ties_game()
    assert events(step, "city_tie") == [{"city": "Alantar", "defence": 10, "cities": ["Tylaris"]}]
    assert keys(step).index("city_tie") == keys(step).index("city_destroyed") - 1
    assert [c["name"] for c in record.state.cities if c["destroyed"]] == ["Alantar"]


def test_v4_6_wonders_passed_over_and_equal_costs_are_said():
    _record, step = _ties_game()
    assert events(step, "knowledge") == [{"kp": 8, "wonders": 4, "sealing": 2}]
    assert [e["card"] for e in events(step, "wonder_sealed")] == ["Void Fluid", "Sibilant Crystal"]
    # Every Wonder passed over in one line (issue 33), in the order Volfyirion came to them.
    assert events(step, "wonders_passed_over") == [{"wonders_passed": ["Pure Qoam", "Divining Petals"], "count": 2}]
    assert events(step, "wonder_tie") == [{"cost": 3, "cards": ["Sibilant Crystal"], "tied_cards": ["Pure Qoam"]}]


def test_v4_6_nothing_is_said_when_the_rulings_decide_nothing():
    record = new(difficulty="easy")
    push(record, "play", card="Sibilant Crystal")
    push(record, "play", card="Pure Qoam")  # two Wonders of cost 3, both sealed by 6 KP: the order changes nothing
    push(record, "play", card="Void Fluid")  # cost 4: no point is left for it
    push(record, "end", reshuffled=True)
    step = push(record, "reveal", cards=["Book of Wisdom", "Hidden Cache", "Library", "Mint"])  # KP 5 + 2 = 7
    assert events(step, "knowledge") == [{"kp": 7, "wonders": 3, "sealing": 2}]
    assert [e["card"] for e in events(step, "wonder_sealed")] == ["Void Fluid", "Sibilant Crystal"]
    assert events(step, "wonders_passed_over") == []  # 7 − 4 − 3 = 0: nothing is left to pass anything over
    assert events(step, "wonder_tie") == [{"cost": 3, "cards": ["Sibilant Crystal"], "tied_cards": ["Pure Qoam"]}]
    record = new(difficulty="easy")
    push(record, "play", card="Sibilant Crystal")
    push(record, "play", card="Pure Qoam")
    push(record, "end", reshuffled=True)
    step = push(record, "reveal", cards=["Book of Wisdom", "Hidden Cache", "Library"])
    assert len(events(step, "wonder_sealed")) == 2 and "wonder_tie" not in keys(step)
    assert "wonders_passed_over" not in keys(step) and "city_tie" not in keys(step)


def test_v4_7_a_tie_between_command_cards_of_equal_cost_is_said():
    record, step = _ties_game()
    assert events(step, "command_tie_kp") == [{"card": "Book of Wisdom", "cost": 8, "kp": 5,
                                               "tied_cards": ["Endless Tactic"]}]
    assert keys(step).index("command_tie_kp") == keys(step).index("command_kept") - 1
    # Equal Knowledge points too: the name that sorts first.
    record = new()
    push(record, "end", reshuffled=True)
    step = push(record, "reveal", cards=["Strategic Attack"])
    push(record, "end", reshuffled=True)
    step = push(record, "reveal", cards=["Sabotage"])
    assert events(step, "command_tie_name") == [{"card": "Sabotage", "cost": 5, "kp": 0,
                                                 "tied_cards": ["Strategic Attack"]}]
    # Two copies of one card are no tie.
    record = new()
    push(record, "end")
    push(record, "end", reshuffled=True)
    step = push(record, "reveal", cards=["Sabotage", "Sabotage"])
    assert not [k for k in keys(step) if k.startswith("command_tie")]


# -- V-3.5: an empty Asset Deck never stalls the game ------------------------------------------------
def test_v3_5_seventy_turns_without_a_reshuffle_never_stall():
    record = new()
    assert record.state.deck == 62 - 5 - 1  # the Asset Row's 5 and turn 1's Rage card
    for _ in range(69):
        step = push(record, "end")
    assert record.state.turn == 70
    assert record.state.rage_size == 57 and record.state.deck == 0  # the 62 solo cards less the Asset Row's 5
    assert events(step, "no_rage_card") == [{"size": 57}] and "rage_card_added" not in keys(step)
    push(record, "play", card="Guard", city="Tylaris")  # a card played adds none either
    assert record.state.rage_size == 57


def test_v3_5_the_count_takes_a_replacement_for_every_acquisition_reported():
    record = new()
    push(record, "acquire", card="Stab")
    assert record.state.deck == 55
    push(record, "acquire", card="Pure Qoam")  # a Wonder: its Lair is refilled from the Wonder Deck
    assert record.state.deck == 55


def test_v3_5_the_count_empty_with_put_aside_cards_makes_a_new_deck():
    record = new()
    push(record, "putaside", paid="battle", card="Stab")  # the pile is empty again, Stab put aside
    while record.state.deck > 0:
        push(record, "end")
    step = push(record, "end")
    assert keys(step)[-3:] == ["turn_started", "asset_deck_refilled", "rage_card_added"]
    assert events(step, "asset_deck_refilled") == [{"count": 1}] and record.state.deck == 0


def test_v3_5_refill_before_the_count_can_have_emptied_the_deck_asks_for_a_confirmation():
    record = new()
    push(record, "putaside", paid="knowledge")
    err = refused(record, "refill")  # turn 1: by the count 56 cards can still be in the deck
    assert err.key == "volfyirion.refill_confirm" and err.params == {"left": 56, "put_aside": 1}
    step = push(record, "refill", confirm=True)
    assert keys(step) == ["deck_ran_out_sooner", "asset_deck_refilled"]
    assert events(step, "deck_ran_out_sooner") == [{"left": 56}] and record.state.deck == 1
    assert refused(record, "refill", confirm="maybe").key == "volfyirion.bad_confirm"


def test_v3_5_the_player_tells_the_bot_the_deck_ran_out_sooner_with_nothing_put_aside():
    record = new()
    assert refused(record, "refill").params == {"left": 56, "put_aside": 0}
    step = push(record, "refill", confirm=True)
    assert keys(step) == ["deck_ran_out_sooner", "deck_empty_noted"] and record.state.deck == 0
    step = push(record, "end")
    assert events(step, "no_rage_card") == [{"size": 1}] and record.state.rage_size == 1
    assert refused(record, "refill").key == "volfyirion.deck_already_empty"
    push(record, "putaside", paid="battle", card="Stab")  # a card put aside: it makes the next deck
    step = push(record, "end")
    assert keys(step)[-2:] == ["asset_deck_refilled", "rage_card_added"]


def test_v3_5_a_refill_once_the_count_says_the_deck_is_empty_needs_no_confirmation():
    record = new()
    push(record, "refill", confirm=True)
    push(record, "putaside", paid="battle")
    step = push(record, "refill")
    assert keys(step) == ["asset_deck_refilled"]


def test_v3_5_games_of_edition_1_replay_as_they_were_played():
    record = new(edition=1)
    assert record.state.deck is None
    for _ in range(61):
        push(record, "end")
    assert record.state.rage_size == 62  # edition 1 counted only what is known elsewhere
    assert refused(record, "end").key == "volfyirion.asset_deck_exhausted"
    old = new(edition=1)
    assert refused(old, "refill").key == "volfyirion.nothing_to_refill"
    push(old, "putaside", paid="battle")
    assert keys(push(old, "refill")) == ["asset_deck_refilled"]  # no confirmation in edition 1
    saved = old.state.to_json()
    del saved["deck"]
    saved["options"] = {k: v for k, v in saved["options"].items() if k != "edition"}
    assert RULES.state_from_json(saved) == old.state  # a state saved before V-3.5 is of edition 1


# -- issue 33: fewer words where nothing changed ----------------------------------------------------------------
def test_v4_6_every_wonder_passed_over_in_one_attack_is_one_event_with_its_copies():
    record = new(difficulty="easy")
    for wonder in ("Void Fluid", "Sibilant Crystal", "Void Fluid"):
        push(record, "play", card=wonder)
    push(record, "end", reshuffled=True)
    step = push(record, "reveal", cards=["Feasible Solution", "Shrewd Deal", "Stab", "Barter"])  # KP 2 + 1 = 3
    assert events(step, "wonders_passed_over") == [{"wonders_passed": ["Void Fluid", "Void Fluid"], "count": 2}]
    assert [e["card"] for e in events(step, "wonder_sealed")] == ["Sibilant Crystal"]


def test_v4_6_the_tie_line_names_each_wonder_once_and_copies_of_one_wonder_are_no_tie():
    record = new(difficulty="easy")
    for wonder in ("Sibilant Crystal", "Sibilant Crystal"):
        push(record, "play", card=wonder)
    push(record, "end", reshuffled=True)
    step = push(record, "reveal", cards=["Celethe's Law", "Worthy Trade", "Stab"])  # KP 2 + 1 + 0 = 3
    assert "wonder_tie" not in keys(step)  # which copy is sealed changes nothing
    assert "wonders_passed_over" not in keys(step)  # 3 − 3 = 0: no point left to pass the other over
    record = new(difficulty="easy")
    for wonder in ("Sibilant Crystal", "Pure Qoam", "Sibilant Crystal", "Strange Box"):
        push(record, "play", card=wonder)
    push(record, "end", reshuffled=True)
    step = push(record, "reveal", cards=["Book of Wisdom", "Worthy Trade", "Stab", "Barter", "Mint"])  # KP 6
    assert events(step, "wonder_tie") == [{"cost": 3, "cards": ["Sibilant Crystal", "Pure Qoam"],
                                           "tied_cards": ["Strange Box"]}]
    # Void Fluid, Black Spores, Void Fluid (cost 4), 8 KP: the order sealed Black Spores rather than the second Void
    # Fluid, so the tie is said (V-4.6); the copy left unsealed is named, being the only Wonder left.
    record = new(difficulty="easy")
    for wonder in ("Void Fluid", "Black Spores", "Void Fluid"):
        push(record, "play", card=wonder)
    push(record, "end", reshuffled=True)
    step = push(record, "reveal", cards=["Book of Wisdom", "Feasible Solution", "Shrewd Deal", "Barter"])  # KP 8
    assert events(step, "wonder_tie") == [{"cost": 4, "cards": ["Void Fluid", "Black Spores"],
                                           "tied_cards": ["Void Fluid"]}]


def test_v4_4_leftover_attack_is_said_only_when_a_city_fell():
    record = new(difficulty="easy")
    push(record, "end", reshuffled=True)
    step = push(record, "reveal", cards=["Stab"])  # attack 1: no city, and nothing more said of the 1 point
    assert "no_city_falls" in keys(step) and "attack_left_over" not in keys(step)
    record = new(difficulty="easy")
    push(record, "play", card="Sibilant Crystal")
    push(record, "end", reshuffled=True)
    step = push(record, "reveal", cards=["Book of Wisdom", "Celethe's Law"])  # 8 + 3 = 11: the 10 city falls
    assert events(step, "attack_left_over") == [{"points": 1}]
