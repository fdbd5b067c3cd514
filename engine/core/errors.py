"""The one shape of a refusal: a message *key* with parameters, never a sentence.

The engine never formats a sentence: it raises a key with parameters and the bot renders it in the user's
language (bot/locales). Keys are dotted: ``seasons.face_not_in_season``. The bot's own refusals (``Refusal``)
and the store's errors (``StoreError``) are the same shape, so they share the base here.
"""

from __future__ import annotations

from typing import Any


class SoloError(Exception):
    """A refusal as a message key and its parameters; ``key`` may be left out where a subclass names one."""

    key: str = "error"  # the class's own key, for subclasses that always raise the same one

    def __init__(self, key: str | None = None, **params: Any) -> None:
        self.key = key or type(self).key
        self.params = params
        super().__init__(self.key, params)

    def __str__(self) -> str:
        if not self.params:
            return self.key
        inner = ", ".join(f"{k}={v!r}" for k, v in sorted(self.params.items()))
        return f"{self.key}({inner})"

    def __reduce__(self) -> tuple[Any, ...]:
        # Rebuilt from its key and params (``Exception`` would pass ``args`` positionally, which no subclass takes).
        return _rebuilt, (type(self), self.key, self.params)


def _rebuilt(cls: type[SoloError], key: str, params: dict[str, Any]) -> SoloError:
    return cls(key, **params)


class RuleError(SoloError):
    """An action or input the rules refuse. The state it was applied to is unchanged."""

    def __init__(self, key: str, **params: Any) -> None:
        super().__init__(key, **params)
