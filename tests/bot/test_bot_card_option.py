"""One card option (bot.commands.cards.CardTransformer) for every command that names cards: its autocomplete,
and its resolution with "did you mean" suggestions and candidate buttons, per game."""

from __future__ import annotations

import pytest
from play import export

from bot.app import create_bot
from bot.commands.cards import CardTransformer, Typed
from bot.config import Config

CARD_PARAMETERS = {"card", "cards", "troop"}


async def test_every_card_option_of_both_games_is_the_card_transformer(tmp_path):
    bot = create_bot(Config(db_path=tmp_path / "db.sqlite3"))
    await bot.setup_hook()
    try:
        found = {}
        for group in bot.tree.get_commands():
            for command in getattr(group, "commands", []):
                for parameter in command._params.values():
                    if parameter.name in CARD_PARAMETERS:
                        found[f"{group.name} {command.name} {parameter.name}"] = parameter
    finally:
        await bot.store.close()
    assert len(found) == 11, sorted(found)  # seasons: effect, played, prelude, reveal; volfyrion: seven
    for name, parameter in found.items():
        assert isinstance(parameter._annotation, CardTransformer), name
        assert parameter.autocomplete and parameter.min_value == 1 and parameter.max_value in (100, 500, 1000)


@pytest.mark.parametrize(("game", "text", "op"), [("seasons", "Kairn", "pk_played"),
                                                  ("volfyirion", "Elite Trooper", "pk_play")])
def test_typed_text_is_a_string_resolved_by_its_games_option(game, text, op):
    from bot.games.seasons.front import commands as seasons
    from bot.games.volfyirion.front import commands as volfyirion

    option = {"seasons": seasons.CARDS, "volfyirion": volfyirion.CARDS}[game]
    typed = Typed(text, option)
    assert typed == text and isinstance(typed, str)
    assert typed.pick(op) == {"seasons": "16", "volfyirion": "Elite Trooper"}[game]


async def test_the_unseal_card_is_completed_from_the_wonders(driver):
    await driver.slash("volfyrion start", {"difficulty": "normal", "unseal": True})
    wonders = await driver.autocomplete("volfyrion unseal", {"card": "qoam"}, focused="card")
    assert {c["value"] for c in wonders} == {"Sharp Qoam", "Pure Qoam"}


async def test_an_effect_card_typo_offers_candidates_that_keep_the_effect(driver):
    await driver.slash("seasons start", {"difficulty": "wizard", "dice": "table"})
    refused = await driver.slash("seasons effect", {"kind": "activate", "card": "Amulit of Aiir"})
    assert refused.ephemeral and "Amulit of Aiir" in refused.text
    pick = next(b for b in refused.buttons if "Amulet of Air" in (b.get("label") or ""))
    assert pick["custom_id"].endswith("pk_effect:activate.1"), pick["custom_id"]
    assert (await export(driver))["actions"] == []
