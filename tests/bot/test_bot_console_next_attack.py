"""Issue 25 point 5 through the console: each turn's prompt says when Volfyirion comes next (V-3.4) — the cards
left to draw, the turn whose end-of-turn draw reshuffles, the meter's figures — or plainly that it cannot be
known, in both languages."""

from __future__ import annotations

import pytest
from console_session import console_session, text_of

WORDS = {
    "en": {"name": "When Volfyirion comes next", "turn2": "5 cards left to draw (10 in all",
           "at": "at the end of turn 2", "now": "the draw at the end of this turn (turn 2) reshuffles",
           "acquired": "(11 in all", "figures": "a city falls", "unknown": "Cannot be known for now",
           "missing": "Cannot be known: a reshuffle the bot counted on did not come"},
    "ja": {"name": "次にヴォルフィーリオンが来るとき", "turn2": "ハウスデッキの残りは5枚（手札と捨て札を含めて全部で10枚）",
           "at": "ターン2の終わりに手札を引くとき", "now": "このターン（ターン2）の終わりに手札を引くときに作り直す",
           "acquired": "全部で11枚）", "figures": "街が破壊される確率", "unknown": "今はわかりません",
           "missing": "わかりません。ボットの数えでは作り直すはずの引きで作り直さなかった"},
}


def flat(items) -> str:
    return text_of(items).replace("**", "")


@pytest.mark.asyncio
@pytest.mark.parametrize("lang", ["en", "ja"])
async def test_v3_4_the_turn_prompt_says_when_the_next_reshuffle_and_attack_come(tmp_path, lang):
    words = WORDS[lang]
    async with console_session(tmp_path / "g.sqlite3", lang=lang, seed=1) as session:
        said = flat(await session.type("/volfyrion start difficulty:normal"))
        assert words["name"] in said and words["turn2"] in said and words["at"] in said and words["figures"] in said
        said = flat(await session.type("/volfyrion acquire card:Elite Trooper"))
        assert words["acquired"] in said
        said = flat(await session.type("/volfyrion end"))
        assert words["now"] in said and words["figures"] in said
        said = flat(await session.type("/volfyrion end"))  # the reshuffle that was due did not come
        assert words["missing"] in said


QUESTIONED = {"en": ("Elite Trooper cannot be in your hand yet", "`/volfyrion acquire card:Elite Trooper`",
                      "Soldier was never reported acquired", "one card more to draw: 6 cards left now"),
              "ja": ("Elite Trooperはまだ手札にありえません", "`/volfyrion acquire card:Elite Trooper`",
                     "Soldierは購入の報告がありませんでした", "いまは6枚です")}


@pytest.mark.asyncio
@pytest.mark.parametrize("lang", ["en", "ja"])
async def test_v3_4_a_card_played_but_never_reported_acquired_corrects_the_count_or_is_questioned(tmp_path, lang):
    """Issue 33: before any reshuffle the hand holds starting cards only, so such a play is questioned and the
    count kept; after one, the card was acquired before it: the draw pile held one card more, and the count goes
    on."""
    words, (questioned, how, corrected, count) = WORDS[lang], QUESTIONED[lang]
    async with console_session(tmp_path / "g.sqlite3", lang=lang, seed=1) as session:
        await session.type("/volfyrion start difficulty:normal")
        said = flat(await session.type("/volfyrion play card:Elite Trooper city:Tylaris"))
        assert questioned in said and how in said and words["turn2"] in said and words["unknown"] not in said
        await session.type("/volfyrion end")
        await session.type("/volfyrion end reshuffled:true")
        await session.type("/volfyrion reveal cards:Stab, Shrewd Deal, Library")
        said = flat(await session.type("/volfyrion play card:Soldier city:Vahylea"))
        assert corrected in said and count in said and words["unknown"] not in said


LEAD_IN = {"en": ("If Volfyirion attacked at the end of this turn:", "Were it to attack"),
           "ja": ("このターンの終わりにヴォルフィーリオンが攻撃したら:", "攻撃するとしたら")}


@pytest.mark.asyncio
@pytest.mark.parametrize("lang", ["en", "ja"])
async def test_v6_the_danger_headline_with_the_token_on_its_lair_leads_in_once(tmp_path, lang):
    kept, dropped = LEAD_IN[lang]
    async with console_session(tmp_path / "g.sqlite3", lang=lang, seed=1) as session:
        await session.type("/volfyrion start difficulty:normal")
        said = flat(await session.type("/volfyrion danger"))
        assert "🛡️" in said and said.count(kept) == 1 and dropped not in said
