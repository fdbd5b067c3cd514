"""The order of a round and time moved by the player's cards: S-3.1a, S-3.2, S-4.1, S-9.1 … S-9.4, and the
rulings on corrections (S-8.3), effects that need their card (S-8.6), ties (S-5.2) and copies (§9.5)."""

from __future__ import annotations

from collections import Counter

import pytest
from seasons_helpers import act, die, keys, new, params

from engine.core import Action, GameRecord, RuleError
from engine.seasons import RULES, parse_face
from engine.seasons import cards as C


def refused(state, type_, **args) -> RuleError:
    """The action is refused and the state it was given is unchanged."""
    before = state.to_json()
    with pytest.raises(RuleError) as err:
        act(state, type_, **args)
    assert state.to_json() == before
    return err.value


def rolled(**fields):
    return act(new(dice="bot", seed=4, **fields), "roll").state


# -- S-3.1a the player's whole turn comes before Dummbot's die ---------------------------------------------


def test_s3_1a_taking_a_die_does_not_move_dummbot():
    state = rolled(crystals=3)
    step = act(state, "take", index=0)
    assert "dummbot_die" not in keys(step) and step.state.crystals == 3 and step.state.month == 1
    assert step.waiting.key == "seasons.waiting.player_turn"
    assert step.waiting.params["dummbot_face"] == state.rolled[1]["face"]
    assert set(step.waiting.legal) >= {"end", "played", "effect", "time"}
    ended = act(step.state, "end")
    assert keys(ended)[:2] == ["turn_over", "dummbot_die"]
    assert params(ended, "dummbot_die")[0]["face"] == state.rolled[1]["face"]


def test_s3_1a_what_the_player_reports_in_their_turn_comes_before_dummbots_die():
    # Kairn activated in the turn takes 4 of Dummbot's 5 crystals before its die adds any; in the old
    # order (die first) Kairn would have taken 4 of a larger pile.
    state = rolled(crystals=5, player_area=[C.KAIRN])
    turn = act(state, "take", index=0).state
    after_kairn = act(turn, "effect", kind="kairn").state
    assert after_kairn.crystals == 1
    gained = act(turn, "end").state.crystals - 5
    assert act(after_kairn, "end").state.crystals == 1 + gained


def test_s3_1a_table_dice_reports_before_the_face():
    state = new(crystals=5, player_area=[C.KAIRN])
    step = act(state, "effect", kind="kairn")
    assert step.waiting.key == "seasons.waiting.die" and step.state.crystals == 1
    assert die(step.state, "6 crystals, 2 dots").state.crystals == 7


def test_s3_1a_out_of_order_is_refused_with_what_to_do():
    assert refused(new(dice="bot"), "time", steps=1).key == "seasons.time_in_your_turn"
    assert refused(rolled(), "time", steps=1).key == "seasons.time_in_your_turn"
    assert refused(new(dice="bot"), "end").key == "seasons.end_take_first"
    assert refused(rolled(), "end").key == "seasons.end_take_first"
    assert refused(new(), "end").key == "seasons.end_table_dice"


def test_s3_1a_player_turn_survives_a_season_change_in_the_turn():
    state = rolled(month=3, hand_size=2)
    turn = act(state, "take", index=1).state
    step = act(turn, "time", steps=1)  # winter -> spring: Dummbot summons (S-9.2)
    assert step.waiting.key == "seasons.waiting.reveal_hand"
    step = act(step.state, "reveal", cards=["1", "2"])
    assert step.waiting.key == "seasons.waiting.player_turn" and step.state.taken == 1


# -- S-3.2 the face is one of the dice rolled at the round's start ----------------------------------------


def test_s3_2_table_face_is_checked_against_the_rounds_dice_after_time_moved_back():
    # Round in spring (month 4); Temporal Boots take the token back to winter; the spring face is right.
    turn = act(new(month=4, hand_size=0), "time", steps=-1).state
    assert turn.season == "winter" and turn.dice_season == "spring"
    # The month with its own season, and the season of the dice rolled (ja-style turn 3, 14).
    assert (turn.waiting.params["season"], turn.waiting.params["dice_season"]) == ("winter", "spring")
    step = die(turn, "2 earth, 3 crystals, 1 dot")  # a spring face no winter die has
    assert step.state.crystals == 2 * 3 + 3  # S-4.1: earth at winter's rate, where the token stands
    err = refused(turn, "die", face=parse_face("2 water, 3 crystals, 1 dot"))  # winter's face: not rolled this round
    assert err.key == "seasons.face_not_on_dice" and err.params["season"] == "spring"


def test_s3_2_bot_dice_resolve_the_rolled_die_after_time_moved():
    state = rolled(month=3, hand_size=0)
    turn = act(act(state, "take", index=0).state, "time", steps=2).state
    assert turn.season == "spring"
    step = act(turn, "end")
    assert params(step, "dummbot_die")[0]["face"] == state.rolled[1]["face"]


# -- S-4.1 energy at the rate of the season where the token stands when Dummbot acts -------------------------


def test_s4_1_energy_rate_follows_a_time_move_in_the_players_turn():
    # Winter round; Boots move the token into spring; Dummbot's 2 fire then count at spring's rate 3.
    turn = act(new(month=3, hand_size=0), "time", steps=1).state
    step = die(turn, "2 fire, star, 1 dot")
    energy = params(step, "crystals_from_energy")[0]
    assert (energy["season"], energy["rate"], step.state.crystals) == ("spring", 3, 6)


# -- S-9.2 every change of season summons, backwards too ----------------------------------------------------


def test_s9_2_moving_back_across_a_season_summons_and_pays_figrim():
    state = new(difficulty="wizard", month=4, hand_size=6, summoned=[C.FIGRIM], crystals=2)
    step = act(state, "time", steps=-1)
    assert step.state.season == "winter" and step.waiting.key == "seasons.waiting.reveal_hand"
    assert step.waiting.params["count"] == 4
    step = act(step.state, "reveal", cards=["38", "1", "2", "3"])
    assert params(step, "summoned")[0]["card"] == "38"
    assert params(step, "crystals_from_player")[0]["card"] == C.FIGRIM  # after the summon (S-5.5)
    assert step.waiting.key == "seasons.waiting.die"


def test_s9_2_moving_back_within_a_season_summons_nothing():
    step = act(new(month=6, hand_size=6), "time", steps=-2)
    assert step.state.month == 4 and "season_changed" not in keys(step)
    assert step.waiting.key == "seasons.waiting.die"


# -- S-9.3 the new-year draw once per year -----------------------------------------------------------------------


def test_s9_3_new_year_draws_only_the_first_time_a_year_begins():
    state = new(difficulty="wizard", month=12, hand_size=0)
    step = act(state, "time", steps=1)  # into year 2: summon (empty hand), then 2 new cards
    assert step.state.year == 2 and params(step, "new_year") == [{"year": 2}] and step.state.hand_size == 2
    step = act(step.state, "time", steps=-1)  # back to year 1: a change of season, no draw
    assert step.state.year == 1 and "new_year" not in keys(step)
    step = act(step.state, "reveal", cards=["1", "2"])
    step = act(step.state, "time", steps=1)  # year 2 again: the summon, but no second draw
    assert step.state.year == 2 and "season_changed" in keys(step) and "new_year" not in keys(step)


# -- S-9.4 the end of year 3 ----------------------------------------------------------------------------------------


def test_s9_4_a_time_move_can_still_be_entered_before_dummbots_final_die():
    state = rolled(month=11, year=3, hand_size=0)
    turn = act(state, "take", index=0).state
    turn = act(turn, "time", steps=1).state  # month 12: the player's Boots, before Dummbot's die
    assert (turn.year, turn.month, turn.over) == (3, 12, False)
    step = act(turn, "end")  # Dummbot's dots carry the token past the end: its last summon, then the score
    assert step.state.over and "year_three_over" in keys(step)
    assert step.waiting.key in ("seasons.waiting.reveal_hand", "seasons.waiting.score")


def test_s9_4_a_time_move_past_the_end_makes_this_round_the_last():
    state = rolled(month=11, year=3, hand_size=1)
    turn = act(state, "take", index=0).state
    step = act(turn, "time", steps=3)  # past month 12 of year 3: the last summon now (S-7.1)
    assert step.state.past_end and not step.state.over and "last_round" in keys(step)
    assert step.waiting.key == "seasons.waiting.reveal_hand"
    step = act(step.state, "reveal", cards=["38"])
    assert step.waiting.key == "seasons.waiting.player_turn"
    assert refused(step.state, "time", steps=1).key == "seasons.time_past_end"
    final = act(step.state, "end")
    assert final.waiting.key == "seasons.waiting.score" and "draw_from_hand" not in keys(final)
    assert "new_year" not in keys(final) and final.state.summoned == ["38"]


# -- S-8.3 corrections until the final score ------------------------------------------------------------------


def test_s8_3_titus_can_be_sacrificed_in_the_last_round():
    state = new(month=12, year=3, hand_size=0, summoned=[C.TITUS], crystals=10)
    ended = die(state, "6 crystals, 2 dots").state
    assert ended.wait_key == "seasons.waiting.score" and ended.crystals == 17  # 10 + 6 + Titus 1
    assert "effect" in ended.waiting.legal
    step = act(ended, "effect", kind="cannot_pay")
    assert step.state.crystals == 16 and step.state.summoned == []
    assert "dummbot_titus_sacrificed" in keys(step)
    assert step.waiting.key == "seasons.waiting.score" and step.waiting.params["dummbot_score"] == 16


def test_s8_3_figrims_last_payment_can_be_corrected():
    state = new(month=11, year=3, hand_size=0, summoned=[C.FIGRIM], crystals=0)
    ended = die(state, "6 crystals, 3 dots").state  # past the end: last season change, Figrim takes 1
    assert ended.crystals == 7 and ended.wait_key == "seasons.waiting.score"
    step = act(ended, "effect", kind="cannot_pay")
    assert step.state.crystals == 6 and step.waiting.params["dummbot_score"] == 6 + 7


def test_s8_3_only_corrections_at_the_final_score():
    ended = die(new(month=12, year=3, hand_size=0, player_area=[C.KAIRN], crystals=9), "6 crystals, 2 dots").state
    assert refused(ended, "effect", kind="kairn").key == "seasons.only_corrections_now"
    assert refused(ended, "effect", kind="cannot_pay").key == "seasons.nothing_to_correct"


# -- S-8.6 effects need their card ------------------------------------------------------------------------------


def test_s8_6_kairn_needs_kairn_in_the_players_area():
    err = refused(new(crystals=8), "effect", kind="kairn")
    assert err.key == "seasons.effect_needs_your_card" and err.params["card"] == C.KAIRN


def test_s8_6_kairn_once_per_round_per_copy():
    state = new(crystals=20, player_area=[C.KAIRN])
    once = act(state, "effect", kind="kairn").state
    assert once.crystals == 16
    assert refused(once, "effect", kind="kairn").key == "seasons.kairn_once_per_round"
    next_round = die(once, "6 crystals, 2 dots").state
    assert act(next_round, "effect", kind="kairn").state.crystals == 22 - 4
    two = new(crystals=20, player_area=[C.KAIRN, C.KAIRN])
    assert act(act(two, "effect", kind="kairn").state, "effect", kind="kairn").state.crystals == 12


def test_s8_6_onys_can_only_be_passed_when_the_player_holds_it():
    err = refused(new(), "effect", kind="onys")
    assert err.key == "seasons.effect_needs_your_card" and err.params["card"] == C.ONYS
    step = act(new(player_area=[C.ONYS]), "effect", kind="onys")
    assert step.state.summoned == [C.ONYS] and step.state.player_area == []
    assert refused(step.state, "effect", kind="onys").key == "seasons.effect_needs_your_card"


# -- S-5.2 ties per card ------------------------------------------------------------------------------------------


def _tie_share(difficulty: str, drawn: list[str], card: str, games: int = 3000) -> float:
    picked = Counter()
    for seed in range(games):
        state = new(difficulty=difficulty, seed=seed, month=3, hand_size=len(drawn))
        step = act(act(state, "time", steps=1).state, "reveal", cards=drawn)
        picked[params(step, "summoned")[0]["card"]] += 1
    return picked[card] / games


def test_s5_2_ties_are_drawn_per_card_not_per_title():
    # Two Amulets of Air and one Thieving Fairies, all prestige 6: Fairies one time in three.
    share = _tie_share("wizard", ["1", "1", C.FAIRIES], C.FAIRIES)
    assert 0.29 < share < 0.38  # 3,000 seeded games: 1/3 ± 4 standard deviations


def test_s5_2_a_tie_is_said_in_the_reply():
    state = new(difficulty="wizard", month=3, hand_size=3)
    step = act(act(state, "time", steps=1).state, "reveal", cards=["1", "1", C.FAIRIES])
    tie = params(step, "tie_broken")[0]
    assert tie["highest"] is True
    assert tie["tied_cards"] == ["1", C.FAIRIES] and tie["among"] == 3 and tie["prestige"] == 6
    assert tie["card"] == params(step, "summoned")[0]["card"]
    assert tie["copies"] == (2 if tie["card"] == "1" else 1)
    one_title = act(act(new(month=3, hand_size=2), "time", steps=1).state, "reveal", cards=["1", "1"])
    assert "tie_broken" not in keys(one_title)  # two copies of one card are no tie to speak of


def test_s5_2_syllas_and_amsug_ties_per_card():
    sacrificed = Counter()
    returned = Counter()
    for seed in range(3000):
        state = new(seed=seed, summoned=["24", "24", "23"])  # prestige 0 each: Syllas' victim
        sacrificed[params(act(state, "played", card=C.SYLLAS), "dummbot_sacrifices")[0]["card"]] += 1
        items = new(seed=seed, summoned=["1", "1", "2"])  # magic items of prestige 6: Amsug's return
        returned[params(act(items, "played", card=C.AMSUG), "item_to_hand")[0]["card"]] += 1
    assert 0.29 < sacrificed["23"] / 3000 < 0.38
    assert 0.29 < returned["2"] / 3000 < 0.38


# -- §9.5 copies ------------------------------------------------------------------------------------------------------


def test_s9_5_expansion_cards_exist_twice():
    state = new(summoned=["EK1"])
    assert act(state, "played", card="EK1").state.player_area == ["EK1"]
    err = refused(act(state, "played", card="EK1").state, "played", card="EK1")
    assert err.key == "seasons.too_many_copies" and err.params["available"] == 0


def test_s9_5_discarded_copies_never_refuse_a_reveal():
    state = new(discards=["38", "38"], summoned=[])
    step = die(state, "draw, 2 dots")
    step = act(step.state, "reveal", cards=["38"])
    assert step.state.summoned == ["38"]


# -- edition 1: games recorded by the first release replay as they were played --------------------------------


def test_s3_1a_games_recorded_before_edition_2_replay_unchanged():
    record = GameRecord(RULES, {"difficulty": "wizard", "dice": "bot", "edition": 1}, 4)
    record.push(Action("roll"))
    step = record.push(Action("take", index=0))
    assert "dummbot_die" in [e.key.removeprefix("seasons.event.") for e in step.events]  # resolved at once
    assert "time" in RULES.new_game(record.options, 4).waiting.legal  # time before the roll, as then
    replayed = GameRecord.replay(RULES, record.options, 4, [a.to_json() for a in record.actions])
    assert replayed.state == record.state


def test_s9_4_moving_back_from_past_the_end_stays_in_year_three():
    turn = act(new(month=12, year=3, hand_size=0), "time", steps=1).state
    step = act(turn, "time", steps=-2)
    assert (step.state.year, step.state.month, step.state.past_end) == (3, 11, False)
    assert "year_back" not in keys(step)


def test_s8_3_a_crystal_correction_at_the_final_score_updates_the_score_asked_for():
    ended = die(new(month=12, year=3, hand_size=0, crystals=10), "6 crystals, 2 dots").state
    assert ended.wait_params["dummbot_score"] == 16
    step = act(ended, "crystals", change=-1)
    assert step.waiting.key == "seasons.waiting.score" and step.waiting.params["dummbot_score"] == 15
