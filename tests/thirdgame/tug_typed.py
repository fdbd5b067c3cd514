"""What a player types for a Tug action (as tests/support/<game>_typed.py is for a built-in game)."""

from __future__ import annotations

from typing import Any

from engine.core import Action


def tug_command(action: Action) -> tuple[str, dict[str, Any]]:
    return f"tug {action.type}", {}
