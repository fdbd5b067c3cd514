"""The shape of ``VolfState.summary()``: what the bot shows and stores (it stays JSON in the store)."""

from __future__ import annotations

from typing import NotRequired, TypedDict


class CitySummary(TypedDict):
    name: str
    defence: int
    destroyed: bool
    troop: str | None
    building: str | None


class RagePileSummary(TypedDict):
    size: int
    top: str | None


class WonderSummary(TypedDict):
    name: str
    cost: int
    sealed: NotRequired[bool]


class VolfyirionSummary(TypedDict):
    turn: int
    difficulty: str
    bonus: str
    cities: list[CitySummary]
    rage_pile: RagePileSummary
    token: str  # lair | rage_pile
    wonders: list[WonderSummary]
    put_aside: list[str]
    put_aside_unknown: int
    removed: list[str]
    acquired: list[str]
    phase: str
    cities_left: int
