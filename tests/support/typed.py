"""What a player types for an engine action: the slash command and its options, found by the game's kind.

Tests, load runs and benchmarks replay the engines' seeded games through the bot with these; the bot itself
never needs them (a player types the commands), so they live here and not in the bot's registry. Each built-in
game has its own module (``tests/support/<game>_typed.py``); a test-only game adds its mapping with ``register``.
Actions that have only a button have no slash command.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from engine.core import Action

from .seasons_typed import seasons_command
from .volfyirion_typed import volfyirion_command

Command = tuple[str, dict[str, Any]]

_COMMANDS: dict[str, Callable[[Action], Command]] = {"seasons": seasons_command, "volfyirion": volfyirion_command}


def register(kind: str, command: Callable[[Action], Command]) -> None:
    """Map the actions of game ``kind`` to what a player types (registering a kind again replaces it)."""
    _COMMANDS[kind] = command


def slash_command(kind: str, action: Action) -> Command:
    """The slash command and options a player types for ``action`` of a game of ``kind``."""
    return _COMMANDS[kind](action)
