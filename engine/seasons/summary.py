"""What the bot shows of a Seasons game, typed: ``SeasonsState.summary()`` and the final scores' breakdown.

The bot reads these by attribute. A summary is frozen and its sequences are tuples, so the picture thread may
draw from it while the next command runs. It crosses one JSON boundary: ``/game export``'s ``state`` is
``to_json()`` (the export's fields of docs/playing.md, unchanged), which ``from_json`` reads back — also in the shorter form
older releases wrote, whose missing fields take their defaults.

The closed sets are ``StrEnum``s: a member is its string, so JSON, locale keys (``word.{difficulty}``) and
comparisons with the engine's plain strings keep working.
"""

from __future__ import annotations

import copy
import dataclasses
from collections import Counter
from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from enum import StrEnum
from typing import Any

from engine.core import JSON, Action
from engine.core.result import Result

from .cards import BASE_IDS, COPIES

# A Seasons result names its opponent Dummbot, as the export and the stored summaries always did.
RESULT_NAMES: dict[str, str | None] = {"opponent_score": "dummbot_score", "length": None}
BONUS_PENALTY = (0, 5, 12, 20)  # §9.4


class Season(StrEnum):
    WINTER = "winter"
    SPRING = "spring"
    SUMMER = "summer"
    AUTUMN = "autumn"

    @classmethod
    def of_month(cls, month: int) -> Season:
        return list(cls)[(min(max(month, 1), 12) - 1) // 3]


class DiceMode(StrEnum):
    TABLE = "table"  # the player rolls on the table and tells the face left for Dummbot
    BOT = "bot"  # the bot rolls


class Difficulty(StrEnum):
    APPRENTICE = "apprentice"
    WIZARD = "wizard"
    ARCHMAGE = "archmage"


class Pending(StrEnum):
    """What the engine waits for (the waiting key)."""

    DIE = "seasons.waiting.die"
    ROLL = "seasons.waiting.roll"
    TAKE_DIE = "seasons.waiting.take_die"
    PLAYER_TURN = "seasons.waiting.player_turn"
    REVEAL_SUMMON = "seasons.waiting.reveal_summon"
    REVEAL_HAND = "seasons.waiting.reveal_hand"
    REVEAL_DISCARD = "seasons.waiting.reveal_discard"
    PLAYER_CRYSTALS = "seasons.waiting.player_crystals"
    SCORE = "seasons.waiting.score"
    FINISHED = "seasons.waiting.finished"

    @property
    def from_hand(self) -> bool:
        """A reveal of cards drawn from Dummbot's hand (S-4, S-5): it must fit what is known of the hand (S-2.4)."""
        return self in (Pending.REVEAL_HAND, Pending.REVEAL_DISCARD)


@dataclass(frozen=True, slots=True)
class Payment:
    """A payment the player was assumed to make to Dummbot, still correctable (S-8.3)."""

    card: str
    n: int
    funded: bool = False  # edition 3, Figrim/Titus on both sides: it funded what Dummbot paid the player

    def to_json(self) -> JSON:
        return {"card": self.card, "n": self.n, **({"funded": True} if self.funded else {})}


@dataclass(frozen=True, slots=True)
class RolledDie:
    """Bot dice: one of the round's two rolled dice and the face it shows (the face as the engine keeps it)."""

    die: int
    face: Mapping[str, Any]

    def to_json(self) -> JSON:
        return {"die": self.die, "face": copy.deepcopy(dict(self.face))}


@dataclass(frozen=True, slots=True)
class DummbotSummary:
    crystals: int
    hand_size: int
    summoned: tuple[str, ...]  # card ids, in the order summoned
    score: int
    hand_known: tuple[str, ...]  # the cards known to be in Dummbot's hand (S-2.4), each copy once
    hand_unknown: int  # how many of its cards are not known

    @property
    def prestige(self) -> int:
        """S-7.2: the printed prestige of the cards in its play area (its score less its crystals)."""
        return self.score - self.crystals

    def to_json(self) -> JSON:
        return {"crystals": self.crystals, "hand_size": self.hand_size, "summoned": list(self.summoned),
                "score": self.score, "hand_known": list(self.hand_known), "hand_unknown": self.hand_unknown}

    @classmethod
    def from_json(cls, data: Mapping[str, Any]) -> DummbotSummary:
        known = tuple(str(c) for c in data.get("hand_known", ()))
        hand_size = int(data.get("hand_size", 0))
        return cls(crystals=int(data.get("crystals", 0)), hand_size=hand_size,
                   summoned=tuple(str(c) for c in data.get("summoned", ())), score=int(data.get("score", 0)),
                   hand_known=known, hand_unknown=int(data.get("hand_unknown", max(0, hand_size - len(known)))))


@dataclass(frozen=True, slots=True)
class SeasonsSummary:
    year: int
    month: int
    season: Season  # the month's season
    dice_season: Season  # S-3.2: the season whose dice were rolled this round (a time move may have left it)
    round: int
    difficulty: Difficulty
    dice: DiceMode
    dummbot: DummbotSummary
    chosen_dice: Mapping[Season, tuple[int, int]]  # S-1.4: each season's two dice (empty: any of the five, old games)
    round_dice: tuple[int, ...]  # the two dice of this round's season (empty: any of the five)
    prelude_open: bool  # S-2.4: the prelude's cards may still be told
    discards: tuple[str, ...]
    player_area: tuple[str, ...]
    rolled: tuple[RolledDie, ...] | None  # bot dice: the round's two dice once rolled
    taken: int | None  # bot dice: which of them the player took
    pending: Pending
    payments: tuple[Payment, ...]  # S-8.3: the payments "I could not pay" may still correct, oldest first
    dummbot_ongoing: tuple[str, ...]  # cards of Dummbot's whose effect on the player lasts (S-8), sorted
    player_ongoing: tuple[str, ...]  # the player's cards whose effect on Dummbot lasts (S-8), sorted
    pending_params: Mapping[str, Any]  # the waiting's parameters (JSON values, as its locale line takes them)
    game_over: bool
    past_end: bool  # S-9.4: a time move took the token past month 12 of year 3
    result: Result | None

    @property
    def can_correct_payment(self) -> bool:
        return bool(self.payments)

    def reveal_candidates(self, limit: int) -> list[tuple[str, bool]]:
        """The first ``limit`` cards the pending reveal can name, as (card id, known to be in Dummbot's hand): for
        a draw from its hand the cards known to be there first (each copy once), then every base-game card with a
        copy not known elsewhere (S-4, S-5); for a summon from the draw pile only the latter. Expansion cards are
        typed by name (S-8.5), never offered."""
        bot = self.dummbot
        seen = Counter((*bot.summoned, *self.discards, *self.player_area, *bot.hand_known))
        found = [(c, True) for c in bot.hand_known[:limit]] if self.pending.from_hand else []
        for card_id in BASE_IDS:
            if len(found) >= limit:
                break
            if COPIES.get(card_id, 1) - seen[card_id] > 0:
                found.append((card_id, False))
        return found

    def to_json(self) -> JSON:
        """The export's ``state``: the fields and values the summary always had."""
        return {
            "year": self.year, "month": self.month, "season": self.season.value,
            "dice_season": self.dice_season.value, "round": self.round, "difficulty": self.difficulty.value,
            "dice": self.dice.value, "dummbot": self.dummbot.to_json(),
            "chosen_dice": {s.value: list(d) for s, d in self.chosen_dice.items()},
            "round_dice": list(self.round_dice), "prelude_open": self.prelude_open,
            "discards": list(self.discards), "player_area": list(self.player_area),
            "rolled": None if self.rolled is None else [d.to_json() for d in self.rolled],
            "taken": self.taken, "pending": self.pending.value, "can_correct_payment": self.can_correct_payment,
            "payments": [p.to_json() for p in self.payments], "dummbot_ongoing": list(self.dummbot_ongoing),
            "player_ongoing": list(self.player_ongoing), "pending_params": copy.deepcopy(dict(self.pending_params)),
            "game_over": self.game_over, "past_end": self.past_end,
            "result": None if self.result is None else self.result.to_json(RESULT_NAMES),
        }

    @classmethod
    def from_json(cls, data: Mapping[str, Any]) -> SeasonsSummary:
        """``to_json``'s form back; a summary an older release wrote lacks later fields, which take their
        defaults (the month's season, no chosen dice, nothing pending but a die)."""
        month = int(data.get("month", 1))
        season = Season(data["season"]) if data.get("season") else Season.of_month(month)
        rolled = data.get("rolled")
        return cls(
            year=int(data.get("year", 1)), month=month, season=season,
            dice_season=Season(data.get("dice_season") or season), round=int(data.get("round", 1)),
            difficulty=Difficulty(data["difficulty"]), dice=DiceMode(data["dice"]),
            dummbot=DummbotSummary.from_json(data.get("dummbot") or {}),
            chosen_dice={Season(s): (int(d[0]), int(d[1])) for s, d in (data.get("chosen_dice") or {}).items()},
            round_dice=tuple(int(d) for d in data.get("round_dice") or ()),
            prelude_open=bool(data.get("prelude_open", False)),
            discards=tuple(str(c) for c in data.get("discards", ())),
            player_area=tuple(str(c) for c in data.get("player_area", ())),
            rolled=None if rolled is None else tuple(RolledDie(int(d["die"]), dict(d["face"])) for d in rolled),
            taken=data.get("taken"), pending=Pending(data.get("pending", Pending.DIE)),
            payments=tuple(Payment(str(p["card"]), int(p["n"]), bool(p.get("funded", False)))
                           for p in data.get("payments", ())),
            dummbot_ongoing=tuple(data.get("dummbot_ongoing", ())), player_ongoing=tuple(data.get("player_ongoing", ())),
            pending_params=copy.deepcopy(dict(data.get("pending_params") or {})),
            game_over=bool(data.get("game_over", False)), past_end=bool(data.get("past_end", False)),
            result=None if data.get("result") is None else _result(data["result"], int(data.get("round", 1))),
        )


def _result(data: Mapping[str, Any], rounds: int) -> Result:
    """The Result the JSON names: a Seasons result leaves its length out (``RESULT_NAMES``), the rounds played."""
    result = Result.from_json(data)
    return result if result.length is not None else dataclasses.replace(result, length=rounds)


# -- the final scores' breakdown (S-7) -----------------------------------------------------------------------
@dataclass(frozen=True, slots=True)
class PlayerScore:
    """The player's final score as entered (S-7.1, §9.4): its parts and the penalties the rules take."""

    crystals: int
    prestige: int
    bonuses: int  # bonus-track uses, 0-3
    hand: int  # cards left in hand
    extra: int  # end-of-game card effects
    bonus_penalty: int  # §9.4: what those bonus uses cost


@dataclass(frozen=True, slots=True)
class DummbotScore:
    """Dummbot's final score (S-7.2): its crystals and the printed prestige of the cards in its play area."""

    crystals: int
    prestige: int
    card_count: int


def final_scores(summary: SeasonsSummary, actions: Sequence[Action]) -> dict[str, PlayerScore | DummbotScore]:
    """Both final scores' parts by side (``"player"``, ``"dummbot"``): Dummbot's from the summary, the player's
    from the score action when it is the last one (a game not scored yet has only Dummbot's)."""
    bot = summary.dummbot
    parts: dict[str, PlayerScore | DummbotScore] = {
        "dummbot": DummbotScore(crystals=bot.crystals, prestige=bot.prestige, card_count=len(bot.summoned))}
    last = actions[-1] if actions else None
    if last is not None and last.type == "score":
        bonuses = int(last.get("bonuses", 0))
        parts["player"] = PlayerScore(crystals=int(last.get("crystals", 0)), prestige=int(last.get("prestige", 0)),
                                      bonuses=bonuses, hand=int(last.get("hand", 0)), extra=int(last.get("extra", 0)),
                                      bonus_penalty=BONUS_PENALTY[bonuses])
    return parts
