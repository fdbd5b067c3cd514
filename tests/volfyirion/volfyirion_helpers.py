"""Shared helpers for the Volfyirion tests (imported by name: pytest puts this folder on sys.path)."""

from __future__ import annotations

from engine.core import Action, GameRecord, Step
from engine.volfyirion import RULES
from engine.volfyirion.summary import CitySummary


def new(**options) -> GameRecord:
    return GameRecord(RULES, options, seed=7)


def push(record: GameRecord, kind: str, **args) -> Step:
    return record.push(Action(kind, **args))


def counted(record: GameRecord) -> dict | None:
    """The House Deck as the bot counts it (V-3.4), without whether this turn's prompt was read yet."""
    house = record.state.house
    return None if house is None else {k: v for k, v in house.items() if k != "quiet"}


def keys(step: Step) -> list[str]:
    return [e.key.rsplit(".", 1)[-1] for e in step.events]


def events(step: Step, name: str) -> list[dict]:
    return [dict(e.params) for e in step.events if e.key == f"volfyirion.event.{name}"]


def attack_line(step: Step) -> tuple[str, dict] | None:
    """The attack line (V-4.3): its key's last part (which parts of the formula it states) and params."""
    found = [(e.key.rsplit(".", 1)[-1], dict(e.params)) for e in step.events
             if e.key.startswith("volfyirion.event.attack_")
             and e.key not in ("volfyirion.event.attack_begins", "volfyirion.event.attack_left_over")]
    assert len(found) <= 1, found
    return found[0] if found else None


def grow_pile(record: GameRecord, size: int) -> None:
    """End turns (token on the Lair) until the Rage Pile holds at least ``size`` cards."""
    while record.state.rage_size < size:
        push(record, "end")


def attack(record: GameRecord, cards: list[str]) -> Step:
    """Send the token away, end the turn and reveal ``cards`` (the pile's unknown cards)."""
    if record.state.token == "lair":
        push(record, "reshuffle")
    step = push(record, "end")
    if record.state.phase == "reveal":
        step = push(record, "reveal", cards=cards)
    return step


def city(record: GameRecord, name: str) -> CitySummary:
    return next(c for c in record.state.summary().cities if c.name == name)
