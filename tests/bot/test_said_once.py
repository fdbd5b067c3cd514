"""The words a reply says the same every time are said once (issue 35, point 6: a V2 reply no dearer to build
than the embed reply was), and what remembers them stays bounded and says what ``t`` says."""

from __future__ import annotations

from bot import i18n
from bot.games.seasons.front.pickers import time_picker
from bot.games.seasons.text import die_mark, die_text
from bot.i18n import remembered, t


def test_a_sentence_without_parameters_is_remembered_once_a_language_and_only_for_a_template() -> None:
    constants = i18n._registered().constants
    assert t("ja", "button.undo") == t("ja", "button.undo") != t("en", "button.undo")
    assert constants[("ja", "button.undo")] == t("ja", "button.undo")
    before = len(constants)
    for n in range(50):  # keys that are no template: said as themselves, never remembered
        assert t("en", f"no.such.key.{n}") == f"no.such.key.{n}"
    assert len(constants) == before
    assert len(constants) <= sum(len(texts) for texts in i18n.catalog_texts().values())


def test_remembered_words_are_made_once_per_token_and_language() -> None:
    made: list[str] = []

    def say() -> str:
        made.append("x")
        return f"said {len(made)}"

    assert remembered("en", "test.words", ("a", 1), say) == "said 1"
    assert remembered("en", "test.words", ("a", 1), say) == "said 1"
    assert remembered("ja", "test.words", ("a", 1), say) == "said 2"
    assert remembered("en", "test.words", ("a", 2), say) == "said 3"


def test_a_die_and_the_time_moves_read_as_they_are_worded_afresh() -> None:
    for lang in ("en", "ja"):
        for season, die in (("winter", 1), ("summer", 3)):
            assert die_text(lang, season, die) == t(lang, "word.die_with", face=die_mark(season, die))
        assert die_text(lang, "winter", 99) == "99"  # no die of the box: its number, not remembered
        assert time_picker(lang) is time_picker(lang)
        assert time_picker(lang).options[0][0] == t(lang, "pick.time.forward", steps=1)
