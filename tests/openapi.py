"""Discord's OpenAPI description for the conformance tests, read from ../shared (never copied here).

    from tests.openapi import load_spec, needs_spec
"""

from __future__ import annotations

import functools
import json
from pathlib import Path
from typing import Any

import pytest

from bot.standin.conformance import SchemaValidator, check_command_payload, openapi_validator

SPEC_PATH = Path(__file__).resolve().parents[1].parent / "shared/discord-api/openapi.json"

needs_spec = pytest.mark.skipif(
    not SPEC_PATH.is_file(), reason=f"Discord's OpenAPI description is not at {SPEC_PATH}"
)


@functools.cache
def load_spec() -> dict[str, Any]:
    return json.loads(SPEC_PATH.read_text(encoding="utf-8"))


__all__ = ["SPEC_PATH", "SchemaValidator", "check_command_payload", "load_spec", "needs_spec", "openapi_validator"]
