"""What a player types for an engine action: the slash command and its options.

Tests, load runs and benchmarks replay the engines' seeded games through the bot with these, so the
mapping from actions to the command surface lives in one place: each game's registry entry names its own
(``typed``, in ``bot/standin/<game>_typed.py``). Actions that have only a button have no slash command.
"""

from __future__ import annotations

from typing import Any

from engine.core import Action

Command = tuple[str, dict[str, Any]]


def slash_command(kind: str, action: Action) -> Command:
    from .. import games

    return games.get(kind).typed_command(action)
