"""Typed into the console as a player types them: "I could not pay" for the card named (S-8 #39), winter's rate
after a time move past the end of year 3 (S-4.1, S-9.4), Kairn against Dummbot's Thieving Fairies (S-8.7), the
player's Arcano Leech before a card-draw summon (S-8 #33), and what an undo says to put back on the table
(both games). Both languages where the words are new. Each table-dice test uses a seed whose chosen winter
dice have the faces it types (S-1.4): 1 for "draw, 1 dot", 0 for that and "6 crystals, 2 dots", 8 for "2 water,
3 crystals, 1 dot"."""

from __future__ import annotations

from console_session import buttons, console_session, press_line, refusals, text_of, type_all

REPRO = ["/seasons start difficulty:wizard dice:table", '/seasons die face:"draw, 1 dot"', "/seasons reveal cards:33",
         '/seasons die face:"draw, 1 dot"', "/seasons reveal cards:39"]





async def test_s8_39_cannot_pay_card_39_cancels_titus_not_the_leech(tmp_path):
    """The issue's reproduction as typed: Titus' payment is cancelled and Titus sacrificed (its 4 prestige leave
    Dummbot's score: 14 → 9); the Leech's payment is kept."""
    async with console_session(tmp_path / "g.sqlite3", lang="en", seed=1) as session:
        await type_all(session, REPRO + ["/seasons effect kind:summon"])
        items = await session.type("/seasons effect kind:cannot_pay card:39")
        said = text_of(items)
        assert "Titus Deepgaze (#39): payment cancelled" in said and "Arcano Leech" not in said.split("\n")[1]
        assert "Titus Deepgaze (#39) is sacrificed from Dummbot's play area (score 9)" in said
        status = text_of(await session.type("/game status"))
        assert "Dummbot's score now: 9" in status and "Dummbot's play area (1): Arcano Leech (#33)" in status
        assert "Arcano Leech (#33): payment cancelled" in text_of(await session.type("/seasons effect kind:cannot_pay"))


async def test_s8_39_the_button_on_a_reply_that_named_titus_cancels_titus_in_japanese(tmp_path):
    async with console_session(tmp_path / "g.sqlite3", lang="ja", seed=1) as session:
        titus = await type_all(session, REPRO)
        assert ("深き眼差しのタイタス（#39）: ダムボットにクリスタルを1個渡し、クリスタルボードのダムボットのソーサラートークンを"
                "1のマスへ進めてください。") in text_of(titus)
        items = await session.type(press_line(titus, "支払えなかった"))
        said = text_of(items)
        assert "深き眼差しのタイタス（#39）: 支払いを取り消し" in said
        assert "ダムボットの深き眼差しのタイタス（#39）は犠牲になります。ダムボットの場から捨て札に置いてください（ダムボットのスコアは8点になります）" in said


async def test_s8_39_the_button_after_the_leech_payment_cancels_the_leech(tmp_path):
    async with console_session(tmp_path / "g.sqlite3", lang="en", seed=1) as session:
        leech = await type_all(session, REPRO + ["/seasons effect kind:summon"])
        items = await session.type(press_line(leech, "I could not pay"))
        assert "Arcano Leech (#33): payment cancelled" in text_of(items)
        assert "Titus Deepgaze (#39)" in text_of(await session.type("/game status"))


async def _past_the_end_by_time_moves(session, reveal: str) -> list[dict]:
    """Apprentice, table dice: the player's time moves (3 a time, in round 1) carry the token past month 12 of
    year 3; each change of season draws 1 card from Dummbot's hand while it has any (6 + 1 each new year)."""
    await session.type("/seasons start difficulty:apprentice dice:table")
    worthless = ["23", "23", "24", "24", "25", "25", "26", "26"]
    for _ in range(12):
        items = await session.type("/seasons time steps:3")
        assert refusals(items) == [], text_of(items)
        if "reveal" in [b for b in buttons(items) if b][:3] or reveal in text_of(items):
            items = await session.type(f"/seasons reveal cards:{worthless.pop()}")
            assert refusals(items) == [], text_of(items)
    assert worthless == []
    return items


async def test_s4_1_s9_4_past_year_3_dummbots_energy_converts_at_winters_rate(tmp_path):
    """Past the end of year 3 the token stands on the winter space: 2 water at winter's 1 each (autumn: 3 each).
    The game still ends after that round."""
    async with console_session(tmp_path / "g.sqlite3", lang="en", seed=8) as session:
        items = await _past_the_end_by_time_moves(session, "Tell me which 1 card")
        assert "this is the last round" in text_of(items)
        items = await session.type('/seasons die face:"2 water, 3 crystals, 1 dot"')
        said = text_of(items)
        assert ("Dummbot converts 2 water into 2 crystals at winter's rate of 1 each. Move Dummbot's sorcerer token on the "
                "crystal board up to 2.") in said
        assert "Enter your final score" in said


async def test_s4_1_s9_4_past_year_3_at_winters_rate_in_japanese(tmp_path):
    async with console_session(tmp_path / "g.sqlite3", lang="ja", seed=8) as session:
        await _past_the_end_by_time_moves(session, "何のカードか教えてください")
        said = text_of(await session.type("/seasons die face:水2、クリスタル3、1点"))
        assert ("水の魔力2つをクリスタル2個に変換します（冬のレートで1つにつき1個）。クリスタルボードのダムボットのソーサラー"
                "トークンを2のマスへ進めてください。") in said


async def test_s8_7_kairn_against_dummbots_fairies_applies_both_in_one_report(tmp_path):
    """Dummbot summons Thieving Fairies from the draw pile; the player's Kairn: Dummbot has no crystal to lose,
    then the Fairies take the activation's crystal (1) and Dummbot gains 1 more (2)."""
    for lang, kairn, said_kairn, said_fairies in (
            ("en", "Kairn the Destroyer: Dummbot loses 4 crystals", "is an activation: Dummbot's Thieving Fairies (#41)",
             "Thieving Fairies (#41): Dummbot gains 1 more crystal. Move Dummbot's sorcerer token on the crystal board up to 2."),
            ("ja", "破壊者ケアンを起動した（ダムボットのクリスタル−4個）", "の起動もカードの起動です。ダムボットの泥棒フェアリー（#41）",
             "泥棒フェアリー（#41）: ダムボットはさらにクリスタルを1個得ます。クリスタルボードのダムボットのソーサラートークンを"
             "2のマスへ進めてください。")):
        async with console_session(tmp_path / f"{lang}.sqlite3", lang=lang, seed=1) as session:
            await type_all(session, ["/seasons start difficulty:wizard dice:table", '/seasons die face:"draw, 1 dot"',
                                      "/seasons reveal cards:41"])
            noted = await type_all(session, ["/seasons played card:16"])
            items = await session.type(press_line(noted, kairn))
            assert refusals(items) == []
            said = text_of(items)
            assert said_kairn in said and said_fairies in said


async def test_s8_33_the_players_leech_gives_a_crystal_before_a_card_draw_summon(tmp_path):
    async with console_session(tmp_path / "g.sqlite3", lang="en", seed=0) as session:
        await type_all(session, ["/seasons start difficulty:wizard dice:table", '/seasons die face:"6 crystals, 2 dots"',
                                  "/seasons played card:33", '/seasons die face:"draw, 1 dot"'])
        said = text_of(await session.type("/seasons reveal cards:12"))
        lines = said.split("\n")
        leech = next(i for i, x in enumerate(lines) if "Arcano Leech (#33): Dummbot gives you 1 crystal" in x)
        summon = next(i for i, x in enumerate(lines) if "Dummbot summons Naria the Prophetess (#12)" in x)
        assert leech < summon


async def test_undo_says_what_to_put_back_volfyirion_play_both_languages(tmp_path):
    """Issue 33: the player's own cards are said too — a card played back into the hand, a card acquired back into
    the Asset Row, a Wonder back into Volfyirion's Lair."""
    for lang, rage, noted, acquired, wonder in (
            ("en", "Take the Rage Pile's bottom card back onto the Asset Deck (face down, on top).",
             "Take Elite Trooper from Tylaris back into your hand (no longer noted there).",
             "Take Shrewd Deal out of your discard pile and put it back into the Asset Row",
             "Take Wonder Void Fluid out of your discard pile and put it back into Volfyirion's Lair"),
            ("ja", "憤怒パイルの一番下のカードを、裏向きのままアセットデッキの一番上に戻してください。",
             "TylarisのElite Trooperの記録を取り消しました。Elite Trooperを手札に戻してください。",
             "Shrewd Dealを捨て札からアセット列に戻し、その場所に補充したカードをアセットデッキの一番上に戻してください。",
             "Void Fluidを捨て札からヴォルフィーリオンの巣に戻してください。")):
        async with console_session(tmp_path / f"{lang}.sqlite3", lang=lang) as session:
            await type_all(session, ["/volfyrion start difficulty:normal",
                                      '/volfyrion play card:"Elite Trooper" city:Tylaris'])
            said = text_of(await session.type("/game undo"))
            assert rage in said and noted in said
            assert said.index(rage) < said.index(noted)  # the last instruction first
            await type_all(session, ['/volfyrion acquire card:"Shrewd Deal"'])
            assert acquired in text_of(await session.type("/game undo"))
            await type_all(session, ['/volfyrion acquire card:"Void Fluid"'])
            assert wonder in text_of(await session.type("/game undo"))


async def test_undo_says_what_to_put_back_seasons_season_change_both_languages(tmp_path):
    """Archmage: a season change summons Demon of Argos and discards Potion of Power; undoing the reveal puts
    both, and the two cards put back into Dummbot's hand, back with the cards drawn, to be told again (S-5.1 draws
    once); undoing the die puts the drawn cards back, the star's card on the draw pile, the token and Dummbot's
    crystals back."""
    lines = ["/seasons start difficulty:archmage dice:table", "/seasons time steps:1",
             '/seasons die face:"2 water, star, 3 dots"', "/seasons reveal cards:12, 38, 5, 23"]
    expected = {
        "en": (["Take back out of Dummbot's hand the 2 cards you put back into it — Naria the Prophetess (#12), Balance "
                "of Ishtar (#5) — and put them with the cards you drew.",
                "Take Potion of Power (#23) back from the discard pile and put it with the cards you drew from "
                "Dummbot's hand.",
                "Take Demon of Argos (#38) back from Dummbot's play area and put it with the cards you drew from its "
                "hand.",
                "Do not reshuffle Dummbot's hand or draw again: the 4 cards you drew are this change of season's draw",
                "Tell me the same 4 cards again with `/seasons reveal`"],
               ["Put the 4 cards you drew from Dummbot's hand back into it.",
                "Move the season token back to year 1, month 2 (winter).",
                "Dummbot's crystals go back to 0: move Dummbot's sorcerer token on the crystal board back to 0."]),
        "ja": (["女預言者ナリア（#12）、イシュターの天秤（#5）の2枚はダムボットの手札に戻してあります。もう一度取り出し、"
                "引いたカードに戻してください。",
                "捨て札の力の薬（#23）を取り、ダムボットの手札から引いたカードに戻してください。",
                "ダムボットの場のアルゴスの悪魔（#38）を取り、ダムボットの手札から引いたカードに戻してください。",
                "ダムボットの手札をシャッフルし直したり、引き直したりしないでください。",
                "同じ4枚を `/seasons reveal` でもう一度伝えてください"],
               ["ダムボットの手札から引いた4枚を、ダムボットの手札に戻してください。", "季節トークンを1年目2月（冬）に戻してください。",
                "ダムボットのクリスタルは0個に戻ります。"]),
    }
    for lang, (reveal_back, die_back) in expected.items():
        async with console_session(tmp_path / f"{lang}.sqlite3", lang=lang, seed=1) as session:
            await type_all(session, lines)
            said = text_of(await session.type("/game undo"))
            assert all(line in said for line in reveal_back), said
            said = text_of(await session.type("/game undo"))
            assert all(line in said for line in die_back), said


def test_s7_3_the_final_score_says_no_zero_penalty_in_both_languages():
    """Zero counts are not said (ja-style): no "bonus track 0", no "hand 0 × 5", no "0 of 3 standing"."""
    from bot.games.seasons import embed as seasons_embed
    from bot.games.volfyirion import embed as volfyirion_embed
    from engine.core import Result
    from engine.seasons.summary import PlayerScore
    from engine.volfyirion.summary import CityEnding, Ending, How, Outcome

    def player(bonus_penalty, hand):
        return {"player": PlayerScore(crystals=10, prestige=5, bonuses=int(bonus_penalty > 0), hand=hand, extra=0,
                                      bonus_penalty=bonus_penalty)}

    result = Result("won", player_score=15, opponent_score=5, length=18)
    assert dict(seasons_embed.result_lines("en", result, player(0, 0)))["Your score"] == \
        "Crystals 10 + prestige 5 = **15**"
    assert dict(seasons_embed.result_lines("en", result, player(5, 1)))["Your score"] == \
        "Crystals 10 + prestige 5 − bonus track 5 − hand 1 × 5 = **15**"
    assert dict(seasons_embed.result_lines("ja", result, player(5, 0)))["あなたのスコア"] == \
        "クリスタル10個＋勝利点5点−ボーナス5点＝**15点**"
    fallen = tuple(CityEnding(n, destroyed=True) for n in ("Tylaris", "Vahylea", "Alantar"))
    lost = Result("lost", length=9, how="cities_destroyed", details={"cities_left": 0},
                  breakdown=Ending(Outcome.LOST, How.CITIES_DESTROYED, 9, 0, fallen))
    assert dict(volfyirion_embed.result_lines("ja", lost, {}))["街"] == \
        "3つの街はすべて破壊されました（Tylaris、Vahylea、Alantar）"
    assert dict(volfyirion_embed.result_lines("en", lost, {}))["Cities"] == \
        "All 3 cities fell: Tylaris, Vahylea, Alantar"


def test_every_undo_instruction_of_whole_games_has_both_templates():
    """Seeded whole games of both games: each action's reversal is said in both languages, with every placeholder."""
    from bot.i18n import event_lines, has
    from engine.seasons.autoplay import autoplay as seasons_game
    from engine.volfyirion.autoplay import autoplay as volfyirion_game

    seen: set[str] = set()
    for play, options in ((seasons_game, {"difficulty": "archmage", "dice": "table"}),
                          (volfyirion_game, {"difficulty": "normal"})):
        for seed in range(3):
            record = play(options, seed, max_actions=400)
            rules, state = record.rules, record.rules.new_game(record.options, record.seed).state
            for action in record.actions:
                step = rules.apply(state, action)
                for event in rules.reversal(state, action, step):
                    seen.add(event.key)
                    assert has(event.key), event.key
                    for lang in ("en", "ja"):
                        assert "{" not in event_lines(lang, [event])[0], (lang, event)
                state = step.state
    assert len(seen) > 15
