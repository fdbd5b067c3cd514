"""A seeded generator of console lines: mostly bad (unknown commands, unbalanced quotes, bad presses and
forms, junk, huge lines), some good ones so that buttons and forms exist to be pressed and filled.

Lines never hold a line break ("\\n" or "\\r"): the console reads one line per interaction.
"""

from __future__ import annotations

import random

from fuzz_payloads import NASTY

GOOD = [
    "/seasons start difficulty:wizard dice:bot",
    "/seasons start difficulty:archmage dice:table",
    "/volfyrion start difficulty:normal",
    "/game status",
    "/game abandon",
    "press 1",
    "press 2",
    "press 3",
    "/seasons roll",
    '/seasons die face:"2 water, 3 crystals, 1 dot"',
    "/seasons reveal cards:12, 31",
    "/game undo",
    "/game history",
    "/volfyrion end",
    "/game leaderboard",
    "form cards=12",
    "form crystals=3 prestige=10 bonuses=0 hand=1",
]
COMMANDS = [
    "seasons start",
    "seasons die",
    "seasons reveal",
    "seasons played",
    "seasons time",
    "seasons score",
    "seasons effect",
    "volfyrion play",
    "volfyrion start",
    "volfyrion putaside",
    "game help",
    "game stats",
    "game leaderboard",
    "seasons answer",
    "seasons crystals",
]
OPTIONS = [
    "difficulty",
    "dice",
    "face",
    "cards",
    "card",
    "steps",
    "crystals",
    "prestige",
    "bonuses",
    "hand",
    "extra",
    "kind",
    "city",
    "paid",
    "game",
    "user",
    "zzz",
    "名前",
    "x" * 60,
]


def _clean(text: str) -> str:
    return text.replace("\n", " ").replace("\r", " ")


class LineFuzzer:
    def __init__(self, seed: int) -> None:
        self.rng = random.Random(seed)

    def value(self) -> str:
        rng = self.rng
        text = (
            _clean(rng.choice(NASTY))
            if rng.random() < 0.7
            else "".join(rng.choice("ab 12,:=\"'「」“”：水🎲\x00\t{}") for _ in range(rng.randint(0, 30)))
        )
        quote = rng.random()
        if quote < 0.2:
            return f'"{text}"'
        if quote < 0.3:
            return f'"{text}'  # unbalanced
        if quote < 0.35:
            return f"「{text}」"
        return text

    def line(self) -> str:
        rng = self.rng
        pick = rng.random()
        if pick < 0.15:
            return rng.choice(GOOD)
        if pick < 0.45:
            command = rng.choice(COMMANDS)
            parts = [f"/{command}"]
            for _ in range(rng.randint(0, 4)):
                sep = rng.choice([":", ":", "：", "=", " "])
                parts.append(f"{rng.choice(OPTIONS)}{sep}{self.value()}")
            return " ".join(parts)
        if pick < 0.55:
            return rng.choice(
                [
                    "/",
                    "//",
                    "/ ",
                    "/seasons",
                    "/seasons nope",
                    "/game",
                    "/zz",
                    "/SEASONS START",
                    "/seasons start start",
                    "/" + "x" * 5000,
                    "/ゲーム",
                    "/seasons\tstart",
                ]
            )
        if pick < 0.7:
            return "press " + rng.choice(
                [
                    "0",
                    "-1",
                    "999",
                    "abc",
                    "",
                    "1.5",
                    "1 a,b",
                    "9" * 40,
                    "１",
                    "2 ",
                    " 1",
                    "1,2",
                    "+1",
                    "0x1",
                    str(rng.randint(-3, 9)),
                    self.value(),
                ]
            )
        if pick < 0.8:
            pairs = " ".join(
                f"{rng.choice(['cards', 'crystals', 'x', '', '='])}={self.value()}"
                for _ in range(rng.randint(0, 3))
            )
            return rng.choice(["form", "FORM", "form "]) + " " + pairs
        if pick < 0.85:
            return rng.choice(["", "   ", "\t", "# a comment", "#", "  # indented comment"])
        if pick < 0.9:
            return (
                _clean(
                    "".join(
                        chr(
                            rng.choice(
                                [rng.randint(0, 31), rng.randint(32, 0x2FFF), rng.randint(0xE000, 0x10FFFF)]
                            )
                        )
                        for _ in range(rng.randint(1, 200))
                    )
                )
                .replace("\x0b", " ")
                .replace("\x0c", " ")
                .replace("\x1c", " ")
                .replace("\x1d", " ")
                .replace("\x1e", " ")
                .replace("\x85", " ")
            )
        if pick < 0.95:
            return rng.choice(
                [
                    "x" * 100_000,
                    "/seasons die face:" + "水" * 50_000,
                    "press " + "1" * 10_000,
                    "press ²",
                    "press ١",
                    "press 𝟙",
                ]
            )
        return _clean(self.value())
