"""The two games as the bot sees them: their rules objects and how their results are summed up."""

from __future__ import annotations

from datetime import UTC, datetime
from typing import Any

from engine.core import Rules

KINDS = ("seasons", "volfyirion")


def rules_for(kind: str) -> Rules:
    """The engine of ``kind`` (imported on first use, so start-up loads nothing it does not need)."""
    if kind == "seasons":
        from engine.seasons import RULES
    elif kind == "volfyirion":
        from engine.volfyirion import RULES
    else:
        raise KeyError(kind)
    return RULES


def finish_info(kind: str, options: dict[str, Any], result: dict[str, Any]) -> dict[str, Any]:
    """The result row the store keeps for leaderboards and stats."""
    return {
        "status": "finished",
        "outcome": result["outcome"],
        "difficulty": options.get("difficulty"),
        "player_score": result.get("player_score"),
        "dummbot_score": result.get("dummbot_score"),
        "turns": result.get("turn"),
        "how": result.get("how"),
        "finished_at": datetime.now(UTC).isoformat(timespec="seconds"),
    }
