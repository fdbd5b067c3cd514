"""Die faces: reading typed faces in English and Japanese, canonical texts, season faces, search."""

from __future__ import annotations

import pytest
from hypothesis import given
from hypothesis import strategies as st

from engine import data
from engine.core import RuleError
from engine.seasons import SEASONS, face_text, parse_face, search_faces, season_faces
from engine.seasons.faces import canonical, resolve_face

ALL_FACES = [canonical(row) for row in data.load("seasons_dice")]


@pytest.mark.parametrize("typed", [
    "2 water, 3 crystals, 1 dot", "water 2, 3 crystals, 1 dot", "水2 クリスタル3 1点", "水 水 クリスタル3 1点",
    "3 crystals 2 water 1 dot", "水２、クリスタル３、１点", "1 dot, 3 crystal, water water",
])
def test_parse_face_any_order_language_and_width(typed):
    assert parse_face(typed) == {"energy": {"water": 2}, "crystals": 3, "star": 0, "draw": 0, "transmute": False,
                                 "dots": 1}


@pytest.mark.parametrize("typed, expected", [
    ("star, transmute, air, 3 dots", {"air": 1, "star": 1, "transmute": True, "dots": 3}),
    ("大気 星 変転 3点", {"air": 1, "star": 1, "transmute": True, "dots": 3}),
    ("風 星 変転 3点", {"air": 1, "star": 1, "transmute": True, "dots": 3}),
    ("card 2 dots", {"draw": 1, "dots": 2}),
    ("カード 2点", {"draw": 1, "dots": 2}),
    ("ドロー", {"draw": 1}),
    ("2 fire", {"fire": 2}),
    ("土1 火1", {"earth": 1, "fire": 1}),
])
def test_parse_face_symbols(typed, expected):
    face = parse_face(typed)
    energy = {k: v for k, v in expected.items() if k in ("water", "earth", "fire", "air")}
    assert face["energy"] == energy
    for key in ("star", "draw", "dots"):
        assert face[key] == expected.get(key, 0)
    assert face["transmute"] == expected.get("transmute", False)


@pytest.mark.parametrize("typed, word", [("2 wter", "wter"), ("水2 ほし", "ほし"), ("3", "3"), ("", "")])
def test_parse_face_names_the_word_it_did_not_understand(typed, word):
    with pytest.raises(RuleError) as err:
        parse_face(typed)
    assert err.value.key == "seasons.face_unreadable" and err.value.params["word"] == word


@given(st.sampled_from(ALL_FACES), st.sampled_from(["en", "ja"]))
def test_face_text_parses_back(face, lang):
    assert parse_face(face_text(face, lang)) == face


def test_face_text_examples():
    face = parse_face("2 water, 3 crystals, 1 dot")
    assert face_text(face) == "2 water, 3 crystals, 1 dot"
    assert face_text(face, "ja") == "水2、クリスタル3、ドット1"


def test_season_faces_table_and_bot_modes():
    for season in SEASONS:
        faces = season_faces(season)
        assert len(faces) == len({face_text(f) for f in faces})
        assert set(map(face_text, faces)) == {face_text(f) for f, row in zip(ALL_FACES, data.load("seasons_dice"), strict=True)
                                              if row["season"] == season}
    assert len(season_faces("winter", [1])) <= 6


def test_resolve_face_without_dots():
    face = resolve_face("winter", "2 fire star")
    assert face["dots"] == 1


@pytest.mark.parametrize("typed, must", [("crystal", "crystal"), ("クリスタル", "crystal"), ("star", "star"),
                                         ("water 2", "2 water"), ("星", "star"), ("変転", "transmute")])
def test_search_faces_matches_english_and_japanese(typed, must):
    found = search_faces("winter", typed, "en")
    assert found and len(found) <= 25
    assert all(must in face_text(f) for f in found)


def test_search_faces_nothing_typed_lists_the_season():
    assert len(search_faces("summer", "")) == len(season_faces("summer"))


def test_a_remembered_face_is_handed_out_fresh_each_time() -> None:
    """Typed faces and a season's faces are read once and remembered (issue 12): what a caller gets it may
    change without changing what the next caller gets."""
    first = parse_face("2 water, star")
    first["energy"]["water"] = 9
    first["star"] = 0
    assert parse_face("2 water, star") == {"energy": {"water": 2}, "crystals": 0, "star": 1, "draw": 0,
                                           "transmute": False, "dots": 0}
    faces = season_faces("winter")
    faces.clear()
    assert season_faces("winter") and season_faces("winter") == season_faces("winter")
