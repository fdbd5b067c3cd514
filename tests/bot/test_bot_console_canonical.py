"""Words at the edge (issue 24): what a player types is read by the bot, and the rules get canonical values only.

Typed through the console in both languages — a difficulty by its Japanese name, a card by kana or a typo, a
face in Japanese, cities by their beginnings and a city by its printed defence — and read back from the SQLite
file: the game's options and every stored action hold codes, card ids, city names and face dicts only, which
``apply`` takes (and replays) without reading any text. A name the catalog cannot read is refused with its
candidates as before and stores nothing.
"""

from __future__ import annotations

import json
import sqlite3
from pathlib import Path

import pytest
from console_session import console_session, refusals

from bot.standin.driver import pressable
from engine.core import Action, GameRecord
from engine.seasons import RULES as SEASONS
from engine.seasons import face_text, season_faces
from engine.seasons.faces import same_but_dots
from engine.volfyirion import RULES as VOLFYIRION

SEED = 7  # the console session's


def _stored(path: Path) -> tuple[dict, list[dict]]:
    """The one game's options and its live actions, as the file holds them."""
    with sqlite3.connect(path) as conn:
        [(options,)] = conn.execute("SELECT options FROM games").fetchall()
        actions = [json.loads(a) for (a,) in conn.execute("SELECT action FROM actions WHERE NOT undone ORDER BY ply")]
    return json.loads(options), actions


def _replayed(rules, options: dict, actions: list[dict]) -> GameRecord:
    """The stored game replayed from its seed by the rules themselves (they read no typed text)."""
    return GameRecord.replay(rules, options, SEED, [Action.from_json(a) for a in actions])


def _face_without_dots(lang: str) -> tuple[str, dict]:
    """A face of the first round's dice that its symbols alone name (no other face differs only in its dots),
    as a player types it without the dots, and the face."""
    faces = season_faces(SEASONS.new_game({"difficulty": "apprentice", "dice": "table"}, SEED).state)
    alone = next(f for f in faces if sum(same_but_dots(f, g) for g in faces) == 1)
    return face_text({**alone, "dots": 0}, lang), alone


@pytest.mark.parametrize("lang", ["ja", "en"])
async def test_seasons_typed_words_reach_the_rules_as_codes_ids_and_faces(tmp_path, lang):
    path = tmp_path / "db.sqlite3"
    async with console_session(path, lang=lang) as s:
        assert refusals(await s.type("/seasons start difficulty:見習い dice:table")) == []  # a choice by its name
        assert refusals(await s.type("/seasons played card:けあん")) == []  # kana: Kairn the Destroyer
        assert refusals(await s.type("/seasons effect kind:left card:Kairn the Destroyr")) == []  # one typo
        typed, meant = _face_without_dots(lang)
        assert refusals(await s.type(f'/seasons die face:"{typed}"')) == []  # in the player's language, no dots
    options, actions = _stored(path)
    assert options == {"difficulty": "apprentice", "dice": "table", "edition": 4}
    assert actions[:2] == [{"type": "played", "card": "16"}, {"type": "effect", "kind": "left", "card": "16"}]
    assert actions[2] == {"type": "die", "face": meant}
    assert _replayed(SEASONS, options, actions).ply == 3


@pytest.mark.parametrize(("lang", "said"), [
    ("ja", "「Kairn the Dstryr」というカードが見つかりません。"),
    ("en", "I don't know the card “Kairn the Dstryr”."),
])
async def test_seasons_a_name_the_catalog_cannot_read_is_refused_with_candidates_and_stores_nothing(tmp_path, lang,
                                                                                                    said):
    path = tmp_path / "db.sqlite3"
    async with console_session(path, lang=lang) as s:
        await s.type("/seasons start difficulty:wizard dice:table")
        items = await s.type("/seasons played card:Kairn the Dstryr")
        [refused] = refusals(items)
        assert refused.startswith(said)
        candidates = [c.get("label", "") for item in items for c in pressable(item)]
        assert any("#16" in label for label in candidates)  # Pick, don't retype
    assert _stored(path)[1] == []


@pytest.mark.parametrize("lang", ["ja", "en"])
async def test_volfyirion_typed_names_and_cities_reach_the_rules_as_ids_and_city_names(tmp_path, lang):
    path = tmp_path / "db.sqlite3"
    async with console_session(path, lang=lang) as s:
        assert refusals(await s.type("/volfyrion start difficulty:normal cities:tyla, akao, kyr")) == []
        assert refusals(await s.type("/volfyrion play card:elite troper city:9")) == []  # a typo, a defence
        assert refusals(await s.type("/volfyrion redeploy troop:Elite Trooper city:KYR")) == []
    options, actions = _stored(path)
    assert options["cities"] == ["Tylaris", "Akao Uket", "Kyr"]
    assert actions == [{"type": "play", "card": "Elite Trooper", "city": "Akao Uket"},
                       {"type": "redeploy", "troop": "Elite Trooper", "city": "Kyr"}]
    assert _replayed(VOLFYIRION, options, actions).ply == 2


@pytest.mark.parametrize(("lang", "said"), [("ja", "「Atlantis」"), ("en", "“Atlantis”")])
async def test_volfyirion_a_city_no_card_has_is_refused_at_the_start_and_no_game_begins(tmp_path, lang, said):
    path = tmp_path / "db.sqlite3"
    async with console_session(path, lang=lang) as s:
        [refused] = refusals(await s.type("/volfyrion start difficulty:normal cities:tyla, akao, Atlantis"))
        assert said in refused
    with sqlite3.connect(path) as conn:
        assert conn.execute("SELECT count(*) FROM games").fetchone() == (0,)
