"""One test per numbered rule and ruling of rules/volfyirion-solo.md (V-1.1 … V-6)."""

from __future__ import annotations

import pytest
from volfyirion_helpers import attack, attack_line, city, events, grow_pile, keys, new, push

from engine.core import Action, GameRecord, RuleError
from engine.volfyirion import CATALOG, RULES, SOLO_ASSET_DECK
from engine.volfyirion.autoplay import play_game
from engine.volfyirion.rules import VolfyirionRules
from engine.volfyirion.summary import CitySummary, RagePileSummary, WonderSummary


# -- V-1 Setup --------------------------------------------------------------------------------------
def test_v1_1_three_cities_one_of_each_defence():
    record = new()
    cities = record.state.summary().cities
    assert [(c.name, c.defence) for c in cities] == [("Tylaris", 8), ("Vahylea", 9), ("Alantar", 10)]
    assert all(c.troop is None and c.building is None and not c.destroyed for c in cities)
    chosen = new(cities=["Kyr", "Yrdesh", "Akao Uket"]).state.summary().cities
    assert [c.name for c in chosen] == ["Yrdesh", "Akao Uket", "Kyr"]
    with pytest.raises(RuleError) as err:
        new(cities=["Tylaris", "Yrdesh", "Kyr"])
    assert err.value.key == "volfyirion.cities_defences"
    with pytest.raises(RuleError, match="cities_count"):
        new(cities=["Tylaris", "Kyr"])
    with pytest.raises(RuleError, match="unknown_city"):
        new(cities=["Tylaris", "Vahylea", "Atlantis"])


def test_v1_2_solo_asset_deck_is_62_cards_without_move_volfyirion():
    by_type = {"command": 0, "troop": 0, "building": 0}
    for name, n in SOLO_ASSET_DECK.items():
        by_type[CATALOG[name].type] += n
    assert sum(SOLO_ASSET_DECK.values()) == 62
    assert by_type == {"command": 35, "troop": 15, "building": 12}
    assert "Volfyirion's Mark" not in SOLO_ASSET_DECK
    setup = events(new().last, "setup_remove")[0]
    assert setup == {"cards": ["Volfyirion's Mark", "Emerald Horn", "Emerald Horn"], "count": 3}
    with pytest.raises(RuleError, match="not_in_solo"):
        push(new(), "play", card="Emerald Horn")


def test_v1_3_no_perk_ploy_or_extra_cards():
    assert {c.type for c in CATALOG} <= {"starting", "command", "troop", "building", "wonder", "city"}
    assert "setup_decks" in keys(new().last)


def test_v1_4_asset_row_without_top_card_and_lair_of_cheap_wonders():
    step = new().last
    assert "setup_asset_row" in keys(step)
    assert events(step, "setup_lair") == [{"max_cost": 3}]
    assert step.state.summary().rage_pile == RagePileSummary(1, None)


def test_v1_5_house_deck_and_token_on_the_lair():
    step = new().last
    assert events(step, "setup_house_deck") == [{"prospectors": 8, "captains": 1, "diviners": 1}]
    assert "setup_token" in keys(step)
    assert step.state.summary().token == "lair"


def test_v1_6_difficulties_and_bad_options():
    for level in ("easy", "normal", "hard"):
        assert new(difficulty=level).state.summary().difficulty == level
    assert RULES.normalize_options({})["difficulty"] == "normal"
    with pytest.raises(RuleError, match="bad_difficulty"):
        new(difficulty="nightmare")
    with pytest.raises(RuleError, match="unknown_option"):
        new(colour="red")


@pytest.mark.parametrize("difficulty", ["easy", "normal", "hard"])
def test_v1_6_every_difficulty_plays_a_whole_game(difficulty):
    """Each difficulty is played whole here, so the bot's tests play one Volfyirion game, not one per level:
    the game ends with a result, both outcomes occur, and the replay of the actions reaches the same state."""
    outcomes = set()
    for seed in range(12):
        game = play_game(seed, max_actions=400, options={"difficulty": difficulty})
        assert game.state.finished and game.state.summary().difficulty == difficulty
        outcomes.add(game.state.result().to_json(VolfyirionRules.result_names)["outcome"])
        replayed = GameRecord.replay(RULES, game.options, seed, [a.to_json() for a in game.actions])
        assert replayed.state == game.state
    assert outcomes == {"won", "lost"}


# -- V-2 Actions ------------------------------------------------------------------------------------
def test_v2_1_core_actions_attack_volfyirion_wins_and_redeploy_adds_nothing():
    record = new()
    push(record, "play", card="Guard", city="Tylaris")
    size = record.state.rage_size
    step = push(record, "redeploy", troop="Guard", city="Alantar")
    assert keys(step) == ["troop_redeployed"] and record.state.rage_size == size
    assert city(record, "Alantar").troop == "Guard" and city(record, "Tylaris").troop is None
    push(record, "acquire", card="Stab")
    assert record.state.rage_size == size
    step = push(record, "win", how="attack")
    assert record.state.result().to_json() == {"outcome": "won", "length": 1, "how": "attack", "cities_left": 3}
    assert step.waiting.key == "volfyirion.waiting.finished" and step.waiting.legal == ()


def test_v2_2_put_aside_top_for_6_points_repeatable_and_subjugate():
    record = new()
    grow_pile(record, 3)
    step = push(record, "putaside", paid="battle")
    assert events(step, "unknown_put_aside") == [{"paid": "battle", "points": 6}]
    step = push(record, "putaside", paid="knowledge", card="Stab")
    assert events(step, "top_put_aside")[0]["card"] == "Stab"
    push(record, "putaside", paid="knowledge")
    assert record.state.rage_size == 0
    with pytest.raises(RuleError, match="rage_pile_empty"):
        push(record, "putaside", paid="battle")
    with pytest.raises(RuleError, match="bad_paid"):
        push(record, "putaside", paid="command")
    push(record, "win", how="subjugate")
    assert record.state.result().how == "subjugate"


def test_v2_3_no_unsealing_by_default_ruling_option_allows_it():
    def sealed_game(**options):
        record = new(**options)
        push(record, "play", card="Pure Qoam")
        attack(record, ["Hidden Cache", "Stab"])  # 2 + 0 KP: Pure Qoam (3) is not sealed
        grow_pile(record, 3)
        attack(record, ["Celethe's Law", "Qoam Ritual"])  # top Hidden Cache 2 KP + 2 KP = 4 ≥ 3
        return record

    record = sealed_game()
    assert record.state.summary().wonders[0].sealed is True
    with pytest.raises(RuleError, match="not_now"):
        push(record, "unseal", card="Pure Qoam")
    record = sealed_game(unseal=True)
    assert "unseal" in record.waiting.legal
    push(record, "unseal", card="Pure Qoam")
    assert record.state.summary().wonders[0].sealed is False
    with pytest.raises(RuleError, match="not_sealed"):
        push(record, "unseal", card="Pure Qoam")


def test_v2_4_put_aside_cards_return_with_a_new_asset_deck_removed_never():
    record = new()
    push(record, "putaside", paid="battle", card="Book of Wisdom")
    assert record.state.summary().put_aside == ("Book of Wisdom",)
    push(record, "play", card="Elite Trooper", city="Tylaris")
    push(record, "remove", card="Elite Trooper")
    assert record.state.summary().removed == ("Elite Trooper",)
    step = push(record, "refill", confirm=True)  # on turn 1 the bot's count asks for a confirmation (V-3.5)
    assert events(step, "asset_deck_refilled") == [{"count": 1}]
    assert record.state.summary().put_aside == ()
    grow_pile(record, 2)
    # Book of Wisdom is back in the deck and can be revealed; the removed Elite Trooper cannot.
    with pytest.raises(RuleError) as err:
        attack(record, ["Book of Wisdom", "Elite Trooper"])
    assert err.value.key == "volfyirion.too_many_copies" and err.value.params["card"] == "Elite Trooper"


# -- V-3 The Rage Pile ------------------------------------------------------------------------------
def test_v3_1_rage_card_at_each_turn_start_and_for_cards_that_stay():
    record = new()
    assert record.state.rage_size == 1 and "rage_card_added" in keys(record.last)
    for name, where in (("Fighter", "Tylaris"), ("Bank", "Vahylea"), ("Primal Beast", None)):
        step = push(record, "play", card=name, city=where)
        assert events(step, "rage_card_added")[-1]["size"] == record.state.rage_size
    assert record.state.rage_size == 4
    step = push(record, "end")
    assert keys(step)[-2:] == ["turn_started", "rage_card_added"] and record.state.rage_size == 5
    with pytest.raises(RuleError) as err:
        push(record, "play", card="Shrewd Deal")
    assert err.value.key == "volfyirion.command_not_recorded"
    push(record, "acquire", card="Shrewd Deal")
    assert record.state.rage_size == 5


def test_v3_2_playing_into_a_full_slot_removes_the_old_card():
    record = new()
    push(record, "play", card="Novice", city="Tylaris")
    step = push(record, "play", card="Guard", city="Tylaris")
    assert events(step, "card_replaced") == [{"card": "Novice", "new_card": "Guard", "city": "Tylaris"}]
    assert city(record, "Tylaris").troop == "Guard"
    assert record.state.summary().removed == ("Novice",)
    with pytest.raises(RuleError, match="city_needed"):
        push(record, "play", card="Bank")
    with pytest.raises(RuleError, match="wonder_takes_no_city"):
        push(record, "play", card="Pure Qoam", city="Tylaris")


def test_v3_3_top_is_oldest_and_known_after_an_attack():
    record = new()
    grow_pile(record, 2)
    attack(record, ["Strategic Attack", "Hidden Cache"])
    assert record.state.summary().rage_pile == RagePileSummary(2, "Strategic Attack")
    with pytest.raises(RuleError, match="top_is_known"):
        push(record, "putaside", paid="battle", card="Stab")
    step = push(record, "putaside", paid="battle")
    assert events(step, "top_put_aside")[0]["card"] == "Strategic Attack"
    assert record.state.summary().rage_pile == RagePileSummary(1, None)


def test_v3_4_reshuffle_moves_the_token_once():
    record = new()
    step = push(record, "reshuffle")
    assert keys(step) == ["token_to_rage_pile"] and record.state.summary().token == "rage_pile"
    with pytest.raises(RuleError, match="token_already_away"):
        push(record, "reshuffle")


# -- V-4 Volfyirion attacks -------------------------------------------------------------------------
def test_v4_1_each_revealed_troop_removes_a_troop_the_player_chooses():
    record = new()
    push(record, "play", card="Novice", city="Tylaris")
    push(record, "play", card="Guard", city="Vahylea")
    push(record, "play", card="Soldier", city="Alantar")  # pile 4
    step = attack(record, ["Fighter", "Scholar", "Barracks", "Stab"])
    assert step.waiting.key == "volfyirion.waiting.choose_troop"
    assert step.waiting.params["remaining"] == 2 and step.waiting.params["cities"] == ["Tylaris", "Vahylea", "Alantar"]
    with pytest.raises(RuleError, match="not_now"):
        push(record, "end")
    push(record, "choose", city="Vahylea")
    with pytest.raises(RuleError, match="city_not_eligible"):
        push(record, "choose", city="Vahylea")
    step = push(record, "choose", city="Alantar")
    assert step.waiting.key == "volfyirion.waiting.turn"
    assert city(record, "Tylaris").troop == "Novice"
    summary = record.state.summary()
    assert summary.removed == ("Guard", "Soldier")
    assert {"Fighter", "Scholar", "Barracks"} <= set(summary.put_aside)


def test_v4_1_not_asked_without_a_real_choice_and_extra_troops_do_nothing():
    record = new()
    push(record, "play", card="Novice", city="Tylaris")
    push(record, "play", card="Guard", city="Vahylea")
    step = attack(record, ["Fighter", "Scholar", "Soldier"])  # pile 3 = 1 + 2 plays; 3 Troops, 2 in play
    assert step.waiting.key == "volfyirion.waiting.turn"
    assert events(step, "extra_troops") == [{"count": 1}]
    assert [e["card"] for e in events(step, "troop_lost")] == ["Novice", "Guard"]
    # Said in the rules' order: the Troops in play go, then the one revealed Troop left over does nothing.
    said = keys(step)
    assert said.index("troop_lost") < said.index("extra_troops") < said.index("cards_put_aside")


def test_v4_2_a_revealed_building_with_none_in_play_is_said_after_the_troops_it_follows():
    record = new()
    push(record, "play", card="Elite Trooper", city="Tylaris")
    step = attack(record, ["Soldier", "Barracks"])  # pile 2 = 1 + 1 play; the Trooper goes, then Barracks
    said = keys(step)
    assert said.index("troop_lost") < said.index("extra_buildings")
    assert events(step, "extra_buildings") == [{"count": 1}]


def test_v4_1_extra_troops_are_said_once_even_when_a_building_is_chosen_after_them():
    record = new()
    push(record, "play", card="Bank", city="Tylaris")
    push(record, "play", card="Mint", city="Alantar")
    push(record, "play", card="Novice", city="Vahylea")  # pile 4
    step = attack(record, ["Fighter", "Soldier", "Barracks", "Stab"])  # 2 Troops for 1 in play; a Building choice
    assert step.waiting.key == "volfyirion.waiting.choose_building"
    assert keys(step)[-2:] == ["troop_lost", "extra_troops"]
    step = push(record, "choose", city="Tylaris")
    assert "extra_troops" not in keys(step) and events(step, "building_lost") == [{"card": "Bank", "city": "Tylaris"}]


def test_v4_2_each_revealed_building_removes_a_building():
    record = new()
    push(record, "play", card="Bank", city="Tylaris")
    push(record, "play", card="Mint", city="Alantar")
    step = attack(record, ["Barracks", "Soldier", "Stab"])
    assert step.waiting.key == "volfyirion.waiting.choose_building" and step.waiting.params["remaining"] == 1
    step = push(record, "choose", city="Alantar")
    assert events(step, "building_lost") == [{"card": "Mint", "city": "Alantar"}]
    assert city(record, "Tylaris").building == "Bank" and city(record, "Alantar").building is None


def test_v4_3_attack_is_command_costs_plus_one_per_destroyed_city_plus_d_by_default():
    record = new(difficulty="hard")  # bonus flat, the default: d = 2
    grow_pile(record, 3)
    step = attack(record, ["Book of Wisdom", "Qoam Ritual", "Soldier"])
    # costs 8 + 1 = 9; no city destroyed yet; + d 2 = 11: Alantar (10) falls, 1 left over (< 8).
    assert attack_line(step) == ("attack_flat_no_city", {"attack": 11, "costs": 9, "bonus": 2, "destroyed_before": 0,
                                                         "d": 2, "difficulty": "hard"})
    assert [e["city"] for e in events(step, "city_destroyed")] == ["Alantar"]
    grow_pile(record, 3)
    step = attack(record, ["Stab", "Barter"])
    # top Book of Wisdom 8 + Stab 1 + Barter 1 = 10; + 1 for the one destroyed city + d 2 = 13:
    # Vahylea (9) falls, 4 left < 8: Tylaris stands.
    assert attack_line(step) == ("attack_flat", {"attack": 13, "costs": 10, "bonus": 3, "destroyed_before": 1,
                                                 "d": 2, "difficulty": "hard"})
    assert [e["city"] for e in events(step, "city_destroyed")] == ["Vahylea"]


def test_v4_3_per_city_option_is_costs_plus_d_per_destroyed_city():
    record = new(difficulty="hard", bonus="per_city")
    grow_pile(record, 3)
    step = attack(record, ["Book of Wisdom", "Qoam Ritual", "Soldier"])
    # costs 8 + 1 = 9; 2 × 0 destroyed cities = 0: 9, Vahylea (9) falls.
    assert attack_line(step) == ("attack_per_city_no_city", {"attack": 9, "costs": 9, "bonus": 0,
                                                             "destroyed_before": 0, "d": 2, "difficulty": "hard"})
    grow_pile(record, 3)
    step = attack(record, ["Stab", "Barter"])
    # top Book of Wisdom 8 + 1 + 1 = 10; + 2 × 1 destroyed city = 12: Alantar (10) falls, 2 left.
    assert attack_line(step) == ("attack_per_city", {"attack": 12, "costs": 10, "bonus": 2, "destroyed_before": 1,
                                                     "d": 2, "difficulty": "hard"})
    assert [e["city"] for e in events(step, "city_destroyed")] == ["Alantar"]


def test_v4_3_no_command_card_no_attack_whatever_the_cities():
    record = new(difficulty="hard")
    grow_pile(record, 2)
    attack(record, ["Sabotage", "Sabotage"])  # 5 + 5 + d 2 = 12: Alantar falls
    push(record, "putaside", paid="battle")  # the kept Sabotage leaves
    step = attack(record, ["Soldier"])
    assert "no_command_cards" in keys(step) and attack_line(step) is None
    assert record.state.summary().rage_pile == RagePileSummary(1, None)


def test_v4_4_highest_payable_defence_falls_repeatedly_troops_add_defence():
    record = new(difficulty="easy")
    push(record, "play", card="Elite Trooper", city="Tylaris")  # 8 + 6 = 14
    push(record, "play", card="Bank", city="Tylaris")
    grow_pile(record, 5)
    step = attack(record, ["Book of Wisdom", "Endless Tactic", "Qoam Vein", "Stab", "Barracks"])
    # attack 8 + 8 + 7 + 1 = 24 (one Building revealed: Bank goes first): 14 (Tylaris), then 10 (Alantar).
    fallen = events(step, "city_destroyed")
    assert [(e["city"], e["defence"], e["attack_before"], e["attack_after"]) for e in fallen] == [
        ("Tylaris", 14, 24, 10), ("Alantar", 10, 10, 0)]
    assert fallen[0]["troop_defence"] == 6 and fallen[0]["printed"] == 8
    assert city(record, "Tylaris") == CitySummary("Tylaris", 8, destroyed=True, troop=None, building=None)
    assert "Elite Trooper" in record.state.summary().removed


def test_v4_4_engine_ruling_equal_defences_higher_printed_falls_first():
    record = new(difficulty="easy")
    push(record, "play", card="Fighter", city="Tylaris")  # 8 + 2 = 10, like Alantar
    step = attack(record, ["Sabotage", "Sabotage"])  # 10: Alantar (printed 10) rather than Tylaris
    assert [e["city"] for e in events(step, "city_destroyed")] == ["Alantar"]
    assert city(record, "Tylaris").troop == "Fighter"


def test_v4_5_last_city_falling_loses_at_once():
    record = new(difficulty="easy")
    push(record, "play", card="Sibilant Crystal")
    grow_pile(record, 5)
    step = attack(record, ["Book of Wisdom", "Endless Tactic", "Qoam Vein", "Alchemic Key", "Sabotage"])
    # 8 + 8 + 7 + 7 + 5 = 35 ≥ 10 + 9 + 8 + …: every city falls; no sealing follows.
    assert keys(step)[-1] == "lost" and not events(step, "wonder_sealed")
    assert record.state.result().to_json() == {"outcome": "lost", "length": record.state.turn, "how": "cities_destroyed", "cities_left": 0}
    assert record.state.finished and record.waiting.legal == ()
    with pytest.raises(RuleError):
        push(record, "end")


def test_v4_6_knowledge_seals_wonders_most_expensive_first_ruling_skip_and_play_order():
    record = new(difficulty="easy")
    for wonder in ("Strange Box", "Primal Beast", "Sibilant Crystal", "Divining Petals"):
        push(record, "play", card=wonder)  # costs 3, 4, 3, 2; pile 5
    step = attack(record, ["Book of Wisdom", "Alchemic Key", "Stab", "Barter", "Soldier"])  # 5 + 3 = 8 KP
    sealed = events(step, "wonder_sealed")
    # 8: Primal Beast (4) → 4; Strange Box (3, played before Sibilant Crystal) → 1; 3 skipped; Petals (2) skipped.
    assert [(e["card"], e["kp_before"], e["kp_after"]) for e in sealed] == [("Primal Beast", 8, 4),
                                                                              ("Strange Box", 4, 1)]
    assert events(step, "knowledge_left_over") == [{"points": 1}]
    record2 = new(difficulty="easy")
    push(record2, "play", card="Void Fluid")
    push(record2, "play", card="Divining Petals")
    step = attack(record2, ["Hidden Cache", "Qoam Ritual", "Fighter"])  # 2 KP: Void Fluid (4) skipped, Petals (2) sealed
    assert [e["card"] for e in events(step, "wonder_sealed")] == ["Divining Petals"]


def test_v4_7_highest_cost_command_is_kept_face_up_ruling_ties():
    record = new(difficulty="easy")
    grow_pile(record, 3)
    step = attack(record, ["Shrewd Deal", "Strategic Attack", "Sabotage"])  # all cost 5; KP 1, 0, 0
    assert events(step, "command_kept")[0]["card"] == "Shrewd Deal"
    assert record.state.summary().rage_pile.top == "Shrewd Deal"
    record = new(difficulty="easy")
    grow_pile(record, 2)
    step = attack(record, ["Strategic Attack", "Sabotage"])  # cost 5, KP 0 both: name order
    assert events(step, "command_kept")[0]["card"] == "Sabotage"
    assert events(step, "cards_put_aside")[-1]["cards"] == ["Strategic Attack"]


def test_v4_8_token_returns_and_the_next_turn_begins():
    record = new()
    grow_pile(record, 2)
    turn = record.state.turn
    step = attack(record, ["Stab", "Stab"])
    assert keys(step)[-3:] == ["token_returned", "turn_started", "rage_card_added"]
    assert record.state.turn == turn + 1 and record.state.summary().token == "lair"


def test_v4_9_empty_rage_pile_only_returns_the_token():
    record = new()
    push(record, "putaside", paid="battle")
    push(record, "reshuffle")
    step = push(record, "end")
    assert keys(step) == ["turn_ended", "empty_rage_pile", "token_returned", "turn_started", "rage_card_added"]


def _v4_10_worked_example(**options):
    """V-4.10: cities 8 (Elite Trooper), 9, 10; Sibilant Crystal in play; the pile reveals a Troop,
    Barracks, Shrewd Deal (5, 1 KP) and Feasible Solution (4, 2 KP)."""
    record = new(**options)
    push(record, "play", card="Elite Trooper", city="Tylaris")
    push(record, "play", card="Sibilant Crystal")
    grow_pile(record, 4)
    step = attack(record, ["Novice", "Barracks", "Shrewd Deal", "Feasible Solution"])
    assert events(step, "troop_lost") == [{"card": "Elite Trooper", "city": "Tylaris"}]
    assert events(step, "extra_buildings") == [{"count": 1}]
    assert events(step, "wonder_sealed") == [{"card": "Sibilant Crystal", "cost": 3, "kp_before": 3, "kp_after": 0}]
    assert events(step, "command_kept")[0]["card"] == "Shrewd Deal"
    summary = record.state.summary()
    assert set(summary.put_aside) == {"Feasible Solution", "Novice", "Barracks"}
    assert summary.rage_pile == RagePileSummary(2, "Shrewd Deal")  # + the new turn's card
    assert summary.wonders == (WonderSummary("Sibilant Crystal", 3, True),)
    assert city(record, "Tylaris").troop is None
    return record, step


def test_v4_10_worked_example_on_easy_destroys_the_9_city():
    record, step = _v4_10_worked_example(difficulty="easy")
    # 5 + 4 = 9, no city destroyed yet, easy adds 0: 9 pays for the 8 or the 9 city and takes the 9.
    assert attack_line(step) == ("attack_flat_easy_no_city", {"attack": 9, "costs": 9, "bonus": 0,
                                                              "destroyed_before": 0, "d": 0, "difficulty": "easy"})
    fallen = events(step, "city_destroyed")
    assert [(e["city"], e["defence"], e["attack_after"]) for e in fallen] == [("Vahylea", 9, 0)]
    assert not city(record, "Tylaris").destroyed and not city(record, "Alantar").destroyed


def test_v4_10_worked_example_on_normal_flat_destroys_the_10_city():
    record, step = _v4_10_worked_example(difficulty="normal")  # bonus flat, the default
    # 5 + 4 = 9, no city destroyed yet, + d 1 (normal) = 10: the 10 city falls, nothing left for the others.
    assert attack_line(step) == ("attack_flat_no_city", {"attack": 10, "costs": 9, "bonus": 1,
                                                         "destroyed_before": 0, "d": 1, "difficulty": "normal"})
    fallen = events(step, "city_destroyed")
    assert [(e["city"], e["defence"], e["attack_after"]) for e in fallen] == [("Alantar", 10, 0)]
    assert not city(record, "Tylaris").destroyed and not city(record, "Vahylea").destroyed


def test_v4_10_worked_example_on_normal_per_city_is_the_rulebooks_9():
    _record, step = _v4_10_worked_example(difficulty="normal", bonus="per_city")
    # 5 + 4 = 9; 1 × 0 destroyed cities: 9, the 9 city falls as in the English rulebook.
    assert attack_line(step)[1]["attack"] == 9
    assert [e["city"] for e in events(step, "city_destroyed")] == ["Vahylea"]


# -- V-5 End of the game and difficulty ------------------------------------------------------------
def test_v5_1_win_at_once_by_attack_or_subjugation():
    record = new()
    push(record, "end")  # turn 2: the player may have drawn what they acquired
    step = push(record, "win", how="subjugate")
    assert keys(step) == ["won_subjugate"] and record.state.finished
    assert record.state.result().to_json() == {"outcome": "won", "length": 2, "how": "subjugate", "cities_left": 3}
    with pytest.raises(RuleError, match="bad_how"):
        push(new(), "win", how="bribe")


@pytest.mark.parametrize("how", ["attack", "subjugate"])
def test_v5_1_a_win_on_turn_1_with_the_starting_deck_is_refused(how):
    record = new()
    before = record.state.to_json()
    with pytest.raises(RuleError) as err:
        push(record, "win", how=how)
    # 8 Prospectors (0 BP, 0 KP), 1 Captain (3 BP), 1 Diviner (3 KP): at most 3 and 3 of the 16 points.
    assert err.value.key == "volfyirion.win_impossible_turn_1"
    assert err.value.params == {"battle": 3, "knowledge": 3, "points": 16}
    assert record.state.to_json() == before and record.ply == 0
    # Once a card beyond the starting deck is known (here a Wonder bought from the Lair), the bot no longer knows.
    push(record, "play", card="Sibilant Crystal")
    push(record, "win", how=how)
    assert record.state.result().length == 1


def test_v5_2_loss_when_all_three_cities_are_destroyed_over_several_attacks():
    record = new(difficulty="easy")  # bonus flat: costs + 1 per destroyed city + 0
    grow_pile(record, 2)
    attack(record, ["Book of Wisdom", "Qoam Ritual"])  # 8 + 1 = 9 → Vahylea (9)
    assert record.state.result() is None
    push(record, "putaside", paid="battle")  # the kept Book of Wisdom leaves
    attack(record, ["Stab"])  # Stab 1 + 1 destroyed = 2: nothing falls
    attack(record, ["Sabotage"])  # top Stab 1 + Sabotage 5 + 1 = 7 < 8: nothing falls
    assert [c.destroyed for c in record.state.summary().cities] == [False, True, False]
    step = attack(record, ["Alchemic Key"])  # top Sabotage 5 + 7 + 1 = 13 → Alantar (10), 3 left < 8
    assert [e["city"] for e in events(step, "city_destroyed")] == ["Alantar"] and record.state.result() is None
    step = attack(record, ["Barter"])  # top Alchemic Key 7 + 1 + 2 destroyed = 10 → Tylaris (8): the last city
    assert attack_line(step)[1]["attack"] == 10
    assert record.state.result().outcome == "lost" and keys(step)[-1] == "lost"


@pytest.mark.parametrize("difficulty, bonus, first, second, line", [
    # first attack: Book of Wisdom 8 + Stab 1 = 9, no city destroyed yet; second: Book of Wisdom 8, one destroyed.
    ("easy", "flat", 9, 8 + 1 + 0, "attack_flat_easy"),
    ("normal", "flat", 9 + 1, 8 + 1 + 1, "attack_flat"),
    ("hard", "flat", 9 + 2, 8 + 1 + 2, "attack_flat"),
    ("easy", "per_city", 9, 8 + 0 * 1, "attack_per_city_easy"),
    ("normal", "per_city", 9, 8 + 1 * 1, "attack_per_city"),
    ("hard", "per_city", 9, 8 + 2 * 1, "attack_per_city"),
])
def test_v5_3_difficulty_flat_by_default_or_per_destroyed_city(difficulty, bonus, first, second, line):
    record = new(difficulty=difficulty, bonus=bonus)
    assert record.state.summary().bonus == bonus and record.options["bonus"] == bonus
    d = {"easy": 0, "normal": 1, "hard": 2}[difficulty]
    setup = [e for e in record.last.events if e.key.startswith("volfyirion.event.setup_difficulty")]
    suffix = bonus + ("_easy" if d == 0 else "")
    assert [(e.key, e.params) for e in setup] == [(f"volfyirion.event.setup_difficulty_{suffix}",
                                                   {"difficulty": difficulty, "bonus": bonus, "d": d})]
    grow_pile(record, 2)
    step = attack(record, ["Book of Wisdom", "Stab"])  # 9, 10 or 11: exactly one city falls whatever the reading
    assert attack_line(step)[1]["attack"] == first
    assert sum(c.destroyed for c in record.state.summary().cities) == 1
    step = attack(record, ["Soldier"])  # the known Book of Wisdom (8) is the only Command card
    assert attack_line(step) == (line, {"attack": second, "costs": 8, "bonus": second - 8, "destroyed_before": 1,
                                        "d": d, "difficulty": difficulty})


def test_v5_3_games_recorded_with_official_replay_as_per_city():
    """A game stored before the readings were renamed ("official") replays unchanged: costs + d per city."""
    old = GameRecord.replay(RULES, {"difficulty": "hard", "bonus": "official"}, 7,
                            [{"type": "end"}, {"type": "reshuffle"}, {"type": "end"},
                             {"type": "reveal", "cards": ["Sabotage", "Sabotage"]},
                             {"type": "reshuffle"}, {"type": "end"}, {"type": "reveal", "cards": ["Stab"]}])
    assert old.options["bonus"] == "per_city" and old.state.summary().bonus == "per_city"
    # 5 + 5 + 2 × 0 = 10: Alantar falls; then top Sabotage 5 + Stab 1 + 2 × 1 = 8: Tylaris falls.
    assert [c.destroyed for c in old.state.summary().cities] == [True, False, True]
    assert attack_line(old.last)[1] == {"attack": 8, "costs": 6, "bonus": 2, "destroyed_before": 1, "d": 2,
                                        "difficulty": "hard"}


# -- V-6 What the bot knows and asks -------------------------------------------------------------
def test_v6_reveal_is_checked_against_the_solo_asset_deck():
    record = new()
    push(record, "play", card="Elite Trooper", city="Tylaris")
    push(record, "reshuffle")
    step = push(record, "end")
    assert step.waiting.key == "volfyirion.waiting.reveal" and step.waiting.params == {"count": 2}
    for cards, key in ((["Stab"], "reveal_count"), (["Stab", "Stab", "Stab"], "reveal_count"),
                       (["Stab", "Pure Qoam"], "not_in_asset_deck"),
                       (["Stab", "Elite Trooper"], "too_many_copies"),
                       (["Alchemic Key", "Alchemic Key"], "too_many_copies"),
                       (["Stab", "Shrood Dael"], "unknown_card"),
                       (["Stab", "stab"], "unknown_card")):  # ids only: the bot reads what was typed
        with pytest.raises(RuleError) as err:
            push(record, "reveal", cards=cards)
        assert err.value.key == f"volfyirion.{key}"
    with pytest.raises(RuleError) as err:
        push(record, "reveal", cards=["Stab", "Shrood Dael"])
    assert "Shrewd Deal" in err.value.params["suggestions"]
    with pytest.raises(RuleError) as err:
        push(record, "reveal", cards=["Alchemic Key", "Alchemic Key"])
    assert err.value.params == {"card": "Alchemic Key", "count": 2, "available": 1, "qty": 1}
    with pytest.raises(RuleError) as err:
        push(record, "reveal", cards="Stab, Decisive Strike")  # a typed list: the bot splits and reads it
    assert err.value.key == "volfyirion.reveal_count"
    step = push(record, "reveal", cards=["Stab", "Decisive Strike"])
    assert events(step, "revealed") == [{"cards": ["Stab", "Decisive Strike"]}]


def test_v6_known_top_card_is_counted_in_the_reveal():
    record = new(difficulty="easy")
    grow_pile(record, 2)
    attack(record, ["Book of Wisdom", "Stab"])
    push(record, "reshuffle")
    step = push(record, "end")
    assert step.waiting.params == {"count": 1}
    with pytest.raises(RuleError, match="too_many_copies"):
        push(record, "reveal", cards=["Book of Wisdom"])
    step = push(record, "reveal", cards=["Barter"])
    assert events(step, "revealed") == [{"cards": ["Book of Wisdom", "Barter"]}]


def test_v6_copy_limits_for_play_and_acquire():
    record = new()
    push(record, "play", card="Elite Trooper", city="Tylaris")
    with pytest.raises(RuleError) as err:
        push(record, "play", card="Elite Trooper", city="Vahylea")
    assert err.value.key == "volfyirion.too_many_copies" and err.value.params["card"] == "Elite Trooper"
    push(record, "acquire", card="Book of Wisdom")
    with pytest.raises(RuleError, match="too_many_copies"):
        push(record, "acquire", card="Book of Wisdom")


def test_unknown_action_and_not_now_are_refused_without_change():
    record = new()
    before = record.state.to_json()
    with pytest.raises(RuleError, match="unknown_action"):
        push(record, "fly")
    with pytest.raises(RuleError, match="not_now"):
        push(record, "reveal", cards=[])
    with pytest.raises(RuleError, match="not_now"):
        record.push(Action("choose", city="Tylaris"))
    assert record.state.to_json() == before and record.ply == 0
