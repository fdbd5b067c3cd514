"""What a player types for a Seasons action: the ``/seasons`` command and its options, or the console line."""

from __future__ import annotations

from typing import TYPE_CHECKING

from engine.core import Action

if TYPE_CHECKING:  # typed.py imports this module to register it
    from .typed import Command


def seasons_command(action: Action) -> Command:
    """The ``/seasons`` command for a Seasons action."""
    from engine.seasons import face_text

    a = action.args
    match action.type:
        case "die":
            return "seasons die", {"face": face_text(a["face"])}
        case "reveal" | "prelude":
            return f"seasons {action.type}", {"cards": ", ".join(a["cards"])}
        case "played":
            return "seasons played", {"card": a["card"]}
        case "effect":
            return "seasons effect", {k: v for k, v in (("kind", a["kind"]), ("card", a.get("card"))) if v is not None}
        case "roll" | "end" | "time" | "crystals" | "answer" | "score":
            return f"seasons {action.type}", dict(a)
    raise ValueError(f"no slash command for {action.to_json()}")


def seasons_console_line(action: Action, lang: str = "en") -> str:
    """The line a player types into the local console for a Seasons action: the slash command with its options
    unquoted (faces in the player's language), or ``press N`` for taking a die (the take buttons come first
    on the roll's reply)."""
    from engine.seasons import face_text

    if action.type == "take":
        return f"press {action.args['index'] + 1}"
    name, options = seasons_command(action)
    if action.type == "die":
        options = {"face": face_text(action.args["face"], lang)}
    return " ".join([f"/{name}"] + [f"{k}:{v}" for k, v in options.items()])
