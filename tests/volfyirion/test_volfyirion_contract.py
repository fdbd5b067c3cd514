"""The contract the bot relies on: exports, option records, summary and result shapes, lookups."""

from __future__ import annotations

import pytest
from volfyirion_helpers import events, new, push

from engine import data
from engine.core import Catalog, RuleError
from engine.volfyirion import CATALOG, RULES, card_named, danger, resolve_cities


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
                    "edition": 2}
    # V-5.3: the original's formula is the default; games recorded with "official" replay as per_city.
    assert RULES.normalize_options({}) == {"difficulty": "normal", "bonus": "flat",
                                           "cities": ["Tylaris", "Vahylea", "Alantar"], "unseal": False,
                                           "edition": 2}
    assert RULES.normalize_options({"bonus": "official"})["bonus"] == "per_city"
    # V-3.5: a game recorded before the Asset Deck was counted keeps its edition 1.
    assert RULES.normalize_options({"edition": 1})["edition"] == 1
    # The options are codes and city names: the bot reads what was typed (its choices, ``resolve_cities``).
    for bad, key in (({"bonus": "double"}, "bad_bonus"), ({"unseal": "yes"}, "bad_unseal"),
                     ({"bonus": "Per_City"}, "bad_bonus"), ({"difficulty": "HARD"}, "bad_difficulty"),
                     ({"cities": "kyr, yrdesh, Vahylea"}, "cities_count"),
                     ({"cities": ["kyr", "Yrdesh", "Vahylea"]}, "unknown_city"),
                     ({"edition": 3}, "bad_edition"), ({"edition": True}, "bad_edition")):
        with pytest.raises(RuleError) as err:
            RULES.normalize_options(bad)
        assert err.value.key == f"volfyirion.{key}"


def test_summary_and_result_shapes():
    record = new()
    push(record, "play", card="Guard", city="Tylaris")
    push(record, "play", card="Pure Qoam")
    summary = record.state.summary()
    assert {"turn", "difficulty", "bonus", "cities", "rage_pile", "token", "wonders", "put_aside",
            "removed"} <= set(summary)
    assert set(summary["cities"][0]) == {"name", "defence", "destroyed", "troop", "building"}
    assert summary["cities"][0]["troop"] == "Guard" and summary["cities"][0]["defence"] == 8
    assert summary["rage_pile"] == {"size": 3, "top": None} and summary["token"] == "lair"
    assert summary["wonders"] == [{"name": "Pure Qoam", "cost": 3, "sealed": False}]
    assert record.state.result() is None and not record.state.finished
    push(record, "win", how="attack")
    assert record.state.result().to_json() == {"outcome": "won", "length": 1, "how": "attack", "cities_left": 3}


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
    assert record.state.summary()["wonders"] == []


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
