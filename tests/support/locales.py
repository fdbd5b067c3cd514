"""What the locale tests read of a template: the engine parameters it uses."""

from __future__ import annotations

import string

from bot.i18n import param_names


def engine_names(key: str, template: str) -> set[str]:
    """The engine parameters ``template`` (of ``key``) reads: its placeholders under the engine's names."""
    inverse = {new: old for old, new in param_names(key).items()}
    return {inverse.get(name, name) for _, name, _, _ in string.Formatter().parse(template) if name}
