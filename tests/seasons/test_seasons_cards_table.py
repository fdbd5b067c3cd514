"""S-8: cards that touch the other side, every row of the table from both sides, and S-8.2 … S-8.5."""

from __future__ import annotations

import pytest
from seasons_helpers import act, die, keys, new, params

from engine.core import Action, GameRecord, RuleError
from engine.seasons import CATALOG, EFFECT_KINDS, RULES, parse_face


def dummbot_summons(card: str, **fields):
    """Dummbot summons ``card`` from the draw pile (S-4.5)."""
    return act(die(new(**fields), "draw, 1 dot").state, "reveal", cards=[card])


def player_plays(card: str, **fields):
    return act(new(**fields), "played", card=card)


# -- #10 Syllas the Faithful -------------------------------------------------------------------------


def test_s8_1_syllas_player_side_dummbot_sacrifices_lowest_prestige():
    step = player_plays("10", summoned=["38", "25", "1"])
    assert step.state.summoned == ["38", "1"] and step.state.discards == ["25"]
    assert params(step, "dummbot_sacrifices")[0]["card"] == "25"


def test_s8_1_syllas_player_side_ties_at_random_seeded():
    seen = set()
    for seed in range(12):
        state = new(seed=seed, summoned=["1", "2", "38"])
        a = act(state, "played", card="10").state.discards
        assert a == act(state, "played", card="10").state.discards
        seen.add(a[0])
    assert seen == {"1", "2"}


def test_s8_1_syllas_dummbot_side_player_sacrifices():
    step = dummbot_summons("10")
    assert params(step, "player_sacrifices") == [{"card": "10"}] and step.state.summoned == ["10"]


# -- #11 Figrim the Avaricious ----------------------------------------------------------------------


def test_s8_1_figrim_player_side_dummbot_pays_each_season_change_if_it_can():
    step = die(new(month=3, hand_size=0, player_area=["11"]), "2 water, 3 crystals, 1 dot")
    assert step.state.crystals == 5 - 1 and params(step, "crystals_to_player")[0]["card"] == "11"
    step = act(new(month=3, hand_size=0, player_area=["11"]), "time", steps=1)
    assert step.state.crystals == 0 and "nothing_to_give" in keys(step)


def test_s8_1_figrim_dummbot_side_player_pays_each_season_change():
    step = die(new(month=3, hand_size=0, summoned=["11"]), "6 crystals, 2 dots")
    assert step.state.crystals == 7 and step.state.payments == [{"card": "11", "n": 1}]


# -- #12 Naria the Prophetess ----------------------------------------------------------------------


def test_s8_1_naria_player_side_one_card_face_down_to_dummbot():
    step = player_plays("12")
    assert step.state.hand_size == 7 and "naria" in keys(step)


def test_s8_1_naria_dummbot_side_no_effect():
    step = dummbot_summons("12")
    assert step.state.hand_size == 6 and keys(step)[-1] == "token_moved"


# -- #16 Kairn the Destroyer --------------------------------------------------------------------------


def test_s8_1_kairn_player_side_activation_costs_dummbot_4():
    state = player_plays("16", crystals=6).state
    step = act(state, "effect", kind="kairn")
    assert step.state.crystals == 2 and params(step, "crystals_lost")[0]["n"] == 4
    again = act(player_plays("16", crystals=2).state, "effect", kind="kairn")
    assert again.state.crystals == 0 and params(again, "crystals_lost")[0]["n"] == 2  # never below 0


def test_s8_1_kairn_dummbot_side_no_effect():
    step = dummbot_summons("16", crystals=5)
    assert step.state.crystals == 5 and "player_sacrifices" not in keys(step)


# -- #17 Amsug Longneck ---------------------------------------------------------------------------------


def test_s8_1_amsug_player_side_lowest_magic_item_back_to_dummbots_hand():
    step = player_plays("17", summoned=["38", "1", "31", "39"])  # familiars 16 and 4; items 6 and 2
    back = "31"
    assert step.state.hand_size == 7 and step.state.hand_known == [back]
    assert back not in step.state.summoned and params(step, "item_to_hand")[0]["card"] == back


def test_s8_1_amsug_player_side_no_item_in_play():
    step = player_plays("17", summoned=["38"])
    assert step.state.summoned == ["38"] and "no_item_in_play" in keys(step)


def test_s8_1_amsug_dummbot_side_player_returns_an_item():
    assert params(dummbot_summons("17"), "player_returns_item") == [{"card": "17"}]


# -- #21 Lewis Greyface -----------------------------------------------------------------------------


def test_s8_1_lewis_player_side_roll_four_dice():
    step = player_plays("21")
    assert "lewis" in keys(step) and step.state.crystals == 0


def test_s8_1_lewis_dummbot_side_no_effect():
    step = dummbot_summons("21")
    assert step.state.summoned == ["21"] and "lewis" not in keys(step)


# -- #33 Arcano Leech ---------------------------------------------------------------------------------


def test_s8_1_arcano_leech_player_side_dummbot_pays_before_summoning_from_hand():
    step = die(new(month=3, hand_size=2, player_area=["33"]), "6 crystals, 2 dots")
    step = act(step.state, "reveal", cards=["1", "2"])
    order = keys(step)
    assert order.index("crystals_to_player") < order.index("summoned") and step.state.crystals == 5


def test_s8_1_arcano_leech_dummbot_side_player_pays_before_summoning():
    state = dummbot_summons("33").state
    step = act(state, "effect", kind="summon")
    assert step.state.crystals == 1
    with pytest.raises(RuleError) as err:
        act(new(), "effect", kind="summon")
    assert err.value.key == "seasons.effect_needs_card" and err.value.params["card"] == "33"


# -- #38 Demon of Argos ------------------------------------------------------------------------------


def test_s8_1_demon_of_argos_player_side_draw_five_discard_one():
    step = player_plays("38")
    assert step.waiting.key == "seasons.waiting.reveal_discard"
    assert step.waiting.params == {"card": "38", "drawn": 5, "count": 1}
    step = act(step.state, "reveal", cards=["1"])
    assert step.state.hand_size == 5 and step.state.discards == ["1"] and step.waiting.key == "seasons.waiting.die"


def test_s8_1_demon_of_argos_player_side_all_when_fewer():
    step = player_plays("38", hand_size=2)
    assert step.waiting.params["drawn"] == 2 and step.waiting.params["count"] == 1
    assert player_plays("38", hand_size=0).waiting.key == "seasons.waiting.die"


def test_s8_1_demon_of_argos_dummbot_side_player_gauge_and_draw():
    assert params(dummbot_summons("38"), "player_argos") == [{"card": "38"}]


# -- #39 Titus Deepgaze -----------------------------------------------------------------------------------


def test_s8_1_titus_player_side_dummbot_pays_each_round_or_titus_goes():
    step = die(new(player_area=["39"]), "6 crystals, 2 dots")
    assert step.state.crystals == 5
    step = die(new(player_area=["39"]), "draw, 1 dot")
    step = act(step.state, "reveal", cards=["25"])
    assert "39" not in step.state.player_area and "player_titus_sacrificed" in keys(step)


def test_s8_1_titus_dummbot_side_player_pays_each_round():
    state = dummbot_summons("39").state
    step = die(state, "6 crystals, 2 dots")
    assert step.state.crystals == 1 + 6 + 1


# -- #40 Air Elemental -------------------------------------------------------------------------------------


def test_s8_1_air_elemental_player_side_draw_three_discard_two():
    step = player_plays("40")
    assert step.waiting.params == {"card": "40", "drawn": 3, "count": 2}
    step = act(step.state, "reveal", cards=["1", "2"])
    assert step.state.hand_size == 4 and params(step, "returned_to_hand")[0]["count"] == 1


def test_s8_1_air_elemental_player_side_one_card_only():
    step = player_plays("40", hand_size=1)
    assert step.waiting.params == {"card": "40", "drawn": 1, "count": 1}


def test_s8_1_air_elemental_dummbot_side_energy_becomes_air():
    assert params(dummbot_summons("40"), "player_air") == [{"card": "40"}]


# -- #41 Thieving Fairies ----------------------------------------------------------------------------------


def test_s8_1_thieving_fairies_player_side_per_star():
    step = die(new(player_area=["41"], crystals=0), "1 air, star, transmute, 1 dot")
    assert step.state.crystals == 4 - 1


def test_s8_1_thieving_fairies_dummbot_side_player_activation_gives_two():
    state = dummbot_summons("41").state
    step = act(state, "effect", kind="activate")
    assert step.state.crystals == 2 and step.state.payments == [{"card": "41", "n": 1}]


# -- #49 Sid Nightshade ------------------------------------------------------------------------------------


def test_s8_1_sid_player_side_player_has_most_dummbot_gives_five():
    step = player_plays("49", crystals=3)
    assert step.waiting.key == "seasons.waiting.player_crystals" and step.waiting.legal == ("answer", "crystals")
    assert act(step.state, "answer", crystals=10).state.crystals == 0
    assert act(step.state, "answer", crystals=3).state.crystals == 3  # not strictly the most
    assert act(player_plays("49", crystals=9).state, "answer", crystals=10).state.crystals == 4
    assert player_plays("49", crystals=0).waiting.key == "seasons.waiting.die"  # nothing to give


def test_s8_1_sid_dummbot_side_dummbot_has_most_player_gives_five():
    step = dummbot_summons("49", crystals=8)
    assert step.waiting.key == "seasons.waiting.player_crystals"
    assert act(step.state, "answer", crystals=3).state.crystals == 8 + 3
    assert act(step.state, "answer", crystals=7).state.crystals == 8 + 5
    assert act(step.state, "answer", crystals=8).state.crystals == 8
    after = act(step.state, "answer", crystals=7)
    assert after.waiting.key == "seasons.waiting.die" and after.state.month == 2


# -- #50 Damned Soul of Onys ------------------------------------------------------------------------------


def test_s8_1_onys_player_side_may_pass_it_to_dummbot():
    state = player_plays("50").state
    assert state.player_area == ["50"]
    step = act(state, "effect", kind="onys")
    assert step.state.summoned == ["50"] and step.state.player_area == [] and step.state.score == -5


def test_s8_1_onys_dummbot_side_goes_to_the_players_play_area():
    step = dummbot_summons("50")
    assert step.state.summoned == [] and step.state.player_area == ["50"] and "onys_to_player" in keys(step)


# -- S-8.2 … S-8.5 -----------------------------------------------------------------------------------------


def test_s8_2_onys_sent_back_on_water_or_two_energies():
    step = die(new(summoned=["50"]), "2 water, 3 crystals, 1 dot")
    assert step.state.summoned == [] and step.state.player_area == ["50"] and step.state.crystals == 5
    assert die(new(summoned=["50"]), "2 fire, star, 1 dot").state.summoned == []  # two energies
    assert die(new(summoned=["50"]), "1 air, star, transmute, 1 dot").state.summoned == ["50"]


def test_s8_2_onys_never_costs_dummbot_crystals_but_counts_minus_five():
    state = die(new(summoned=["50"], crystals=4), "6 crystals, 2 dots").state
    assert state.crystals == 10 and state.score == 5


def test_s8_3_cannot_pay_corrects_the_last_assumed_payment():
    state = dummbot_summons("41").state
    state = act(state, "effect", kind="activate").state
    assert state.summary().can_correct_payment is True
    step = act(state, "effect", kind="cannot_pay")
    assert step.state.crystals == 1 and step.state.payments == []
    assert step.state.summary().can_correct_payment is False
    with pytest.raises(RuleError) as err:
        act(step.state, "effect", kind="cannot_pay")
    assert err.value.key == "seasons.nothing_to_correct"


def test_s8_3_titus_unpaid_is_sacrificed():
    state = die(dummbot_summons("39").state, "2 water, 3 crystals, 1 dot").state
    step = act(state, "effect", kind="cannot_pay")
    assert "39" not in step.state.summoned and step.state.crystals == 6
    assert "dummbot_titus_sacrificed" in keys(step)


def test_s8_3_partial_payment_and_unknown_kind():
    state = act(dummbot_summons("41").state, "effect", kind="activate").state
    with pytest.raises(RuleError):
        act(state, "effect", kind="cannot_pay", paid=1)  # paid must be less than owed
    with pytest.raises(RuleError) as err:
        act(state, "effect", kind="juggle")
    assert err.value.key == "seasons.bad_effect"
    assert set(EFFECT_KINDS) >= {"activate", "summon", "kairn", "onys", "cannot_pay"}


def test_s8_4_every_transfer_is_recorded_and_undone():
    record = GameRecord(RULES, {"difficulty": "wizard", "dice": "table"}, 1)  # winter dice 2 and 3
    record.push(Action("die", face=parse_face("draw, 1 dot")))
    record.push(Action("reveal", cards=["1"]))
    before = record.state
    record.push(Action("played", card="10"))
    assert record.state.summoned == [] and record.state.discards == ["1"]
    record.pop()
    assert record.state == before and record.state.summoned == ["1"]


@pytest.mark.parametrize("card, prestige", [("EK6", 24), ("PD18", -5), ("PR3", 9)])
def test_s8_5_expansion_cards_count_printed_prestige(card, prestige):
    step = dummbot_summons(card)
    assert step.state.score == prestige
    assert player_plays(card).events[-1].key == "seasons.event.no_effect_on_dummbot"


def test_s8_5_cards_named_in_any_language_are_read_by_the_catalog_and_apply_takes_their_ids():
    for name in ("Heart of Argos", "破壊者ケアン", "Âme damnée d'Onys", "#38"):
        card, _ = CATALOG.resolve(name)  # what the bot does with what was typed
        assert act(new(), "played", card=card.id).state.player_area == [card.id]
        with pytest.raises(RuleError) as err:  # a name is no id: refused, with suggestions, never guessed
            act(new(), "played", card=name)
        assert err.value.key == "seasons.card_unknown" and err.value.params["query"] == name
        assert all(s in CATALOG for s in err.value.params["suggestions"])


def test_s8_player_card_left_play_stops_its_effect():
    state = player_plays("39").state
    step = act(state, "effect", kind="left", card="39")
    assert step.state.player_area == []
    with pytest.raises(RuleError) as err:
        act(step.state, "effect", kind="left", card="39")
    assert err.value.key == "seasons.card_not_in_play"


def test_s8_copies_known_elsewhere_are_refused():
    state = new(summoned=["38"], player_area=["38"])
    with pytest.raises(RuleError) as err:
        act(state, "played", card="38")
    assert err.value.params == {"card": "38", "count": 1, "available": 0}


# -- the lasting effects, as each card enters play ----------------------------------------------------------


@pytest.mark.parametrize("card, event", [("11", "dummbot_figrim"), ("33", "dummbot_leech"),
                                         ("39", "dummbot_titus"), ("41", "dummbot_fairies")])
def test_s8_1_a_lasting_effect_on_the_player_is_told_by_its_own_event_as_dummbot_summons_it(card, event):
    """The player must know what the card will take from them and what to report: one event per card."""
    said = keys(dummbot_summons(card))
    assert said[said.index("summoned") + 1] == event


@pytest.mark.parametrize("card, event", [("11", "player_figrim"), ("33", "player_leech"), ("39", "player_titus"),
                                         ("41", "player_fairies"), ("16", "player_kairn"), ("50", "player_onys")])
def test_s8_1_a_lasting_effect_on_dummbot_is_told_by_its_own_event_as_the_player_reports_it(card, event):
    assert keys(player_plays(card)) == [event]


def test_s8_6_the_effects_the_player_reports_are_those_whose_card_is_in_play_until_the_last_round():
    assert new().reportable_effects() == []
    state = new(summoned=["41", "33"], player_area=["16", "50", "11"])
    assert state.reportable_effects() == ["activate", "summon", "kairn", "onys"]  # Figrim is the engine's to apply
    assert new(summoned=["16"], player_area=["41"]).reportable_effects() == []  # whose play area matters
    assert new(summoned=["41"], wait_key="seasons.waiting.score").reportable_effects() == []  # S-8.3: corrections only
