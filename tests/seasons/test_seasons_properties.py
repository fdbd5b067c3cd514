"""Properties over random games (engine/seasons/autoplay.py), both dice modes, all difficulties."""

from __future__ import annotations

import itertools
import json

from hypothesis import given, settings
from hypothesis import strategies as st

from engine.core import Action, GameRecord
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
    _actions, steps = play_game(*game)
    final = steps[-1].state
    assert final.finished and final.over and final.year == 3 and final.result() is not None
    events = [e.key.removeprefix("seasons.event.") for s in steps for e in s.events]
    end = events.index("year_three_over")
    assert {"draw_from_hand", "hand_empty"} & set(events[end:])
    assert "new_year" not in events[end:]
    assert events.count("new_year") == 2  # S-9.3: once per year, however time moved
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


def _game_with_time_moves(difficulty: str, dice: str, seed: int):
    """A random game in which the player moves time often, forward and back (S-9.1), as Temporal Boots do."""
    from engine.core import Rng
    from engine.seasons.autoplay import Table, main_action, side_action

    step = RULES.new_game({"difficulty": difficulty, "dice": dice}, seed)
    table, rng = Table.deal(seed), Rng(seed * 31 + 7)
    actions, steps = [], [step]
    while not step.state.finished and len(actions) < 3000:
        state = step.state
        action = None
        if "time" in state.waiting.legal and rng.randbelow(100) < 35:
            moves = [n for n in (-3, -2, -1, 1, 2, 3)
                     if state.position + n >= 0 and not (n > 0 and state.past_end)]
            action = Action("time", steps=moves[rng.randbelow(len(moves))])
        action = action or side_action(state, table, rng) or main_action(state, table, rng)
        step = RULES.apply(state, action)
        table.follow(step)
        actions.append(action)
        steps.append(step)
    return actions, steps


@settings(max_examples=30, deadline=None)
@given(games)
def test_s9_2_every_change_of_season_either_way_summons_and_replay_holds(game):
    difficulty, dice, seed = game
    actions, steps = _game_with_time_moves(difficulty, dice, seed)
    assert steps[-1].state.finished
    for before, step in itertools.pairwise(steps):
        if before.state.position // 3 == step.state.position // 3:
            continue
        ks = [e.key.removeprefix("seasons.event.") for e in step.events]
        if "draw_from_hand" in ks:
            continue
        # No summon only when Dummbot's hand was empty at that moment: what it held, plus what this
        # step's die drew into it before the season changed.
        assert "hand_empty" in ks
        drawn = sum(e.params["n"] for e in step.events[: ks.index("hand_empty")]
                    if e.key.endswith(".draw_to_hand"))
        assert before.state.hand_size + drawn == 0
    record = GameRecord.replay(RULES, {"difficulty": difficulty, "dice": dice}, seed,
                               [a.to_json() for a in actions], snapshot_every=9)
    assert record.state == steps[-1].state


def test_s9_2_the_time_mover_does_cross_seasons_backwards():
    """The property above is not vacuous: its games cross seasons backwards, with cards in hand."""
    crossings = 0
    for seed in range(6):
        _, steps = _game_with_time_moves("wizard", "bot" if seed % 2 else "table", seed)
        crossings += sum(1 for a, b in itertools.pairwise(steps)
                         if b.state.position // 3 < a.state.position // 3 and a.state.hand_size)
    assert crossings >= 6
