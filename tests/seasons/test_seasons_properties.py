"""Properties over random games (engine/seasons/autoplay.py), both dice modes, all difficulties."""

from __future__ import annotations

import json

from hypothesis import given, settings
from hypothesis import strategies as st

from engine.core import GameRecord
from engine.seasons import RULES
from engine.seasons.autoplay import play_game

games = st.tuples(st.sampled_from(["apprentice", "wizard", "archmage"]), st.sampled_from(["table", "bot"]),
                  st.integers(min_value=0, max_value=2**32))


@settings(max_examples=30, deadline=None)
@given(games)
def test_crystals_and_hand_never_negative(game):
    _, steps = play_game(*game)
    for step in steps:
        assert step.state.crystals >= 0 and step.state.hand_size >= 0
        assert step.state.hand_size >= len(step.state.hand_known)


@settings(max_examples=30, deadline=None)
@given(games)
def test_every_game_ends_after_year_three_with_the_last_summon(game):
    actions, steps = play_game(*game)
    final = steps[-1].state
    assert final.finished and final.over and final.year == 3 and final.result() is not None
    events = [e.key.removeprefix("seasons.event.") for s in steps for e in s.events]
    end = events.index("year_three_over")
    assert {"draw_from_hand", "hand_empty"} & set(events[end:])
    assert "new_year" not in events[end:]
    assert events.count("new_year") >= 2  # more only when the player moved time back across a year
    _, plain = play_game(*game, extras=False)
    assert sum(e.key == "seasons.event.new_year" for s in plain for e in s.events) == 2


@settings(max_examples=25, deadline=None)
@given(games)
def test_json_round_trip_of_every_state(game):
    _, steps = play_game(*game)
    for step in steps:
        data = json.loads(json.dumps(step.state.to_json()))
        assert RULES.state_from_json(data) == step.state
        assert RULES.state_from_json(data).waiting == step.waiting
        json.dumps([e.to_json() for e in step.events])


@settings(max_examples=25, deadline=None)
@given(games)
def test_replay_equals_the_live_state(game):
    difficulty, dice, seed = game
    actions, steps = play_game(difficulty, dice, seed)
    record = GameRecord.replay(RULES, {"difficulty": difficulty, "dice": dice}, seed,
                               [a.to_json() for a in actions], snapshot_every=10)
    assert record.state == steps[-1].state


@settings(max_examples=25, deadline=None)
@given(games, st.integers(min_value=0, max_value=40))
def test_undo_k_equals_replay_of_first_n_minus_k(game, k):
    difficulty, dice, seed = game
    options = {"difficulty": difficulty, "dice": dice}
    actions, steps = play_game(difficulty, dice, seed)
    record = GameRecord(RULES, options, seed, snapshot_every=7)
    for action in actions:
        record.push(action)
    k = min(k, len(actions))
    for _ in range(k):
        record.pop()
    fresh = GameRecord.replay(RULES, options, seed, actions[: len(actions) - k])
    assert record.state == fresh.state == steps[len(actions) - k].state
