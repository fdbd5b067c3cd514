"""Discord's OpenAPI description for the conformance tests, shipped compressed in tests/data (see its NOTICE.md),
so a clone alone runs every conformance check.

    from tests.openapi import load_spec
"""

from __future__ import annotations

import functools
import gzip
import json
from pathlib import Path
from typing import Any

from tests.support.conformance import SchemaValidator, check_command_payload, openapi_validator

SPEC_PATH = Path(__file__).resolve().parent / "data" / "discord-openapi.json.gz"

@functools.cache
def load_spec() -> dict[str, Any]:
    with gzip.open(SPEC_PATH, "rt", encoding="utf-8") as fh:
        return json.load(fh)


__all__ = ["SPEC_PATH", "SchemaValidator", "check_command_payload", "load_spec", "openapi_validator"]
