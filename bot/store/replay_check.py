"""What ``python -m bot check`` finds wrong with one game, whatever the store (issue 37): its live actions are
plies 1…ply, each readable, the log replays from the seed to the game's ply, and the game's latest snapshot is
the state the log gives at that ply. The SQL that reads the rows is each store's; this is not."""

from __future__ import annotations

import json
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from typing import Any

from .base import JSON
from .rows import stored_json


@dataclass(frozen=True)
class StoredGame:
    """One game's rows as stored: ``actions`` the live ones as (ply, raw JSON), ``snapshot`` its latest (ply,
    raw JSON) at or below its ply, raw meaning text or the bytes of text that is not UTF-8."""

    id: int
    kind: str
    options: JSON
    seed: int
    ply: int
    actions: Sequence[tuple[int, Any]]
    snapshot: tuple[int, Any] | None


def game_problem(game: StoredGame) -> str | None:
    """The first thing wrong with ``game``, in words, or None when its log replays to its snapshot and ply."""
    from engine.core import Action, GameRecord

    name = f"game {game.id}"
    if [p for p, _ in game.actions] != list(range(1, game.ply + 1)):
        return f"{name}: its live actions are not plies 1…{game.ply}"
    logged: list[JSON] = []
    for ply, raw in game.actions:
        action = stored_json(raw)
        if action is None:
            return f"{name}: the action at ply {ply} is not readable JSON"
        logged.append(action)
    snapshot_ply = game.snapshot[0] if game.snapshot else 0
    try:
        actions = [Action.from_json(a) for a in logged]
        rules = rules_for(game.kind)
        record = GameRecord(rules, game.options, game.seed)
        state, at_snapshot = record.state, record.state if not snapshot_ply else None
        for ply, move in enumerate(actions, start=1):
            state = rules.apply(state, move).state
            if ply == snapshot_ply:
                at_snapshot = state
    except Exception as exc:
        return f"{name}: its log does not replay ({type(exc).__name__}: {exc})"
    if game.snapshot is None or not snapshot_ply:
        return None
    stored = stored_json(game.snapshot[1])
    if stored is None:
        return f"{name}: its snapshot at ply {snapshot_ply} cannot be read (the bot replays past it and writes it again)"
    try:
        read = rules.state_from_json(stored)  # as the bot reads it (fields added since a release are filled in)
    except Exception as exc:
        return f"{name}: its snapshot at ply {snapshot_ply} is not a state ({type(exc).__name__}: {exc})"
    if _plain(read.to_json()) != _plain(at_snapshot.to_json() if at_snapshot is not None else None):
        return f"{name}: its snapshot at ply {snapshot_ply} disagrees with its log (another state than the replay's)"
    return None


def _plain(value: Any) -> str:
    return json.dumps(value, sort_keys=True, ensure_ascii=False)


def _no_games(kind: str) -> Any:
    raise KeyError(f"no game {kind!r} is registered")


# Each registered game's engine by its kind: handed down by the entry point that builds the registry (bot.games's
# ``install``); the copy check of transfer.py replays with it too. The store imports no game.
rules_for: Callable[[str], Any] = _no_games


def use(rules: Callable[[str], Any]) -> None:
    global rules_for
    rules_for = rules
