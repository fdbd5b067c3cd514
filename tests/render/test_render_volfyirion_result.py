"""Volfyirion's result card words the engine's breakdown (``Result.breakdown``, an ``Ending``); the card a
withdrawn result becomes says the result alone, as it always did."""

from __future__ import annotations

from bot import games
from bot.render.results import result_notice, withdrawn_notice
from engine.core import Action, GameRecord, Result
from engine.volfyirion import RULES
from engine.volfyirion.summary import CityEnding, Ending, How, Outcome


def _won() -> Result:
    record = GameRecord(RULES, {"difficulty": "normal"}, seed=7)
    record.push(Action("play", card="Pure Qoam"))  # not the bare House Deck of turn 1 (V-5.1 with V-1.5)
    record.push(Action("win", how="attack"))
    result = record.state.result()
    assert result is not None
    return result


def _fields(notice) -> dict[str, str]:
    return dict(notice.fields)


def test_v5_1_the_engine_gives_the_result_card_its_cities():
    result = _won()
    cities = (CityEnding("Tylaris", False), CityEnding("Vahylea", False), CityEnding("Alantar", False))
    assert result.breakdown == Ending(Outcome.WON, How.ATTACK, 1, 3, cities)
    fields = _fields(result_notice("en", game=games.get("volfyirion"), owner_id=1, options={"difficulty": "normal"},
                                   result=result, parts={}, date="2026-01-01"))
    assert fields["Cities"] == "3 of 3 standing: Tylaris, Vahylea, Alantar"


def test_a_stored_result_has_no_breakdown_and_the_withdrawn_card_shows_none():
    result = _won()
    stored = Result.from_json(result.to_json())
    assert stored == result and stored.breakdown is None  # never stored, never compared
    for shown in (stored, result):
        fields = _fields(withdrawn_notice("ja", game=games.get("volfyirion"), owner_id=1, options={"difficulty": "normal"},
                                          result=shown, game_id=1))
        assert "街" not in fields and fields["決着"]
