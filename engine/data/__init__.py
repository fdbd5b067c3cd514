"""The project's own card and dice data (built from the shared facts by tools/build_data.py)."""

from __future__ import annotations

import json
from functools import cache
from importlib import resources
from typing import Any


@cache
def load(name: str) -> Any:
    """The parsed content of ``engine/data/<name>.json``, read once per process."""
    text = resources.files(__name__).joinpath(f"{name}.json").read_text(encoding="utf-8")
    return json.loads(text)
