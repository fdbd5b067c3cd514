"""Bugs the fuzz found that the bot's owner has yet to fix, and how to recognise their symptoms.

Each has a minimal strict-xfail test (test_fuzz_interactions.py, test_fuzz_console.py). The fuzz runs count a
case as `known:<bug>` when every problem it shows is explained by these, so everything else is still checked.
When a bug is fixed its xfail test passes — and fails, being strict: then remove the marker and the
entry here.
"""

from __future__ import annotations

from typing import Any

# problem text starts with -> bug name. Fixed since: not_now_shows_waiting_key,
# error_handler_answers_autocomplete_with_a_message, custom_id_game_id_overflows_sqlite,
# help_trusts_its_game_choice, malformed_component_ends_the_gateway (b37f456), leaderboard_trusts_its_choices,
# console_strict_utf8_stdin, console_press_int_of_odd_digits (223f66a), string_option_echoes_a_python_repr,
# form_values_raises_on_garbage_components (d7fedb5). None is open now.
BY_PROBLEM: dict[str, str] = {}


def known_bug(data: Any, problems: list[str]) -> str | None:
    """The known bug(s) that explain every problem of one case, or None."""
    if not problems:
        return None
    names = set()
    for problem in problems:
        text = problem.split(": ", 1)[1] if problem.startswith("line ") else problem
        name = next((bug for start, bug in BY_PROBLEM.items() if text.startswith(start)), None)
        if name is None:
            return None
        names.add(name)
    return ",".join(sorted(names))
