"""Rules S-1 … S-7 and S-9 of seasons-dummbot.md, one test (at least) per numbered rule."""

from __future__ import annotations

import pytest
from seasons_helpers import act, die, keys, new, params

from engine.core import Action, GameRecord, RuleError
from engine.seasons import RULES, parse_face, resolve_face, season_faces
from engine.seasons.cards import PRESTIGE
from engine.seasons.faces import die_faces
from engine.seasons.state import EDITION
from engine.seasons.summary import Season

# -- S-1 setup ------------------------------------------------------------------------------------


def test_s1_1_player_side_is_not_tracked_at_setup():
    step = RULES.new_game({"difficulty": "wizard", "dice": "table"}, 3)
    summary = step.state.summary()
    assert summary.player_area == () and "player" not in summary.to_json()
    assert step.waiting.key == "seasons.waiting.die"


def test_s1_2_dummbot_starts_with_zero_crystals_and_no_library():
    state = RULES.new_game({"difficulty": "archmage", "dice": "bot"}, 9).state
    assert state.crystals == 0 and state.summoned == [] and state.score == 0


def test_s1_3_dummbot_hand_is_face_down():
    state = RULES.new_game({"difficulty": "wizard", "dice": "table"}, 2).state
    assert state.hand_size == 6 and state.hand_known == []


def test_s1_4_bot_dice_chooses_two_of_five_per_season_seeded():
    a = RULES.new_game({"difficulty": "wizard", "dice": "bot"}, 11).state
    b = RULES.new_game({"difficulty": "wizard", "dice": "bot"}, 11).state
    assert a.summary().chosen_dice == b.summary().chosen_dice
    for dice in a.summary().chosen_dice.values():
        assert len(set(dice)) == 2 and all(1 <= d <= 5 for d in dice)
    seen = {tuple(RULES.new_game({"dice": "bot"}, s).state.chosen["winter"]) for s in range(40)}
    assert len(seen) > 3
    rolled = act(a, "roll").state.rolled
    assert [r["die"] for r in rolled] == a.chosen["winter"]
    for r in rolled:
        assert r["face"] in die_faces("winter", r["die"])


@pytest.mark.parametrize("code", ["apprentice", "wizard", "archmage"])
def test_s1_5_difficulties_are_codes(code):
    assert RULES.normalize_options({"difficulty": code, "dice": "bot"}) == {"difficulty": code, "dice": "bot",
                                                                          "edition": EDITION}


@pytest.mark.parametrize("typed", ["見習い", "みならい", "ARCHMAGE", " wizard"])
def test_s1_5_a_difficulty_word_is_refused_not_read(typed):
    """The bot reads a player's words (its choices, in either language): the rules take the codes only."""
    with pytest.raises(RuleError) as err:
        RULES.normalize_options({"difficulty": typed, "dice": "bot"})
    assert err.value.key == "seasons.bad_option" and err.value.params["value"] == typed


def test_s1_5_unknown_difficulty_or_dice_is_refused():
    with pytest.raises(RuleError) as err:
        RULES.normalize_options({"difficulty": "grandmaster"})
    assert err.value.key == "seasons.bad_option" and err.value.params["option"] == "difficulty"
    with pytest.raises(RuleError):
        RULES.normalize_options({"difficulty": "wizard", "dice": "cup"})


# -- S-2 prelude ----------------------------------------------------------------------------------


def test_s2_1_prelude_puts_two_of_each_five_onto_dummbots_hand():
    step = RULES.new_game({"difficulty": "apprentice", "dice": "table"}, 1)
    assert params(step, "prelude") == [{"hand_size": 6, "can_tell": True}]


def test_s2_2_dummbot_starts_with_six_cards():
    for difficulty in ("apprentice", "wizard", "archmage"):
        assert RULES.new_game({"difficulty": difficulty}, 5).state.summary().dummbot.hand_size == 6


def test_s2_3_game_starts_in_winter_month_1_year_1():
    summary = RULES.new_game({}, 5).state.summary()
    assert (summary.year, summary.month, summary.season) == (1, 1, Season.WINTER) and summary.season == "winter"


# -- S-3 a round ----------------------------------------------------------------------------------


def test_s3_1_bot_dice_roll_then_player_takes_one():
    state = new(dice="bot", seed=4)
    step = act(state, "roll")
    assert step.waiting.key == "seasons.waiting.take_die" and step.waiting.legal[0] == "take"
    assert len(step.waiting.params["dice"]) == 2
    with pytest.raises(RuleError) as err:
        act(step.state, "roll")
    assert err.value.key == "seasons.not_now"
    with pytest.raises(RuleError):
        act(step.state, "take", index=2)


def test_s3_2_dummbot_resolves_the_other_die():
    state = new(dice="bot", seed=4)
    rolled = act(state, "roll").state
    for index in (0, 1):
        step = act(act(rolled, "take", index=index).state, "end")
        assert params(step, "dummbot_die")[0]["face"] == rolled.rolled[1 - index]["face"]


@pytest.mark.parametrize("text, dots", [("2 water, 3 crystals, 1 dot", 1), ("6 crystals, 2 dots", 2),
                                        ("6 crystals, 3 dots", 3)])
def test_s3_3_token_advances_by_dummbots_dots(text, dots):
    step = die(new(), text)
    assert step.state.month == 1 + dots


def test_s3_4_season_change_then_new_year_in_that_order():
    state = new(difficulty="wizard", month=12, hand_size=1)
    step = die(state, "6 crystals, 2 dots")  # autumn face? no: month 12 is autumn
    order = keys(step)
    assert order.index("season_changed") < order.index("draw_from_hand")
    step = act(step.state, "reveal", cards=["1"])
    order = keys(step)
    assert order.index("summoned") < order.index("new_year") < order.index("draw_to_hand")
    assert step.state.year == 2 and step.state.month == 2


def test_s3_5_end_of_round_effects_before_the_token_moves():
    state = new(month=3, summoned=["39"], hand_size=0)
    order = keys(die(state, "2 water, 3 crystals, 1 dot"))
    assert order.index("crystals_from_player") < order.index("token_moved") < order.index("season_changed")


# -- S-4 Dummbot's die -----------------------------------------------------------------------------


def test_s4_1_energy_at_the_current_seasons_rate():
    assert die(new(), "2 fire, star, 1 dot").state.crystals == 4  # winter: fire 2
    assert die(new(month=10), "2 air, 3 crystals, 1 dot").state.crystals == 2 + 3  # autumn: air 1
    # the rate is the season the die was rolled in, even when the token then changes season
    step = die(new(month=3, hand_size=0), "2 water, 3 crystals, 1 dot")
    assert params(step, "crystals_from_energy")[0]["rate"] == 1 and step.state.crystals == 5


def test_s4_2_transmute_circle_gives_4_per_energy():
    step = die(new(), "1 water, 1 air, transmute, 1 dot")
    assert step.state.crystals == 8 and params(step, "crystals_from_transmute")[0]["energies"] == 2


def test_s4_3_crystal_number_is_gained():
    assert die(new(), "6 crystals, 2 dots").state.crystals == 6


def test_s4_4_star_draws_one_card_two_with_transmutation():
    assert die(new(), "2 water, star, 2 dots").state.hand_size == 7
    step = die(new(), "1 air, star, transmute, 1 dot")
    assert step.state.hand_size == 8 and params(step, "draw_to_hand")[0]["n"] == 2


def test_s4_5_card_draw_summons_the_top_card_into_the_play_area():
    step = die(new(), "draw, 1 dot")
    assert step.waiting.key == "seasons.waiting.reveal_summon" and "reveal_top_card" in keys(step)
    step = act(step.state, "reveal", cards=["38"])
    assert step.state.summoned == ["38"] and step.state.hand_size == 6 and step.state.score == 16
    assert step.waiting.key == "seasons.waiting.die" and step.state.month == 2


def test_s4_6_dummbot_summons_for_free_and_ignores_its_own_cards():
    step = act(die(new(crystals=3), "draw, 1 dot").state, "reveal", cards=["16"])  # Kairn
    assert step.state.crystals == 3 and step.state.summoned == ["16"]
    step = act(die(new(crystals=3), "draw, 1 dot").state, "reveal", cards=["12"])  # Naria
    assert step.state.hand_size == 6 and step.state.crystals == 3


def test_s4_7_player_fairies_take_a_crystal_per_star():
    step = die(new(player_area=["41"]), "2 fire, star, 1 dot")
    assert step.state.crystals == 4 - 1
    assert params(step, "crystals_to_player")[0]["n"] == 1 and params(step, "player_gains")[0]["n"] == 1
    step = die(new(player_area=["41"]), "draw, 1 dot")  # no star, no theft
    assert not params(step, "crystals_to_player")


# -- S-5 change of season --------------------------------------------------------------------------


def _season_change(difficulty: str, hand_size: int, seed: int = 1):
    return die(new(difficulty=difficulty, month=3, hand_size=hand_size, seed=seed), "2 water, 3 crystals, 1 dot")


def test_s5_1_apprentice_summons_one_random_card():
    step = _season_change("apprentice", 5)
    assert step.waiting.params == {"count": 1}
    step = act(step.state, "reveal", cards=["25"])
    assert step.state.summoned == ["25"] and step.state.hand_size == 4


def test_s5_1_wizard_draws_four_summons_highest_returns_rest():
    step = _season_change("wizard", 6)
    assert step.waiting.params == {"count": 4}
    step = act(step.state, "reveal", cards=["1", "38", "25", "10"])
    assert step.state.summoned == ["38"] and step.state.hand_size == 5
    assert sorted(step.state.hand_known) == ["1", "10", "25"]
    assert params(step, "returned_to_hand")[0]["count"] == 3


def test_s5_1_wizard_draws_all_when_fewer_than_four():
    assert _season_change("wizard", 2).waiting.params == {"count": 2}


def test_s5_1_archmage_summons_highest_discards_lowest():
    step = act(_season_change("archmage", 6).state, "reveal", cards=["1", "38", "25", "10"])
    assert step.state.summoned == ["38"] and step.state.discards == ["25"] and step.state.hand_size == 4


def test_s5_1_archmage_single_card_summoned_only_with_positive_prestige():
    step = act(_season_change("archmage", 1).state, "reveal", cards=["1"])
    assert step.state.summoned == ["1"] and step.state.hand_size == 0
    step = act(_season_change("archmage", 1).state, "reveal", cards=["25"])  # 0 prestige
    assert step.state.summoned == [] and step.state.discards == ["25"] and step.state.hand_size == 0


def test_s5_2_ties_broken_at_random_but_seeded():
    choices = set()
    for seed in range(12):
        state = _season_change("wizard", 6, seed=seed).state
        a = act(state, "reveal", cards=["1", "2", "25", "26"]).state.summoned  # 1 and 2 are both 6
        b = act(state, "reveal", cards=["1", "2", "25", "26"]).state.summoned
        assert a == b
        choices.add(a[0])
    assert choices == {"1", "2"}


def test_s5_2_only_printed_prestige_counts():
    step = act(_season_change("wizard", 6).state, "reveal", cards=["49", "42", "1", "47"])
    best = max(("49", "42", "1", "47"), key=lambda c: PRESTIGE[c])
    assert step.state.summoned == [best]


def test_s5_3_wrong_number_of_revealed_cards_is_refused():
    state = _season_change("wizard", 6).state
    with pytest.raises(RuleError) as err:
        act(state, "reveal", cards=["1", "2"])
    assert err.value.key == "seasons.reveal_count" and err.value.params == {"expected": 4, "got": 2}
    with pytest.raises(RuleError) as err:
        act(state, "reveal", cards=["1", "1", "1", "2"])
    assert err.value.key == "seasons.too_many_copies" and err.value.params["card"] == "1"
    with pytest.raises(RuleError) as err:
        act(state, "reveal", cards=["1", "2", "3", "no such card"])
    assert err.value.key == "seasons.card_unknown"


def test_s5_4_archmage_two_drawn_one_summoned_one_discarded():
    step = act(_season_change("archmage", 2).state, "reveal", cards=["3", "24"])
    assert step.state.summoned == ["3"] and step.state.discards == ["24"] and step.state.hand_size == 0
    assert "returned_to_hand" not in keys(step)


def test_s5_5_figrim_triggers_after_dummbots_summon():
    step = act(die(new(month=3, summoned=["11"], hand_size=2), "6 crystals, 2 dots").state, "reveal",
               cards=["1", "2"])
    order = keys(step)
    assert order.index("summoned") < order.index("crystals_from_player")
    assert step.state.crystals == 6 + 1


# -- S-6 new year --------------------------------------------------------------------------------


def test_s6_1_new_year_tells_the_player_to_take_the_library():
    step = die(new(month=12, hand_size=0), "2 air, 3 crystals, 1 dot")
    assert params(step, "new_year") == [{"year": 2}]


@pytest.mark.parametrize("difficulty, n", [("apprentice", 1), ("wizard", 2), ("archmage", 4)])
def test_s6_2_new_year_draws_after_the_summon(difficulty, n):
    step = die(new(difficulty=difficulty, month=12, hand_size=1), "2 air, 3 crystals, 1 dot")
    step = act(step.state, "reveal", cards=["1"])
    assert step.state.hand_size == n
    assert keys(step).index("summoned") < keys(step).index("draw_to_hand")


def test_s6_3_no_new_year_after_year_three():
    step = die(new(month=12, year=3, hand_size=0), "2 air, 3 crystals, 1 dot")
    assert "new_year" not in keys(step) and step.state.year == 3


# -- S-7 end of game and scoring -------------------------------------------------------------------


def test_s7_1_game_ends_after_year_three_with_the_last_summon():
    step = die(new(month=11, year=3, hand_size=3), "6 crystals, 3 dots")
    assert step.waiting.key == "seasons.waiting.reveal_hand" and step.state.over
    step = act(step.state, "reveal", cards=["1", "2", "3"])
    assert step.waiting.key == "seasons.waiting.score" and step.waiting.legal == ("score", "effect", "crystals")
    assert "draw_to_hand" not in keys(step) and len(step.state.summoned) == 1


def test_s7_1_score_refused_before_the_end():
    with pytest.raises(RuleError) as err:
        act(new(), "score", crystals=1, prestige=0, bonuses=0, hand=0)
    assert err.value.key == "seasons.not_now" and err.value.params["action"] == "score"


def test_s7_2_dummbot_score_is_crystals_plus_printed_prestige():
    state = new(crystals=40, summoned=["38", "25", "50"], hand_size=9)
    assert state.score == 40 + 16 + 0 - 5
    assert state.summary().dummbot.score == state.score


def _ended(crystals=50, summoned=("38",)):
    return die(new(month=12, year=3, hand_size=0, crystals=crystals, summoned=list(summoned)),
               "2 air, 3 crystals, 1 dot").state


def test_s7_3_player_score_is_the_standard_score():
    state = _ended()
    step = act(state, "score", crystals=60, prestige=30, bonuses=2, hand=1, extra=7)
    assert step.state.result().player_score == 60 + 30 + 7 - 12 - 5
    assert step.state.finished and step.waiting.legal == ()
    with pytest.raises(RuleError):
        act(state, "score", crystals=1, prestige=0, bonuses=4, hand=0)


def test_s7_4_a_tie_is_a_loss():
    state = _ended(crystals=50)  # 50 + 2*1 air (autumn rate 1) + 3 + 16 = 71
    assert state.score == 71
    tie = act(state, "score", crystals=71, prestige=0, bonuses=0, hand=0, extra=0).state.result()
    win = act(state, "score", crystals=72, prestige=0, bonuses=0, hand=0, extra=0).state.result()
    assert (tie.outcome, tie.player_score, tie.opponent_score) == ("lost", 71, 71)
    assert win.outcome == "won"


# -- S-9 time ---------------------------------------------------------------------------------------


def test_s9_1_forward_time_triggers_season_change():
    step = act(new(month=3, hand_size=2), "time", steps=1)
    assert step.state.month == 4 and step.waiting.key == "seasons.waiting.reveal_hand"


def test_s9_1_back_across_winter_moves_the_year_back():
    step = act(new(month=1, year=2, hand_size=0), "time", steps=-2)
    assert (step.state.year, step.state.month) == (1, 11) and "year_back" in keys(step)
    assert params(step, "token_moved")[0]["steps"] == -2
    assert "season_changed" in keys(step) and "hand_empty" in keys(step)  # S-9.2: a change of season
    assert step.waiting.key == "seasons.waiting.die"


def test_s9_1_time_refuses_zero_out_of_range_and_before_the_start():
    for steps in (0, 4, -4):
        with pytest.raises(RuleError):
            act(new(), "time", steps=steps)
    with pytest.raises(RuleError) as err:
        act(new(), "time", steps=-1)
    assert err.value.key == "seasons.time_before_start"


def test_s9_4_forward_time_past_year_three_ends_the_game_after_dummbots_die():
    step = act(new(month=12, year=3, hand_size=0), "time", steps=1)
    assert step.waiting.key == "seasons.waiting.die" and step.state.past_end and not step.state.over
    assert "last_round" in keys(step) and "game_end" not in keys(step)
    step = die(step.state, "6 crystals, 2 dots")  # the round began in year 3's autumn: its dice
    assert step.waiting.key == "seasons.waiting.score" and step.state.crystals == 6
    assert "token_moved" not in keys(step) and "last_round_over" in keys(step)


# -- contract details --------------------------------------------------------------------------------


def test_s3_2_a_face_typed_without_dots_is_read_at_the_edge_when_unique_and_apply_takes_it_exact():
    unique = [f for f in season_faces("winter") if f["draw"] == 0 and f["energy"] == {"fire": 2}]
    assert len(unique) == 1
    meant = resolve_face(new(), "2 fire, star")  # what the bot reads from what was typed
    assert meant == unique[0]
    assert act(new(), "die", face=meant).state.month == 1 + unique[0]["dots"]  # on winter die 2
    for typed in ("2 fire, star", parse_face("2 fire, star")):  # the text, or the face without its dots: no guess
        with pytest.raises(RuleError) as err:
            act(new(), "die", face=typed)
        assert err.value.key in ("seasons.face_unreadable", "seasons.face_not_on_dice")
    edition_2 = RULES.new_game({"difficulty": "wizard", "dice": "table", "edition": 2}, 1).state
    with pytest.raises(RuleError) as err:  # a game of edition 2 took a face of any of the five dice
        act(edition_2, "die", face=parse_face("5 earth, 1 dot"))
    assert err.value.key == "seasons.face_not_in_season" and len(err.value.params["closest_faces"]) == 3


def test_s3_2_dots_omitted_and_ambiguous_is_refused_with_the_candidates():
    with pytest.raises(RuleError) as err:  # winter dice 4 and 5 have 6 crystals, with 2 and 3 dots
        resolve_face(new(chosen={**new().chosen, "winter": [4, 5]}), {"energy": {}, "crystals": 6})
    assert err.value.key == "seasons.face_ambiguous"
    assert err.value.params["closest_faces"] == ["6 crystals, 2 dots", "6 crystals, 3 dots"]


def test_not_now_names_action_and_waiting():
    with pytest.raises(RuleError) as err:
        act(new(dice="bot"), "die", face=parse_face("6 crystals, 2 dots"))
    assert err.value.params == {"action": "die", "waiting": "seasons.waiting.roll"}
    with pytest.raises(RuleError) as err:
        act(new(), "dance")
    assert err.value.key == "seasons.unknown_action"


def test_apply_never_mutates_its_input():
    state = new(month=3, hand_size=3)
    before = state.to_json()
    die(state, "2 water, star, 2 dots")
    with pytest.raises(RuleError):
        act(state, "reveal", cards=["1"])
    assert state.to_json() == before


def test_crystals_correction_never_below_zero():
    step = act(new(crystals=3), "crystals", change=-10)
    assert step.state.crystals == 0 and params(step, "crystals_corrected")[0]["change"] == -3
    with pytest.raises(RuleError):
        act(new(), "crystals", change=0)


def test_summary_and_export_fields():
    state = act(new(dice="bot", seed=8), "roll").state
    summary = state.summary().to_json()
    assert {"year", "month", "season", "difficulty", "dice", "dummbot", "chosen_dice"} <= set(summary)
    assert set(summary["dummbot"]) >= {"crystals", "hand_size", "summoned", "score"}
    assert set(summary["chosen_dice"]) == {"winter", "spring", "summer", "autumn"}
    assert state.result() is None


def test_state_json_round_trip_and_record():
    record = GameRecord(RULES, {"difficulty": "wizard", "dice": "table"}, 3)
    record.push(Action("die", face=parse_face("draw, 1 dot")))
    record.push(Action("reveal", cards=["1"]))  # Amulet of Air
    state = RULES.state_from_json(record.state.to_json())
    assert state == record.state and state.summoned == ["1"]
    with pytest.raises(RuleError):
        RULES.state_from_json({**record.state.to_json(), "version": 99})
