"""``t`` says a sentence once and remembers it (issue 12); what it remembers never outlives what it was made from."""

from __future__ import annotations

import pytest

from bot import i18n
from bot.i18n import TextHooks, register_text, t


@pytest.fixture
def registries():
    saved = (dict(i18n.TEXT_HOOKS), dict(i18n.VARIANTS), dict(i18n.PARAM_NAMES), dict(i18n.EVENT_KEYS))
    yield
    for live, old in zip((i18n.TEXT_HOOKS, i18n.VARIANTS, i18n.PARAM_NAMES, i18n.EVENT_KEYS), saved, strict=True):
        live.clear()
        live.update(old)
    i18n.texts_changed()  # the registries were put back by hand: what was said with the test's words goes


def test_a_remembered_sentence_is_the_one_said_afresh():
    for lang in i18n.LANGS:
        for key, params in [("reply.footer", {"game_id": 7, "ply": 3}), ("word.yes", {}),
                            ("seasons.event.token_moved", {"steps": -2}), ("seasons.event.token_moved", {"steps": 2}),
                            ("reply.title", {"game": "seasons"}), ("no.such.key", {"x": [1, 2]})]:
            fresh = i18n._say(i18n.catalog_texts(), lang, key, params)
            assert t(lang, key, **params) == fresh
            assert t(lang, key, **params) == fresh  # from the memo


def test_values_equal_but_said_differently_are_told_apart(monkeypatch):
    texts = {"en": {"memo.value": "{v}"}, "ja": {}}
    monkeypatch.setattr(i18n, "catalog_texts", lambda: texts)
    assert t("en", "memo.value", v=1) == "1"
    assert t("en", "memo.value", v=True) == t("en", "word.yes") == "word.yes"  # no such key in these templates
    assert t("en", "memo.value", v=1) == "1"
    assert t("en", "memo.value", v=0.0) == "0.0"
    assert t("en", "memo.value", v=-0.0) == "-0.0"  # floats are never remembered: -0.0 == 0.0
    assert t("en", "memo.value", v=["a", "b"]) == "a, b"
    assert t("en", "memo.value", v=("a", "b")) == "a, b"


def test_other_templates_are_not_answered_from_the_memo(monkeypatch):
    assert t("en", "word.yes") == i18n.catalog_texts()["en"]["word.yes"]
    texts = {"en": {"word.yes": "yep"}, "ja": {}}
    monkeypatch.setattr(i18n, "catalog_texts", lambda: texts)
    assert t("en", "word.yes") == "yep"
    monkeypatch.undo()
    assert t("en", "word.yes") == i18n.catalog_texts()["en"]["word.yes"]


def test_a_game_registered_later_changes_the_sentences_said_before(registries, monkeypatch):
    texts = {"en": {"memo.took": "took {card}", "memo.took.two": "took two: {card}"}, "ja": {}}
    monkeypatch.setattr(i18n, "catalog_texts", lambda: texts)
    assert t("en", "memo.took", card="a", game="memo") == "took a"  # no game "memo" yet: the id itself
    register_text("memo", TextHooks(command="memo", card_name=lambda lang, c: {"a": "Ace"}.get(c),
                                    variants={"memo.took": lambda p: "two" if p.get("n") == 2 else None}))
    assert t("en", "memo.took", card="a", game="memo") == "took Ace"
    assert t("en", "memo.took", card="a", game="memo", n=2) == "took two: Ace"
    # Replacing a game's words (same registries' sizes) is seen too.
    register_text("memo", TextHooks(command="memo", card_name=lambda lang, c: {"a": "Axe"}.get(c)))
    assert t("en", "memo.took", card="a", game="memo") == "took Axe"


def test_the_memo_stays_bounded():
    for n in range(i18n.MEMO_SIZE + 10):
        t("en", "reply.footer", game_id=n, ply=1)
    assert len(i18n._MEMO) <= i18n.MEMO_SIZE


def test_a_game_registered_with_its_strings_is_said_with_them():
    """bot.games adds a game's strings to the templates themselves: the memo sees them come and go."""
    from bot import games
    from tests.thirdgame import KIND, register
    from tests.thirdgame.texts import TEXTS

    key = next(k for k in TEXTS["en"] if "{" not in TEXTS["en"][k])
    assert KIND not in games.KINDS
    assert t("en", key) == key  # not known yet: the key itself
    assert t("en", "reply.title", game=KIND) == i18n._say(i18n.catalog_texts(), "en", "reply.title", {"game": KIND})
    register()
    try:
        assert t("en", key) == TEXTS["en"][key]
        assert t("en", "reply.title", game=KIND) == i18n._say(i18n.catalog_texts(), "en", "reply.title",
                                                              {"game": KIND})
    finally:
        games.unregister(KIND)
    assert t("en", key) == key


def test_a_game_registered_again_with_other_strings_is_said_with_the_new_ones():
    """The same number of templates, another text: the memo must not answer with the old one."""
    import dataclasses

    from bot import games
    from tests.thirdgame import KIND, register
    from tests.thirdgame.texts import TEXTS

    key = next(k for k in TEXTS["en"] if "{" not in TEXTS["en"][k])
    register()
    original = games.get(KIND)
    try:
        assert t("en", key) == TEXTS["en"][key]
        games.register(dataclasses.replace(original, texts=lambda: {"en": {key: "REPLACED"}}))
        assert t("en", key) == "REPLACED"
    finally:
        games.register(original)  # so that unregistering takes every one of its strings away
        games.unregister(KIND)
    assert t("en", key) == key
