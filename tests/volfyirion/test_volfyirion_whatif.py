"""What-ifs around the danger meter (engine/volfyirion/whatif.py): the token on its Lair, putting the top
card aside before paying, and which city falls for each Troop the player may remove."""

from __future__ import annotations

import copy

import pytest
from volfyirion_helpers import attack, new, push

from engine.volfyirion import danger
from engine.volfyirion.whatif import Removal, danger_meter, removal_outcomes


def troops_in_every_city(**options):
    record = new(**options)
    push(record, "play", card="Novice", city="Tylaris")  # 8 + 2
    push(record, "play", card="Guard", city="Vahylea")  # 9 + 4
    push(record, "play", card="Soldier", city="Alantar")  # 10 + 3; the pile holds 4
    return record


def test_v4_1_each_troop_choice_says_which_city_falls():
    # Easy (no difficulty bonus, no city destroyed yet): the attack is the Commands' cost, 8 + 1 = 9.
    record = troops_in_every_city(difficulty="easy")
    step = attack(record, ["Fighter", "Endless Tactic", "Stab", "Barracks"])
    assert step.waiting.key == "volfyirion.waiting.choose_troop"
    assert removal_outcomes(record.state) == (
        Removal("Tylaris", fallen=("Tylaris",), lost=False, attack=9),  # 8 without its Troop: paid by 9
        Removal("Vahylea", fallen=("Vahylea",), lost=False, attack=9),  # 9 without its Troop
        Removal("Alantar", fallen=(), lost=False, attack=9),  # 10 and 13 and 10: nothing the attack of 9 can pay
    )


@pytest.mark.parametrize("difficulty", ["easy", "normal", "hard"])
def test_v4_1_what_if_matches_what_the_choice_really_does(difficulty):
    record = troops_in_every_city(difficulty=difficulty)
    attack(record, ["Fighter", "Scholar", "Endless Tactic", "Stab"])  # two Troops: two choices in a row
    assert record.state.phase == "choose_troop"
    for outcome in removal_outcomes(record.state):
        best: tuple[str, ...] | None = None
        for second in ["Tylaris", "Vahylea", "Alantar"]:
            if second == outcome.city:
                continue
            trial = copy.deepcopy(record)
            push(trial, "choose", city=outcome.city)
            push(trial, "choose", city=second)
            fallen = tuple(c["name"] for c in trial.state.cities if c["destroyed"])
            best = fallen if best is None or len(fallen) < len(best) else best
        assert outcome.fallen == best


def test_v4_1_no_what_if_outside_a_troop_choice():
    record = troops_in_every_city(difficulty="easy")
    assert removal_outcomes(record.state) == ()


def test_v3_4_token_on_the_lair_means_no_attack_this_turn_but_the_meter_still_answers():
    record = troops_in_every_city(difficulty="normal")
    report = danger_meter(record.state)
    assert report.attack_this_turn is False
    assert report.now == danger(record.state)
    push(record, "reshuffle")
    assert danger_meter(record.state).attack_this_turn is True


def test_v2_2_putting_aside_the_top_card_shows_the_meter_after_it_before_paying():
    record = troops_in_every_city(difficulty="hard")
    before = record.state
    report = danger_meter(before)
    assert report.putaside is not None and report.putaside_top_known is False
    # The same as the meter on the state the engine reaches once the player really puts the card aside.
    push(record, "putaside", paid="knowledge")
    assert report.putaside == danger(record.state)
    assert report.putaside.unknown == report.now.unknown - 1
    assert record.state is not before and before.rage_size == record.state.rage_size + 1  # untouched


def test_v2_2_a_known_top_card_put_aside_leaves_the_pile():
    record = troops_in_every_city(difficulty="easy")
    attack(record, ["Fighter", "Endless Tactic", "Stab", "Barracks"])
    push(record, "choose", city="Alantar")
    assert record.state.rage_top == "Endless Tactic"
    report = danger_meter(record.state)
    assert report.putaside_top_known is True
    # Without its top card (cost 8), the pile's expected attack drops.
    assert report.putaside is not None and report.putaside.expected_attack < report.now.expected_attack


def test_v2_2_no_putaside_what_if_with_an_empty_pile_or_during_an_attack():
    record = troops_in_every_city(difficulty="easy")
    attack(record, ["Fighter", "Endless Tactic", "Stab", "Barracks"])
    assert danger_meter(record.state).putaside is None  # waiting for the Troop choice
