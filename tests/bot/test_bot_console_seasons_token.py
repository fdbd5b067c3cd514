"""Issue 33's Seasons points typed into the console, in both languages: Dummbot's sorcerer token named with its
square at every change of its crystals (S-1.2), "I could not pay" going the right way and keeping what a payment
passed on (S-8.3, the README's ruling), bot dice refusing a card before a die is taken (S-3.1a), the undo of a
reveal from Dummbot's hand (S-5.1) and the tie line (S-5.2)."""

from __future__ import annotations

import json

import pytest
from console_session import console_session, press_line, refusals, text_of, type_all

# The issue's reproduction, seed 1: both sides' Titus with Dummbot at 0, then the Leech's crystal.
ISSUE = ["/seasons start difficulty:wizard dice:table", '/seasons die face:"draw, 1 dot"', "/seasons reveal cards:33",
         "/seasons played card:39", '/seasons die face:"draw, 1 dot"', "/seasons reveal cards:39",
         "/seasons effect kind:summon"]

TOKEN = {"en": "Move Dummbot's sorcerer token on the crystal board {way} to {n}.",
         "ja": "クリスタルボードのダムボットのソーサラートークンを{n}のマスへ{way}てください。"}
UP, DOWN = {"en": "up", "ja": "進め"}, {"en": "down", "ja": "戻し"}


def token(lang: str, way: dict[str, str], n: int) -> str:
    return TOKEN[lang].format(way=way[lang], n=n)



def _exported(items: list[dict]) -> dict:
    files = [f for item in items for f in item.get("files", []) if f["filename"].endswith(".json")]
    return json.loads(files[-1]["text"])


@pytest.mark.parametrize("lang", ["en", "ja"])
async def test_s8_3_cannot_pay_for_a_passed_on_titus_keeps_the_leechs_crystal(tmp_path, lang):
    """The issue's script: every payment line names the token's square; "I could not pay" for Titus neither says
    "more" nor moves the token up, Dummbot keeps the Leech's 1 crystal (the export says so), both Titus go."""
    async with console_session(tmp_path / "g.sqlite3", lang=lang, seed=1) as session:
        titus = text_of(await type_all(session, ISSUE[:6]))
        assert token(lang, UP, 1) in titus and token(lang, DOWN, 0) in titus  # Titus paid, then passed on
        leech = await type_all(session, ISSUE[6:])
        assert token(lang, UP, 1) in text_of(leech)
        said = text_of(await session.type("/seasons effect kind:cannot_pay card:39"))
        assert {"en": "its sorcerer token stays on 1", "ja": "ソーサラートークンは1のマスのままです"}[lang] in said
        assert {"en": "more", "ja": "増え"}[lang] not in said and UP[lang] not in said
        assert {"en": "Move your own sorcerer token on the crystal board 1 down",
                "ja": "あなたのソーサラートークンを1マス戻してください"}[lang] in said
        state = _exported(await session.type("/game export"))["state"]
        assert state["dummbot"]["crystals"] == 1 and state["dummbot"]["summoned"] == ["33"]


@pytest.mark.parametrize("lang", ["en", "ja"])
async def test_s8_3_cannot_pay_says_fewer_and_moves_the_token_down(tmp_path, lang):
    """The Leech's payment cancelled: Dummbot's count goes down (1 → 0), and so does its token."""
    async with console_session(tmp_path / "g.sqlite3", lang=lang, seed=1) as session:
        leech = await type_all(session, ISSUE[:3] + ["/seasons effect kind:summon"])
        said = text_of(await session.type(press_line(leech, {"en": "I could not pay", "ja": "支払えなかった"}[lang])))
        assert {"en": "Arcano Leech (#33): payment cancelled — Dummbot has 1 crystal fewer.",
                "ja": "アルカノ蛭（#33）: 支払いを取り消しました。ダムボットのクリスタルは1個減ります。"}[lang] in said
        assert token(lang, DOWN, 0) in said


@pytest.mark.parametrize("lang", ["en", "ja"])
async def test_s1_2_a_crystals_correction_and_kairn_name_the_tokens_square(tmp_path, lang):
    async with console_session(tmp_path / "g.sqlite3", lang=lang, seed=1) as session:
        assert token(lang, UP, 7) in text_of(await type_all(session, ISSUE[:1] + ["/seasons crystals change:7"]))
        assert token(lang, DOWN, 4) in text_of(await type_all(session, ["/seasons crystals change:-3"]))
        noted = await type_all(session, ["/seasons played card:16"])
        kairn = {"en": "Kairn the Destroyer: Dummbot loses 4 crystals", "ja": "破壊者ケアンを起動した（ダムボットのクリスタル−4個）"}
        assert token(lang, DOWN, 0) in text_of(await session.type(press_line(noted, kairn[lang])))


@pytest.mark.parametrize("lang", ["en", "ja"])
async def test_s3_1a_bot_dice_a_card_before_the_die_is_taken_is_refused_as_a_time_move_is(tmp_path, lang):
    take_first = {"en": "belongs to your turn, which begins when you take a die",
                  "ja": "手番はダイスを取ったときに始まります"}[lang]
    async with console_session(tmp_path / "g.sqlite3", lang=lang, seed=1) as session:
        await type_all(session, ["/seasons start difficulty:wizard dice:bot"])
        refused = refusals(await session.type("/seasons played card:10"))
        assert len(refused) == 1 and take_first in refused[0] and "`/seasons played`" in refused[0]
        await type_all(session, ["/seasons roll"])
        refused = refusals(await session.type("/seasons played card:10"))
        assert len(refused) == 1 and take_first in refused[0]
        taken = await session.type("press 1")
        assert refusals(taken) == []
        assert refusals(await session.type("/seasons played card:10")) == []


@pytest.mark.parametrize("lang", ["en", "ja"])
async def test_s5_2_the_tie_line_counts_one_chance_per_tied_card(tmp_path, lang):
    """Archmage: four drawn cards of 6 prestige each: one tie for the summon, one for the discard."""
    async with console_session(tmp_path / "g.sqlite3", lang=lang, seed=1) as session:
        said = text_of(await type_all(session, ["/seasons start difficulty:archmage dice:table",
                                                 '/seasons die face:"2 water, 1 crystal, 2 dots"',
                                                 '/seasons die face:"2 water, 3 crystals, 3 dots"',
                                                 "/seasons reveal cards:1,2,3,4"]))
        per_card = {"en": ["one chance per tied card (1 of 4)", "one chance per tied card (1 of 3)"],
                    "ja": ["同点のカード1枚ごとに同じ確率で抽選し（4枚中1枚）", "同点のカード1枚ごとに同じ確率で抽選し（3枚中1枚）"]}
        assert all(line in said for line in per_card[lang]), said
        ties = [line for line in said.split("\n") if {"en": "Tie for", "ja": "同点です"}[lang] in line]
        assert len(ties) == 2 and not any({"en": "in play", "ja": "場のカード"}[lang] in line for line in ties)
        assert {"en": "(6)", "ja": "（6点）"}[lang] in said


@pytest.mark.parametrize("lang", ["en", "ja"])
async def test_s1_2_a_transmutation_energy_and_the_players_figrim_name_the_tokens_square(tmp_path, lang):
    """Seed 1's winter dice: 1 air with a transmutation circle (×4: 4), then 2 water at winter's 1 and 3 crystals
    (6, 9) into spring; after Dummbot's summon the player's Figrim takes 1 (8)."""
    faces = {"en": ('"1 air, star, transmute, 2 dots"', '"2 water, 3 crystals, 3 dots"'),
             "ja": ("大気1、星、変転、ドット2", "水2、クリスタル3、ドット3")}[lang]
    async with console_session(tmp_path / "g.sqlite3", lang=lang, seed=1) as session:
        await type_all(session, ISSUE[:1] + ["/seasons played card:11"])
        assert token(lang, UP, 4) in text_of(await type_all(session, [f"/seasons die face:{faces[0]}"]))
        energy = text_of(await type_all(session, [f"/seasons die face:{faces[1]}"]))
        assert token(lang, UP, 6) in energy and token(lang, UP, 9) in energy
        figrim = text_of(await type_all(session, ["/seasons reveal cards:1,2,3,4"]))
        assert token(lang, DOWN, 8) in figrim
