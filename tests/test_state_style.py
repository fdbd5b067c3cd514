"""One style for the games' states: a slots dataclass cloned by ``clone``; stored JSON loads as before."""

from __future__ import annotations

import dataclasses
import json

import pytest

from engine.core import Action
from engine.seasons import RULES as SEASONS
from engine.seasons import SeasonsState
from engine.volfyirion import RULES as VOLFYIRION
from engine.volfyirion import VolfState

# States as the release before this change stored them (snapshots in the `snapshots` table).
SEASONS_STORED = (
    '{"version": 1, "game": "seasons", "difficulty": "apprentice", "dice": "table", "year": 2, "month": 7, '
    '"rng": 16390740445785211216, "chosen": {"winter": [3, 4], "spring": [1, 2], "summer": [1, 4], '
    '"autumn": [1, 2]}, "crystals": 44, "hand_size": 5, "hand_known": [], "summoned": ["8", "19", "2", "27", '
    '"7"], "discards": [], "player_area": [], "rolled": null, "queue": [["season_triggers"]], '
    '"wait_key": "seasons.waiting.reveal_hand", "wait_params": {"count": 1}, "payments": [], "over": false, '
    '"round": 10, "player_score": null, "outcome": null, "edition": 2, "taken": null, "round_season": null, '
    '"top_year": 2, "past_end": false, "kairn_used": 0}'
)
EDITION_2_FIELDS = ("edition", "taken", "round_season", "top_year", "past_end", "kairn_used")
# Before V-3.5 counted the Asset Deck: no edition in the options, no ``deck``.
VOLFYIRION_STORED_EDITION_1 = (
    '{"version": 1, "options": {"difficulty": "hard", "bonus": "flat", "cities": ["Tylaris", "Vahylea", '
    '"Alantar"], "unseal": false}, "turn": 3, "cities": [{"name": "Tylaris", "defence": 8, "destroyed": true, '
    '"troop": null, "building": null}, {"name": "Vahylea", "defence": 9, "destroyed": false, "troop": null, '
    '"building": null}, {"name": "Alantar", "defence": 10, "destroyed": false, "troop": null, '
    '"building": "War Academy"}], "rage_size": 2, "rage_top": "Sabotage", "token": "rage_pile", "wonders": [], '
    '"owned": [], "put_aside": ["Elite Trooper", "Novice", "Soldier", "Qoam Ritual"], "put_aside_unknown": 0, '
    '"removed": ["Library", "Qoamipulator"], "phase": "turn", "pending": null, "outcome": null, "added": 7, '
    '"taken": 5}'
)
VOLFYIRION_STORED = VOLFYIRION_STORED_EDITION_1.replace('"unseal": false}', '"unseal": false, "edition": 2}').replace(
    '"taken": 5}', '"taken": 5, "deck": 40}')


@pytest.mark.parametrize("cls", [SeasonsState, VolfState])
def test_both_states_are_slots_dataclasses_cloned_by_clone(cls):
    assert dataclasses.is_dataclass(cls) and "__slots__" in cls.__dict__
    assert callable(cls.clone) and not hasattr(cls, "copy")


@pytest.mark.parametrize(("cls", "stored"), [(SeasonsState, SEASONS_STORED), (VolfState, VOLFYIRION_STORED)])
def test_stored_states_load_and_write_back_the_same_json(cls, stored):
    data = json.loads(stored)
    state = cls.from_json(data)
    assert json.dumps(state.to_json()) == stored
    assert state.clone() == state and state.clone() is not state


def test_a_first_release_seasons_state_loads_with_the_edition_1_defaults():
    data = {k: v for k, v in json.loads(SEASONS_STORED).items() if k not in EDITION_2_FIELDS}
    state = SeasonsState.from_json(data)
    assert (state.edition, state.taken, state.past_end, state.kairn_used) == (1, None, False, 0)
    assert state.to_json() == {**data, "edition": 1, "taken": None, "round_season": None, "top_year": None,
                               "past_end": False, "kairn_used": 0}


def test_v3_5_a_volfyirion_state_stored_before_the_deck_was_counted_loads_as_edition_1():
    data = json.loads(VOLFYIRION_STORED_EDITION_1)
    state = VolfState.from_json(data)
    assert state.options["edition"] == 1 and state.deck is None
    assert state.to_json() == {**data, "options": {**data["options"], "edition": 1}, "deck": None}
    assert VOLFYIRION.apply(state, Action("end")).state.deck is None  # it plays on uncounted, as it was played


@pytest.mark.parametrize(("rules", "cls", "stored", "action"), [
    (SEASONS, SeasonsState, SEASONS_STORED, Action("reveal", cards=["16"])),
    (VOLFYIRION, VolfState, VOLFYIRION_STORED, Action("end")),
])
def test_a_loaded_state_plays_on_and_is_never_changed_by_the_rules(rules, cls, stored, action):
    state = cls.from_json(json.loads(stored))
    step = rules.apply(state, action)
    assert json.dumps(state.to_json()) == stored  # apply cloned it
    assert step.state.to_json() != state.to_json()
    assert rules.apply(cls.from_json(json.loads(stored)), action).state == step.state
