"""Whole Volfyirion games typed into the console (`python -m bot console --json`) on each difficulty and both
bonus readings (V-4.3, V-5.3), every attack checked against values computed by hand from the rules.

One script, typed as a player would (a city by its defence, names in any case, a reveal that names the known
top card too), played six times in one channel: each game ends with the last city falling on turn 4.

    cities: Tylaris 8 (+ Guard 4 = 12), Vahylea 9, Alantar 10;  d = easy 0, normal 1, hard 2;  n = cities
    destroyed before the attack.  flat: costs + n + d.  per_city: costs + d × n.

    turn 1  Shrewd Deal 5 + Stab 1 = 6, n 0     flat 6 + d            per_city 6
            → 6, 7 or 8: nothing falls (the weakest standing city is Vahylea 9). Shrewd Deal stays on top.
    turn 2  top Shrewd Deal 5 + Sabotage 5 = 10, n 0   flat 10 + d    per_city 10
            → 10 or 11: Alantar (10).  hard flat 12: Tylaris with its Guard (12) — the highest it can pay.
            Shrewd Deal (5, 1 KP) beats Sabotage (5, 0 KP) for the top (V-4.7).
    turn 3  top Shrewd Deal 5 + Book of Wisdom 8 = 13, n 1   flat 13 + 1 + d   per_city 13 + d × 1
            → easy 14 / normal 15: Tylaris (12), 2 or 3 left; hard 16: Alantar (10), 6 left < 9.
              per_city easy 13 / normal 14 / hard 15: Tylaris (12).
    turn 4  top Book of Wisdom 8 + Stab 1 = 9, n 2   flat 9 + 2 + d   per_city 9 + d × 2
            → 11, 12, 13 / 9, 11, 13: Vahylea (9), the last city: the game is lost on turn 4.
"""

from __future__ import annotations

import re

import pytest
from test_bot_console_games import console, exported

from bot.standin.driver import message_text

SCRIPT = [
    "/volfyrion play card:guard city:8",
    "/volfyrion reshuffle",
    "/volfyrion end",
    "/volfyrion reveal cards:shrewd deal, STAB",
    "/volfyrion reshuffle",
    "/volfyrion end",
    "/volfyrion reveal cards:Shrewd Deal, sabotage",  # the known top card named too (V-3.3)
    "/volfyrion reshuffle",
    "/volfyrion end",
    "/volfyrion reveal cards:Book of Wisdom",
    "/volfyrion reshuffle",
    "/volfyrion end",
    "/volfyrion reveal cards:stab",
    "/game export",
]

# (difficulty, bonus) -> the four attacks and the cities in the order they fall, computed above.
EXPECTED = {
    ("easy", "flat"): ([6, 10, 14, 11], ["Alantar", "Tylaris", "Vahylea"]),
    ("normal", "flat"): ([7, 11, 15, 12], ["Alantar", "Tylaris", "Vahylea"]),
    ("hard", "flat"): ([8, 12, 16, 13], ["Tylaris", "Alantar", "Vahylea"]),
    ("easy", "per_city"): ([6, 10, 13, 9], ["Alantar", "Tylaris", "Vahylea"]),
    ("normal", "per_city"): ([6, 10, 14, 11], ["Alantar", "Tylaris", "Vahylea"]),
    ("hard", "per_city"): ([6, 10, 15, 13], ["Alantar", "Tylaris", "Vahylea"]),
}
ATTACK = {"en": re.compile(r"Volfyirion attacks with (\d+):"), "ja": re.compile(r"ヴォルフィーリオンの攻撃力は(\d+)(?:です|で、)")}
FALLEN = {"en": re.compile(r"• ([A-Za-z ]+) is destroyed:"), "ja": re.compile(r"• ([A-Za-z ]+)が破壊されました（")}

# What the attack lines say of the parts used, English, by game (one line per turn).
LINES_EN = {
    ("normal", "flat"): [
        "Volfyirion attacks with 7: Command costs 6 + 1 for normal (no city destroyed yet).",
        "Volfyirion attacks with 11: Command costs 10 + 1 for normal (no city destroyed yet).",
        "Volfyirion attacks with 15: Command costs 13 + 1 for the destroyed cities (1 each) + 1 for normal.",
        "Volfyirion attacks with 12: Command costs 9 + 2 for the destroyed cities (1 each) + 1 for normal.",
    ],
    ("easy", "flat"): [
        "Volfyirion attacks with 6: the Command costs alone (no city destroyed yet; easy adds nothing).",
        "Volfyirion attacks with 10: the Command costs alone (no city destroyed yet; easy adds nothing).",
        "Volfyirion attacks with 14: Command costs 13 + 1 for the destroyed cities (1 each; easy adds nothing more).",
        "Volfyirion attacks with 11: Command costs 9 + 2 for the destroyed cities (1 each; easy adds nothing more).",
    ],
}


def _texts(items: list[dict]) -> list[str]:
    return [part for item in items for part in message_text(item)]


@pytest.mark.parametrize(("bonus", "lang"), [("flat", "en"), ("per_city", "ja")])
def test_v4_3_v5_3_whole_games_on_each_difficulty_typed_into_the_console(tmp_path, bonus, lang):
    games = [(difficulty, bonus) for difficulty in ("easy", "normal", "hard")]
    lines: list[str] = []
    for difficulty, reading in games:
        lines += [f"/volfyrion start difficulty:{difficulty} bonus:{reading}", *SCRIPT]
    items = console(lines, "--lang", lang, "--db", str(tmp_path / "games.sqlite3"), seed=8)
    assert not any("error" in item for item in items), [i for i in items if "error" in i][:3]
    assert not any(item.get("flags", 0) & 64 for item in items), "a typed line was refused"
    texts = _texts(items)
    attacks = [int(m) for text in texts for m in ATTACK[lang].findall(text)]
    fallen = [m for text in texts for m in FALLEN[lang].findall(text)]
    assert attacks == [a for game in games for a in EXPECTED[game][0]]
    assert fallen == [c for game in games for c in EXPECTED[game][1]]
    if lang == "en":
        for game, expected in LINES_EN.items():
            start = games.index(game) * 4
            found = [line.removeprefix("• ") for text in texts for line in text.split("\n")
                     if ATTACK["en"].search(line)]
            assert found[start:start + 4] == expected
    else:
        assert any("ヴォルフィーリオンの攻撃力は13です（コマンドカードのコスト9＋4）。ハードのボーナスは破壊された街1つにつき2で、"
                   "破壊された街は2つです。" in text for text in texts)
        assert any("難易度はイージー、ボーナスは街ごと（英語版ルールブックの表）です。ヴォルフィーリオンの攻撃力は、公開された"
                   "コマンドカードのコストの合計だけです（イージーは破壊された街の分も追加しません）。" in text for text in texts)
    records = [exported([item]) for item in items if any(f["filename"].endswith(".json") for f in item.get("files", []))]
    assert len(records) == 3
    for record, (difficulty, reading) in zip(records, games, strict=True):
        assert record["options"]["difficulty"] == difficulty and record["options"]["bonus"] == reading
        assert record["result"] == {"outcome": "lost", "turn": 4, "how": "cities_destroyed", "cities_left": 0}
        # Stored as meant: the city by name, the cards by id, the top card named in the reveal kept as named.
        assert record["actions"][0] == {"type": "play", "card": "Guard", "city": "Tylaris"}
        reveals = [a["cards"] for a in record["actions"] if a["type"] == "reveal"]
        assert reveals == [["Shrewd Deal", "Stab"], ["Shrewd Deal", "Sabotage"], ["Book of Wisdom"], ["Stab"]]
