"""Invariants over random legal games played by engine.volfyirion.autoplay (hypothesis picks the seeds)."""

from __future__ import annotations

import contextlib
import json

from hypothesis import given, settings
from hypothesis import strategies as st

from engine.core import GameRecord, Rng, RuleError
from engine.volfyirion import RULES
from engine.volfyirion.autoplay import play_game, random_action

SEEDS = st.integers(min_value=0, max_value=2**32)
OPTIONS = st.fixed_dictionaries({
    "difficulty": st.sampled_from(["easy", "normal", "hard"]),
    "bonus": st.sampled_from(["flat", "per_city", "official"]),  # "official": an older game's per_city
})
FEW = settings(max_examples=25, deadline=None)


def _steps(seed: int, options: dict, n: int = 120):
    """Replay a random game one action at a time: (state before, step) pairs."""
    record = play_game(seed, max_actions=n, options=options, allow_win=False)
    step = RULES.new_game(record.options, record.seed)
    out = [(None, step)]
    for action in record.actions:
        before = step.state
        step = RULES.apply(before, action)
        out.append((before, step))
    return record, out


@FEW
@given(SEEDS, OPTIONS)
def test_property_cities_only_fall(seed, options):
    _, steps = _steps(seed, options)
    for before, step in steps[1:]:
        for old, new in zip(before.cities, step.state.cities, strict=True):
            assert new["destroyed"] >= old["destroyed"]
            if new["destroyed"]:
                assert new["troop"] is None and new["building"] is None


@FEW
@given(SEEDS, OPTIONS)
def test_property_rage_pile_size_is_added_minus_taken(seed, options):
    """Counted from the events the player sees, independently of the state's own counters."""
    _, steps = _steps(seed, options)
    size = 0
    for _, step in steps:
        for event in step.events:
            name = event.key.rsplit(".", 1)[-1]
            if name in ("rage_card_added", "command_kept"):
                size += 1
            elif name in ("top_put_aside", "unknown_put_aside"):
                size -= 1
            elif name == "revealed":
                size -= len(event.params["cards"])
            if name == "rage_card_added":
                assert event.params["size"] == size
        state = step.state
        assert state.summary().rage_pile.size == state.rage_size == size >= 0
        assert state.rage_size == state.added - state.taken
        assert state.unknown_in_pile >= 0


@FEW
@given(SEEDS, OPTIONS)
def test_property_known_top_is_the_kept_card_until_put_aside(seed, options):
    _, steps = _steps(seed, options)
    expected = None
    for _, step in steps:
        for event in step.events:
            name = event.key.rsplit(".", 1)[-1]
            if name == "command_kept":
                expected = event.params["card"]
            elif name == "top_put_aside" and expected is not None:
                assert event.params["card"] == expected
                expected = None
            elif name == "revealed" and expected is not None:
                assert event.params["cards"][0] == expected  # the known top is revealed first
                expected = None
        assert step.state.rage_top == expected


@FEW
@given(SEEDS, OPTIONS)
def test_property_v1_2_the_rage_pile_never_outgrows_the_asset_deck(seed, options):
    """V-1.2, V-2.4: the pile's unseen cards never outnumber what the 62-card deck can still supply."""
    _, steps = _steps(seed, options, n=200)
    for _, step in steps:
        state = step.state
        assert 0 <= state.unknown_in_pile <= state.supply() <= 62


@FEW
@given(SEEDS, OPTIONS)
def test_property_replay_equals_live_and_apply_never_mutates(seed, options):
    record, steps = _steps(seed, options)
    replayed = GameRecord.replay(RULES, record.options, record.seed, [a.to_json() for a in record.actions],
                                 snapshot_every=7)
    assert replayed.state.to_json() == record.state.to_json()
    for before, step in steps[1:]:
        snapshot = before.to_json()
        assert step.state is not before
        assert before.to_json() == snapshot  # applying did not touch its input


@FEW
@given(SEEDS, st.integers(min_value=0, max_value=40))
def test_property_undo_last_k_equals_replay_of_first_n_minus_k(seed, k):
    record = play_game(seed, max_actions=60, allow_win=False)
    actions = list(record.actions)
    k = min(k, len(actions))
    for _ in range(k):
        record.pop()
    fresh = GameRecord.replay(RULES, record.options, record.seed, actions[: len(actions) - k])
    assert record.state.to_json() == fresh.state.to_json()
    assert record.waiting == fresh.waiting


@FEW
@given(SEEDS, OPTIONS)
def test_property_json_round_trip_of_every_state(seed, options):
    _, steps = _steps(seed, options)
    for _, step in steps:
        data = json.loads(json.dumps(step.state.to_json()))
        back = RULES.state_from_json(data)
        assert back == step.state and back.waiting == step.state.waiting
        assert back.summary() == step.state.summary() and back.result() == step.state.result()


@FEW
@given(SEEDS)
def test_property_refused_actions_change_nothing(seed):
    record = play_game(seed, max_actions=40, allow_win=False)
    rng = Rng(seed)
    state = record.state
    if state.finished:
        return
    snapshot = state.to_json()
    for _ in range(10):
        action = random_action(state, rng)
        with contextlib.suppress(RuleError):
            RULES.apply(state, action)
        assert state.to_json() == snapshot


def test_results_have_the_contract_shape():
    outcomes = set()
    for seed in range(40):
        record = play_game(seed, max_actions=300)
        typed = record.state.result()
        if typed is None:
            continue
        result = typed.to_json()
        assert set(result) == {"outcome", "length", "how", "cities_left"}
        assert (result["outcome"], result["how"]) in {("won", "attack"), ("won", "subjugate"),
                                                      ("lost", "cities_destroyed")}
        assert (result["cities_left"] == 0) == (result["outcome"] == "lost")
        outcomes.add(result["outcome"])
    assert outcomes == {"won", "lost"}
