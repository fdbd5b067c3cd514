"""Issue 28 and the table procedure's Seasons points in the engine: "I could not pay" for the card named (S-8 #39),
winter's rate past the end of year 3 (S-4.1, S-9.4), both sides' Figrim or Titus at once (S-8 #11/#39, a ruling),
the player's Arcano Leech before every Dummbot summon (S-8 #33), Kairn and Onys as activations for Dummbot's
Thieving Fairies (S-8.7), and what an undo puts back on the table. Edition 2 games replay as they were played."""

from __future__ import annotations

import pytest
from seasons_helpers import act, die, keys, new, params

from engine.core import Action, GameRecord, RuleError
from engine.seasons import RULES, parse_face
from engine.seasons import cards as C

REPRO = [Action("die", face=parse_face("draw, 1 dot")), Action("reveal", cards=["33"]), Action("die", face=parse_face("draw, 1 dot")),
         Action("reveal", cards=["39"]), Action("effect", kind="summon")]


def _repro(edition: int | None = None) -> GameRecord:
    options = {"difficulty": "wizard", "dice": "table", **({"edition": edition} if edition else {})}
    record = GameRecord(RULES, options, 1)
    for action in REPRO:
        record.push(action)
    return record


def test_s8_39_cannot_pay_naming_titus_cancels_titus_and_sacrifices_it():
    record = _repro()
    assert record.state.crystals == 2 and record.state.score == 14  # Titus' crystal, the Leech's crystal
    step = record.push(Action("effect", kind="cannot_pay", card="39"))
    assert params(step, "payment_corrected") == [{"n": 1, "card": C.TITUS, "total": 1, "funded": False}]
    assert step.state.summoned == [C.LEECH] and step.state.discards == [C.TITUS]
    assert step.state.score == 14 - 1 - 4  # its crystal and its 4 prestige
    assert step.state.payments == [{"card": C.LEECH, "n": 1}]  # the Leech's payment is kept


def test_s8_39_cannot_pay_with_no_card_named_corrects_the_latest_payment():
    step = _repro().push(Action("effect", kind="cannot_pay"))
    assert params(step, "payment_corrected")[0]["card"] == C.LEECH
    assert C.TITUS in step.state.summoned


def test_s8_3_cannot_pay_naming_a_card_with_no_open_payment_is_refused():
    record = _repro()
    with pytest.raises(RuleError) as err:
        record.push(Action("effect", kind="cannot_pay", card="11"))
    assert err.value.key == "seasons.no_payment_of_card"
    assert err.value.params == {"card": C.FIGRIM, "cards": [C.LEECH, C.TITUS]}
    assert record.ply == len(REPRO)  # nothing changed


def test_s8_39_an_edition_2_game_replays_as_it_was_played():
    step = _repro(edition=2).push(Action("effect", kind="cannot_pay", card="39"))
    assert params(step, "payment_corrected")[0]["card"] == C.LEECH  # what that game's player saw


def _past_the_end(edition: int = 3):
    state = new(year=3, month=12, crystals=0, hand_size=0)
    state.edition = edition
    return act(state, "time", steps=1).state


def test_s4_1_s9_4_energy_after_a_time_move_past_year_3_converts_at_winters_rate():
    state = _past_the_end()
    assert state.past_end and state.token_season == "winter"
    step = die(state, "2 fire, star, 3 dots")  # autumn's dice, rolled at the round's start (S-3.2)
    assert params(step, "crystals_from_energy")[0] | {"rate": 2, "season": "winter", "n": 4} == \
        params(step, "crystals_from_energy")[0]
    assert params(step, "dummbot_die")[0]["season"] == "winter"
    assert "last_round_over" in keys(step) and step.waiting.key == "seasons.waiting.score"  # still the end


def test_s9_4_an_edition_2_game_keeps_autumns_rate_past_the_end():
    step = die(_past_the_end(edition=2), "2 fire, star, 3 dots")
    assert params(step, "crystals_from_energy")[0]["rate"] == 1


def _season_change_with(summoned, player_area, crystals):
    """A wizard table game on month 3 with an empty hand: a 1-dot die changes the season (S-5.5's triggers)."""
    return die(new(month=3, crystals=crystals, hand_size=0, summoned=summoned, player_area=player_area),
               "2 water, 3 crystals, 1 dot")


def test_s8_11_both_figrim_dummbot_side_first_said_when_it_changed_what_was_paid():
    step = _season_change_with([C.FIGRIM], [C.FIGRIM], crystals=0)
    # 2 water at winter's 1 + 3 crystals = 5 before the move: Dummbot can pay anyway, the order changed nothing.
    assert "both_sides_order" not in keys(step)
    state = new(month=3, crystals=0, hand_size=0, summoned=[C.FIGRIM], player_area=[C.FIGRIM])
    moved = act(state, "time", steps=1)  # the season changes in the player's turn, Dummbot has no crystal
    assert keys(moved)[-3:] == ["crystals_from_player", "crystals_to_player", "both_sides_order"]
    assert params(moved, "both_sides_order") == [{"card": C.FIGRIM, "n": 1}]
    assert moved.state.crystals == 0 and moved.state.payments == [{"card": C.FIGRIM, "n": 1, "funded": True}]
    # The player could not pay: then Dummbot had nothing for the player's Figrim either.
    back = act(moved.state, "effect", kind="cannot_pay", card="11")
    assert keys(back) == ["payment_corrected", "funded_payment_back"] and back.state.crystals == 0


def test_s8_39_both_titus_dummbot_side_first_keeps_the_players_titus():
    state = new(crystals=0, summoned=[C.TITUS], player_area=[C.TITUS])
    step = die(state, "draw, 2 dots")  # no crystal from the die; Titus at the end of the round
    step = act(step.state, "reveal", cards=["1"])
    assert params(step, "both_sides_order") == [{"card": C.TITUS, "n": 1}]
    assert C.TITUS in step.state.player_area and step.state.crystals == 0
    back = act(step.state, "effect", kind="cannot_pay", card="39")
    assert keys(back) == ["payment_corrected", "dummbot_titus_sacrificed", "funded_payment_back",
                          "player_titus_sacrificed"]
    assert C.TITUS not in back.state.player_area and C.TITUS not in back.state.summoned


def test_s8_11_one_side_only_says_no_order():
    step = act(new(month=3, crystals=0, hand_size=0, summoned=[C.FIGRIM]), "time", steps=1)
    assert "both_sides_order" not in keys(step)


def test_s8_33_the_players_leech_pays_before_a_card_draw_summon_too():
    state = new(crystals=5, player_area=[C.LEECH])
    step = act(die(state, "draw, 2 dots").state, "reveal", cards=["38"])
    assert keys(step)[:2] == ["crystals_to_player", "summoned"]
    assert params(step, "crystals_to_player")[0]["card"] == C.LEECH
    state.edition = 2
    assert "crystals_to_player" not in keys(act(die(state, "draw, 2 dots").state, "reveal", cards=["38"]))


@pytest.mark.parametrize("kind, card", [("kairn", C.KAIRN), ("onys", C.ONYS)])
def test_s8_7_kairn_and_onys_are_activations_for_dummbots_fairies(kind, card):
    state = new(crystals=10, summoned=[C.FAIRIES], player_area=[card])
    step = act(state, "effect", kind=kind)
    assert "activation_for_fairies" in keys(step)
    assert keys(step)[-2:] == ["crystals_from_player", "crystals_from_card"]  # after the card's own effect
    assert step.state.payments == [{"card": C.FAIRIES, "n": 1}]
    expected = 10 - 4 + 2 if kind == "kairn" else 12
    assert step.state.crystals == expected
    state.edition = 2
    assert "activation_for_fairies" not in keys(act(state, "effect", kind=kind))


def test_s8_6_kairn_used_this_round_is_no_longer_reportable():
    state = new(crystals=10, player_area=[C.KAIRN])
    assert state.reportable_effects() == ["kairn"]
    assert act(state, "effect", kind="kairn").state.reportable_effects() == []


def test_s8_3_a_payment_can_be_corrected_while_the_bot_waits_for_a_reveal():
    state = new(month=3, crystals=0, hand_size=3, summoned=[C.TITUS])
    step = die(state, "2 water, 3 crystals, 1 dot")  # Titus at the round's end, then a change of season
    assert step.waiting.key == "seasons.waiting.reveal_hand" and "effect" in step.waiting.legal
    assert step.state.reportable_effects() == []
    with pytest.raises(RuleError) as err:
        act(step.state, "effect", kind="summon")
    assert err.value.key == "seasons.payments_mid_step"
    back = act(step.state, "effect", kind="cannot_pay")
    assert back.waiting.key == "seasons.waiting.reveal_hand" and C.TITUS not in back.state.summoned


def test_s8_1_a_last_summon_says_its_effect_no_longer_applies():
    state = new(year=3, month=12, crystals=0, hand_size=1, hand_known=[C.LEECH])
    step = act(die(state, "6 crystals, 2 dots").state, "reveal", cards=[C.LEECH])
    assert params(step, "dummbot_leech")[0]["last"] is True


def test_s8_4_undoing_a_season_change_says_what_goes_back():
    record = GameRecord(RULES, {"difficulty": "archmage", "dice": "table"}, 1)
    record.push(Action("time", steps=1))
    record.push(Action("die", face=parse_face("2 water, star, 3 dots")))
    record.push(Action("reveal", cards=["12", "38", "5", "23"]))
    undone = record.pop()
    said = [(e.key.rpartition(".")[2], e.params) for e in record.reversal(undone)]
    # The report is taken back, not the draw (S-5.1 draws once, at random): the same four cards, told again.
    assert said == [("returned_to_drawn", {"count": 2, "cards": ["12", "5"]}), ("discarded_to_drawn", {"card": "23"}),
                    ("player_argos", {"card": "38"}), ("summoned_to_drawn", {"card": "38"}),
                    ("reveal_again", {"count": 4})]
    undone = record.pop()
    said = [(e.key.rpartition(".")[2], e.params) for e in record.reversal(undone)]
    assert said == [("draw_from_hand", {"count": 4}), ("draw_to_hand", {"n": 1}),
                    ("token", {"year": 1, "month": 2, "season": "winter"}), ("crystals", {"total": 0})]
