"""The Seasons game state: Dummbot's side, the season wheel, and what the engine waits for.

The state is a dataclass the rules clone before changing (``apply`` never mutates its input). Its
JSON form is complete and versioned, so a stored game resumes exactly.
"""

from __future__ import annotations

import copy
from dataclasses import dataclass, fields
from typing import Any

from engine.core import JSON, RuleError, Waiting
from engine.core.model import JSONObject
from engine.core.result import Result

from .cards import FAIRIES, KAIRN, LEECH, ONYS, PRESTIGE
from .faces import SEASONS
from .summary import DiceMode, Difficulty, DummbotSummary, Payment, Pending, RolledDie, Season, SeasonsSummary

STATE_VERSION = 1

# Cards whose effect on the other side lasts while they are in play (S-8 table).
_ONGOING = frozenset({"11", "16", "33", "39", "41", "50"})

# The effects the player reports as they happen (S-8), each with the card that calls for it and whose play area
# must hold it: Dummbot's Thieving Fairies and Arcano Leech, the player's Kairn the Destroyer and Damned Soul
# of Onys. The other lasting effects the engine applies by itself.
REPORTED_EFFECTS = {"activate": ("dummbot", FAIRIES), "summon": ("dummbot", LEECH), "kairn": ("player", KAIRN),
                    "onys": ("player", ONYS)}

# Which action types each waiting situation accepts; corrections stay open between rounds and, for
# payments (S-8.3), until the final score is entered.
LEGAL: dict[str, tuple[str, ...]] = {
    "seasons.waiting.die": ("die", "played", "effect", "time", "crystals"),
    "seasons.waiting.roll": ("roll", "played", "effect", "crystals"),
    "seasons.waiting.take_die": ("take", "played", "effect", "crystals"),
    "seasons.waiting.player_turn": ("end", "played", "effect", "time", "crystals"),
    "seasons.waiting.reveal_summon": ("reveal", "crystals"),
    "seasons.waiting.reveal_hand": ("reveal", "crystals"),
    "seasons.waiting.reveal_discard": ("reveal", "crystals"),
    "seasons.waiting.player_crystals": ("answer", "crystals"),
    "seasons.waiting.score": ("score", "effect", "crystals"),
    "seasons.waiting.finished": (),
}
# The answers asked for in the middle of a step: while a payment can be corrected (S-8.3), "I could not pay" is
# taken there too (``SeasonsState.waiting``), since the payment's line asks for its button.
MID_STEP = frozenset({"seasons.waiting.reveal_summon", "seasons.waiting.reveal_hand",
                      "seasons.waiting.reveal_discard", "seasons.waiting.player_crystals"})
# Where ``effect`` takes only "I could not pay": in the middle of a step, and after the last round.
CORRECTIONS_ONLY = MID_STEP | {"seasons.waiting.score"}
# Where the player's turn of a round is going on (or about to): the prelude may be told then (S-2.4).
_ROUND_WAITS = frozenset({"seasons.waiting.die", "seasons.waiting.roll", "seasons.waiting.take_die",
                          "seasons.waiting.player_turn"})
# Bot dice: the round's dice are not rolled, or no die is taken yet (S-3.1a: the player's turn begins with the die).
_BEFORE_TAKE = frozenset({"seasons.waiting.roll", "seasons.waiting.take_die"})
# Edition 1, the first release's reading, kept so that games recorded then replay exactly: taking a die
# resolved Dummbot's die at once, so time moves were entered before the roll, and nothing was corrected
# at the final score.
_LEGAL_EDITION_1 = {
    **LEGAL,
    "seasons.waiting.roll": ("roll", "played", "effect", "time", "crystals"),
    "seasons.waiting.score": ("score", "crystals"),
}
# The rules of seasons-dummbot.md as they stand; see ``SeasonsRules.normalize_options``. Each edition keeps the
# games recorded under the one before replaying as they were played. Edition 3: "I could not pay" corrects the
# card named (S-8 #39), energy past the end of year 3 at winter's rate (S-4.1, S-9.4), the player's Arcano Leech
# before a card-draw summon too (S-8 #33), Kairn and Onys are activations for Dummbot's Fairies (S-8.7); table
# dice are the two chosen dice of each season (S-1.4), the prelude may name Dummbot's hand and a reveal from the
# hand must fit what is known of it (S-2.4). Edition 4: with bot dice a card or an effect of the player's turn is
# refused before a die is taken (S-3.1a, as a time move always was), and "I could not pay" for a payment that
# Dummbot passed straight on to the player's own Figrim or Titus takes back what it passed on too (S-8.3, the
# README's ruling): Dummbot keeps its count.
EDITION = 4
EDITIONS = (1, 2, 3, EDITION)
END = 36  # the token's position past month 12 of year 3 (S-7.1, S-9.4); see ``SeasonsState.position``

# Fields added with edition 2: older saved states get these defaults.
_DEFAULTS: dict[str, Any] = {"edition": 1, "taken": None, "round_season": None, "top_year": None,
                             "past_end": False, "kairn_used": 0}
# Fields added with edition 3, written only when they differ from these defaults, so that a state stored before
# them writes back the same JSON.
_LATER: dict[str, Any] = {"prelude_open": False, "turn_reported": False}
_DEFAULTS.update(_LATER)



@dataclass(slots=True, eq=False, repr=False)
class SeasonsState:
    """Everything the engine knows about one game (every field is given: see ``_DEFAULTS`` for old states)."""

    difficulty: str
    dice: str
    year: int
    month: int
    rng: int  # the state of the game's Rng
    chosen: dict[str, list[int]]  # S-1.4: the two dice of each season
    crystals: int
    hand_size: int
    hand_known: list[str]
    summoned: list[str]
    discards: list[str]
    player_area: list[str]
    rolled: Any  # the round's two dice, {"die", "face"} each, or None
    queue: list[list[Any]]  # the steps still to run: [name, *arguments]
    wait_key: str
    wait_params: dict[str, Any]
    payments: list[dict[str, Any]]
    over: bool
    round: int
    player_score: int | None
    outcome: str | None
    # Added with edition 2.
    edition: int
    taken: Any  # which of ``rolled`` the player took (0 or 1), or None
    round_season: str | None
    top_year: int | None
    past_end: bool
    kairn_used: int
    # Added with edition 3.
    prelude_open: bool  # S-2.4: the prelude's six cards may still be told (no die yet, no card left the hand)
    turn_reported: bool  # table dice: something of the player's turn was reported this round (they rolled)

    # -- derived -----------------------------------------------------------------------------------
    @property
    def season(self) -> str:
        return SEASONS[(self.month - 1) // 3]

    @property
    def token_season(self) -> str:
        """S-4.1: the season of the space where the token stands. Past month 12 of year 3 (S-9.4, a time move in
        the player's turn) it stands on the winter space, though the game counts no year 4 (edition 3; the
        editions before read the month, autumn)."""
        return "winter" if self.past_end and self.edition >= 3 else self.season

    @property
    def dice_season(self) -> str:
        """S-3.2: the season whose dice were rolled this round, even if the player moved time since."""
        return self.round_season if self.edition >= 2 and self.round_season else self.season

    @property
    def uses_chosen_dice(self) -> bool:
        """S-1.4: the round's dice are the two chosen ones of its season (bot dice always; table dice since
        edition 3, before which any of the season's five was taken)."""
        return self.dice == "bot" or self.edition >= 3

    @property
    def round_dice(self) -> list[int]:
        """The two dice of this round's season (S-1.4, S-3.2); empty when any of the five counts."""
        return list(self.chosen[self.dice_season]) if self.uses_chosen_dice else []

    @property
    def hand_unknown(self) -> int:
        """S-2.4: how many cards of Dummbot's hand are not known (the rest are ``hand_known``)."""
        return max(0, self.hand_size - len(self.hand_known))

    @property
    def position(self) -> int:
        """The token as one number: 0 is year 1 month 1, 35 year 3 month 12, 36 past the end (S-9.4)."""
        return END if self.past_end else (self.year - 1) * 12 + self.month - 1

    @property
    def score(self) -> int:
        """S-7.2: crystals + printed prestige of every card in Dummbot's play area."""
        return self.crystals + sum(PRESTIGE[c] for c in self.summoned)

    @property
    def waiting(self) -> Waiting:
        legal = (LEGAL if self.edition >= 2 else _LEGAL_EDITION_1)[self.wait_key]
        if self.payments and self.wait_key in MID_STEP:
            legal = (*legal, "effect")
        if self.prelude_open and self.wait_key in _ROUND_WAITS:
            legal = (*legal, "prelude")
        return Waiting(self.wait_key, dict(self.wait_params), legal)

    @property
    def finished(self) -> bool:
        return self.wait_key == "seasons.waiting.finished"

    def reportable_effects(self) -> list[str]:
        """The effects of ``REPORTED_EFFECTS`` the player may report now: their card is in play and the round
        is still going (after the last one, only payment corrections, S-8.3)."""
        if "effect" not in self.waiting.legal or self.wait_key in CORRECTIONS_ONLY or self.before_take:
            return []
        areas = {"dummbot": self.summoned, "player": self.player_area}
        return [kind for kind, (area, card) in REPORTED_EFFECTS.items()
                if card in areas[area] and not (kind == "kairn" and self.kairn_spent())]

    @property
    def before_take(self) -> bool:
        """Bot dice (edition 4): no die taken yet this round, so the player's turn has not begun (S-3.1a): what it
        brings (a card summoned, an activation) is refused until a die is taken, as a time move always was."""
        return self.edition >= 4 and self.wait_key in _BEFORE_TAKE

    def kairn_spent(self) -> bool:
        """S-8.6: every Kairn of the player's was activated this round already (no more until the next)."""
        return self.edition >= 2 and self.kairn_used >= self.player_area.count(KAIRN)

    def result(self) -> Result | None:
        if self.player_score is None or self.outcome is None:  # both are set when the final score is entered
            return None
        return Result(self.outcome, player_score=self.player_score, opponent_score=self.score, length=self.round)

    def summary(self) -> SeasonsSummary:
        chosen = {Season(s): (d[0], d[1]) for s, d in self.chosen.items()} if self.uses_chosen_dice else {}
        return SeasonsSummary(
            year=self.year, month=self.month, season=Season(self.season), dice_season=Season(self.dice_season),
            round=self.round, difficulty=Difficulty(self.difficulty), dice=DiceMode(self.dice),
            dummbot=DummbotSummary(crystals=self.crystals, hand_size=self.hand_size, summoned=tuple(self.summoned),
                                   score=self.score, hand_known=tuple(self.hand_known), hand_unknown=self.hand_unknown),
            chosen_dice=chosen, round_dice=tuple(self.round_dice), prelude_open=self.prelude_open,
            discards=tuple(self.discards), player_area=tuple(self.player_area),
            rolled=None if self.rolled is None else tuple(RolledDie(d["die"], copy.deepcopy(d["face"]))
                                                          for d in self.rolled),
            taken=self.taken, pending=Pending(self.wait_key),
            payments=tuple(Payment(p["card"], p["n"], bool(p.get("funded", False))) for p in self.payments),
            dummbot_ongoing=tuple(sorted({c for c in self.summoned if c in _ONGOING})),
            player_ongoing=tuple(sorted({c for c in self.player_area if c in _ONGOING})),
            pending_params=copy.deepcopy(self.wait_params), game_over=self.over, past_end=self.past_end,
            result=self.result(),
        )

    # -- copying and JSON --------------------------------------------------------------------------
    def clone(self) -> SeasonsState:
        """A copy the rules may change: lists are copied one level deep; dicts and the lists inside
        ``queue``/``rolled``/``payments`` are only ever replaced, never changed in place, so they are shared."""
        new = object.__new__(SeasonsState)
        for name in _FIELDS:
            value = getattr(self, name)
            setattr(new, name, value[:] if type(value) is list else value)
        return new

    def to_json(self) -> JSONObject:
        out: JSON = {"version": STATE_VERSION, "game": "seasons"}
        for name in _FIELDS:
            value = getattr(self, name)
            if name not in _LATER or value != _LATER[name]:
                out[name] = copy.deepcopy(value)
        return out

    @classmethod
    def from_json(cls, data: JSON) -> SeasonsState:
        if data.get("version") != STATE_VERSION or data.get("game", "seasons") != "seasons":
            raise RuleError("seasons.state_version", version=str(data.get("version")))
        return cls(**{name: copy.deepcopy(data[name] if name in data else _DEFAULTS[name]) for name in _FIELDS})

    def __eq__(self, other: object) -> bool:
        return isinstance(other, SeasonsState) and self.to_json() == other.to_json()

    def __repr__(self) -> str:
        return f"<SeasonsState y{self.year} m{self.month} {self.crystals}c hand {self.hand_size} {self.wait_key}>"


_FIELDS = tuple(f.name for f in fields(SeasonsState))  # in JSON order
