"""Dummbot's projected final score by Monte Carlo over the rest of the game.

A lean simulator, not the apply path: cards are small integers (their index among the base cards),
Dummbot's hand a list of them, the unseen pile the base deck (2 copies of each card) minus the cards
known to be elsewhere. Each round Dummbot gets one of the two season dice at random (the chosen dice in
bot-dice mode, 2 of the 5 drawn per season and sample in table mode); summons follow the difficulty
(S-5.1); Titus Deepgaze and Figrim the Avaricious in Dummbot's play area pay as the engine assumes.
"""

from __future__ import annotations

import random
from functools import cache
from typing import TypedDict

from . import cards as C
from .cards import BASE_IDS, COPIES, PRESTIGE
from .faces import RATES, SEASONS, dice_numbers, die_faces
from .rules import HAND_DRAW, NEW_YEAR_DRAW, PRELUDE_HAND
from .state import SeasonsState

_CODE = {cid: i for i, cid in enumerate(BASE_IDS)}
_PRES = [PRESTIGE[cid] for cid in BASE_IDS]
# What a card is worth once Dummbot summons it: Onys goes to the player's play area instead (S-8).
_WORTH = [0 if cid == C.ONYS else PRESTIGE[cid] for cid in BASE_IDS]
_TITUS, _FIGRIM = _CODE[C.TITUS], _CODE[C.FIGRIM]


@cache
def _faces() -> tuple[dict[int, tuple[tuple[int, int, int, int], ...]], ...]:
    """Per season, per die: (crystals gained, cards to hand, cards to play area, dots) of each face."""
    out = []
    for season in SEASONS:
        per_die = {}
        for die in dice_numbers(season):
            rows = []
            for f in die_faces(season, die):
                energy = sum(f["energy"].values())
                gain = 4 * energy if f["transmute"] and energy else sum(
                    n * RATES[season][e] for e, n in f["energy"].items())
                rows.append((gain + f["crystals"], f["star"] * (2 if f["transmute"] else 1), f["draw"], f["dots"]))
            per_die[die] = tuple(rows)
        out.append(per_die)
    return tuple(out)


class _Sim:
    """One simulated rest-of-game; plain attributes for speed."""

    __slots__ = (
        "crystals",
        "deck",
        "difficulty",
        "figrim",
        "hand",
        "last",
        "month",
        "over",
        "rnd",
        "titus",
        "worth",
        "year",
    )
    rnd: random.Random
    deck: list[int]  # the unseen pile, cards as their index among the base cards
    hand: list[int]
    crystals: int
    worth: int  # the prestige of the cards summoned in the simulation
    titus: int
    figrim: int
    month: int
    year: int
    over: bool
    difficulty: str
    last: bool  # this round is the game's last (a time move passed the end of year 3)

    def draw(self) -> int:
        deck = self.deck
        if not deck:
            return _CODE["1"]
        i = int(self.rnd.random() * len(deck))
        deck[i], deck[-1] = deck[-1], deck[i]
        return deck.pop()

    def to_play(self, card: int) -> None:
        self.worth += _WORTH[card]
        if card == _TITUS:
            self.titus += 1
        elif card == _FIGRIM:
            self.figrim += 1

    def summon(self) -> None:
        """S-5.1 by difficulty, S-5.2 printed prestige (ties: any of them, the draw order is random)."""
        hand = self.hand
        n = len(hand)
        if not n:
            return
        rnd = self.rnd.random
        if self.difficulty == "apprentice":
            i = int(rnd() * n)
            hand[i], hand[-1] = hand[-1], hand[i]
            self.to_play(hand.pop())
            return
        if n == 1 and self.difficulty == "archmage":
            card = hand.pop()
            if _PRES[card] > 0:
                self.to_play(card)
            return
        k = 4 if n > 4 else n
        for i in range(k):  # the first k positions become a random draw of k cards
            j = i + int(rnd() * (n - i))
            hand[i], hand[j] = hand[j], hand[i]
        pres = _PRES
        best, top = 0, pres[hand[0]]
        for i in range(1, k):
            if pres[hand[i]] > top:
                best, top = i, pres[hand[i]]
        if self.difficulty == "archmage" and k >= 2:
            worst, low = -1, 1 << 30
            for i in range(k):
                if i != best and pres[hand[i]] < low:
                    worst, low = i, pres[hand[i]]
            card = hand[best]
            for i in (best, worst) if best > worst else (worst, best):
                hand.pop(i)
            self.to_play(card)
        else:
            self.to_play(hand.pop(best))

    def season_change(self) -> None:
        self.summon()
        self.crystals += self.figrim

    def new_year(self) -> None:
        for _ in range(NEW_YEAR_DRAW[self.difficulty]):
            self.hand.append(self.draw())

    def move(self, dots: int) -> None:
        if self.last:  # the player's time move passed the end of year 3: this round was the last (S-9.4)
            self.over = True
            return
        before = (self.month - 1) // 3
        month = self.month + dots
        if month > 12:
            if self.year == 3:
                self.month, self.over = 12, True
                self.season_change()
                return
            self.month, self.year = month - 12, self.year + 1
            self.season_change()
            self.new_year()
        else:
            self.month = month
            if (month - 1) // 3 != before:
                self.season_change()

    def face(self, face: tuple[int, int, int, int]) -> None:
        gain, to_hand, to_play, dots = face
        self.crystals += gain
        for _ in range(to_hand):
            self.hand.append(self.draw())
        for _ in range(to_play):
            self.to_play(self.draw())
        self.crystals += self.titus
        self.move(dots)

    def run(self, dice: list[list[int]]) -> int:
        faces = _faces()
        rnd = self.rnd.random
        while not self.over:
            season = (self.month - 1) // 3
            pair = dice[season]
            self.face(faces[season][pair[0] if rnd() < 0.5 else pair[1]][int(rnd() * 6)])
        return self.crystals + self.worth


def _unseen(state: SeasonsState | None) -> list[int]:
    known = [] if state is None else state.summoned + state.discards + state.player_area + state.hand_known
    deck = []
    for cid in BASE_IDS:
        deck += [_CODE[cid]] * max(0, COPIES[cid] - known.count(cid))
    return deck


def _new_sim(rnd: random.Random, difficulty: str, deck: list[int]) -> _Sim:
    sim = _Sim()
    sim.rnd, sim.deck, sim.hand, sim.difficulty = rnd, list(deck), [], difficulty
    sim.crystals = sim.worth = sim.titus = sim.figrim = 0
    sim.month, sim.year, sim.over, sim.last = 1, 1, False, False
    return sim


def _random_dice(rnd: random.Random) -> list[list[int]]:
    return [rnd.sample(dice_numbers(s), 2) for s in SEASONS]


def _pending(sim: _Sim, state: SeasonsState) -> None:
    """Finish the round the state is in the middle of, as the engine would."""
    key, params = state.wait_key, state.wait_params
    if key == "seasons.waiting.reveal_summon":
        sim.to_play(sim.draw())
    elif key == "seasons.waiting.reveal_hand":
        sim.summon()
    elif key == "seasons.waiting.reveal_discard":
        for _ in range(min(params["count"], len(sim.hand))):
            sim.hand.pop(int(sim.rnd.random() * len(sim.hand)))
    for step in state.queue:
        name = step[0]
        if name == "summon_reveal":
            sim.to_play(sim.draw())
        elif name == "end_round":
            sim.crystals += sim.titus
        elif name == "move" and step[2:] == ["time"]:
            _time_move(sim, step[1], state.top_year or state.year)
        elif name == "move":
            sim.move(step[1])
        elif name == "season_change":
            sim.summon()
        elif name == "season_triggers":
            sim.crystals += sim.figrim
        elif name == "new_year":
            sim.new_year()
        elif name == "game_end":
            sim.over = True
        if sim.over:
            return
    if key in ("seasons.waiting.take_die", "seasons.waiting.player_turn"):
        season = state.dice_season
        faces = _faces()[SEASONS.index(season)]
        left = int(sim.rnd.random() * 2) if state.taken is None else 1 - state.taken
        rolled = state.rolled[left]
        die_face = rolled["face"]
        index = next(i for i, f in enumerate(die_faces(season, rolled["die"])) if f == die_face)
        sim.face(faces[rolled["die"]][index])


def _time_move(sim: _Sim, steps: int, top_year: int) -> None:
    """A pending time move of the player's (S-9.2 … S-9.4), as the engine makes it."""
    before = (sim.year - 1) * 12 + sim.month - 1
    after = max(0, min(before + steps, 36))
    if after == 36:
        sim.month, sim.year, sim.last = 12, 3, True
    else:
        sim.year, sim.month = after // 12 + 1, after % 12 + 1
    if after // 3 != before // 3:
        sim.summon()
        sim.crystals += sim.figrim
        if after < 36 and sim.year > top_year:
            sim.new_year()


class Forecast(TypedDict):
    """Dummbot's final score over the simulated endings: mean, spread, the 10th and 90th percentiles."""

    mean: float
    sd: float
    p10: int
    p90: int
    samples: int


def _stats(scores: list[int]) -> Forecast:
    scores.sort()
    n = len(scores)
    mean = sum(scores) / n
    sd = (sum((x - mean) ** 2 for x in scores) / n) ** 0.5
    return {"mean": mean, "sd": sd, "p10": scores[int(0.1 * (n - 1))], "p90": scores[int(0.9 * (n - 1))],
            "samples": n}


def forecast(state: SeasonsState, samples: int = 10000, seed: int = 0) -> Forecast:
    """Dummbot's projected final score from ``state``: mean, p10, p90 over ``samples`` simulated endings."""
    if state.over and state.wait_key in ("seasons.waiting.score", "seasons.waiting.finished"):
        return {"mean": float(state.score), "sd": 0.0, "p10": state.score, "p90": state.score,
                "samples": samples}
    rnd = random.Random(seed)
    deck = _unseen(state)
    known_hand = [_CODE[c] for c in state.hand_known if c in _CODE]
    unknown = max(0, state.hand_size - len(known_hand))
    titus, figrim = state.summoned.count(C.TITUS), state.summoned.count(C.FIGRIM)
    bot_dice = [list(state.chosen[s]) for s in SEASONS] if state.uses_chosen_dice else None
    scores = []
    for _ in range(samples):
        sim = _new_sim(rnd, state.difficulty, deck)
        sim.hand = known_hand + [sim.draw() for _ in range(unknown)]
        sim.crystals, sim.titus, sim.figrim = state.crystals, titus, figrim
        sim.month, sim.year, sim.last = state.month, state.year, state.past_end
        _pending(sim, state)
        score = sim.crystals + sim.worth if sim.over else sim.run(bot_dice or _random_dice(rnd))
        scores.append(score + state.score - state.crystals)
    return _stats(scores)


def calibration(difficulty: str, games: int = 10000, seed: int = 0) -> Forecast:
    """Mean and spread of Dummbot's final score over ``games`` simulated new games."""
    rnd = random.Random(seed)
    deck = _unseen(None)
    scores = []
    for _ in range(games):
        sim = _new_sim(rnd, difficulty, deck)
        sim.hand = [sim.draw() for _ in range(PRELUDE_HAND)]
        scores.append(sim.run(_random_dice(rnd)))
    return _stats(scores)


__all__ = ["HAND_DRAW", "Forecast", "calibration", "forecast"]
