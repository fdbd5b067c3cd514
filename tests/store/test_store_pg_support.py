"""The test run's PostgreSQL server (tests/support/postgres.py): without its binaries the PostgreSQL tests are
skipped on a developer's machine but fail in CI (SOLO_BOT_REQUIRE_POSTGRES=1), never silently pass there."""

from __future__ import annotations

import pytest
from support import postgres

from bench import pgserver


def test_missing_server_binaries_skip_locally(monkeypatch) -> None:
    monkeypatch.delenv(postgres.REQUIRE, raising=False)
    with pytest.raises(pytest.skip.Exception):
        postgres._unavailable("no PostgreSQL server binaries")


def test_missing_server_binaries_fail_when_postgres_is_required(monkeypatch) -> None:
    monkeypatch.setenv(postgres.REQUIRE, "1")
    with pytest.raises(pytest.fail.Exception) as info:
        postgres._unavailable("no PostgreSQL server binaries")
    assert "SOLO_BOT_REQUIRE_POSTGRES=1" in str(info.value)


def test_the_binaries_are_found_on_path_or_in_the_distributions_folder(monkeypatch, tmp_path) -> None:
    monkeypatch.setenv("PATH", str(tmp_path))  # nothing on PATH: the distribution's folder, if installed
    found = pgserver.find_bin_dir()
    assert found is None or (found / "initdb").exists()
    for name in ("initdb", "pg_ctl", "postgres", "createdb"):
        (tmp_path / name).write_text("#!/bin/sh\n")
        (tmp_path / name).chmod(0o755)
    assert pgserver.find_bin_dir() == tmp_path
