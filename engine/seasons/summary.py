"""The shape of ``SeasonsState.summary()``: what the bot shows and stores (it stays JSON in the store)."""

from __future__ import annotations

from typing import Any, TypedDict


class DummbotSummary(TypedDict):
    crystals: int
    hand_size: int
    summoned: list[str]  # card ids
    score: int
    hand_known: list[str]  # the cards known to be in Dummbot's hand (S-2.4), each copy once
    hand_unknown: int  # how many of its cards are not known


class SeasonsSummary(TypedDict):
    year: int
    month: int
    season: str
    dice_season: str
    round: int
    difficulty: str
    dice: str  # table | bot
    dummbot: DummbotSummary
    chosen_dice: dict[str, list[int]]  # S-1.4: the two dice of each season (empty: any of the five, old games)
    round_dice: list[int]  # the two dice of this round's season
    prelude_open: bool  # S-2.4: the prelude's cards may still be told
    discards: list[str]
    player_area: list[str]
    rolled: Any
    taken: Any
    pending: str  # the waiting key
    can_correct_payment: bool
    payments: list[dict[str, Any]]
    dummbot_ongoing: list[str]
    player_ongoing: list[str]
    pending_params: dict[str, Any]
    game_over: bool
    past_end: bool
    result: dict[str, Any] | None  # the Result's JSON
