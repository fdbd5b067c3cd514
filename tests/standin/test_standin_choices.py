"""How the driver reads a choice typed in the console: as Discord's client lets a player pick it."""

from __future__ import annotations

from bot.standin.driver import _chosen

DIFFICULTY = [{"name": "easy", "value": "easy", "name_localizations": {"ja": "イージー"}},
              {"name": "normal", "value": "normal", "name_localizations": {"ja": "ノーマル"}},
              {"name": "hard", "value": "hard", "name_localizations": {"ja": "ハード"}}]
DICE = [{"name": "table (I roll the dice)", "value": "table", "name_localizations": {"ja": "手元のダイス（自分で振る）"}},
        {"name": "bot (the bot rolls)", "value": "bot", "name_localizations": {"ja": "ボットのダイス（ボットが振る）"}}]
GAMES = [{"name": "Seasons", "value": "seasons"}, {"name": "Volfyirion", "value": "volfyirion"},
         {"name": "Tug", "value": "tug"}]


def value(choices: list[dict], typed: str) -> str | None:
    found = _chosen(choices, typed)
    return None if found is None else found["value"]


def test_a_choice_by_its_value_or_its_name_in_any_language_case_and_width_forgiven():
    assert value(DIFFICULTY, "normal") == "normal"
    assert value(DIFFICULTY, "NORMAL") == "normal"
    assert value(DIFFICULTY, "ノーマル") == "normal"
    assert value(DIFFICULTY, "ﾉｰﾏﾙ") == "normal"  # half-width katakana
    assert value(DICE, "bot (the bot rolls)") == "bot"


def test_the_beginning_of_one_name_picks_it_and_of_several_picks_none():
    assert value(DICE, "ボットのダイス") == "bot"
    assert value(DICE, "手元") == "table"
    assert value(DIFFICULTY, "ha") == "hard"
    assert value(GAMES, "s") is None  # one letter is not enough
    assert value([{"name": "hard", "value": "hard"}, {"name": "harder", "value": "harder"}], "har") is None


def test_one_letter_off_picks_the_one_choice_it_fits():
    assert value(GAMES, "volfyrion") == "volfyirion"  # the command's spelling
    assert value(GAMES, "seasns") == "seasons"
    assert value(DIFFICULTY, "medium") is None
    assert value([{"name": "card", "value": "card"}, {"name": "cart", "value": "cart"}], "carx") is None
