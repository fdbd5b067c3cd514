"""A new Volfyirion difficulty is one line of the engine and two of the game's locale files (V-5.3's ``d``).

The engine's ``Difficulty`` is the one list: what the options accept and how hard the dragon attacks, what
/volfyrion start and /game leaderboard offer, and, with its ``word.<value>``, how the bot says it. The fixture
adds the line and the two words exactly there (``VERY_HARD = "very_hard", 3``; ``word.very_hard`` in
volfyirion.en.json and volfyirion.ja.json) and the game is played through the console.
"""

from __future__ import annotations

import pytest
from console_session import console_session, refusals, text_of

from bot import games, i18n
from engine.core import GameRecord
from engine.volfyirion import RULES
from engine.volfyirion.summary import Difficulty

WORDS = {"en": {"word.very_hard": "very hard"}, "ja": {"word.very_hard": "ベリーハード"}}


@pytest.fixture
def very_hard(monkeypatch: pytest.MonkeyPatch) -> Difficulty:
    """``VERY_HARD = "very_hard", 3`` in the enum, as the class statement would make it (Python keeps an enum's
    members in these three places), and the game's two locale lines."""
    member = str.__new__(Difficulty, "very_hard")
    member._name_, member._value_, member.bonus = "VERY_HARD", "very_hard", 3
    monkeypatch.setitem(Difficulty._member_map_, "VERY_HARD", member)
    monkeypatch.setitem(Difficulty._value2member_map_, "very_hard", member)
    monkeypatch.setattr(Difficulty, "_member_names_", [*Difficulty._member_names_, "VERY_HARD"])
    plugin = games.get("volfyirion")
    shipped = plugin.texts
    monkeypatch.setattr(plugin, "texts", lambda: {lang: {**texts, **WORDS.get(lang, {})}
                                                  for lang, texts in shipped().items()})
    i18n._merged.cache_clear()  # the merged sentences are remembered per list of games
    yield member
    i18n._merged.cache_clear()


def test_v5_3_the_engine_plays_a_difficulty_added_to_its_enum(very_hard: Difficulty) -> None:
    record = GameRecord(RULES, {"difficulty": "very_hard"}, seed=3)
    assert record.state.k == 3 and record.options["difficulty"] == "very_hard"
    setup = [e for e in record.last.events if e.key.startswith("volfyirion.event.setup_difficulty")]
    assert [e.params["d"] for e in setup] == [3]


@pytest.mark.parametrize("lang", ["en", "ja"])
async def test_the_commands_offer_it_and_the_bot_says_it_in_both_languages(very_hard: Difficulty, tmp_path,
                                                                          lang: str) -> None:
    word = WORDS[lang]["word.very_hard"]
    async with console_session(tmp_path / "g.sqlite3", lang=lang) as session:
        tree = session.console.driver.bot.tree
        start = tree.get_command("volfyrion").get_command("start")
        assert [c.value for c in start._params["difficulty"].choices] == ["easy", "normal", "hard", "very_hard"]
        leaderboard = tree.get_command("game").get_command("leaderboard")
        assert "very_hard" in [c.value for c in leaderboard._params["difficulty"].choices]
        items = await session.type("/volfyrion start difficulty:very_hard")
        assert refusals(items) == []
        said = text_of(items)
        assert word in said and {"en": "+ 3.", "ja": "＋3です"}[lang] in said  # the setup's attack line


def test_without_the_line_there_is_no_such_difficulty() -> None:
    assert [d.value for d in Difficulty] == ["easy", "normal", "hard"]
    assert [d.bonus for d in Difficulty] == [0, 1, 2]
    assert games.get("volfyirion").difficulties == ("easy", "normal", "hard")
