"""What a player types for a Volfyirion action: the ``/volfyrion`` command and its options."""

from __future__ import annotations

from typing import TYPE_CHECKING

from engine.core import Action

if TYPE_CHECKING:  # typed.py imports this module to register it
    from .typed import Command


def volfyirion_command(action: Action) -> Command:
    """The ``/volfyrion`` command for a Volfyirion action (its options are the action's arguments)."""
    options = {k: v for k, v in action.args.items() if v is not None}
    if action.type == "reveal":
        options["cards"] = ", ".join(options["cards"])
    return f"volfyrion {action.type}", options
