"""engine/core: randomness, text folding, catalogs, actions' JSON, and the record's push/pop."""

from __future__ import annotations

from dataclasses import dataclass

import pytest
from hypothesis import given
from hypothesis import strategies as st

from engine.core import Action, Catalog, Entry, Event, GameRecord, Params, Rng, RuleError, Step, Waiting, fold


def test_rng_is_deterministic_and_serialisable():
    a, b = Rng(42), Rng(42)
    assert [a.randbelow(6) for _ in range(50)] == [b.randbelow(6) for _ in range(50)]
    c = Rng(a.state)
    assert c.next_u64() == a.next_u64()


@given(st.integers(min_value=1, max_value=1000), st.integers(min_value=0, max_value=2**64 - 1))
def test_rng_randbelow_in_range(n, seed):
    assert 0 <= Rng(seed).randbelow(n) < n


def test_rng_shuffle_is_a_permutation():
    items = list(range(20))
    Rng(7).shuffle(items)
    assert sorted(items) == list(range(20)) and items != list(range(20))


@pytest.mark.parametrize(
    "typed, expected",
    [
        ("ＫＡＩＲＮ　ｔｈｅ destroyer", "kairnthedestroyer"),
        ("Beggar's Horn", "beggarshorn"),
        ("Âme damnée d'Onys", "amedamneedonys"),
        ("ヴォルフィーリオン", "ヴォルフィーリオン"),
        ("ｸﾘｽﾀﾙ", "クリスタル"),
    ],
)
def test_fold_forgives_width_case_accents_and_spacing(typed, expected):
    assert fold(typed) == expected


def _catalog():
    cards = [("1", ("Amulet of Air", "大気の護符")), ("2", ("Amulet of Fire", "火の護符")), ("16", ("Kairn the Destroyer", "破壊者ケアン"))]
    return Catalog([Entry(i, names, {"id": i}) for i, names in cards], game="test")


def test_catalog_lookup_by_id_and_names():
    cat = _catalog()
    assert cat.lookup("16")["id"] == "16"
    assert cat.lookup("kairn THE destroyer")["id"] == "16"
    assert cat.lookup("破壊者 ケアン")["id"] == "16"
    assert [c["id"] for c in cat.lookup_many("1、Amulet of Fire")] == ["1", "2"]


def test_catalog_miss_suggests_near_names():
    with pytest.raises(RuleError) as err:
        _catalog().lookup("Amulet of Fiery")  # two letters off: not one card for sure
    assert err.value.key == "card.unknown"
    assert err.value.params["suggestions"][0] == "2"


def test_catalog_search_prefix_first():
    assert _catalog().search("amu") == ["1", "2"]
    assert _catalog().search("ケアン") == ["16"]


def test_action_and_event_json_round_trip():
    a = Action("die", face={"water": 2}, note="x")
    assert Action.from_json(a.to_json()) == a
    e = Event("k", n=1)
    assert Event.from_json(e.to_json()) == e
    w = Waiting("w", {"n": 1}, ("a", "b"))
    assert Waiting.from_json(w.to_json()) == w


# A counter game: enough to check GameRecord's replay, undo and snapshots.
@dataclass(frozen=True)
class _Counter:
    total: int
    rng: int

    @property
    def waiting(self):
        return Waiting("add", legal=("add",))

    @property
    def finished(self):
        return False

    def to_json(self):
        return {"total": self.total, "rng": self.rng}

    def summary(self):
        return self.to_json()

    def result(self):
        return None


class _CounterRules:
    game, version = "counter", 1

    def normalize_options(self, options):
        return dict(options)

    def new_game(self, options, seed):
        return Step(_Counter(0, seed), (), Waiting("add", legal=("add",)))

    def apply(self, state, action):
        if action.get("n", 0) < 0:
            raise RuleError("counter.negative")
        rng = Rng(state.rng)
        bonus = rng.randbelow(3)
        return Step(_Counter(state.total + action.get("n") + bonus, rng.state), (), state.waiting)

    def state_from_json(self, data):
        return _Counter(**data)


def test_an_action_is_a_value_its_args_cannot_change():
    """issue 34, point 4: hash(Action(...)) works, and neither its args nor a list in them can be changed."""
    import copy
    import pickle

    action = Action("reveal", cards=["10", "11"], face={"energy": {"water": 2}})
    assert hash(action) == hash(Action("reveal", {"cards": ["10", "11"], "face": {"energy": {"water": 2}}}))
    assert len({action, Action.from_json(action.to_json())}) == 1
    with pytest.raises(TypeError):
        action.args["cards"] = ["12"]
    with pytest.raises(TypeError):
        action.args.update(card="12")
    with pytest.raises(TypeError):
        action.args["cards"].append("12")
    with pytest.raises(TypeError):
        action.args["face"]["energy"]["water"] = 3
    assert action.to_json() == {"type": "reveal", "cards": ["10", "11"], "face": {"energy": {"water": 2}}}
    assert pickle.loads(pickle.dumps(action)) == action and copy.deepcopy(action) == action
    waiting = Waiting("w", {"cities": ["Tylaris"]}, ("choose",))
    assert hash(waiting) == hash(Waiting.from_json(waiting.to_json()))
    assert waiting.params.texts("cities") == ("Tylaris",) and waiting.params.number("count", 1) == 1
    rolled = Waiting("w", {"dice": [{"face": "a"}, {"face": "b"}], "count": 3})
    assert [d.text("face") for d in rolled.params.entries("dice")] == ["a", "b"]
    assert rolled.params.count("count") == 3 and waiting.params.count("count") is None
    assert Params(assumed=False).flag("assumed", default=True) is False and Params().flag("assumed", default=True)
    assert hash(Event("e", n=3)) == hash(Event("e", {"n": 3}))


@given(st.lists(st.integers(min_value=0, max_value=9), max_size=30), st.integers(min_value=0, max_value=30))
def test_undo_k_equals_replay_of_first_n_minus_k(ns, k):
    rules = _CounterRules()
    rec = GameRecord(rules, {}, 5, snapshot_every=4)
    for n in ns:
        rec.push(Action("add", n=n))
    k = min(k, len(ns))
    for _ in range(k):
        rec.pop()
    fresh = GameRecord.replay(rules, {}, 5, [Action("add", n=n) for n in ns[: len(ns) - k]])
    assert rec.state == fresh.state


def test_refused_action_changes_nothing_and_undo_of_empty_is_refused():
    rec = GameRecord(_CounterRules(), {}, 1)
    rec.push(Action("add", n=1))
    before = rec.state
    with pytest.raises(RuleError):
        rec.push(Action("add", n=-1))
    assert rec.state == before and rec.ply == 1
    rec.pop()
    with pytest.raises(RuleError, match="nothing_to_undo"):
        rec.pop()


def test_replay_from_snapshot_matches_full_replay():
    rules = _CounterRules()
    actions = [Action("add", n=i % 4) for i in range(23)]
    full = GameRecord.replay(rules, {}, 9, actions, snapshot_every=5)
    mid = GameRecord.replay(rules, {}, 9, actions[:10], snapshot_every=5)
    resumed = GameRecord.replay(rules, {}, 9, actions, snapshot=(10, mid.state.to_json()), snapshot_every=5)
    assert resumed.state == full.state
    assert GameRecord.from_json(rules, full.to_json()).state == full.state
