"""The contract the bot relies on: exports, option records, summary and result shapes, lookups."""

from __future__ import annotations

import json

import pytest
from volfyirion_helpers import events, new, push

from engine import data
from engine.core import Catalog, RuleError
from engine.volfyirion import CATALOG, RULES, card_named, danger, resolve_cities
from engine.volfyirion.summary import (
    BonusReading,
    CityEnding,
    CitySummary,
    Difficulty,
    Ending,
    How,
    Outcome,
    Phase,
    Place,
    RagePileSummary,
    SoloRole,
    Token,
    VolfyirionSummary,
    WonderSummary,
    solo_role,
)


def test_exports_and_rules_protocol():
    assert RULES.game == "volfyirion" and isinstance(RULES.version, int)
    assert isinstance(CATALOG, Catalog) and len(CATALOG) == len(data.load("volfyirion_cards"))
    assert callable(danger)
    step = RULES.new_game({}, 1)
    assert step.waiting.key == "volfyirion.waiting.turn"
    assert {"play", "remove", "redeploy", "reshuffle", "putaside", "end", "win"} <= set(step.waiting.legal)
    assert RULES.state_from_json(step.state.to_json()) == step.state


def test_catalog_ids_are_english_names_and_lookup_forgives():
    assert CATALOG.lookup("shrewd deal").name == "Shrewd Deal"
    assert CATALOG.lookup("ＳＨＲＥＷＤ　ＤＥＡＬ").name == "Shrewd Deal"
    assert CATALOG.lookup("celethes law").name == "Celethe's Law"
    # One typo, or a part of one name, is read as the one card it fits; two typos are refused with suggestions.
    assert CATALOG.lookup("Shrewd Dael").name == "Shrewd Deal"
    assert card_named("Elite Troper").name == "Elite Trooper"  # what the bot reads before apply
    with pytest.raises(RuleError) as err:
        CATALOG.lookup("Shrood Dael")
    assert "Shrewd Deal" in err.value.params["suggestions"]
    with pytest.raises(RuleError) as err:
        card_named("Elite Tropr")
    assert err.value.key == "volfyirion.unknown_card" and "Elite Trooper" in err.value.params["suggestions"]
    # apply takes the card ids only: any other spelling is refused with the same suggestions, never read.
    for typed in ("Elite Troper", "elite trooper"):
        with pytest.raises(RuleError) as err:
            push(new(), "play", card=typed, city="Tylaris")
        assert err.value.key == "volfyirion.unknown_card" and err.value.params["suggestions"][0] == "Elite Trooper"


def test_options_are_normalised_and_recorded():
    opts = RULES.normalize_options({"difficulty": "hard", "bonus": "flat", "cities": resolve_cities("kyr, yrdesh, Vahylea")})
    assert opts == {"difficulty": "hard", "bonus": "flat", "cities": ["Yrdesh", "Vahylea", "Kyr"], "unseal": False,
                    "edition": 3}
    # V-5.3: the original's formula is the default; games recorded with "official" replay as per_city.
    assert RULES.normalize_options({}) == {"difficulty": "normal", "bonus": "flat",
                                           "cities": ["Tylaris", "Vahylea", "Alantar"], "unseal": False,
                                           "edition": 3}
    assert RULES.normalize_options({"bonus": "official"})["bonus"] == "per_city"
    # V-3.5: a game recorded before the Asset Deck was counted keeps its edition 1.
    assert RULES.normalize_options({"edition": 1})["edition"] == 1
    assert RULES.normalize_options({"edition": 2})["edition"] == 2  # before the House Deck's count was corrected
    # The options are codes and city names: the bot reads what was typed (its choices, ``resolve_cities``).
    for bad, key in (({"bonus": "double"}, "bad_bonus"), ({"unseal": "yes"}, "bad_unseal"),
                     ({"bonus": "Per_City"}, "bad_bonus"), ({"difficulty": "HARD"}, "bad_difficulty"),
                     ({"cities": "kyr, yrdesh, Vahylea"}, "cities_count"),
                     ({"cities": ["kyr", "Yrdesh", "Vahylea"]}, "unknown_city"),
                     ({"edition": 4}, "bad_edition"), ({"edition": True}, "bad_edition")):
        with pytest.raises(RuleError) as err:
            RULES.normalize_options(bad)
        assert err.value.key == f"volfyirion.{key}"


def test_summary_and_result_shapes():
    record = new()
    push(record, "play", card="Guard", city="Tylaris")
    push(record, "play", card="Pure Qoam")
    summary = record.state.summary()
    assert summary.cities[0] == CitySummary("Tylaris", 8, destroyed=False, troop="Guard", building=None,
                                            troop_defence=CATALOG["Guard"].defence)
    assert summary.cities[0].defence_now == 8 + CATALOG["Guard"].defence  # V-4.4
    assert summary.rage_pile == RagePileSummary(3, None) and summary.token is Token.LAIR
    assert summary.wonders == (WonderSummary("Pure Qoam", 3, False),)
    assert (summary.difficulty, summary.bonus, summary.phase) == (Difficulty.NORMAL, BonusReading.FLAT, Phase.TURN)
    assert record.state.result() is None and not record.state.finished
    push(record, "win", how="attack")
    result = record.state.result()
    assert result.to_json() == {"outcome": "won", "length": 1, "how": "attack", "cities_left": 3}
    assert result.breakdown == Ending(Outcome.WON, How.ATTACK, 1, 3,
                                      tuple(CityEnding(c.name, False) for c in summary.cities))


def test_summary_json_is_the_exports_state_and_reads_back():
    """``/game export``'s ``state``: the same fields as ever, JSON values only, read back to the same summary."""
    record = new()
    push(record, "play", card="Guard", city="Tylaris")
    push(record, "play", card="Pure Qoam")
    summary = record.state.summary()
    data = json.loads(json.dumps(summary.to_json()))
    assert set(data) == {"turn", "difficulty", "bonus", "cities", "rage_pile", "token", "wonders", "put_aside",
                         "put_aside_unknown", "removed", "acquired", "phase", "cities_left"}
    assert data["cities"][0] == {"name": "Tylaris", "defence": 8, "destroyed": False, "troop": "Guard",
                                 "building": None}
    assert data["rage_pile"] == {"size": 3, "top": None} and data["token"] == "lair"
    assert data["wonders"] == [{"name": "Pure Qoam", "cost": 3, "sealed": False}]
    assert VolfyirionSummary.from_json(data) == summary


def test_v1_2_solo_role_and_whereabouts_of_a_card():
    """The card lookup's rules come from the engine: a card that moves Volfyirion is out of the solo game
    (V-1.2); the copies are counted where the bot knows them to be (V-6)."""
    moving = next(c for c in CATALOG if c.moves_volfyirion)
    assert solo_role(moving) is SoloRole.REMOVED and solo_role(CATALOG["Guard"]) is SoloRole.TROOP
    record = new()
    push(record, "play", card="Guard", city="Tylaris")
    push(record, "play", card="Guard", city="Alantar")
    found = record.state.summary().whereabouts("Guard", CATALOG["Guard"].qty)
    assert found.places == ((Place.CITY, 1, "Tylaris"), (Place.CITY, 1, "Alantar"))
    assert found.unseen == CATALOG["Guard"].qty - 2
    assert record.state.summary().whereabouts("Tylaris", 1).places == ((Place.YOUR_CITY, 1, None),)


def test_remove_needs_the_city_when_the_card_stands_in_two():
    record = new()
    push(record, "play", card="Guard", city="Tylaris")
    push(record, "play", card="Guard", city="Alantar")
    with pytest.raises(RuleError) as err:
        push(record, "remove", card="Guard")
    assert err.value.key == "volfyirion.which_city"
    step = push(record, "remove", card="Guard", city="Alantar")
    assert events(step, "card_removed_reported") == [{"card": "Guard", "city": "Alantar"}]
    with pytest.raises(RuleError, match="not_in_play"):
        push(record, "remove", card="Guard", city="Alantar")
    push(record, "play", card="Pure Qoam")
    push(record, "remove", card="Pure Qoam")
    assert record.state.summary().wonders == ()


def test_events_of_new_game_are_the_setup_checklist_then_turn_one():
    step = RULES.new_game({"cities": ["Yrdesh", "Akao Uket", "Kyr"]}, 3)
    names = [e.key.rsplit(".", 1)[-1] for e in step.events]
    assert names == ["setup_cities", "setup_remove", "setup_decks", "setup_asset_row", "setup_lair",
                     "setup_house_deck", "setup_token", "setup_difficulty_flat", "turn_started", "rage_card_added"]
    assert step.events[0].params == {"city8": "Yrdesh", "city9": "Akao Uket", "city10": "Kyr"}


def test_state_from_json_refuses_other_versions_and_shapes():
    data = RULES.new_game({}, 1).state.to_json()
    with pytest.raises(RuleError, match="state_version"):
        RULES.state_from_json({**data, "version": 99})
    with pytest.raises(RuleError, match="state_version"):
        RULES.state_from_json({**data, "mystery": 1})
