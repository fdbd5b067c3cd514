"""Discord's OpenAPI description for the conformance tests, shipped compressed in tests/data (see its NOTICE.md),
so a clone alone runs every conformance check.

    from tests.openapi import load_spec, needs_spec
"""

from __future__ import annotations

import functools
import gzip
import json
from pathlib import Path
from typing import Any

import pytest

from bot.standin.conformance import SchemaValidator, check_command_payload, openapi_validator

SPEC_PATH = Path(__file__).resolve().parent / "data" / "discord-openapi.json.gz"

# Kept for the tests that mark themselves with it: the description ships with the tests, so nothing skips for
# want of it (a missing file fails loudly in load_spec instead of skipping quietly).
needs_spec = pytest.mark.skipif(False, reason="Discord's OpenAPI description ships in tests/data")


@functools.cache
def load_spec() -> dict[str, Any]:
    with gzip.open(SPEC_PATH, "rt", encoding="utf-8") as fh:
        return json.load(fh)


__all__ = ["SPEC_PATH", "SchemaValidator", "check_command_payload", "load_spec", "needs_spec", "openapi_validator"]
