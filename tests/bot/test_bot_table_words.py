"""What a player meets at the table (issue 10): an abandoned game looks over, cards named as players talk, and
history lines without raw codes — through the real client on the stand-in and a real SQLite file."""

from __future__ import annotations

from play import button, export

from conftest import BOT_SEED
from engine.seasons.autoplay import play_game


async def _abandon(driver, locale: str = "en") -> None:
    confirm = await driver.slash("game abandon", {}, locale=locale)
    done = await driver.press(button(confirm, "abandon"), locale=locale)
    assert not done.ephemeral


async def test_an_abandoned_game_looks_over_in_status_and_undo(driver):
    """Point 2: no "what to do now", no buttons, no undo footer; undo says the game was abandoned."""
    await driver.slash("seasons start", {"difficulty": "wizard", "dice": "bot"})
    before = await driver.slash("game status", {})
    assert "What to do now" in before.text and before.buttons and "/game undo" in before.text
    await _abandon(driver)
    for locale, said in (("en", "was abandoned"), ("ja", "放棄されました")):
        status = await driver.slash("game status", {}, locale=locale)
        assert said in status.text and "#1" in status.text
        assert "What to do now" not in status.text and "次にすること" not in status.text
        assert status.buttons == [] and "/game undo" not in status.text
    undo = await driver.slash("game undo", {})
    assert undo.ephemeral and "was abandoned" in undo.text and "moved on" not in undo.text
    assert "button" not in undo.text
    undo_ja = await driver.slash("game undo", {}, locale="ja")
    assert undo_ja.ephemeral and "放棄された" in undo_ja.text
    assert (await export(driver))["result"] == {"outcome": "abandoned"}


async def test_a_finished_game_says_it_is_over(driver):
    actions, _ = play_game("apprentice", "table", BOT_SEED, extras=False)
    from play import play_seasons

    await driver.slash("seasons start", {"difficulty": "apprentice", "dice": "table"})
    await play_seasons(driver, actions, use_buttons=False)
    status = await driver.slash("game status", {})
    assert "is over" in status.text and "What to do now" not in status.text
    assert "Dummbot's final score" in status.text and "Dummbot's score now" not in status.text
    assert status.buttons == [] and "undo" not in status.text and "finished after" in status.text
    undone = await driver.slash("game undo", {})  # the final score can still be taken back
    assert not undone.ephemeral, undone.text


async def test_short_names_and_single_typos_are_read_and_said(driver):
    """Point 5: 「ナリア」, "Figrim", "temporal boot", "Amulet of Ari" — one card fits; the reply says which."""
    await driver.slash("seasons start", {"difficulty": "wizard", "dice": "table"})
    naria = await driver.slash("seasons played", {"card": "ナリア"}, locale="ja")
    assert not naria.ephemeral and "「ナリア」を女預言者ナリア（#12）と解釈しました" in naria.text
    figrim = await driver.slash("seasons played", {"card": "Figrim"})
    assert not figrim.ephemeral and "Read “Figrim” as Figrim the Avaricious (#11)" in figrim.text
    exact = await driver.slash("seasons played", {"card": "Kairn the Destroyer"})
    assert not exact.ephemeral and "Read “" not in exact.text
    # Several cards fit "amulet": refused with the candidates, nothing changed.
    many = await driver.slash("seasons played", {"card": "amulet"})
    assert many.ephemeral and "Amulet of" in many.text
    history = await driver.slash("game history", {})
    assert "Naria the Prophetess (#12)" in history.text and "Figrim the Avaricious (#11)" in history.text


async def test_volfyirion_typos_and_spaced_numbers(driver):
    await driver.slash("volfyrion start", {"difficulty": "normal"})
    trooper = await driver.slash("volfyrion play", {"card": "Elite Troper", "city": "Tylaris"})
    assert not trooper.ephemeral and "Read “Elite Troper” as Elite Trooper" in trooper.text
    crystal = await driver.slash("volfyrion play", {"card": "sibilant crystal"})
    assert not crystal.ephemeral
    history = await driver.slash("game history", {})
    assert "played Elite Trooper in Tylaris" in history.text and "played Sibilant Crystal" in history.text
    assert "None" not in history.text


async def test_numbers_separated_by_spaces_and_history_without_codes(driver):
    from play import seasons_command

    await driver.slash("seasons start", {"difficulty": "wizard", "dice": "table"}, locale="ja")
    await driver.slash("seasons played", {"card": "16"}, locale="ja")  # S-8.6: Kairn in play first
    await driver.slash("seasons effect", {"kind": "kairn"}, locale="ja")
    # Play on to the first change of season, then reveal its 4 cards typed with spaces only.
    actions, _ = play_game("wizard", "table", BOT_SEED, extras=False)
    for action in actions:
        name, options = seasons_command(action)
        reply = await driver.slash(name, options, locale="ja")
        assert not reply.ephemeral, reply.text
        if "手札から引いた4枚" in reply.text:
            break
    reveal = await driver.slash("seasons reveal", {"cards": "20 41 34 8"}, locale="ja")
    assert not reveal.ephemeral, reveal.text
    history = await driver.slash("game history", {}, locale="ja")
    assert "kairn" not in history.text and "「破壊者ケアンを起動した（ダムボットのクリスタル−4個）」を報告した" in history.text
    assert "）を公開した" in history.text and "（#20）" in history.text
