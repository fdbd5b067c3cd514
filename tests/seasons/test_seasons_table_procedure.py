"""At the table (issue 23, Seasons): the chosen dice in both modes (S-1.4), the prelude and Dummbot's hand as far
as it is known (S-2.1, S-2.4), the turn in progress with table dice and the setup lines (S-1.2, S-3.1)."""

from __future__ import annotations

import pytest
from seasons_helpers import act, die, keys, new, params

from engine.core import Action, GameRecord, RuleError
from engine.seasons import RULES, face_text, parse_face
from engine.seasons.autoplay import play_game
from engine.seasons.faces import SEASONS, die_faces
from engine.seasons.state import EDITION


def refused(state, type_, **args) -> RuleError:
    """The action is refused and the state it was given is unchanged."""
    before = state.to_json()
    with pytest.raises(RuleError) as err:
        act(state, type_, **args)
    assert state.to_json() == before
    return err.value


def game(dice: str = "table", seed: int = 1, **options) -> GameRecord:
    return GameRecord(RULES, {"difficulty": "wizard", "dice": dice, **options}, seed)


# -- S-1.4 two chosen dice per season, in both modes -----------------------------------------------------------


def test_s1_4_both_modes_choose_the_same_two_dice_of_each_season_from_the_seed():
    table, bot = game("table", 1).state, game("bot", 1).state
    assert table.chosen == bot.chosen == {"winter": [2, 3], "spring": [3, 5], "summer": [2, 4], "autumn": [1, 4]}
    assert table.summary().to_json()["chosen_dice"] == bot.summary().to_json()["chosen_dice"] == table.chosen  # the export's field
    assert table.summary().round_dice == (2, 3)
    # The choice draws on the seed's stream exactly as before it was used at the table: an edition-2 game of the
    # same seed is in the same place afterwards, so its recorded random draws replay unchanged.
    assert game("table", 1, edition=2).state.rng == table.rng == bot.rng


@pytest.mark.parametrize("dice", ["table", "bot"])
def test_s1_4_the_start_names_each_chosen_die_of_every_season(dice):
    events = params(RULES.new_game({"difficulty": "wizard", "dice": dice}, 1), "dice_chosen")
    assert [(e["season"], e["first_die"], e["second_die"], e["dice"]) for e in events] == [
        ("winter", 2, 3, dice), ("spring", 3, 5, dice), ("summer", 2, 4, dice), ("autumn", 1, 4, dice)]


def test_s1_4_a_table_face_of_neither_chosen_die_is_refused_naming_both():
    state = game("table", 1).state  # winter dice 2 and 3; "6 crystals, 2 dots" is die 4's
    err = refused(state, "die", face=parse_face("6 crystals, 2 dots"))
    assert err.key == "seasons.face_not_on_dice"
    assert (err.params["season"], err.params["first_die"], err.params["second_die"]) == ("winter", 2, 3)
    # Each die's own closest faces, on that die.
    assert err.params["first_closest"][0] in [face_text(f) for f in die_faces("winter", 2)]
    assert err.params["second_closest"][0] in [face_text(f) for f in die_faces("winter", 3)]
    assert err.params["first_closest"][0] == "2 water, 1 crystal, 2 dots"
    step = act(state, "die", face=parse_face("2 water, 1 crystal, 2 dots"))  # die 2's: taken
    assert step.state.crystals == 3


def test_s1_4_games_begun_before_the_chosen_dice_take_any_of_the_five_and_replay():
    old = game("table", 1, edition=2)
    assert old.options["edition"] == 2 and old.state.summary().chosen_dice == {}
    assert params(old.last, "dice_chosen") == []  # never told, so never named
    old.push(Action("die", face=parse_face("6 crystals, 2 dots")))  # die 4: not chosen, taken as it always was
    again = GameRecord.from_json(RULES, old.to_json())
    assert again.state == old.state and again.state.crystals == 6
    assert RULES.normalize_options({"difficulty": "wizard"})["edition"] == EDITION == 4


def test_s1_4_the_round_keeps_the_dice_of_the_season_they_were_rolled_in():
    state = act(new(month=3, hand_size=0), "time", steps=1).state  # winter's dice rolled, token now in spring
    assert state.season == "spring" and state.round_dice == state.chosen["winter"]
    err = refused(state, "die", face=parse_face("6 crystals, 3 dots"))
    assert err.params["season"] == "winter"


# -- S-2.1 / S-2.4 the prelude and the hand as far as known ---------------------------------------------------


PRELUDE = ["28", "41", "5", "23", "9", "11"]


def test_s2_1_the_prelude_is_said_with_its_split_and_can_be_told():
    step = RULES.new_game({"difficulty": "wizard", "dice": "table"}, 1)
    assert params(step, "prelude") == [{"hand_size": 6, "can_tell": True}]
    assert "prelude" in step.waiting.legal
    old = RULES.new_game({"difficulty": "wizard", "dice": "table", "edition": 2}, 1)
    assert params(old, "prelude") == [{"hand_size": 6, "can_tell": False}] and "prelude" not in old.waiting.legal


def test_s2_4_the_prelude_makes_dummbots_six_cards_known():
    step = act(new(), "prelude", cards=PRELUDE)
    assert step.state.hand_known == PRELUDE and step.state.hand_unknown == 0
    assert params(step, "prelude_told") == [{"cards": PRELUDE, "hand_size": 6, "unknown": 0}]
    told_again = act(step.state, "prelude", cards=["1", "2", "3", "4", "6", "7"])  # a typo corrected: replaced
    assert told_again.state.hand_known == ["1", "2", "3", "4", "6", "7"]
    summary = step.state.summary().dummbot
    assert (list(summary.hand_known), summary.hand_unknown) == (PRELUDE, 0)


def test_s2_4_a_card_drawn_face_down_before_the_prelude_stays_unknown():
    naria = act(new(), "played", card="12")  # Naria: one card face down onto Dummbot's hand
    step = act(naria.state, "prelude", cards=PRELUDE)
    assert step.state.hand_size == 7 and step.state.hand_unknown == 1
    assert params(step, "prelude_told")[0]["unknown"] == 1


def test_s2_4_the_prelude_is_refused_clearly_otherwise():
    assert refused(new(), "prelude", cards=PRELUDE[:5]).params == {"expected": 6, "got": 5}
    assert refused(new(), "prelude", cards=["28", "41", "5", "23", "9", "11", "12"]).key == "seasons.prelude_count"
    assert refused(new(player_area=["9", "9"]), "prelude", cards=PRELUDE).key == "seasons.too_many_copies"
    after_die = die(new(), "2 water, 1 crystal, 2 dots").state  # Dummbot's first die
    assert "prelude" not in after_die.waiting.legal
    assert refused(after_die, "prelude", cards=PRELUDE).key == "seasons.prelude_too_late"
    air = act(new(), "played", card="40").state  # Air Elemental: two cards leave Dummbot's hand
    gone = act(air, "reveal", cards=["5", "23"]).state
    assert refused(gone, "prelude", cards=PRELUDE).key == "seasons.prelude_too_late"
    old = RULES.new_game({"difficulty": "wizard", "dice": "table", "edition": 2}, 1).state
    assert refused(old, "prelude", cards=PRELUDE).key == "seasons.prelude_older_game"


def hand_of_three() -> object:
    """The issue's case: Dummbot's 3 cards, two of them known because the bot had them put back."""
    return new(month=3, hand_size=3, hand_known=["28", "41"])


def test_s2_4_the_28_45_11_reveal_is_refused_naming_the_known_cards():
    state = act(hand_of_three(), "time", steps=1).state  # winter -> spring: wizard draws all 3
    assert state.wait_key == "seasons.waiting.reveal_hand" and state.wait_params == {"count": 3}
    err = refused(state, "reveal", cards=["28", "45", "11"])  # 45 was a typo for 41: +16 points for Dummbot
    assert err.key == "seasons.reveal_not_in_hand"
    assert err.params == {"cards": ["28", "45", "11"], "known_cards": ["28", "41"], "missing_cards": ["41"],
                          "outside_cards": ["45", "11"], "outside_count": 2, "unknown": 1, "hand_size": 3,
                          "count": 3, "need": 2}
    step = act(state, "reveal", cards=["28", "41", "11"])
    assert params(step, "summoned")[0]["card"] == "28" and step.state.score == 8


def test_s2_4_the_known_part_is_a_multiset():
    state = act(new(month=3, hand_size=4, hand_known=["28"]), "time", steps=1).state  # 1 known, 3 unknown
    assert act(state, "reveal", cards=["28", "28", "5", "23"]).state.summoned == ["28"]  # the other 28: unknown
    full = act(new(month=3, hand_size=2, hand_known=["28", "28"]), "time", steps=1).state
    err = refused(full, "reveal", cards=["28", "5"])
    assert err.params["missing_cards"] == ["28"] and err.params["unknown"] == 0


def test_s2_4_a_discard_from_the_hand_must_fit_it_too():
    told = act(new(), "prelude", cards=PRELUDE).state
    air = act(told, "played", card="40").state  # Air Elemental: draw 3, discard 2
    err = refused(air, "reveal", cards=["28", "45"])
    assert err.key == "seasons.reveal_not_in_hand" and err.params["outside_cards"] == ["45"]
    step = act(air, "reveal", cards=["28", "41"])
    assert step.state.hand_known == ["5", "23", "9", "11"] and step.state.hand_size == 4


def test_s2_4_cards_put_back_are_known_and_the_rest_count_as_unknown():
    state = act(new(month=3), "time", steps=1).state  # wizard draws 4 of 6
    step = act(state, "reveal", cards=["9", "28", "41", "5"])  # 9 summoned, three put back
    assert step.state.hand_known == ["28", "41", "5"] and step.state.hand_unknown == 2


def test_s2_4_games_begun_before_replay_their_reveals_unchecked():
    state = act(new(month=3, hand_size=3, hand_known=["28", "41"], edition=2), "time", steps=1).state
    assert act(state, "reveal", cards=["28", "45", "11"]).state.summoned == ["45"]  # as it was played


def test_s2_4_undo_restores_the_known_hand():
    record = game("table", 1)
    record.push(Action("prelude", cards=PRELUDE))
    record.push(Action("time", steps=3))  # spring: draw 4
    before = record.state
    record.push(Action("reveal", cards=["28", "41", "5", "9"]))
    assert record.state.hand_known == ["23", "11", "28", "41", "5"]
    record.pop()
    assert record.state == before and record.state.hand_known == PRELUDE
    record.pop()
    record.pop()
    assert record.state.hand_known == [] and record.state.prelude_open


@pytest.mark.parametrize("difficulty", ["apprentice", "wizard", "archmage"])
@pytest.mark.parametrize("dice", ["table", "bot"])
def test_s2_4_a_whole_game_told_its_prelude_never_contradicts_the_hand(difficulty, dice):
    """The table model deals the physical hand and reveals what it holds: no reveal is ever refused, and the
    cards the bot knows are always in the physical hand."""
    for seed in range(6):
        actions, steps = play_game(difficulty, dice, seed, prelude=True)
        assert actions[0].type == "prelude" and steps[-1].state.finished
        assert all(len(s.state.hand_known) <= s.state.hand_size for s in steps)


# -- S-3.1 the turn in progress (table dice), S-1.2 and S-3.1 at the start -----------------------------------


def test_s3_1_a_report_in_the_turn_says_go_on_not_roll_again():
    start = new()
    assert start.wait_params["in_turn"] is False and start.wait_params["first_die"] == 2
    for type_, args in (("played", {"card": "1"}), ("time", {"steps": 1})):
        step = act(start, type_, **args)
        assert step.waiting.key == "seasons.waiting.die" and step.waiting.params["in_turn"] is True
    corrected = act(start, "crystals", change=2)  # a correction may come before the roll
    assert corrected.waiting.params["in_turn"] is False
    played = act(start, "played", card="1").state
    next_round = die(played, "2 water, 1 crystal, 2 dots")
    assert next_round.waiting.params["in_turn"] is False and next_round.waiting.params["round"] == 2


def test_s3_1_after_a_time_move_the_month_has_its_own_season_and_the_dice_theirs():
    step = act(new(month=3, hand_size=0), "time", steps=1)
    p = step.waiting.params
    assert (p["month"], p["season"], p["dice_season"], p["in_turn"]) == (4, "spring", "winter", True)
    assert (p["first_die"], p["second_die"]) == tuple(step.state.chosen["winter"])


def test_s1_2_s3_1_the_start_says_dummbots_setup_and_the_two_player_costs():
    step = RULES.new_game({"difficulty": "apprentice", "dice": "bot"}, 3)
    assert keys(step)[:4] == ["game_started", "dummbot_setup", "two_player_costs", "prelude"]
    assert step.state.crystals == 0


def test_s1_4_every_season_has_its_two_dice():
    state = new()
    assert {s: len(state.chosen[s]) for s in SEASONS} == dict.fromkeys(SEASONS, 2)
