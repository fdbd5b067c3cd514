"""Issue 33, point 6, through the console in both languages: card lookup and reveal candidates in the base game
offer the base game's cards, not the expansions' (S-8.5: those are still named exactly); a hopeless name says so
(never 「候補: —」); a number typed as ``-5``, ``²`` or ``①`` is refused or read aloud, never taken silently."""

from __future__ import annotations

import pytest
from console_session import console_session, refusals, text_of

from engine.seasons import CATALOG

EXPANSION_NAMES = [c.name_en for c in CATALOG if c.set != "base"]
WORDS = {
    "en": {"read": "Read “{query}” as {card}", "refused": "I don't take “{query}” as a card number",
           "hopeless": "no card's name comes close", "no_card_5": "no card has the number 555"},
    "ja": {"read": "「{query}」を{card}と解釈しました", "refused": "「{query}」はカード番号として受け付けられません",
           "hopeless": "近い名前のカードもありません", "no_card_5": "番号555のカードもありません"},
}
NAMES = {"en": {"5": "Balance of Ishtar (#5)", "1": "Amulet of Air (#1)", "38": "Demon of Argos (#38)"},
         "ja": {"5": "イシュターの天秤（#5）", "1": "大気の護符（#1）", "38": "アルゴスの悪魔（#38）"}}


def offers_no_expansion_card(said: str) -> bool:
    return not any(name in said for name in EXPANSION_NAMES) and "#EK" not in said and "#PD" not in said


async def reveal_asked(session) -> None:
    """A wizard game on table dice whose first die asks for one card from the draw pile (S-4.5)."""
    await session.type("/seasons start difficulty:wizard dice:table")
    items = await session.type("/seasons die face:draw, 1 dot")
    assert not refusals(items)


@pytest.mark.asyncio
@pytest.mark.parametrize("lang", ["en", "ja"])
async def test_lookup_and_reveal_candidates_offer_the_base_game_s_cards(tmp_path, lang):
    async with console_session(tmp_path / "g.sqlite3", lang=lang, seed=1) as session:
        said = text_of(await session.type("/game card name:Argos"))  # no game yet: Demon of Argos, no list
        assert NAMES[lang]["38"] in said and offers_no_expansion_card(said)
        await reveal_asked(session)
        said = text_of(await session.type("/game card name:Argos"))
        assert NAMES[lang]["38"] in said and offers_no_expansion_card(said)
        missed = await session.type("/seasons reveal cards:Potion")  # four base potions, two expansion ones
        said = text_of(missed)
        assert refusals(missed) and offers_no_expansion_card(said)
        assert all(f"#{n}" in said for n in (23, 24, 25, 26))
        items = await session.type("/seasons reveal cards:Argos")  # one base card fits: read, and said so
        said = text_of(items)
        assert not refusals(items) and WORDS[lang]["read"].format(query="Argos", card=NAMES[lang]["38"]) in said
        exact = await session.type("/game card name:Argos Hawk")  # an expansion card is still named exactly
        assert not refusals(exact) and "Argos Hawk" in text_of(exact)


@pytest.mark.asyncio
@pytest.mark.parametrize("lang", ["en", "ja"])
async def test_a_hopeless_name_says_so_instead_of_an_empty_list(tmp_path, lang):
    async with console_session(tmp_path / "g.sqlite3", lang=lang, seed=1) as session:
        for line in ("/game card name:zzzqqq", None, "/seasons reveal cards:zzzqqq", "/game card name:zzzqqq"):
            if line is None:
                await reveal_asked(session)
                continue
            items = await session.type(line)
            said = "\n".join(refusals(items))
            assert WORDS[lang]["hopeless"] in said and "zzzqqq" in said, (line, said)
            assert "—" not in said and "Did you mean" not in said and "候補" not in said, (line, said)
    async with console_session(tmp_path / "v.sqlite3", lang=lang, seed=1) as session:
        await session.type("/volfyrion start difficulty:normal")
        said = "\n".join(refusals(await session.type("/volfyrion play card:zzzqqq city:Tylaris")))
        assert WORDS[lang]["hopeless"] in said and "Guard" in said and "—" not in said, said


@pytest.mark.asyncio
@pytest.mark.parametrize("lang", ["en", "ja"])
async def test_numbers_typed_for_cards_are_refused_or_read_aloud(tmp_path, lang):
    words, names = WORDS[lang], NAMES[lang]
    async with console_session(tmp_path / "g.sqlite3", lang=lang, seed=1) as session:
        await reveal_asked(session)
        for typed in ("-5", "²", "5.", "−5"):  # a sign, a superscript, a stop: refused, nothing taken
            items = await session.type(f"/seasons reveal cards:{typed}")
            assert words["refused"].format(query=typed) in "\n".join(refusals(items)), typed
        said = "\n".join(refusals(await session.type("/seasons reveal cards:-555")))
        assert words["refused"].format(query="-555") in said and words["no_card_5"] in said
        said = text_of(await session.type("/game card name:²"))
        assert words["refused"].format(query="²") in said
        # The refusal offers the card the digits show: pressing it completes the reveal as if 5 had been typed.
        items = await session.type("/seasons reveal cards:-5")
        assert names["5"] in text_of(items)
        pressed = await session.type("press 1")
        assert names["5"] in text_of(pressed) and not refusals(pressed)
        await session.type("/game undo")
        # Full-width and circled digits are what an input method writes for a number: read, and said.
        for typed, card in (("５", "5"), ("①", "1")):
            items = await session.type(f"/seasons reveal cards:{typed}")
            said = text_of(items)
            assert not refusals(items) and words["read"].format(query=typed, card=names[card]) in said, said
            await session.type("/game undo")
        said = text_of(await session.type("/game card name:５"))  # the lookup's title names the card read
        assert names["5"] in said


@pytest.mark.parametrize("locale", ["en-US", "ja"])
async def test_reveal_autocomplete_offers_base_cards_and_an_expansion_card_only_when_typed(driver, locale):
    """Through the stand-in: the reveal's autocomplete for a fragment base and expansion cards share lists the
    base game's cards; what fits only an expansion card still offers it (S-8.5)."""
    await driver.slash("seasons start", {"difficulty": "wizard", "dice": "table"})
    await driver.slash("seasons die", {"face": "draw, 1 dot"})
    for typed, base in (("Argos", {"38"}), ("Potion", {"23", "24", "25", "26"})):
        offered = await driver.autocomplete("seasons reveal", {"cards": typed}, focused="cards", locale=locale)
        assert {c["value"] for c in offered} == base, (typed, offered)
    hawk = await driver.autocomplete("seasons reveal", {"cards": "Argos Ha"}, focused="cards", locale=locale)
    assert [c["value"] for c in hawk] == ["EK17"]


def test_the_reveal_picker_offers_no_expansion_card_when_most_base_cards_are_seen():
    """Every copy of cards 1–30 seen (discarded): the picker's 25 places go to the 20 base cards left, never to
    the expansions' cards."""
    from engine.seasons.cards import BASE_IDS
    from engine.seasons.summary import SeasonsSummary

    seen = [card for card in BASE_IDS[:30] for _ in range(2)]
    summary = SeasonsSummary.from_json({"difficulty": "wizard", "dice": "table", "discards": seen,
                                        "pending": "seasons.waiting.reveal_summon"})
    offered = [card for card, _ in summary.reveal_candidates(25)]
    assert offered == list(BASE_IDS[30:])
