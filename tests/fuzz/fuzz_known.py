"""Bugs the fuzz found that the bot's owner has yet to fix, and how to recognise their symptoms.

Each has a minimal strict-xfail test (test_fuzz_interactions.py, test_fuzz_console.py). The fuzz runs count a
case as `known:<bug>` when every problem it shows is explained by these, so everything else is still checked.
When a bug is fixed its xfail test passes — and fails, being strict: then remove the marker and the entry here.
"""

from __future__ import annotations

from typing import Any

# problem text starts with -> bug name. Fixed in b37f456: not_now_shows_waiting_key,
# error_handler_answers_autocomplete_with_a_message, custom_id_game_id_overflows_sqlite,
# help_trusts_its_game_choice, malformed_component_ends_the_gateway.
BY_PROBLEM: dict[str, str] = {}


def _command_path(data: Any) -> list[str]:
    path, node = [], data
    while isinstance(node, dict) and "name" in node:
        path.append(node["name"])
        options = node.get("options")
        node = options[0] if isinstance(options, list) and options and isinstance(options[0], dict) \
            and options[0].get("type") in (1, 2) else None
    return path


def known_bug(data: Any, problems: list[str]) -> str | None:
    """The known bug(s) that explain every problem of one case, or None."""
    if not problems:
        return None
    symptoms = ("raw message key shown: 'word.", "stand-in violation limits")
    if _command_path(data) == ["game", "leaderboard"] and all(p.startswith(symptoms) for p in problems):
        return "leaderboard_trusts_its_choices"
    names = set()
    for problem in problems:
        text = problem.split(": ", 1)[1] if problem.startswith("line ") else problem
        name = next((bug for start, bug in BY_PROBLEM.items() if text.startswith(start)), None)
        if name is None:
            return None
        names.add(name)
    return ",".join(sorted(names))
