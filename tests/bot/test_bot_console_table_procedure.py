"""At the table (issue 23, Seasons), typed into the console as a player would, in both languages: the chosen dice
named and checked (S-1.4), the prelude said right and told by command or by its button (S-2.1, S-2.4), a reveal
that contradicts Dummbot's known hand refused (S-2.4), the turn in progress, and the setup lines (S-1.2, S-3.1)."""

from __future__ import annotations

import json

import pytest
from console_session import buttons, console_session, refusals, text_of

from bot.sessions import summary_json
from bot.standin.driver import pressable

# Seed 1: winter's dice are the ones with "draw, 3 dots" and "draw, 1 dot" (dice 2 and 3).
WINTER = {"en": ("the die with “draw, 3 dots”", "the die with “draw, 1 dot”"),
          "ja": ("「ドロー、ドット3」の面があるダイス", "「ドロー、ドット1」の面があるダイス")}
PRELUDE = "28, 41, 5, 23, 9, 11"


def exported_state(items: list[dict]) -> dict:
    files = [f for item in items for f in item.get("files", []) if f["filename"].endswith(".json")]
    return json.loads(files[-1]["text"])["state"]



@pytest.mark.parametrize("lang", ["en", "ja"])
async def test_s1_4_table_dice_are_named_and_a_face_of_neither_is_refused(tmp_path, lang):
    first, second = WINTER[lang]
    async with console_session(tmp_path / "g.sqlite3", lang=lang, seed=1) as session:
        start = text_of(await session.type("/seasons start difficulty:wizard dice:table"))
        placed = {"en": f"winter: set out {first} and {second} on the winter space",
                  "ja": f"冬: {first}と{second}を冬のスペースに置いてください"}[lang]
        assert placed in start
        prompt = {"en": f"roll the two winter dice, {first} and {second}; take one",
                  "ja": f"冬のダイス2個（{first}と{second}）を振り、1個取って"}[lang]
        assert prompt in start
        refused = await session.type("/seasons die face:6 crystals, 2 dots")  # winter die 4's face
        said = refusals(refused)
        assert len(said) == 1 and first in said[0] and second in said[0]
        closest = {"en": "closest: 2 water, 1 crystal, 2 dots", "ja": "の近い面は「水2、クリスタル1、ドット2」"}[lang]
        assert closest in said[0]
        status = text_of(await session.type("/game status"))
        assert f"{first}" in status and ("spring: " in status or "春は" in status)
        state = exported_state(await session.type("/game export"))
        assert state["chosen_dice"]["winter"] == [2, 3] and state["dummbot"]["crystals"] == 0  # nothing changed
        taken = await session.type("/seasons die face:2 water, 1 crystal, 2 dots")  # die 2's: taken
        assert refusals(taken) == []


@pytest.mark.parametrize("lang", ["en", "ja"])
async def test_s2_1_s1_2_s3_1_the_start_says_the_prelude_the_setup_and_the_two_player_costs(tmp_path, lang):
    async with console_session(tmp_path / "g.sqlite3", lang=lang, seed=1) as session:
        start = text_of(await session.type("/seasons start difficulty:apprentice dice:bot"))
    prelude = next(line for line in start.splitlines() if "Prelude" in line or "プレリュード" in line)
    if lang == "ja":
        assert "見ずに" not in prelude and "すべて見て" in prelude
        assert "ライブラリートークン2の下" in prelude and "ライブラリートークン3の下" in prelude
        assert "残りの2枚を裏向きでダムボットの手札" in prelude and "3回" in prelude
        assert "ソーサラートークン2個" in start and "クリスタルボード" in start and "個人ボード" in start
        assert "2人プレイの値" in start
    else:
        assert "look at them all" in prelude and "library token II" in prelude and "library token III" in prelude
        assert "the other 2 face down onto Dummbot's hand" in prelude and "three times" in prelude
        assert "2 sorcerer tokens on the crystal board" in start and "no personal board" in start
        assert "use the 2-player value" in start


async def test_s2_4_the_prelude_told_by_its_button_and_form_in_japanese(tmp_path):
    async with console_session(tmp_path / "g.sqlite3", lang="ja", seed=1) as session:
        start = await session.type("/seasons start difficulty:wizard dice:table")
        labels = buttons(start)
        assert "ダムボットの手札6枚…" in labels
        form = await session.type(f"press {labels.index('ダムボットの手札6枚…') + 1}")
        assert "プレリュードのダムボットの手札" in json.dumps(form, ensure_ascii=False)
        told = await session.type('form cards="28、泥棒フェアリー、5、23、9、11"')
        assert refusals(told) == []
        said = text_of(told)
        assert "記録しました。ダムボットの手札は壮大の錫杖（#28）、泥棒フェアリー（#41）" in said
        status = text_of(await session.type("/game status"))
        assert "わかっているダムボットの手札: 壮大の錫杖（#28）" in status and "（すべてわかっています）" in status
        await session.type("/seasons die face:水2、クリスタル1、2点")
        late = refusals(await session.type(f"/seasons prelude cards:{PRELUDE}"))
        assert late and "ダムボットの最初のダイスより前" in late[0]


async def test_s2_4_the_prelude_by_command_in_english_and_a_wrong_count_refused(tmp_path):
    async with console_session(tmp_path / "g.sqlite3", lang="en", seed=1) as session:
        await session.type("/seasons start difficulty:wizard dice:table")
        short = refusals(await session.type("/seasons prelude cards:28, 41, 5"))
        assert short and "exactly 6 cards" in short[0]
        told = await session.type(f"/seasons prelude cards:{PRELUDE}")
        assert refusals(told) == [] and "Noted: Dummbot's hand holds Scepter of Greatness (#28)" in text_of(told)
        state = exported_state(await session.type("/game export"))
        assert state["dummbot"]["hand_known"] == ["28", "41", "5", "23", "9", "11"]
        assert state["dummbot"]["hand_unknown"] == 0
        history = text_of(await session.type("/game history"))
        assert "told Dummbot's prelude cards: Scepter of Greatness (#28), Thieving Fairies (#41)" in history


# The game: a 3-card hand whose two known cards the bot had put back, and the typo 45 for 41.
TYPO_GAME = ["/seasons start difficulty:wizard dice:table", "/seasons time steps:3",
             "/seasons reveal cards:9, 28, 41, 5", "/seasons played card:40", "/seasons reveal cards:5, 23",
             "/seasons time steps:-1"]


@pytest.mark.parametrize("lang", ["en", "ja"])
async def test_s2_4_the_28_45_11_reveal_is_refused_and_the_known_cards_come_first(tmp_path, lang):
    names = {"en": ("Scepter of Greatness (#28)", "Thieving Fairies (#41)"),
             "ja": ("壮大の錫杖（#28）", "泥棒フェアリー（#41）")}[lang]
    async with console_session(tmp_path / "g.sqlite3", lang=lang, seed=1) as session:
        for line in TYPO_GAME:
            items = await session.type(line)
            assert refusals(items) == [], (line, refusals(items))
        said = text_of(items)
        known = {"en": f"Dummbot's hand as far as known: {names[0]}, {names[1]} · 1 unknown",
                 "ja": f"わかっているダムボットの手札: {names[0]}、{names[1]}（ほかに不明1枚）"}[lang]
        assert known in said
        menu = [o["label"] for item in items for c in pressable(item) if c.get("type") == 3 for o in c["options"]]
        assert menu[:2] == list(names)  # the known cards first, whatever their numbers (S-2.4)
        refused = refusals(await session.type("/seasons reveal cards:28, 45, 11"))
        assert len(refused) == 1
        must = {"en": f"they include the cards I know are in it: {names[0]}, {names[1]}. Missing from what you "
                      f"named: {names[1]}",
                "ja": f"わかっているカード（{names[0]}、{names[1]}）がすべて含まれ、"
                      f"不明なカードは1枚以下のはずです。指定には{names[1]}がなく"}[lang]
        assert must in refused[0]
        state = exported_state(await session.type("/game export"))
        assert state["dummbot"]["summoned"] == ["9"] and state["pending"] == "seasons.waiting.reveal_hand"
        done = await session.type("/seasons reveal cards:28, 41, 11")
        assert refusals(done) == [] and names[0] in text_of(done)
        assert exported_state(await session.type("/game export"))["dummbot"]["score"] == 10 + 8


@pytest.mark.parametrize("lang", ["en", "ja"])
async def test_s3_1_the_turn_in_progress_says_go_on_with_the_month_in_its_own_season(tmp_path, lang):
    async with console_session(tmp_path / "g.sqlite3", lang=lang, seed=1) as session:
        await session.type("/seasons start difficulty:wizard dice:table")
        await session.type("/seasons time steps:2")  # month 3, still winter
        moved = await session.type("/seasons time steps:1")  # month 4: spring; Dummbot draws 4
        await session.type("/seasons reveal cards:9, 28, 41, 5")
        state = exported_state(await session.type("/game export"))
        prompt = next(line for line in text_of(moved + await session.type("/game status")).splitlines()
                      if "round 1" in line or "ラウンド1" in line)
    assert state["month"] == 4 and state["season"] == "spring" and state["dice_season"] == "winter"
    if lang == "ja":
        assert "1年目4月（春）、ラウンド1です。手番を続けてください（ダイスは振り直しません）" in prompt
        assert "ラウンドの初めに振った冬のダイス" in prompt and "1年目4月（冬）" not in prompt
        assert "振り、1個取って" not in prompt
    else:
        assert "Year 1, month 4 (spring), round 1: go on with your turn (no new roll)" in prompt
        assert "the winter dice rolled at the start of the round" in prompt and "(winter)" not in prompt


async def test_s2_4_a_reveals_autocomplete_lists_every_known_card_first(driver):
    await driver.slash("seasons start", {"difficulty": "wizard", "dice": "table"})
    told = await driver.slash("seasons prelude", {"cards": "41, 45, 28, 5, 23, 45"})
    assert not told.ephemeral, told.text
    await driver.slash("seasons time", {"steps": 3})  # spring: Dummbot's wizard draws 4 of its 6
    offered = await driver.autocomplete("seasons reveal", {"cards": ""}, focused="cards")
    assert [c["value"] for c in offered[:5]] == ["41", "45", "28", "5", "23"]  # each known card once, #41 first
    typed = await driver.autocomplete("seasons reveal", {"cards": "41, 45, la"}, focused="cards")
    assert typed[0]["value"] == "41, 45, 45" and typed[0]["name"].startswith("41, 45, Lantern of Xidit (#45)")
    played = await driver.autocomplete("seasons played", {"card": ""}, focused="card")
    assert played[0]["value"] == "1"  # other card options are not the hand's


def test_s2_4_a_whole_game_told_its_prelude_typed_into_the_console(tmp_path):
    """Wizard, table dice: the table model tells the prelude, then plays on; through the console every reveal fits
    Dummbot's known hand and the export is the engine's own state (replay = live)."""
    from test_bot_console_games import console, exported

    from engine.seasons.autoplay import play_game
    from tests.support.seasons_typed import seasons_console_line

    actions, steps = play_game("wizard", "table", 11, prelude=True)
    lines = ["/seasons start difficulty:wizard dice:table"] + [seasons_console_line(a, "ja") for a in actions]
    items = console(lines + ["/game export"], "--lang", "ja", "--db", str(tmp_path / "g.sqlite3"), seed=11)
    assert refusals(items) == []
    record = exported(items)
    assert record["actions"][0]["type"] == "prelude" and record["state"] == summary_json(steps[-1].state.summary())


@pytest.mark.parametrize(("lang", "said"), [("en", "go on with your turn (no new roll), then tell me the face of the "
                                                   "winter die left for Dummbot"),
                                            ("ja", "手番を続けてください（ダイスは振り直しません）。終わったら、ダムボットに残った冬のダイス")])
def test_s3_1_a_game_begun_before_the_chosen_dice_goes_on_without_naming_dice(lang, said):
    from bot.i18n import t
    from engine.core import Action, GameRecord
    from engine.seasons import RULES

    old = GameRecord(RULES, {"difficulty": "wizard", "dice": "table", "edition": 2}, 1)
    step = old.push(Action("time", steps=1))
    text = t(lang, step.waiting.key, **step.waiting.params)
    assert said in text and "{" not in text and "(#" not in text
