"""The OpenAPI description ships with the tests: it is there, it is the one NOTICE.md names, and nothing skips."""

from __future__ import annotations

import gzip
import hashlib
import re
from pathlib import Path

from tests.openapi import SPEC_PATH, load_spec


def test_the_description_ships_in_tests_data_with_its_notice() -> None:
    assert SPEC_PATH.is_file() and SPEC_PATH.parent.name == "data" and SPEC_PATH.parent.parent.name == "tests"
    assert SPEC_PATH.stat().st_size < 100_000  # compressed
    notice = (SPEC_PATH.parent / "NOTICE.md").read_text(encoding="utf-8")
    assert "MIT License" in notice and "discord/discord-api-spec" in notice
    recorded = re.search(r"SHA-256: `([0-9a-f]{64})`", notice)
    assert recorded is not None
    assert hashlib.sha256(gzip.decompress(SPEC_PATH.read_bytes())).hexdigest() == recorded.group(1)


def test_the_description_loads_and_covers_the_interaction_routes() -> None:
    spec = load_spec()
    assert spec["info"]["version"] == "10" and spec["info"]["license"]["identifier"] == "MIT"
    assert "/interactions/{interaction_id}/{interaction_token}/callback" in spec["paths"]


def test_nothing_skips_for_want_of_the_shared_folder() -> None:
    assert "shared" not in Path(SPEC_PATH).parts
