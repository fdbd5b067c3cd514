"""The engine's one error type.

The engine never formats a sentence: it raises a message *key* with parameters and the bot
renders it in the user's language (bot/locales). Keys are dotted: ``seasons.face_not_in_season``.
"""

from __future__ import annotations

from typing import Any


class RuleError(Exception):
    """An action or input the rules refuse. The state it was applied to is unchanged."""

    def __init__(self, key: str, **params: Any) -> None:
        super().__init__(key, params)
        self.key = key
        self.params = params

    def __str__(self) -> str:
        if not self.params:
            return self.key
        inner = ", ".join(f"{k}={v!r}" for k, v in sorted(self.params.items()))
        return f"{self.key}({inner})"
