"""The bot's Japanese follows docs/japanese.md as far as a test can tell (issue 10, point 7).

Every Japanese string of bot/locales and of the console: full-width brackets and marks, no English words
outside commands (in backticks or after a slash) and card names, no spaces around parameters, the glossary's
words; and the die-face suggestions of a Japanese reply are Japanese.
"""

from __future__ import annotations

import re
import string

from bot.console import MESSAGES
from bot.i18n import catalog_texts, t
from engine.seasons import season_faces
from engine.volfyirion.cards import CATALOG as VOLF

KANA_KANJI = "\u3040-\u30ff\u3400-\u9fff"
# Proper names the Japanese text keeps in English: Volfyirion's cards (the Japanese edition's names are not
# known), and the box's card types Perk and Ploy (not used in the solo game).
CARD_WORDS = {w for c in VOLF for w in re.findall(r"[A-Za-z]+", c.name)} | {"Perk", "Ploy"}
# Names of products and formats, which Japanese writes as they are; and the Japanese Volfyirion rules' own
# heading, 「Volfyrionによる攻撃」, cited as it is printed.
PROPER_NAMES = {"Discord", "JSON", "SQLite", "Volfyrion"}


def _japanese() -> dict[str, str]:
    texts = dict(catalog_texts()["ja"])
    texts.update({f"console:{k}": v for k, v in MESSAGES["ja"].items()})
    return texts


def _prose(text: str) -> str:
    """The text a reader reads as Japanese: without commands, placeholders and code spans."""
    text = re.sub(r"`[^`]*`", " ", text)
    text = re.sub(r"\{[^}]*\}", " ", text)
    text = re.sub(r"/(seasons|volfyrion|game)( [a-z]+)?", " ", text)
    return re.sub(r"\b(press|form) ", " ", text)  # the console's own commands


def test_japanese_uses_full_width_brackets_and_marks():
    bad = {k: v for k, v in _japanese().items() if re.search(r"[()!?]", _prose(v).replace("(…)", ""))}
    assert bad == {}


def test_japanese_has_no_english_words_outside_commands_and_card_names():
    bad = {}
    for key, text in _japanese().items():
        words = set(re.findall(r"[A-Za-z]{2,}", _prose(text))) - CARD_WORDS - PROPER_NAMES
        if words:
            bad[key] = sorted(words)
    assert bad == {}


def test_japanese_has_no_spaces_around_parameters():
    bad = {}
    for key, text in catalog_texts()["ja"].items():
        if re.search(rf"\}} +[{KANA_KANJI}]|[{KANA_KANJI}] +\{{", text):
            bad[key] = text
    assert bad == {}


def test_japanese_uses_the_glossarys_words():
    """山札 is Seasons' draw pile, ハウスデッキ Volfyirion's deck; 修正 not 訂正; スコア not 得点; 変転のサークル."""
    for key, text in catalog_texts()["ja"].items():
        assert "訂正" not in text and "得点" not in text, key
        assert "変転サークル" not in text, key
        if "volfyirion" in key or "volfyrion" in text:
            assert "山札" not in text, key


def test_placeholders_are_the_same_in_every_language_file():
    en, ja = catalog_texts()["en"], catalog_texts()["ja"]

    def names(template: str) -> set[str]:
        return {n for _, n, _, _ in string.Formatter().parse(template) if n}

    assert [k for k in en if names(en[k]) != names(ja.get(k, en[k]))] == []
    for key in MESSAGES["en"]:
        assert names(MESSAGES["en"][key]) == names(MESSAGES["ja"][key]), key


def test_die_face_suggestions_in_a_japanese_reply_are_japanese():
    face = {"energy": {"water": 2}, "crystals": 0, "star": 0, "draw": 0, "transmute": False, "dots": 1}
    text = t("ja", "seasons.face_not_in_season", season="winter", face=face,
             closest_faces=["2 water, star, 2 dots", "draw, 3 dots"])
    assert "「水2、星、ドット2」" in text and "「ドロー、ドット3」" in text
    assert not re.search(r"[A-Za-z]", text)


# Placeholders a Japanese template may follow with 点: scores, margins and score parts, never a die's dots.
SCORE_PLACEHOLDERS = {"bonus_penalty", "dummbot", "dummbot_score", "extra", "margin", "mean", "now", "p10", "p90",
                      "player", "player_score", "prestige", "score", "total"}
# Words where 点 is no count of dots: prestige (勝利点), the margin (点差), a tie (同点), "at the start" (時点), and
# the five points a card left in hand costs (×5点).
POINT_WORDS = re.compile(r"勝利点|点差|同点|時点|×5点")


def test_s3_3_no_japanese_template_writes_a_dies_dots_as_points():
    """the Japanese style review, Turn 3 rule 2: the dots of a die (S-3.3) are 「ドット1」, and 点 is kept for scores (issue 25,
    point 8)."""
    for key, text in _japanese().items():
        after = {m.group(1) for m in re.finditer(r"\{(\w+)[^}]*\}点", text)}
        assert after <= SCORE_PLACEHOLDERS, (key, after - SCORE_PLACEHOLDERS)
        rest = POINT_WORDS.sub("", re.sub(r"\{[^}]*\}点", "", text))
        assert "点" not in rest, (key, text)  # 「1点」 in an example face, 「点の数」 for the dots
    for season in ("winter", "spring", "summer", "autumn"):
        for face in season_faces(season):
            shown = t("ja", "seasons.event.dummbot_die", face=face)
            assert ("ドット" in shown) == bool(face["dots"]) and not re.search(r"\d点", shown), shown


# -- issue 25, point 8: what a player at the table misread (rules the Japanese style review should gain) -------------------


def test_a_tie_is_drawn_among_the_tied_cards_wherever_they_are():
    """the Japanese style review, Turn 4 finding 1: the tie line is said for cards Dummbot drew (a change of season) and for cards
    in its play area (Syllas, Amsug): 「同点のカード1枚ごとに」 fits both, never 「場のカード」 nor 「引いたカード」; the
    value keeps its counter (「（0点）」, a negative one with a real minus sign)."""
    for key in ("seasons.event.tie_broken", "seasons.event.tie_broken.lowest"):
        text = t("ja", key, prestige=3, tied_cards=["10", "17"], among=2, copies=1, card="10")
        assert "同点のカード1枚ごとに同じ確率で抽選し（2枚中1枚）" in text and "（3点）" in text
        assert "場のカード" not in text and "引いたカード" not in text
        english = t("en", key, prestige=3, tied_cards=["10", "17"], among=2, copies=1, card="10")
        assert "one chance per tied card (1 of 2)" in english and "in play" not in english
    assert "（−5点）" in t("ja", "seasons.event.tie_broken.lowest", prestige=-5, tied_cards=["50", "50"], among=2,
                          copies=1, card="50")


def test_every_event_line_is_a_sentence_not_a_label():
    """「脇に置く: Soldier」 reads as a label: a line that ends in a colon and a list says what to do, or what
    happened, in a sentence (〜てください／〜ます／〜です)."""
    bad = {k: v for k, v in catalog_texts()["ja"].items()
           if ".event." in k and re.fullmatch(r"[^。]*[:：] ?\{[a-z_]+\}", v)
           and not re.search(r"ください|ます|です", v.split(":")[0])}
    assert bad == {}


def test_what_the_player_reported_is_said_as_done_not_ordered():
    """After `/volfyrion remove`, the player has removed the card: 「除去しました」, not 「除去してください」."""
    text = t("ja", "volfyirion.event.card_removed_reported", card="Novice", city="Kyr")
    assert text == "Novice（Kyr）を除去しました。"


def test_corrections_say_more_or_fewer_with_a_plain_count_and_a_clamp_says_why():
    """No 「−3個修正しました」: 「3個減らしました」/「2個増やしました」; a correction stopped at 0 says so."""
    token = "クリスタルボードのダムボットのソーサラートークンを{}のマスへ{}てください。"
    assert t("ja", "seasons.event.crystals_corrected", change=-3, total=1, asked=-3) == \
        "ダムボットのクリスタルを3個減らしました。" + token.format(1, "戻し")
    assert t("ja", "seasons.event.crystals_corrected", change=2, total=4, asked=2) == \
        "ダムボットのクリスタルを2個増やしました。" + token.format(4, "進め")
    clamped = t("ja", "seasons.event.crystals_corrected", change=-2, total=0, asked=-3)
    assert "2個しかない" in clamped and "0個より少なくなりません" in clamped
    assert all("{change:+}個" not in v for v in catalog_texts()["ja"].values())


def test_a_cancelled_payment_says_whose_crystals_and_where_they_go():
    """「ダムボットはクリスタルを1個戻します」 read as giving back to the player: say Dummbot's count goes down (issue 33:
    it said 「増えて」 while it went down) and where its token goes on the crystal board."""
    text = t("ja", "seasons.event.payment_corrected", card="33", n=1, total=3)
    assert "戻します" not in text and "増え" not in text and "進め" not in text
    assert "ダムボットのクリスタルは1個減ります" in text and "ソーサラートークンを3のマスへ戻してください" in text


def test_leaderboard_margins_have_a_real_minus_sign_and_the_unit():
    assert t("ja", "leaderboard.margin", margin=-3) == "−3点" and t("ja", "leaderboard.margin", margin=5) == "＋5点"
    assert t("en", "leaderboard.margin", margin=-3) == "−3 points"


def test_a_heading_the_console_prints_before_a_colon_has_no_full_stop():
    """The kept-form message's heading is printed as 「見出し: 値」: no 「。:」 (nor ".:" in English)."""
    for lang in ("ja", "en"):
        heading = t(lang, "pick.edit")
        assert not heading.endswith(("。", ".")), heading


def test_the_bots_own_roll_is_a_button_to_press_not_dice_to_roll():
    """With the bot's dice, 「ダイスを振ってください」 sent players for their own dice: name the button."""
    text = t("ja", "seasons.waiting.roll", year=1, month=1, season="冬", round=1)
    assert "［ダイスを振る］ボタンを押してください" in text and "ボットが" in text


def test_components_are_named_as_the_seed_names_them():
    """クリスタルボード, ソーサラートークン, 魔法オブジェクト — not 魔法のアイテム or other coinages."""
    for key, text in catalog_texts()["ja"].items():
        assert "魔法のアイテム" not in text and "マジックアイテム" not in text, key
        assert "魔術師トークン" not in text and "クリスタルトラック" not in text, key


# -- the Japanese style review, "Turn 4 findings": every rule a test can say, over every Japanese key -----------------------

# Command descriptions and option names go to Discord's command picker, which shows no markdown.
PICKER_KEYS = ("cmd.", "opt.")


def _code_free(text: str) -> str:
    return re.sub(r"`[^`]*`", " ", text)


def _messages() -> dict[str, str]:
    """Every Japanese string a reader sees as a message (not the command picker's descriptions)."""
    return {k: v for k, v in _japanese().items() if not k.startswith(PICKER_KEYS)}


def _labels() -> set[str]:
    """The Japanese labels of every button (a face to take shown as 「…」) and every menu's placeholder."""
    ja = catalog_texts()["ja"]
    labels = {v for k, v in ja.items() if k.startswith(("button.", "seasons.effect.", "seasons.button."))
              or (k.startswith("pick.") and ".placeholder" in k)}
    return {re.sub(r"\{[^}]*\}", "…", label) for label in labels}


def test_rule_12_negatives_have_a_real_minus_sign():
    """「−5点」 (U+2212), never an ASCII hyphen before a number, outside the commands a player types."""
    bad = {k: v for k, v in _japanese().items() if re.search(r"-\s*[\d{]", _code_free(v))}
    assert bad == {}
    assert t("ja", "leaderboard.margin", margin=-3).startswith("−")


def test_rule_12_one_plus_style_full_width_without_spaces():
    """「＋」 as 「×」: full-width and tight, for a sum as for a signed number (the formatter's ``{n:＋}`` too)."""
    bad = {k: v for k, v in _japanese().items()
           if re.search(r"\+| ＋|＋ | [−=＝] |[−＝] \{", _code_free(v))}
    assert bad == {}
    assert t("ja", "leaderboard.margin", margin=5) == "＋5点"
    breakdown = t("ja", "result.breakdown.dummbot", crystals=64, card_count=13, prestige=109, total=173)
    assert breakdown == "クリスタル64個＋カード13枚の勝利点109点＝**173点**"


def test_rule_3_no_bare_button_every_label_is_a_real_one():
    """Never 「ボタン」 alone: a button the player is sent to is named by its label in ［…］, and the label is one
    the bot really shows. Only a refusal about the button just pressed (「このボタン」) or a generic sentence
    about buttons as such needs no label."""
    generic = re.compile(r"(］|この|メッセージの|応答の|メッセージに(は)?|操作の|フォームを開く|」番の|\}番の)ボタン")
    bare = {k: v for k, v in _messages().items() if "ボタン" in generic.sub("", v)}
    assert bare == {}
    labels = _labels()
    unknown = {k: [m for m in re.findall(r"［([^］]*)］", v) if m not in labels] for k, v in catalog_texts()["ja"].items()}
    assert {k: v for k, v in unknown.items() if v} == {}


def test_rule_3_an_effect_button_is_named_with_its_command_and_option():
    """「［手札から召喚する前に…］ボタン（または `/seasons effect kind:summon`）」: the label and the command that
    does the same, with the option for that effect."""
    ja = catalog_texts()["ja"]
    effects = {ja[f"seasons.effect.{kind}"]: kind for kind in ("activate", "summon", "kairn", "onys")}
    named = 0
    for key, text in ja.items():
        if not key.startswith("seasons.event."):
            continue
        for label in re.findall(r"［([^］]*)］ボタン（", text):
            if label in effects:
                assert f"`/seasons effect kind:{effects[label]}`" in text, key
                named += 1
        if "［支払えなかった］ボタン" in text:
            assert "`/seasons effect kind:cannot_pay`" in text, key
    assert named >= 5


def test_rule_9_seasons_effects_are_one_tense_the_past():
    """The effect buttons are what the player did: all in the plain past (「カードを起動した」)."""
    ja = catalog_texts()["ja"]
    for key in [k for k in ja if k.startswith("seasons.effect.")]:
        assert re.sub(r"（[^）]*）$", "", ja[key]).endswith("た"), (key, ja[key])
    assert t("ja", "button.refill_confirm").endswith("ました") and t("ja", "button.abandon_confirm").endswith("ます")


def test_rule_7_the_originals_words():
    """和訳ソロルール, never 原作; 購入 (not 獲得); 破壊できる中で; 季節トークン (not 時間); ボーナス (not ボーナストラック);
    the token near the Rage Pile, never 「ドラゴンが憤怒パイルへ」."""
    for key, text in _japanese().items():
        assert "原作" not in text and "獲得" not in text and "払える中で" not in text, key
        assert "ボーナストラック" not in text and "ドラゴンが憤怒パイル" not in text, key
        if key.startswith(("seasons.", "help.seasons", "step.seasons")):
            assert "時間" not in text, key
    assert "和訳ソロルールに記載がない" in t("ja", "volfyirion.event.city_tie", city="Kyr", cities="Tylaris", defence=9)


def test_earlier_rules_still_broken_in_the_text_are_gone():
    """the Japanese style review, Turn 4 intro: 「このルールの計算」 (→ 和訳ソロルールの式), 「巣にいる」 (a token is on its Lair),
    leaderboard scores without 点."""
    for key, text in _japanese().items():
        assert "このルールの計算" not in text and "巣にいる" not in text and "巣にいます" not in text, key
    assert "和訳ソロルールの式" in t("ja", "word.bonus_flat")
    row = t("ja", "leaderboard.seasons_row", margin="＋3点", player=163, dummbot=160, difficulty="wizard")
    assert "163点対160点" in row


def test_rule_8_rules_are_cited_by_the_originals_headings():
    """S-/V- numbers are the project's English rules file: a Japanese reader gets the originals' headings."""
    bad = {k: v for k, v in _japanese().items() if re.search(r"\b[SV]-\d", v)}
    assert bad == {}
    assert "「カードの効果」" in t("ja", "card.seasons.s8")
    assert "「Volfyrionによる攻撃」手順1" in t("ja", "card.volfyirion.solo.troop")


def test_rule_10_at_most_one_colon_a_line_and_no_three_deep_brackets():
    """One glance on a phone: no line with two colons (commands in backticks and placeholders' format specs
    aside), no brackets inside brackets inside brackets."""
    colons, deep = {}, {}
    for key, text in _japanese().items():
        prose = re.sub(r"\{[^}]*\}", "", _code_free(text))
        if any(len(re.findall(r"[:：]", line)) > 1 for line in prose.split("\n")):
            colons[key] = text
        depth = top = 0
        for c in prose:
            depth += 1 if c in "（［「" else -1 if c in "）］」" else 0
            top = max(top, depth)
        if top > 2:
            deep[key] = text
    assert colons == {} and deep == {}


def test_rule_10_a_mismatch_is_said_in_at_most_three_sentences_and_each_die_on_its_own_line():
    ja = catalog_texts()["ja"]
    for key in [k for k in ja if k.startswith("seasons.reveal_not_in_hand")]:
        assert len(re.findall(r"[。！？]", ja[key])) <= 3, key
    text = t("ja", "seasons.face_not_on_dice", season="winter", face="water", first_die=1, second_die=2,
             first_closest=["2 water, 1 dot"], second_closest=["draw, 3 dots"])
    assert len([line for line in text.split("\n") if line.startswith("・")]) == 2


def test_rule_12_commands_are_always_in_backticks():
    bad = {k: v for k, v in _messages().items()
           if re.search(r"(?<![`\w])/(seasons|volfyrion|game)\b", re.sub(r"`[^`]*`", "", v))}
    assert bad == {}


def test_rule_12_a_wonders_cost_says_cost_in_both_languages():
    """A Wonder's 「（コスト3）」 beside a city's 「（8）」: never a bare number; the English said "(3)" too."""
    assert t("ja", "field.volfyirion.wonder", card="Sibilant Crystal", cost=3) == "Sibilant Crystal（コスト3）"
    assert t("en", "field.volfyirion.wonder", card="Sibilant Crystal", cost=3) == "Sibilant Crystal (cost 3)"


def test_rule_12_list_separators_do_not_mix():
    text = t("ja", "field.seasons.hand_known_value", cards=["9", "24"], unknown=2)
    assert "・" not in text and text.endswith("（#24）（ほかに不明2枚）") and "（#9）、" in text


def test_rule_2_dummbots_hand_and_score_are_said_as_dummbots():
    """「手札」 alone reads as the player's: a Seasons line about Dummbot's hand says 「ダムボットの手札」, a count
    in brackets says what it counts, a score beside a card is Dummbot's."""
    item = t("ja", "seasons.event.item_to_hand", reason_card="17", card="9", hand_size=4)
    assert "ダムボットの場の" in item and "をダムボットの手札に戻してください" in item and "（ダムボットの手札は4枚になります）" in item
    titus = t("ja", "seasons.event.dummbot_titus_sacrificed", card="39", score=65)
    assert "ダムボットの場から捨て札に置いてください" in titus and "ダムボットのスコアは65点" in titus
    for key, text in catalog_texts()["ja"].items():
        if key.startswith("seasons.") and re.search(r"(?<!ダムボットの手札)（\{hand_size\}枚）", text):
            raise AssertionError(f"{key}: a bare count of Dummbot's hand: {text}")
        if key.startswith("seasons.") and re.search(r"(?<!ダムボットの)スコア\{score\}", text):
            raise AssertionError(f"{key}: whose score? {text}")


def test_rule_4_a_refusal_names_the_games_commands_not_that_command():
    text = t("ja", "refuse.other_game", game="seasons")
    assert "そのコマンド" not in text and "十二季節の魔法使い（ダムボット）のコマンド" in text


def test_rule_5_and_6_the_players_view_zero_and_one():
    """After the Rage Pile is revealed the player knows every card (「裏向きだった」, not 「わからない」); a card
    with no Knowledge points adds nothing to sealing; 「{n}枚とも」 needs two or more; one count per noun."""
    for key, text in catalog_texts()["ja"].items():
        if key.startswith("volfyirion."):
            assert "わからない" not in text, key
        assert not re.search(r"\}枚とも", text), key
    assert "裏向きだった3枚" in t("ja", "volfyirion.waiting.reveal", count=3)
    no_kp = t("ja", "card.volfyirion.solo.command", cost=2, kp=0)
    assert "知識ポイント0" not in no_kp and "封印には加わりません" in no_kp
    assert "adds nothing to sealing" in t("en", "card.volfyirion.solo.command", cost=2, kp=0)
    one = t("ja", "volfyirion.too_many_copies", card="Guard", count=2, available=0, qty=1)
    assert "1枚とも" not in one and "ありうるものはありません" in one


def test_rule_9_polite_sentences_not_noun_stops():
    """「知識ポイントは1。…ません」 → 「合計1です」; 「攻撃力は11: …」 → 「攻撃力は11です（…）」."""
    for key in ("volfyirion.event.knowledge", "volfyirion.event.knowledge.none", "volfyirion.event.knowledge.no_seal"):
        assert "合計{kp}です" in catalog_texts()["ja"][key], key
    for key, text in catalog_texts()["ja"].items():
        assert "{attack}:" not in text and "{kp}。" not in text, key


def test_rule_13_setup_lines_are_instructions_naming_the_cards():
    lair = t("ja", "volfyirion.event.setup_lair", max_cost=3)
    assert lair == "ヴォルフィーリオンの巣に、コスト3以下のワンダーを2枚置いてください。"
    deck = t("ja", "volfyirion.event.setup_house_deck", prospectors=8, captains=1, diviners=1)
    assert deck == "ハウスデッキは「Prospector」8枚、「Captain」1枚、「Diviner」1枚です。"


def test_rule_14_the_consoles_own_refusals_quote_input_with_kagikakko():
    """The console builds its own refusals (bot/console.py's MESSAGES): typed input in 「」, never Python's
    quotes nor backticks (backticks are for commands)."""
    ja = MESSAGES["ja"]
    for key in ("console.error.bad_choice", "console.error.bad_value", "console.error.bad_integer",
                "console.error.bad_number", "console.error.bad_boolean", "console.error.syntax",
                "console.error.unknown_command", "console.error.unknown_field"):
        said = ja[key].format(option="difficulty", value="foo", text="foo", command="foo", field="foo", low=1,
                              high=3, choices="見習い、魔法使い", number=9)
        assert "「foo」" in said and "'" not in said and '"' not in said, (key, said)


async def test_rule_14_a_refusal_typed_into_the_console_quotes_what_was_typed(tmp_path):
    from tests.bot.console_session import console_session, refusals

    async with console_session(tmp_path / "c.sqlite3", lang="ja") as session:
        said = refusals(await session.type("/seasons start difficulty:sorcerer"))
    assert said and "「sorcerer」" in said[0] and "'sorcerer'" not in said[0], said


async def test_the_die_taken_is_named_by_its_face_in_the_history_and_the_undo_note(tmp_path):
    """the Japanese style review, Turn 4 intro: 「振った2個のうち1個目のダイスを取った」 named the die by its position; the history
    and the undo note name its face, read from the state it was taken in (both languages)."""
    from tests.bot.console_session import buttons, console_session, text_of

    for lang, taken in (("ja", "「{face}」のダイスを取った"), ("en", "took the die showing “{face}”")):
        async with console_session(tmp_path / f"{lang}.sqlite3", lang=lang) as session:
            await session.type("/seasons start difficulty:wizard dice:bot")
            rolled = await session.type("press 1")
            label = buttons(rolled)[0]
            face = label[1:-len("」を取る")] if lang == "ja" else label.removeprefix("Take ")
            await session.type("press 1")
            said = taken.format(face=face)
            assert said in text_of(await session.type("/game history"))
            assert said in text_of(await session.type("/game undo"))


def test_rule_10_a_history_line_or_a_value_after_a_fields_name_has_no_colon_of_its_own():
    """The console prints 「名前: 値」 and an undo note 「取り消しました: {action}」: a history entry, a reply's
    prompt, a card's whereabouts and its S-8 rows carry no colon of their own (「公開した: Stab」 made two)."""
    bad = {}
    for key, text in catalog_texts()["ja"].items():
        shown_after_a_name = (key.startswith(("action.", "seasons.waiting.", "volfyirion.waiting.", "card.seasons.where",
                                              "card.volfyirion.where", "card.seasons.s8_value", "card.seasons.names_value",
                                              "card.volfyirion.names_value", "field.seasons.dice_value")))
        if shown_after_a_name and re.search(r"[:：]", re.sub(r"\{[^}]*\}", "", _code_free(text))):
            bad[key] = text
    assert bad == {}


def test_rule_3_a_label_and_its_command_are_written_one_way():
    """「［手番終了］ボタン（または `/seasons end`）」 everywhere: never a bare 「［…］（`/…`）」 nor 「ボタン（`/…`）」
    without 「または」, so each line names the control and the command the same way."""
    bad = {k: v for k, v in _messages().items() if re.search(r"］（`|ボタン（`", v)}
    assert bad == {}
    turn = t("ja", "volfyirion.waiting.turn", turn=2, rage_size=3)
    assert "［ターン終了］ボタン（または `/volfyrion end`）" in turn
    assert "［ターン終了（手札を引くときに作り直した）］ボタン（または `/volfyrion end reshuffled:true`）" in turn
    assert "［ダイスを振る］ボタン（または `/seasons roll`）" in t("ja", "seasons.take_die_first", action="/seasons played")


def test_rule_6_zero_and_one_in_counts_said_at_the_table():
    """「手札1枚をすべて」, 「残りは0枚」 and 「ワンダー1枚のうち1枚」 read wrong: one card is taken, an empty House Deck
    has no card left, a lone Wonder is sealed."""
    one = t("ja", "seasons.event.draw_from_hand.all", hand_size=1)
    assert "ダムボットの手札1枚を取ってください" in one and "すべて" not in one
    assert "ダムボットの手札3枚すべてを取ってください" in t("ja", "seasons.event.draw_from_hand.all", hand_size=3)
    empty = t("ja", "volfyirion.next.known_now", draw=0, cards=11, turn=2, turns=0)
    assert "もう引けるカードがありません" in empty and "0枚" not in empty
    assert "no card left to draw (11 in all" in t("en", "volfyirion.next.known_now", draw=0, cards=11, turn=2, turns=0)
    assert "残りは3枚" in t("ja", "volfyirion.next.known_now", draw=3, cards=11, turn=2, turns=0)
    lone = t("ja", "volfyirion.event.knowledge", kp=3, wonders=1, sealing=1)
    assert "封印されていないワンダー1枚を封印します" in lone and "のうち" not in lone
    assert "ワンダー4枚のうち2枚を封印します" in t("ja", "volfyirion.event.knowledge", kp=8, wonders=4, sealing=2)


def test_wonders_passed_over_are_said_in_a_sentence_with_a_score_unit_in_the_final_line():
    """Turn 3 rule 4: no 「…ワンダー: {list}」 label; the final score's prestige keeps its 点 (rule 12's counters)."""
    passed = t("ja", "volfyirion.event.wonders_passed_over", wonders_passed="Void Fluid×2（コスト4）", count=2)
    assert passed.startswith("Void Fluid×2（コスト4）は、どれもコストが") and ":" not in passed
    end = t("ja", "seasons.event.game_end", dummbot_score=173, crystals=64, prestige=109, card_count=13)
    assert "カード13枚の勝利点109点）" in end


def test_rule_6_and_10_no_zero_knowledge_total_and_one_colon_in_the_cities_result():
    """A Command card reveal worth no Knowledge points is not 「合計0です」; the result's cities field is shown after
    its name and a colon, so its value has none of its own (「3つの街はすべて破壊されました（…）」)."""
    nothing = t("ja", "volfyirion.event.knowledge", kp=0, wonders=0, sealing=0)
    assert "0" not in nothing and "知識ポイントはなく" in nothing
    assert "give no Knowledge points" in t("en", "volfyirion.event.knowledge", kp=0, wonders=0, sealing=0)
    for key in ("result.cities", "result.cities.all_fallen", "result.cities.fallen"):
        assert ":" not in catalog_texts()["ja"][key], key
    assert t("ja", "result.cities", total=3, standing=2, names="Tylaris、Vahylea") + \
        t("ja", "result.cities.fallen", names="Alantar") == "3つのうち2つが残りました（Tylaris、Vahylea）。Alantarは破壊されました"


def test_rule_12_a_negative_value_is_rendered_with_a_real_minus_in_japanese_only():
    """A player's final score can be negative (a hand of cards costs 5 points each): 「あなたは−6点」, not 「-6点」;
    the English keeps its own digits."""
    lost = t("ja", "seasons.event.game_lost", player_score=-6, dummbot_score=211)
    assert "あなたは−6点" in lost and "-" not in lost
    assert "You -6" in t("en", "seasons.event.game_lost", player_score=-6, dummbot_score=211)
    assert "（80%の確率で−2〜5点" in t("ja", "forecast.text", mean=3, p10=-2, p90=5, now=0, samples=10000)


def test_rule_6_nothing_is_not_counted_as_zero_cards():
    """「憤怒パイルは0枚です」, 「ダムボットの場（0枚）」 and 「（憤怒パイル0枚、…）」 count nothing: the templates' zero form
    (``{n:zero|one|many}``) says 「空」 or leaves the count out; other counts are as before."""
    empty_pile = t("ja", "volfyirion.waiting.turn", turn=3, rage_size=0)
    assert "憤怒パイルは空です。" in empty_pile and "0枚" not in empty_pile
    assert "憤怒パイルは2枚です。" in t("ja", "volfyirion.waiting.turn.brief", turn=3, rage_size=2)
    assert "憤怒パイルは空で、" in t("ja", "volfyirion.waiting.turn.away", turn=3, rage_size=0)
    assert "（憤怒パイルが空、" in t("ja", "volfyirion.next.figures", size=0, p_city="3%", p_lost="0%")
    assert t("ja", "field.volfyirion.pile_value", size=0) == "空" and t("ja", "field.volfyirion.pile_value", size=1) == "1枚"
    assert t("ja", "field.seasons.summoned", n=0) == "ダムボットの場" and t("ja", "field.seasons.summoned", n=3) == "ダムボットの場（3枚）"
    assert t("ja", "field.seasons.hand_value", count=0) == "なし" and t("ja", "field.seasons.hand_value", count=6) == "6枚"
    assert t("en", "field.seasons.hand_value", count=1) == "1 card"  # the two-form plural is unchanged
    # A heading the console prints before a colon ends in no question mark (「…置いたら？:」 read as stray punctuation).
    assert not t("ja", "danger.putaside.name").endswith("？")
