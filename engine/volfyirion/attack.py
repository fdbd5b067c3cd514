"""Volfyirion's attack arithmetic (V-4.3 … V-4.7), as small pure functions.

The rules module applies them to a state and turns each step into an event; the danger meter calls
them thousands of times, so they take plain numbers and tuples.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any

from .cards import CATALOG


def attack_bonus(destroyed_before: int, k: int, bonus: str) -> int:
    """What Volfyirion adds to the Command costs (V-4.3, V-5.3), ``k`` being the difficulty's d.

    ``flat`` (the original's formula, the default): +1 per city destroyed before this attack, and d
    once. ``per_city`` (the English rulebook's table; recorded as ``official`` by older games): d per
    city destroyed before this attack, nothing else.
    """
    if bonus == "flat":
        return destroyed_before + k
    if bonus in ("per_city", "official"):
        return k * destroyed_before
    raise ValueError(f"unknown bonus reading {bonus!r}")


def attack_rule_key(bonus: str, k: int) -> str:
    """The message that states this game's attack formula (start message, danger meter)."""
    if bonus in ("per_city", "official"):
        return "volfyirion.event.setup_difficulty_per_city_easy" if k == 0 else "volfyirion.event.setup_difficulty_per_city"
    return "volfyirion.event.setup_difficulty_flat_easy" if k == 0 else "volfyirion.event.setup_difficulty_flat"


def attack_line_key(bonus: str, k: int, destroyed_before: int) -> str:
    """The attack line that states the parts of the formula this attack actually used (V-4.3).

    A part that adds nothing (no city destroyed yet, easy's d = 0) gets words of its own rather than a "+ 0".
    """
    if bonus in ("per_city", "official"):
        if k == 0:
            return "volfyirion.event.attack_per_city_easy"
        return "volfyirion.event.attack_per_city" if destroyed_before else "volfyirion.event.attack_per_city_no_city"
    if k == 0:
        return "volfyirion.event.attack_flat_easy" if destroyed_before else "volfyirion.event.attack_flat_easy_no_city"
    return "volfyirion.event.attack_flat" if destroyed_before else "volfyirion.event.attack_flat_no_city"


def destroy_order(attack: int, defences: Sequence[tuple[int, int]]) -> tuple[list[int], int]:
    """Which standing cities fall (V-4.4): indexes in order of destruction, and the attack left."""
    steps, left = destroy_steps(attack, defences)
    return [target for target, _ in steps], left


def destroy_steps(attack: int, defences: Sequence[tuple[int, int]]) -> tuple[list[tuple[int, list[int]]], int]:
    """The cities that fall (V-4.4), each with the standing cities it was tied with, and the attack left.

    ``defences`` holds ``(defence with its Troop, printed defence)`` per standing city. Volfyirion
    takes the highest defence the remaining attack can pay for, again and again. Ruling for a tie (an
    8 city with a Troop of 2 against the 10 city): the higher printed defence falls first, then the
    earlier city; each step lists the other cities of that same defence the attack could have taken
    (empty when there was no tie), so the reply can say a tie was broken.
    """
    standing = list(range(len(defences)))
    steps: list[tuple[int, list[int]]] = []
    while True:
        payable = [i for i in standing if defences[i][0] <= attack]
        if not payable:
            return steps, attack
        target = max(payable, key=lambda i: (defences[i][0], defences[i][1], -i))
        tied = [i for i in payable if i != target and defences[i][0] == defences[target][0]]
        attack -= defences[target][0]
        standing.remove(target)
        steps.append((target, tied))


def seal_order(kp: int, costs: Sequence[int]) -> tuple[list[int], int]:
    """Which unsealed Wonders are sealed (V-4.6): indexes (play order) sealed, and the KP left."""
    steps, left = seal_steps(kp, costs)
    return [i for i, sealed, _ in steps if sealed], left


def seal_steps(kp: int, costs: Sequence[int]) -> tuple[list[tuple[int, bool, int]], int]:
    """Every unsealed Wonder in the order Volfyirion looks at them (V-4.6): ``(index in play order, sealed,
    Knowledge points left before it)``, and the KP left at the end.

    Most expensive first; a Wonder costing more than what is left is passed over and cheaper ones are
    still sealed; among equal costs the one played first goes first (Ruling).
    """
    steps: list[tuple[int, bool, int]] = []
    for i in sorted(range(len(costs)), key=lambda i: (-costs[i], i)):
        sealed = costs[i] <= kp
        steps.append((i, sealed, kp))
        if sealed:
            kp -= costs[i]
    return steps, kp


def kept_command(commands: Sequence[str]) -> str:
    """The revealed Command card that starts the new Rage Pile (V-4.7): highest cost, then more KP
    (Ruling), then the name that sorts first."""
    return min(commands, key=_keep_order)


def kept_command_tie(commands: Sequence[str]) -> tuple[list[str], str] | None:
    """When other Command cards (other names) cost as much as the kept one (V-4.7's Ruling decided):
    their names and what decided, ``"kp"`` (more Knowledge points) or ``"name"`` (the name sorts first)."""
    kept = kept_command(commands)
    cost, kp = CATALOG[kept].cost or 0, CATALOG[kept].kp or 0
    tied = sorted({n for n in commands if n != kept and (CATALOG[n].cost or 0) == cost})
    if not tied:
        return None
    return tied, "name" if any((CATALOG[n].kp or 0) == kp for n in tied) else "kp"


def _keep_order(name: str) -> tuple[int, int, str]:
    return -(CATALOG[name].cost or 0), -(CATALOG[name].kp or 0), name


def city_defence(city: Mapping[str, Any]) -> int:
    """V-4.4: a city's defence is its printed defence plus the Troop stationed in it."""
    troop = city.get("troop")
    printed: int = city["defence"]
    return printed + ((CATALOG[troop].defence or 0) if troop else 0)
