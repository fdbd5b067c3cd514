"""The bot's Japanese follows ../shared/i18n/ja-style.md as far as a test can tell (issue 10, point 7).

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
# Names of products and formats, which Japanese writes as they are.
PROPER_NAMES = {"Discord", "JSON", "SQLite"}


def _japanese() -> dict[str, str]:
    texts = dict(catalog_texts()["ja"])
    texts.update({f"console:{k}": v for k, v in MESSAGES["ja"].items()})
    return texts


def _prose(text: str) -> str:
    """The text a reader reads as Japanese: without commands, placeholders and code spans."""
    text = re.sub(r"`[^`]*`", " ", text)
    text = re.sub(r"\{[^}]*\}", " ", text)
    text = re.sub(r"/(seasons|volfyrion|game)( [a-z]+)?", " ", text)
    text = re.sub(r"\b(press|form) ", " ", text)  # the console's own commands
    return text


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
    """ja-style.md, Turn 3 rule 2: the dots of a die (S-3.3) are 「ドット1」, and 点 is kept for scores (issue 25,
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


# -- issue 25, point 8: what a player at the table misread (rules ja-style.md should gain) -------------------


def test_a_tie_is_drawn_among_the_tied_cards_wherever_they_are():
    """ja-style.md, Turn 4 finding 1: the tie line is said for cards Dummbot drew (a change of season) and for cards
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
    assert t("ja", "leaderboard.margin", margin=-3) == "−3点" and t("ja", "leaderboard.margin", margin=5) == "+5点"
    assert t("en", "leaderboard.margin", margin=-3) == "−3 points"


def test_a_heading_the_console_prints_before_a_colon_has_no_full_stop():
    """The kept-form message's heading is printed as 「見出し: 値」: no 「。:」 (nor ".:" in English)."""
    for lang in ("ja", "en"):
        heading = t(lang, "pick.edit")
        assert not heading.endswith(("。", ".")), heading


def test_the_bots_own_roll_is_a_button_to_press_not_dice_to_roll():
    """With the bot's dice, 「ダイスを振ってください」 sent players for their own dice: name the button."""
    text = t("ja", "seasons.waiting.roll", year=1, month=1, season="冬", round=1)
    assert "［ダイスを振る］を押してください" in text and "ボットが" in text


def test_components_are_named_as_the_seed_names_them():
    """クリスタルボード, ソーサラートークン, 魔法オブジェクト — not 魔法のアイテム or other coinages."""
    for key, text in catalog_texts()["ja"].items():
        assert "魔法のアイテム" not in text and "マジックアイテム" not in text, key
        assert "魔術師トークン" not in text and "クリスタルトラック" not in text, key
