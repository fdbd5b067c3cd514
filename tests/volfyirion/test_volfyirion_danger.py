"""The Rage Pile's danger meter: exact enumeration, Monte Carlo, and what they model."""

from __future__ import annotations

from fractions import Fraction

import pytest
from volfyirion_helpers import attack, grow_pile, new, push

from engine.core import RuleError
from engine.volfyirion import CATALOG, SOLO_ASSET_DECK, danger
from engine.volfyirion.danger import EXACT_LIMIT, Formula, Method, _resolver
from engine.volfyirion.summary import BonusReading, Difficulty


def test_danger_exact_one_unknown_card_by_hand():
    state = new(difficulty="normal").state  # turn 1: one unknown card, no Troop, nothing destroyed
    report = danger(state, method="exact")
    deck = sum(SOLO_ASSET_DECK.values())
    # Normal, bonus flat (V-4.3): attack = cost + 0 destroyed cities + 1. A city falls only if the card is a
    # Command of cost ≥ 7 (7 + 1 = 8 pays for Tylaris's 8).
    seven = sum(n for name, n in SOLO_ASSET_DECK.items() if CATALOG[name].type == "command" and CATALOG[name].cost >= 7)
    assert report.p_city_falls == pytest.approx(seven / deck)
    non_command = sum(n for name, n in SOLO_ASSET_DECK.items() if CATALOG[name].type != "command")
    assert report.p_no_attack == pytest.approx(non_command / deck) == pytest.approx(27 / 62)
    cost_one = sum(n for name, n in SOLO_ASSET_DECK.items() if CATALOG[name].type == "command" and CATALOG[name].cost == 1)
    attack = dict(report.attack)
    assert attack[1 + 1] == pytest.approx(float(Fraction(cost_one, deck)))
    assert 1 not in attack and [v for v, _ in report.attack] == sorted(attack)  # in increasing value
    assert report.formula == Formula(BonusReading.FLAT, Difficulty.NORMAL, d=1, destroyed=0, bonus=1)
    assert sum(attack.values()) == pytest.approx(1.0)
    assert report.p_game_lost == 0 and report.method == Method.EXACT and report.unknown == 1


def test_danger_counts_the_known_top_card_and_excludes_known_copies():
    record = new(difficulty="easy")
    grow_pile(record, 2)
    attack(record, ["Book of Wisdom", "Stab"])  # Book of Wisdom (8) on top, Vahylea gone, 1 unknown card
    report = danger(record.state, method="exact")
    assert report.unknown == 1
    assert report.p_no_attack == 0  # the known Command card always attacks
    assert min(dict(report.attack)) == 8 + 1  # easy, flat: + 1 for the destroyed Vahylea
    assert report.formula.bonus == 1
    # 9 already destroys Tylaris (8) whatever comes with it: the danger is certain.
    assert report.p_city_falls == pytest.approx(1.0)
    # Stab is put aside and Book of Wisdom is on top: neither can be the unknown card.
    pool = record.state.unseen_deck()
    assert "Book of Wisdom" not in pool and pool["Stab"] == 1


@pytest.mark.parametrize("extra_turns, troops", [(2, ()), (5, ("Guard", "Novice")), (9, ("Elite Trooper",))])
def test_danger_exact_and_monte_carlo_agree(extra_turns, troops):
    record = new(difficulty="hard")
    for name, where in zip(troops, ("Tylaris", "Vahylea"), strict=False):
        push(record, "play", card=name, city=where)
    push(record, "play", card="Primal Beast")
    push(record, "play", card="Pure Qoam")
    for _ in range(extra_turns):
        push(record, "end")
    exact = danger(record.state, method="exact")
    mc = danger(record.state, method="montecarlo", samples=20000, seed=3)
    assert mc.method == Method.MONTECARLO and mc.samples == 20000 and exact.samples is None
    for field in ("p_city_falls", "p_game_lost", "p_no_attack"):
        assert getattr(mc, field) == pytest.approx(getattr(exact, field), abs=0.02)
    assert mc.expected_wonders_sealed == pytest.approx(exact.expected_wonders_sealed, abs=0.05)
    assert mc.expected_attack == pytest.approx(exact.expected_attack, rel=0.03)
    assert danger(record.state, method="montecarlo", samples=500, seed=9) == danger(
        record.state, method="montecarlo", samples=500, seed=9)


def test_danger_models_the_player_removing_the_troops_that_best_protect_the_cities():
    record = new(difficulty="easy")
    push(record, "play", card="Elite Trooper", city="Tylaris")  # 8 + 6 = 14
    push(record, "play", card="Fighter", city="Vahylea")  # 9 + 2 = 11
    outcome = _resolver(record.state)
    # Attack 19 with one Troop revealed: losing the Elite Trooper lets 11 then 8 fall (2 cities);
    # losing the Fighter leaves 14, 9, 10 and only the 14 falls. The model keeps the Elite Trooper.
    attack_value, fallen, lost, sealed = outcome(1, 19, 0)
    assert (attack_value, fallen, lost, sealed) == (19, 1, False, 0)
    assert outcome(0, 19, 0)[1] == 1  # no Troop lost: 14 falls, 5 left
    assert outcome(2, 27, 0)[1] == 3 and outcome(2, 27, 0)[2] is True


def test_danger_auto_method_and_edge_cases():
    record = new()
    assert danger(record.state).method == Method.EXACT
    while record.state.unknown_in_pile <= EXACT_LIMIT:
        push(record, "end")
    assert danger(record.state, samples=2000).method == Method.MONTECARLO
    empty = new()
    push(empty, "putaside", paid="battle")
    report = danger(empty.state)
    assert report.p_city_falls == 0 and report.attack == ((0, 1.0),) and report.cities_destroyed == ((0, 1.0),)
    with pytest.raises(RuleError, match="bad_method"):
        danger(record.state, method="guess")
