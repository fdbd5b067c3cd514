"""Issue 25 through the console: /game card (points 1), what to report in /game help (2), and the danger
meter's headline with its Details button (4), in both languages."""

from __future__ import annotations

import pytest
from console_session import console_session, refusals, text_of
from test_bot_console_seasons_effects import press_line

from bot.standin.driver import message_text
from engine.seasons import S8_CARDS

WORDS = {
    "en": {"played": "Dummbot's play area: 1", "rule": "How Dummbot treats it (S-8)", "you": "You summon it:",
           "none": "Not in the S-8 table", "details": "Details", "city": "a city falls:", "lost": "the game is lost:",
           "histogram": "Attack distribution", "removed": "V-1.2", "troop": "V-4.1",
           "footer_game": "Only you see this. Lines with copies come from the game played here.",
           "footer_alone": "Only you see this."},
    "ja": {"played": "ダムボットの場に1枚", "rule": "ダムボットの扱い（和訳ソロルール「カードの効果」）",
           "you": "あなたが召喚したとき\n", "none": "和訳ソロルール「カードの効果」の一覧にないカード", "details": "詳細",
           "city": "街が破壊される確率:", "lost": "敗北する確率:", "histogram": "攻撃力の分布",
           "removed": "和訳ソロルール「セットアップ」", "troop": "「Volfyrionによる攻撃」手順1",
           "footer_game": "あなただけに表示しています。所在はここで遊んでいるゲームのものです。",
           "footer_alone": "あなただけに表示しています。"},
}


def footer(item: dict) -> str:
    return " ".join(text.removeprefix("-# ") for text in message_text(item) if text.startswith("-# "))


def flat(text: str) -> str:
    return text.replace("**", "")


@pytest.mark.asyncio
@pytest.mark.parametrize("lang", ["en", "ja"])
async def test_s8_1_card_lookup_names_the_card_says_where_its_copies_are_and_its_s8_row(tmp_path, lang):
    words = WORDS[lang]
    async with console_session(tmp_path / "g.sqlite3", lang=lang, seed=1) as session:
        await session.type("/seasons start difficulty:wizard dice:table")
        await session.type("/seasons die face:draw, 1 dot")
        await session.type("/seasons reveal cards:12")  # Naria, summoned into Dummbot's play area (S-4.5)
        items = await session.type("/game card name:なりあ" if lang == "en" else "/game card name:Naria")
        said = flat(text_of(items))
        assert not refusals(items) or "Naria" not in said
        items = await session.type("/game card name:12")
        said = flat(text_of(items))
        assert all(item.get("flags", 0) & 64 for item in items)  # ephemeral
        for name in ("女預言者ナリア", "Naria the Prophetess", "Naria la prophétesse"):
            assert name in said
        assert words["played"] in said and words["rule"] in said and words["you"] in said
        assert all(footer(item) == words["footer_game"] for item in items)  # where the copies are: this game's
        plain = flat(text_of(await session.type("/game card name:Amulet of Ari")))  # one typo, as reveals
        assert words["none"] in plain and "Amulet of Air" in plain


@pytest.mark.asyncio
@pytest.mark.parametrize("lang", ["en", "ja"])
async def test_v1_2_card_lookup_without_a_game_searches_both_catalogs(tmp_path, lang):
    words = WORDS[lang]
    async with console_session(tmp_path / "g.sqlite3", lang=lang) as session:
        items = await session.type("/game card name:Emerald Horn")
        said = flat(text_of(items))
        assert "Emerald Horn" in said and words["removed"] in said
        assert [footer(item) for item in items] == [words["footer_alone"]]  # no game: no copies said, nor claimed
        said = flat(text_of(await session.type("/game card name:Guard")))
        assert "Guard" in said and words["troop"] in said and ("cost 4" in said or "コスト4" in said)
        said = flat(text_of(await session.type("/game card name:Kairn")))
        assert "Kairn the Destroyer" in said
        missed = await session.type("/game card name:zzzqqq")
        assert refusals(missed)


def test_s8_1_every_s8_card_has_both_sides_in_both_languages():
    from bot.i18n import catalog_texts

    texts = catalog_texts()
    for lang in ("en", "ja"):
        for card in S8_CARDS:
            for side in ("player", "dummbot"):
                assert texts[lang].get(f"card.seasons.s8.{card}.{side}"), (lang, card, side)


@pytest.mark.asyncio
@pytest.mark.parametrize("lang", ["en", "ja"])
async def test_s8_1_help_lists_the_cards_to_report_and_the_start_points_to_it(tmp_path, lang):
    async with console_session(tmp_path / "g.sqlite3", lang=lang) as session:
        start = text_of(await session.type("/seasons start difficulty:wizard dice:table"))
        assert "/game help game:seasons" in start
        said = text_of(await session.type("/game help game:seasons"))
        for command in ("/seasons played", "/seasons time", "kind:activate", "kind:summon"):
            assert command in said
        for name in (("Syllas the Faithful", "Lewis Greyface", "Damned Soul of Onys") if lang == "en"
                     else ("信心深きサイラス", "灰顔のルイス", "オニスの忌まわしき魂")):
            assert name in said
        said = text_of(await session.type("/game help game:volfyirion"))
        for command in ("/volfyrion play", "/volfyrion remove", "/volfyrion redeploy", "/volfyrion putaside",
                        "/volfyrion reshuffle", "reshuffled:true", "/volfyrion refill"):
            assert command in said


@pytest.mark.asyncio
@pytest.mark.parametrize("lang", ["en", "ja"])
async def test_v2_2_danger_opens_with_its_two_chances_and_the_distribution_is_behind_details(tmp_path, lang):
    words = WORDS[lang]
    async with console_session(tmp_path / "g.sqlite3", lang=lang, seed=1) as session:
        await session.type("/volfyrion start difficulty:normal")
        headline = await session.type("/volfyrion danger")
        said = flat(text_of(headline))
        assert words["city"] in said and words["lost"] in said
        assert words["histogram"] not in said and "█" not in said
        details = flat(text_of(await session.type(press_line(headline, words["details"]))))
        assert words["histogram"] in details and words["city"] in details
