"""The lasting S-8 effects, typed into the console as a player would: when such a card enters play the reply
says what it will do and what to report, and the effects the player reports are a button on every reply
while they can be reported (Dummbot's Thieving Fairies and Arcano Leech, the player's Kairn the Destroyer
and Damned Soul of Onys). Results worked out by hand from S-4, S-5.1 and S-8."""

from __future__ import annotations

from console_session import SIX_CRYSTALS_SEED, buttons, console_session, press_line, refusals, text_of

SIX_THREE = '/seasons die face:"6 crystals, 3 dots"'




async def test_s8_1_dummbot_s_thieving_fairies_is_explained_and_reported_by_its_button(tmp_path):
    """Apprentice, table dice, every die 6 crystals and 3 dots (twelve rounds, a change of season each).
    R1: 6 crystals; spring: one card drawn from Dummbot's hand, Thieving Fairies (6), summoned. Each
    activation the player reports: they give Dummbot 1 crystal and Dummbot gains 1 more (6 -> 8 -> 10). Its
    button is offered while the player may report it, and not once the last round is over (only corrections
    then, S-8.3). The other seven cards of Dummbot's hand (6 at the start, 1 more each new year) are worth 0.
    Dummbot: 10 + 11 × 6 = 76 crystals, 6 prestige: 82."""
    fairies = "I activated a card (Dummbot's Thieving Fairies)"
    async with console_session(tmp_path / "g.sqlite3", lang="en", seed=SIX_CRYSTALS_SEED) as session:
        await session.type("/seasons start difficulty:apprentice dice:table")
        await session.type(SIX_THREE)
        summoned = await session.type("/seasons reveal cards:41")
        assert refusals(summoned) == []
        said = text_of(summoned)
        assert "Dummbot summons Thieving Fairies (#41)" in said
        assert "each time you activate a card, give Dummbot 1 crystal, and Dummbot gains 1 more" in said
        assert fairies in buttons(summoned)

        first = await session.type(press_line(summoned, fairies))
        assert refusals(first) == []
        # Each change of Dummbot's crystals names the square of its sorcerer token (issue 33).
        assert "give Dummbot 1 crystal. Move Dummbot's sorcerer token on the crystal board up to 7." in text_of(first)
        assert "Dummbot gains 1 more crystal. Move Dummbot's sorcerer token on the crystal board up to 8." in text_of(first)
        second = await session.type(press_line(first, fairies))
        assert "Dummbot gains 1 more crystal. Move Dummbot's sorcerer token on the crystal board up to 10." in text_of(second)

        status = await session.type("/game status")
        assert "Dummbot's crystals: 10" in text_of(status)
        # Eleven more rounds: the game ends past month 12 of year 3.
        worthless = ["23", "24", "25", "26", "29", "35", "36"]  # distinct cards of 0 prestige
        items = second
        while "Enter your final score" not in text_of(items):
            items = await session.type(SIX_THREE)
            if "Tell me which 1 card" in text_of(items):
                items = await session.type(f"/seasons reveal cards:{worthless.pop()}")
            assert refusals(items) == [], text_of(items)
            assert (fairies in buttons(items)) is ("Enter your final score" not in text_of(items))
        assert worthless == []
        assert "Dummbot's final score: 82 (76 crystals + 6 prestige from 8 cards)" in text_of(items)


async def test_s8_6_the_player_s_kairn_is_a_button_once_a_round_in_japanese(tmp_path):
    """Archmage, table dice. R1: 6 crystals -> 6. The player reports Kairn the Destroyer in their play area;
    its activation is then a button: Dummbot loses 4 crystals (6 -> 2), once a round per Kairn (S-8.6): once
    used, the button is gone until the next round, and typing it again is refused."""
    kairn = "破壊者ケアンを起動した（ダムボットのクリスタル−4個）"
    async with console_session(tmp_path / "g.sqlite3", lang="ja", seed=SIX_CRYSTALS_SEED) as session:
        await session.type("/seasons start difficulty:archmage dice:table")
        await session.type('/seasons die face:クリスタル6、2点')
        noted = await session.type("/seasons played card:16")
        assert refusals(noted) == []
        assert "起動する（魔力を1つ捨てる）たびに" in text_of(noted)
        assert kairn in buttons(noted)
        lost = await session.type(press_line(noted, kairn))
        assert refusals(lost) == []
        status = await session.type("/game status")
        assert "ダムボットのクリスタル: 2個" in text_of(status)
        assert kairn not in buttons(lost)
        again = await session.type("/seasons effect kind:kairn")
        assert refusals(again) and "すでに起動しています" in refusals(again)[0]
        status = await session.type("/game status")
        assert "ダムボットのクリスタル: 2個" in text_of(status)  # the refusal changed nothing
