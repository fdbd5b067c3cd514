"""Shared helpers for the Seasons tests: states at a chosen point, faces by text, one-call actions."""

from __future__ import annotations

from typing import Any

from engine.core import Action, Step
from engine.seasons import RULES, parse_face
from engine.seasons.faces import dice_numbers, die_faces
from engine.seasons.state import SeasonsState


def new(difficulty: str = "wizard", dice: str = "table", seed: int = 1, **fields: Any) -> SeasonsState:
    """A new game's state with some fields replaced (month, crystals, hand_size, summoned …)."""
    state = RULES.new_game({"difficulty": difficulty, "dice": dice}, seed).state
    for name, value in fields.items():
        setattr(state, name, value)
    if "month" in fields or "year" in fields:
        state.top_year = fields.get("top_year", state.year)  # the years before were entered in play
        state.round_season = fields.get("round_season", state.season)  # the round began where the token is
        state.wait_params = {"season": state.dice_season, "year": state.year, "month": state.month, "round": 1}
    return state


def face(text: str) -> dict[str, Any]:
    return parse_face(text)


def act(state: SeasonsState, type_: str, **args: Any) -> Step:
    return RULES.apply(state, Action(type_, **args))


def die(state: SeasonsState, text: str) -> Step:
    """Dummbot's die shows ``text``: the round's two dice (S-1.4) are made to include one with that face, as if
    the seed had chosen it, so that a test of another rule does not hang on the seed's dice."""
    return act(with_die_for(state, face(text)), "die", face=face(text))


def with_die_for(state: SeasonsState, wanted: dict[str, Any]) -> SeasonsState:
    """``state`` with a die of the round's season that has ``wanted`` among its chosen dice (unchanged if it has
    one already, or if no die has that face)."""
    season = state.dice_season
    if not state.uses_chosen_dice or any(wanted in die_faces(season, d) for d in state.chosen[season]):
        return state
    having = [d for d in dice_numbers(season) if wanted in die_faces(season, d)]
    if not having:
        return state
    other = next(d for d in state.chosen[season] if d != having[0])
    changed = state.clone()
    changed.chosen = {**state.chosen, season: sorted([having[0], other])}
    return changed


def keys(step: Step) -> list[str]:
    return [e.key.removeprefix("seasons.event.") for e in step.events]


def params(step: Step, key: str) -> list[dict[str, Any]]:
    return [e.params for e in step.events if e.key == f"seasons.event.{key}"]
