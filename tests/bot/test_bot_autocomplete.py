"""Autocomplete: die faces of the current season (English and Japanese words) and card names."""

from __future__ import annotations

from play import export

from engine.seasons import parse_face, season_faces


async def test_die_faces_filtered_by_english_and_japanese_words(driver):
    start = await driver.slash("seasons start", {"difficulty": "wizard", "dice": "table"})
    assert not start.ephemeral
    dice = (await export(driver))["state"]["chosen_dice"]["winter"]
    winter = season_faces("winter", dice)  # S-1.4: only the faces of the two winter dice chosen
    for typed, has in (("crystal", "crystals"), ("クリスタル", "crystals"), ("2 water", "energy")):
        choices = await driver.autocomplete("seasons die", {"face": typed}, focused="face")
        assert choices, typed
        for c in choices:
            face = parse_face(c["value"])
            assert face in winter and face[has], (typed, c)

    everything = await driver.autocomplete("seasons die", {"face": ""}, focused="face")
    assert 0 < len(everything) <= 25
    ja = await driver.autocomplete("seasons die", {"face": "星"}, focused="face", locale="ja")
    assert ja and all("星" in c["name"] for c in ja)


async def test_die_faces_without_a_game_offer_nothing(driver):
    assert await driver.autocomplete("seasons die", {"face": "water"}, focused="face") == []


async def test_card_names_in_both_languages(driver):
    found = await driver.autocomplete("seasons played", {"card": "kair"}, focused="card")
    assert found[0]["value"] == "16"
    ja = await driver.autocomplete("seasons played", {"card": "ケアン"}, focused="card", locale="ja")
    assert ja[0]["value"] == "16" and "破壊者ケアン" in ja[0]["name"]
    several = await driver.autocomplete("seasons reveal", {"cards": "12, amulet of"}, focused="cards")
    assert several and all(c["value"].startswith("12, ") for c in several)


async def test_volfyirion_cards_and_cities(driver):
    await driver.slash("volfyrion start", {"difficulty": "normal"})
    cards = await driver.autocomplete("volfyrion play", {"card": "gua"}, focused="card")
    assert [c["value"] for c in cards] == ["Guard"]
    cities = await driver.autocomplete("volfyrion play", {"card": "Guard", "city": "a"}, focused="city")
    assert {c["value"] for c in cities} == {"Tylaris", "Vahylea", "Alantar"}


async def test_v2_1_cards_in_play_come_from_the_channels_game_through_the_commands_group(driver):
    """A card option's own autocomplete (a transformer's) reads the game through the group the command belongs
    to, as the group's own autocomplete (the city) does: no service found on the client."""
    await driver.slash("volfyrion start", {"difficulty": "normal"})
    assert await driver.autocomplete("volfyrion remove", {"card": ""}, focused="card") == []
    await driver.slash("volfyrion play", {"card": "Guard", "city": "Tylaris"})
    in_play = await driver.autocomplete("volfyrion remove", {"card": "gu"}, focused="card")
    assert [c["value"] for c in in_play] == ["Guard"]
    troops = await driver.autocomplete("volfyrion redeploy", {"troop": ""}, focused="troop")
    assert [c["value"] for c in troops] == ["Guard"]
