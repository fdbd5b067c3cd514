"""The procedure around the dragon typed into the console as a player types it, in both languages (issue 23,
Volfyirion): the reshuffle while drawing at the end of the turn (V-3.4), the rulings the original leaves open
said every time they decide (V-4.4, V-4.6, V-4.7), an Asset Deck that runs out (V-3.5), and the bonus reading
named as what it is (V-5.3)."""

from __future__ import annotations

import json

import pytest
from console_session import console_session, refusals, text_of
from test_bot_console_seasons_effects import buttons, press_line

END = {"en": "End turn", "ja": "ターン終了"}
END_RESHUFFLED = {"en": "End turn — I reshuffled while drawing", "ja": "ターン終了（手札を引くときに作り直した）"}
DRAW_FIRST = {"en": "draw your new hand first", "ja": "先に新しい手札を引き"}
# Issue 33: the full prompt says that acquisitions are reported, Wonders too.
ACQUIRE = {"en": "Report each card you acquire, Wonders too (`/volfyrion acquire`: it goes to your discard pile).",
           "ja": "購入したカードは、ワンダーも含めて `/volfyrion acquire` で伝えてください（捨て札に置かれます）。"}
# Issue 33: on a turn with nothing new (not turn 1, not right after a reshuffle) the prompt is one short line.
BRIEF = {"en": "When you are done, draw your new hand, then “End turn” (`/volfyrion end`), or “End turn — I reshuffled "
               "while drawing” (`/volfyrion end reshuffled:true`).",
         "ja": "終わったら新しい手札を引いてから［ターン終了］ボタン（または `/volfyrion end`）を押してください。"}
MOVED = {"en": "You reshuffled while drawing your new hand, so still during this turn: move Volfyirion's token to "
               "the Rage Pile; it attacks now, at the end of this turn.",
         "ja": "新しい手札を引くときにハウスデッキを作り直したので、これはまだこのターン中です。"}
ATTACK = {"en": "Volfyirion attacks! Reveal the 2 cards of the Rage Pile.", "ja": "ヴォルフィーリオンが攻撃します！憤怒パイルの2枚を公開してください。"}
TURN_3 = {"en": "Turn 3: your main phase. The Rage Pile has 2 cards.", "ja": "ターン3のメインフェイズです。憤怒パイルは2枚です。"}


async def _export(session) -> dict:
    items = await session.type("/game export")
    files = [f for item in items for f in item.get("files", []) if f["filename"].endswith(".json")]
    return json.loads(files[-1]["text"])


@pytest.mark.parametrize("lang", ["en", "ja"])
async def test_v3_4_seed_case_end_reshuffled_typed_attacks_at_the_end_of_turn_2(tmp_path, lang):
    async with console_session(tmp_path / "g.sqlite3", lang=lang) as session:
        start = await session.type("/volfyrion start difficulty:normal")
        # The first turn prompt says in full to draw the new hand first; the End buttons ask about that draw.
        assert DRAW_FIRST[lang] in text_of(start) and BRIEF[lang] not in text_of(start)
        assert ACQUIRE[lang] in text_of(start)
        assert [END[lang], END_RESHUFFLED[lang]] == buttons(start)[:2]
        turn_2 = await session.type("/volfyrion end")  # nothing new: the short line, the same buttons
        assert BRIEF[lang] in text_of(turn_2) and DRAW_FIRST[lang] not in text_of(turn_2)
        assert END_RESHUFFLED[lang] in buttons(turn_2)
        asked = await session.type("/volfyrion end reshuffled:true")
        assert refusals(asked) == []
        said = text_of(asked)
        assert MOVED[lang] in said and ATTACK[lang] in said
        assert said.index(MOVED[lang]) < said.index(ATTACK[lang])
        turn_3 = await session.type("/volfyrion reveal cards:Shrewd Deal, Stab")
        assert TURN_3[lang] in text_of(turn_3)
        assert DRAW_FIRST[lang] in text_of(turn_3)  # in full again after a reshuffle
        record = await _export(session)
        assert record["actions"] == [{"type": "end"}, {"type": "end", "reshuffled": True},
                                     {"type": "reveal", "cards": ["Shrewd Deal", "Stab"]}]
        # Turn 3 begins with the kept Command card face up and one new card.
        assert record["state"]["rage_pile"] == {"size": 2, "top": "Shrewd Deal"}


async def test_v3_4_the_end_button_that_says_the_draw_reshuffled(tmp_path):
    async with console_session(tmp_path / "g.sqlite3", lang="ja") as session:
        await session.type("/volfyrion start difficulty:easy")
        turn_2 = await session.type("/volfyrion end")
        asked = await session.type(press_line(turn_2, END_RESHUFFLED["ja"]))
        assert MOVED["ja"] in text_of(asked) and ATTACK["ja"] in text_of(asked)
        # A Japanese yes is a yes too (the console's booleans); the token is away: one End button, one attack.
        await session.type("/volfyrion reveal cards:Stab, Barter")
        await session.type("/volfyrion reshuffle")
        away = await session.type("/game status")
        assert END_RESHUFFLED["ja"] not in buttons(away)
        again = await session.type("/volfyrion end reshuffled:はい")
        assert refusals(again) == [] and "ヴォルフィーリオンが攻撃します！" in text_of(again)
        assert MOVED["ja"] not in text_of(again)
        record = await _export(session)
        assert record["actions"][1] == {"type": "end", "reshuffled": True}


async def test_v3_4_a_wrong_boolean_is_explained_and_changes_nothing(tmp_path):
    async with console_session(tmp_path / "g.sqlite3", lang="en") as session:
        await session.type("/volfyrion start difficulty:easy")
        wrong = await session.type("/volfyrion end reshuffled:perhaps")
        assert refusals(wrong) and "true or false" in refusals(wrong)[0]
        assert (await _export(session))["actions"] == []


RULINGS = {
    "en": [
        "Alantar and Tylaris have the same defence 10: Alantar falls first, its printed defence being the highest",
        "The revealed Command cards give 8 Knowledge points: Volfyirion seals 2 of your 4 unsealed Wonders.",
        "Passed over, each costing more than the Knowledge points left when Volfyirion came to it: Pure Qoam "
        "(cost 3), Divining Petals (cost 2). Volfyirion seals a cheaper Wonder instead, if there is one",
        "Wonders of equal cost 3: the one played first is sealed first, so Sibilant Crystal is sealed and Pure Qoam "
        "is not (the original calls this case 「不明」, unknown; the bot's ruling).",
        "Book of Wisdom and Endless Tactic both cost 8: Book of Wisdom stays, having more Knowledge points (5)",
    ],
    "ja": [
        "AlantarとTylarisは防御力がどちらも10です。印刷された防御力が最も高いAlantarが先に破壊されます",
        "公開されたコマンドカードの知識ポイントは合計8です。ヴォルフィーリオンは、封印されていないワンダー4枚のうち2枚を封印します。",
        "Pure Qoam（コスト3）、Divining Petals（コスト2）は、どれもコストがその時点の残りの知識ポイントを上回るため封印しません。"
        "よりコストの低いワンダーがあれば、ヴォルフィーリオンはそちらを封印します",
        "コストが同じ3のワンダーは、先にプレイしたものから封印します。Sibilant Crystalを封印し、Pure Qoamは封印しません"
        "（和訳ソロルールで「不明」とされている場合の、このボットの裁定です）。",
        "Book of WisdomとEndless Tacticはどちらもコスト8です。知識ポイントの多いBook of Wisdom（知識ポイント5）を残します",
    ],
}


@pytest.mark.parametrize("lang", ["en", "ja"])
async def test_v4_4_v4_6_v4_7_the_rulings_are_said_when_they_decide(tmp_path, lang):
    """Tylaris 8 + Novice 2 = 10 ties with Alantar 10; Wonders 4, 3, 3, 2 in that order; Book of Wisdom (8, 5 KP)
    and Endless Tactic (8, 3 KP): attack 17 takes Alantar; 8 KP seal 4 and the first 3, 1 point is left."""
    async with console_session(tmp_path / "g.sqlite3", lang=lang) as session:
        await session.type("/volfyrion start difficulty:normal")
        for line in ("play card:Novice city:Tylaris", "play card:Void Fluid", "play card:Sibilant Crystal",
                     "play card:Pure Qoam", "play card:Divining Petals", "end reshuffled:true"):
            assert refusals(await session.type(f"/volfyrion {line}")) == []
        reply = await session.type("/volfyrion reveal cards:Book of Wisdom, Endless Tactic, Library, Mint, Bank, "
                                   "Barracks")
        said = text_of(reply)
        for line in RULINGS[lang]:
            assert line in said, line
        positions = [said.index(line) for line in RULINGS[lang]]  # each said where it decides, in that order
        assert positions == sorted(positions)


async def test_v4_6_the_japanese_count_says_how_many_wonders_are_sealed(tmp_path):
    """Two unsealed Wonders, 3 Knowledge points: one is sealed. Before: 「ワンダー2枚を封印します」."""
    async with console_session(tmp_path / "g.sqlite3", lang="ja") as session:
        await session.type("/volfyrion start difficulty:easy")
        await session.type("/volfyrion play card:Sibilant Crystal")
        await session.type("/volfyrion play card:Void Fluid")
        await session.type("/volfyrion end reshuffled:true")
        said = text_of(await session.type("/volfyrion reveal cards:Feasible Solution, Worthy Trade, Library"))
        assert "公開されたコマンドカードの知識ポイントは合計3です。ヴォルフィーリオンは、封印されていないワンダー2枚のうち1枚を封印します。" in said
        assert "ワンダー2枚を封印します" not in said
        assert "Void Fluid（コスト4）はコストが残りの知識ポイントを上回るため封印しません。" in said


@pytest.mark.parametrize("lang", ["en", "ja"])
async def test_v3_5_an_early_refill_asks_for_a_confirmation_by_its_button(tmp_path, lang):
    words = {"en": ("By my count the Asset Deck can still hold up to 56 cards", "Yes, the Asset Deck ran out",
                    "The Asset Deck ran out sooner than my count said (56 cards left by it",
                    "no Rage card is added (the Rage Pile stays at 1 card)"),
             "ja": ("このボットの数えでは、アセットデッキにはまだ最大56枚あります", "はい、アセットデッキはなくなりました",
                    "アセットデッキは、このボットの数え（残り56枚）より早くなくなりました",
                    "憤怒パイルにカードを追加しません（憤怒パイルは1枚のままです）")}
    asks, button, noted, none_added = words[lang]
    async with console_session(tmp_path / "g.sqlite3", lang=lang) as session:
        await session.type("/volfyrion start difficulty:normal")
        asked = await session.type("/volfyrion refill")  # turn 1: accepted at once before V-3.5
        assert refusals(asked) and asks in refusals(asked)[0] and "`/volfyrion refill confirm:true`" in refusals(asked)[0]
        assert (await _export(session))["actions"] == []
        confirmed = await session.type(press_line(asked, button))
        assert refusals(confirmed) == [] and noted in text_of(confirmed)
        turn_2 = await session.type("/volfyrion end")
        assert none_added in text_of(turn_2)
        record = await _export(session)
        assert record["actions"] == [{"type": "refill", "confirm": True}, {"type": "end"}]
        assert record["state"]["rage_pile"]["size"] == 1


async def test_v3_5_refill_confirm_typed_with_put_aside_cards(tmp_path):
    async with console_session(tmp_path / "g.sqlite3", lang="en") as session:
        await session.type("/volfyrion start difficulty:normal")
        await session.type("/volfyrion putaside paid:battle card:Stab")
        asked = await session.type("/volfyrion refill")
        assert "The 1 put-aside card then makes a new Asset Deck." in refusals(asked)[0]
        done = await session.type("/volfyrion refill confirm:true")
        assert "shuffle the 1 put-aside card into a new Asset Deck" in text_of(done)


@pytest.mark.parametrize(("lang", "flat", "per_city"), [
    ("en", "bonus flat (the rules text this bot follows)", "bonus per city (the English rulebook's table)"),
    ("ja", "ボーナスは固定（和訳ソロルールの式）", "ボーナスは街ごと（英語版ルールブックの表）"),
])
async def test_v5_3_the_bonus_readings_are_named_as_what_they_are(tmp_path, lang, flat, per_city):
    async with console_session(tmp_path / "g.sqlite3", lang=lang) as session:
        said = text_of(await session.type("/volfyrion start difficulty:normal"))
        assert flat in said and "原作" not in said and "original" not in said
        await session.type("/game abandon")
        await session.type("press 1")  # "Yes, abandon this game"
        said = text_of(await session.type("/volfyrion start difficulty:normal bonus:per_city"))
        assert per_city in said


FEWER_WORDS = {
    "en": {"passed": "Passed over, each costing more than the Knowledge points left when Volfyirion came to it: "
                     "Void Fluid ×2 (cost 4).",
           "bare": "defence 8\nTroop: —", "with_troop": "defence 14 with its Troop\nTroop: Elite Trooper"},
    "ja": {"passed": "Void Fluid×2（コスト4）は、どれもコストがその時点の残りの知識ポイントを上回るため封印しません。",
           "bare": "防御力8\n部隊: —", "with_troop": "防御力14（部隊込み）\n部隊: Elite Trooper"},
}


@pytest.mark.parametrize("lang", ["en", "ja"])
async def test_v4_4_v4_6_one_line_for_the_wonders_passed_over_and_a_city_without_troop_is_its_defence(
        tmp_path, lang):
    """Issue 33 point 3: both Void Fluids passed over in one line, copies counted; a city with no Troop reads its
    printed defence alone, one with a Troop says so."""
    words = FEWER_WORDS[lang]
    async with console_session(tmp_path / "g.sqlite3", lang=lang) as session:
        start = text_of(await session.type("/volfyrion start difficulty:easy"))
        assert words["bare"] in start and words["with_troop"].split("\n")[0] not in start
        for line in ("play card:Void Fluid", "play card:Sibilant Crystal", "play card:Void Fluid",
                     "end reshuffled:true"):
            assert refusals(await session.type(f"/volfyrion {line}")) == []
        said = text_of(await session.type("/volfyrion reveal cards:Feasible Solution, Shrewd Deal, Stab, Barter"))
        events_said = [line for line in said.split("\n") if line.startswith("•")]
        assert words["passed"] in said and sum("Void Fluid" in line for line in events_said) == 1  # KP 3
        await session.type("/volfyrion end")
        await session.type('/volfyrion play card:"Elite Trooper" city:Tylaris')
        status = text_of(await session.type("/game status"))
        assert words["with_troop"] in status
