"""Issue 8 through the bot: the game's attack formula in what it says (V-4.3, V-5.3), reveals that name the
known top card (V-3.3), actions stored as meant (V-6), and the new refusals — private, localized, saying what
to do instead, changing nothing."""

from __future__ import annotations

from play import button, export

from bot.i18n import t
from engine.core import Action, GameRecord, RuleError
from engine.volfyirion import RULES, SOLO_ASSET_DECK


async def _actions(driver) -> list[dict]:
    return (await export(driver))["actions"]


async def test_v5_3_start_and_attack_state_the_games_formula_in_both_languages(driver):
    start = await driver.slash("volfyrion start", {"difficulty": "hard", "bonus": "per_city"}, locale="ja")
    assert "難易度はハード、ボーナスは街ごと（英語版ルールブックの表）です。" in start.text
    assert "コストの合計＋破壊された街1つにつき2です" in start.text
    assert (await export(driver))["options"]["bonus"] == "per_city"
    await driver.slash("volfyrion reshuffle", {})
    await driver.slash("volfyrion end", {})
    reply = await driver.slash("volfyrion reveal", {"cards": "sabotage"})
    # Sabotage 5; no city destroyed yet: per_city adds 2 × 0.
    assert ("Volfyirion attacks with 5: the Command costs alone (no city destroyed yet, so no hard bonus per "
            "destroyed city).") in reply.text
    danger = await driver.press(button(await driver.slash("volfyrion danger", {}), "danger_details"))  # the formula
    assert "Volfyirion attacks with the revealed Command cards' costs + 2 per destroyed city." in danger.text
    assert "Now: the Command costs alone (no bonus yet)." in danger.text


async def test_v4_3_the_default_is_the_originals_flat_bonus(driver):
    start = await driver.slash("volfyrion start", {"difficulty": "normal"})
    assert ("Difficulty normal, bonus flat (the rules text this bot follows): Volfyirion attacks with the revealed "
            "Command cards' costs + 1 per destroyed city + 1.") in start.text
    assert (await export(driver))["options"]["bonus"] == "flat"
    headline = await driver.slash("volfyrion danger", {}, locale="ja")
    danger = await driver.press(button(headline, "danger_details"), locale="ja")  # the formula is in the details
    assert "今なら、コマンドカードのコストの合計＋1です。" in danger.text
    await driver.slash("volfyrion reshuffle", {})
    await driver.slash("volfyrion end", {})
    reply = await driver.slash("volfyrion reveal", {"cards": "Book of Wisdom"}, locale="ja")
    # Book of Wisdom 8 + normal 1 = 9: Vahylea (9) falls.
    assert "ヴォルフィーリオンの攻撃力は9です（コマンドカードのコスト8＋ノーマルの1）。破壊された街はまだありません。" in reply.text


async def test_v6_actions_are_stored_as_meant_not_as_typed(driver):
    await driver.slash("volfyrion start", {"difficulty": "easy"})
    await driver.slash("volfyrion play", {"card": "elite  trooper", "city": "8"})
    await driver.slash("volfyrion play", {"card": "SIBILANT CRYSTAL"})
    await driver.slash("volfyrion putaside", {"paid": "battle", "card": "stab"})
    assert (await _actions(driver)) == [
        {"type": "play", "card": "Elite Trooper", "city": "Tylaris"},
        {"type": "play", "card": "Sibilant Crystal", "city": None},
        {"type": "putaside", "paid": "battle", "card": "Stab"},
    ]


async def test_v3_3_a_reveal_may_name_the_known_top_card_through_the_form_too(driver):
    await driver.slash("volfyrion start", {"difficulty": "easy"})
    await driver.slash("volfyrion end", {})
    await driver.slash("volfyrion reshuffle", {})
    await driver.slash("volfyrion end", {})
    await driver.slash("volfyrion reveal", {"cards": "Book of Wisdom, Stab"})  # 9 on easy: Vahylea falls
    await driver.slash("volfyrion reshuffle", {})
    asked = await driver.slash("volfyrion end", {})
    before = await _actions(driver)
    refused = await driver.slash("volfyrion reveal", {"cards": "Barter, Stab"}, locale="ja")
    assert refused.ephemeral
    assert "表向きの一番上のカードBook of Wisdomも含まれるはずですが、含まれていません" in refused.text
    assert await _actions(driver) == before
    opened = await driver.press(button(asked, "reveal"))
    reply = await driver.submit(opened.modal["custom_id"], {"cards": "barter, book of wisdom"})
    assert not reply.ephemeral and "Revealed: Book of Wisdom, Barter." in reply.text
    assert (await _actions(driver))[-1] == {"type": "reveal", "cards": ["Barter", "Book of Wisdom"]}


async def test_v2_4_refill_without_put_aside_cards_is_refused_in_words(driver):
    await driver.slash("volfyrion start", {"difficulty": "normal"})
    for locale, words in (("en", "No card is put aside"), ("ja", "脇に置いたカードがないので")):
        refused = await driver.slash("volfyrion refill", {}, locale=locale)
        assert refused.ephemeral and words in refused.text and "/volfyrion refill" in refused.text
    assert await _actions(driver) == []


async def test_v5_1_a_turn_1_win_with_the_starting_deck_is_refused_with_the_reason(driver):
    await driver.slash("volfyrion start", {"difficulty": "normal"})
    refused = await driver.slash("volfyrion win", {"how": "attack"})
    assert refused.ephemeral and "A win on turn 1 is impossible" in refused.text
    assert "at most 3 Battle and 3 Knowledge points in all, not 16" in refused.text
    ja = await driver.slash("volfyrion win", {"how": "subjugate"}, locale="ja")
    assert ja.ephemeral and "ターン1での勝利はありえません" in ja.text and "`/volfyrion end`" in ja.text
    record = await export(driver)
    assert record["actions"] == [] and record["result"] is None
    await driver.slash("volfyrion end", {})
    won = await driver.slash("volfyrion win", {"how": "attack"})
    assert not won.ephemeral and (await export(driver))["result"]["outcome"] == "won"


def test_v1_2_the_asset_deck_refusals_read_in_both_languages():
    """The refusal an overfull Rage Pile gets, rendered from the engine's own error (a game of edition 1: since
    V-3.5 an empty deck adds no Rage card)."""
    record = GameRecord(RULES, {"edition": 1}, 1)
    copies = [n for n, k in SOLO_ASSET_DECK.items() for _ in range(k)]
    while record.state.deck_left() > 0:
        record.push(Action("acquire", card=copies.pop()))
    try:
        record.push(Action("end"))
    except RuleError as err:
        error = err
    else:
        raise AssertionError("the end of turn should have been refused")
    en, ja = t("en", error.key, **error.params), t("ja", error.key, **error.params)
    assert en.startswith("That cannot be: the Rage Pile would hold 2 unseen cards, but only 1 of the solo "
                         "Asset Deck's 62 cards can still be there (61 are known")
    assert "`/game undo`" in en and "`/game undo`" in ja and "{" not in en + ja
    assert "ソロのアセットデッキ62枚のうちそこにありうるのは1枚だけです" in ja
