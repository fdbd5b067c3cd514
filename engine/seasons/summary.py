"""The shape of ``SeasonsState.summary()``: what the bot shows and stores (it stays JSON in the store)."""

from __future__ import annotations

from typing import Any, TypedDict


class DummbotSummary(TypedDict):
    crystals: int
    hand_size: int
    summoned: list[str]  # card ids
    score: int
    hand_known: list[str]


class SeasonsSummary(TypedDict):
    year: int
    month: int
    season: str
    dice_season: str
    round: int
    difficulty: str
    dice: str  # table | bot
    dummbot: DummbotSummary
    chosen_dice: dict[str, list[int]]
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
