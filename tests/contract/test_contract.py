"""The contract every registered game passes (issue 9), the third game of tests/thirdgame included."""

from __future__ import annotations

import pytest

from bot import games
from bot.commands.game import export_record
from bot.i18n import catalog_texts
from bot.sessions import summary_json
from bot.store import GameRow
from engine.core import Action, GameRecord, Result
from engine.seasons.autoplay import autoplay as seasons_autoplay
from engine.volfyirion.autoplay import autoplay as volfyirion_autoplay
from tests.thirdgame import KIND as THIRD
from tests.thirdgame import registered
from tests.thirdgame.engine import autoplay as tug_autoplay

# Every game of the registry, and Tug (tests/thirdgame), registered for these tests only.
KINDS = [*(g.kind for g in games.GAMES if g.kind != THIRD), THIRD]
SEEDS = (1, 2, 3)
# Each game's seeded random legal play (the engines' own; the registry has no test-only parts).
AUTOPLAY = {"seasons": seasons_autoplay, "volfyirion": volfyirion_autoplay, THIRD: tug_autoplay}


@pytest.fixture(autouse=True, scope="module")
def _third_game():
    with registered():
        yield


def _played(kind: str, seed: int) -> GameRecord:
    return AUTOPLAY[kind](None, seed, max_actions=400)


@pytest.mark.parametrize("kind", KINDS)
@pytest.mark.parametrize("seed", SEEDS)
def test_seeded_random_legal_play_reaches_the_end_with_a_result(kind: str, seed: int) -> None:
    record = _played(kind, seed)
    again = _played(kind, seed)
    assert [a.to_json() for a in again.actions] == [a.to_json() for a in record.actions]  # seeded
    if kind == "volfyirion" and not record.state.finished:
        pytest.skip("this seed's random game is still going after 400 actions")
    assert record.state.finished and record.waiting.legal == ()
    result = record.state.result()
    assert isinstance(result, Result) and result.outcome in ("won", "lost")
    assert Result.from_json(result.to_json()) == result


@pytest.mark.parametrize("kind", KINDS)
def test_state_and_actions_survive_a_json_round_trip(kind: str) -> None:
    record = _played(kind, 1)
    rules = games.rules_for(kind)
    replay = GameRecord(rules, record.options, record.seed)
    for action in record.actions:
        assert Action.from_json(action.to_json()) == action
        state = replay.push(Action.from_json(action.to_json())).state
        back = rules.state_from_json(state.to_json())
        assert back.to_json() == state.to_json() and back.summary() == state.summary()


@pytest.mark.parametrize("kind", KINDS)
def test_undo_of_n_actions_equals_the_replay_of_the_first_ones(kind: str) -> None:
    record = _played(kind, 2)
    rules = games.rules_for(kind)
    total = record.ply
    for n in sorted({0, 1, total // 3, total // 2, total - 1} - {-1}):
        undone = GameRecord.replay(rules, record.options, record.seed, record.actions, snapshot_every=7)
        for _ in range(total - n):
            undone.pop()
        fresh = GameRecord.replay(rules, record.options, record.seed, record.actions[:n])
        assert undone.state.to_json() == fresh.state.to_json(), n
        assert undone.waiting == fresh.waiting


@pytest.mark.parametrize("kind", KINDS)
def test_every_event_and_waiting_key_is_in_both_locales(kind: str) -> None:
    rules = games.rules_for(kind)
    keys: set[str] = set()
    for seed in SEEDS:
        record = _played(kind, seed)
        step = rules.new_game(record.options, record.seed)
        keys |= {e.key for e in step.events} | {step.waiting.key}
        for action in record.actions:
            step = rules.apply(step.state, action)
            keys |= {e.key for e in step.events} | {step.waiting.key}
    for lang, texts in catalog_texts().items():
        missing = sorted(k for k in keys if k not in texts and not any(t.startswith(k + ".") for t in texts))
        assert missing == [], f"{kind}: {lang} lacks {missing}"
    for key in (f"word.{kind}", f"result.title.{kind}.won", f"result.title.{kind}.lost"):
        assert all(key in texts for texts in catalog_texts().values()), key


@pytest.mark.parametrize("kind", KINDS)
def test_the_export_has_the_documented_fields(kind: str) -> None:
    record = _played(kind, 3)
    status = "finished" if record.state.finished else "active"
    row = GameRow(id=1, guild_id=1, channel_id=2, parent_channel_id=None, owner_id=3, kind=kind,
                  options=record.options, seed=record.seed, status=status, ply=record.ply,
                  created_at="2026-01-01", updated_at="2026-01-01")
    data = export_record(row, record)
    assert {"game", "options", "seed", "actions", "state", "result"} <= set(data)
    assert data["game"] == kind and data["seed"] == (record.seed if status == "finished" else None)
    assert [Action.from_json(a) for a in data["actions"]] == record.actions
    assert data["state"] == summary_json(record.state.summary())
    if status == "finished":
        assert data["result"]["outcome"] in ("won", "lost")
        # In the game's own words (docs/playing.md: a Seasons export says dummbot_score), read back the same result.
        names = getattr(record.rules, "result_names", None)
        assert data["result"] == record.state.result().to_json(names)
        assert Result.from_json(data["result"]).to_json(names) == data["result"]


@pytest.mark.parametrize("kind", KINDS)
def test_the_export_of_a_game_in_progress_withholds_its_seed_and_nothing_else(kind: str) -> None:
    """Issue 37: the seed lets anyone predict the automaton's coming choices while the game is played; a finished
    game's export keeps it (to replay the game). Every other field is the same."""
    record = _played(kind, 3)
    exports = {}
    for status in ("active", "finished", "abandoned"):
        row = GameRow(id=1, guild_id=1, channel_id=2, parent_channel_id=None, owner_id=3, kind=kind,
                      options=record.options, seed=record.seed, status=status, ply=record.ply,
                      created_at="2026-01-01", updated_at="2026-01-01")
        exports[status] = export_record(row, record)
    assert exports["active"]["seed"] is None
    assert exports["finished"]["seed"] == exports["abandoned"]["seed"] == record.seed
    assert list(exports["active"]) == list(exports["finished"])
    same = ("game", "game_id", "options", "actions", "state", "created_at", "updated_at")
    assert all(exports["active"][key] == exports["finished"][key] for key in same)
