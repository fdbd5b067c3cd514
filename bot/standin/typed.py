"""What a player types for an engine action: the slash command and its options.

Tests, load runs and benchmarks replay the engines' seeded games through the bot with these, so the
mapping from actions to the command surface lives in one place, beside the driver that sends them.
Actions that have only a button (taking a die) have no slash command.
"""

from __future__ import annotations

from typing import Any

from engine.core import Action

Command = tuple[str, dict[str, Any]]


def seasons_command(action: Action) -> Command:
    """The ``/seasons`` command for a Seasons action."""
    from engine.seasons import face_text

    a = action.args
    match action.type:
        case "die":
            return "seasons die", {"face": face_text(a["face"])}
        case "reveal":
            return "seasons reveal", {"cards": ", ".join(a["cards"])}
        case "played":
            return "seasons played", {"card": a["card"]}
        case "effect":
            return "seasons effect", {k: v for k, v in (("kind", a["kind"]), ("card", a.get("card"))) if v is not None}
        case "roll" | "end" | "time" | "crystals" | "answer" | "score":
            return f"seasons {action.type}", dict(a)
    raise ValueError(f"no slash command for {action.to_json()}")


def volfyirion_command(action: Action) -> Command:
    """The ``/volfyrion`` command for a Volfyirion action (its options are the action's arguments)."""
    options = {k: v for k, v in action.args.items() if v is not None}
    if action.type == "reveal":
        options["cards"] = ", ".join(options["cards"])
    return f"volfyrion {action.type}", options


def slash_command(kind: str, action: Action) -> Command:
    return seasons_command(action) if kind == "seasons" else volfyirion_command(action)


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
