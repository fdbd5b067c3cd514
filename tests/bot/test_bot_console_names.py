"""Names as people type them (issue 25, point 3), typed into the console: kana, beginnings, typos, fragments,
lists, cities, choices and a Volfyirion card typed in Japanese — in both languages."""

from __future__ import annotations

import pytest
from console_session import console_session, refusals, text_of

from bot.standin.driver import pressable
from engine.seasons.cards import CATALOG as SEASONS
from engine.volfyirion.cards import CATALOG as VOLFYIRION
from engine.volfyirion.cards import CITY_CATALOG

START = "/seasons start difficulty:wizard dice:table"
DRAW = '/seasons die face:"draw, 3 dots"'  # Dummbot reveals 1 card


def buttons(items: list[dict]) -> list[str]:
    """The buttons' labels, wherever they stand (a V2 notice's rows are inside its container)."""
    return [c.get("label", "") for item in items for c in pressable(item) if c.get("type") == 2]


@pytest.mark.parametrize(("typed", "card"), [("けあん", "16"), ("なりあ", "12"), ("Sid", "49"),
                                             ("Sylas", "10"), ("ｓｙｌｌａｓ", "10")])
def test_catalog_folds_hiragana_and_takes_an_english_beginning(typed, card):
    assert SEASONS.resolve(typed)[0].id == card


def test_a_fragment_several_cards_share_is_ambiguous_with_its_candidates():
    assert SEASONS.resolve("箱") is None and SEASONS.ambiguous("箱") == ["13", "46"]
    assert SEASONS.ambiguous("Kairn") == [] and CITY_CATALOG.resolve("akao")[0].name == "Akao Uket"
    assert VOLFYIRION.resolve("akao")[0].name == "Akao Uket"


@pytest.mark.parametrize(("lang", "typed", "said"), [
    ("ja", "けあん", "破壊者ケアン（#16）"), ("en", "Sid", "Sid Nightshade (#49)"), ("en", "Sylas", "Syllas the Faithful (#10)"),
])
async def test_names_as_typed_are_understood_in_a_reveal(tmp_path, lang, typed, said):
    async with console_session(tmp_path / "db.sqlite3", lang=lang) as s:
        await s.type(START)
        await s.type(DRAW)
        items = await s.type(f"/seasons reveal cards:{typed}")
        assert refusals(items) == []
        assert said in text_of(items)


@pytest.mark.parametrize(("lang", "said"), [
    ("ja", "「箱」に当てはまるカードが複数あります: 驚愕の箱（#13）、ウルムの封印された箱（#46）。どれですか？"),
    ("en", "“chest” fits several cards: Wondrous Chest (#13), Sealed Chest of Urm (#46). Which one?"),
])
async def test_an_ambiguous_fragment_is_said_ambiguous_with_a_button_per_candidate(tmp_path, lang, said):
    async with console_session(tmp_path / "db.sqlite3", lang=lang) as s:
        await s.type(START)
        await s.type(DRAW)
        items = await s.type("/seasons reveal cards:" + ("箱" if lang == "ja" else "chest"))
        assert [r.split("\n")[0] for r in refusals(items)] == [said]
        assert len(buttons(items)) == 2


@pytest.mark.parametrize(("lang", "said"), [
    ("ja", "次のカードが見つかりません: zzzz、qqqq。それぞれ直して、もう一度コマンドを送ってください。"),
    ("en", "I don't know these cards: zzzz, qqqq. Correct each of them and send the command again."),
])
async def test_every_bad_name_in_a_list_is_reported(tmp_path, lang, said):
    async with console_session(tmp_path / "db.sqlite3", lang=lang) as s:
        await s.type(START)
        await s.type('/seasons die face:"draw, 3 dots"')
        assert refusals(await s.type("/seasons reveal cards:zzzz, 12, qqqq")) == [said]


async def test_a_typo_with_one_candidate_gets_its_button(tmp_path):
    async with console_session(tmp_path / "db.sqlite3", lang="en") as s:
        await s.type(START)
        await s.type(DRAW)
        items = await s.type("/seasons reveal cards:Kairnn Destroyerr")
        assert buttons(items) == ["Kairn the Destroyer (#16)"]


@pytest.mark.parametrize(("lang", "said"), [
    ("ja", "ヴォルフィーリオンのカードは英語名で指定してください（カードに印刷されている名前です）。"
           "「ソルジャー」の英語名を入力してください（例: Soldier）。"),
    ("en", "Volfyirion's cards are named in English (as printed on them): type “ソルジャー” by its English name, "
           "e.g. Soldier."),
])
async def test_a_volfyirion_card_typed_in_japanese_is_answered_that_its_names_are_english(tmp_path, lang, said):
    async with console_session(tmp_path / "db.sqlite3", lang=lang) as s:
        await s.type("/volfyrion start difficulty:normal")
        items = await s.type("/volfyrion acquire card:ソルジャー")
        assert refusals(items) == [said]
        assert "—" not in said


async def test_volfyirion_cities_are_found_by_their_beginning(tmp_path):
    async with console_session(tmp_path / "db.sqlite3", lang="en") as s:
        started = await s.type("/volfyrion start difficulty:normal cities:tyla, akao, kyr")
        assert refusals(started) == []
        assert all(city in text_of(started) for city in ("Tylaris", "Akao Uket", "Kyr"))
        assert refusals(await s.type("/volfyrion play card:Elite Trooper city:akao")) == []


@pytest.mark.parametrize(("lang", "said"), [
    ("ja", "`difficulty` に「みならい」は指定できません。選択肢: 見習い／魔法使い／大魔導師"),
    ("en", "`difficulty` cannot be 'easy'. Choose one of: apprentice, wizard, archmage"),
])
async def test_a_refused_choice_lists_the_choices_by_their_names_in_the_players_language(tmp_path, lang, said):
    async with console_session(tmp_path / "db.sqlite3", lang=lang) as s:
        typed = "みならい" if lang == "ja" else "easy"
        assert refusals(await s.type(f"/seasons start difficulty:{typed}")) == [said]


def test_the_engine_refusal_of_a_choice_names_the_choices_in_japanese():
    from bot.i18n import t

    said = t("ja", "seasons.bad_option", option="difficulty", value="x", choices=["apprentice", "wizard", "archmage"])
    assert said.endswith("見習い、魔法使い、大魔導師") and "apprentice" not in said
