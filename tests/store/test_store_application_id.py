"""Another application's SQLite file is left alone (issue 37): the bot's databases carry PRAGMA application_id, a
database the bot made before the mark is known by its tables and schema version (and gets the mark), and any
other non-empty SQLite file is refused with one sentence before any write or pragma touches it."""

from __future__ import annotations

import os
import shutil
import sqlite3
import subprocess
import sys
from pathlib import Path

import pytest
from store_helpers import new_game_args

from bot.store import ForeignDatabase, SqliteStore, described
from bot.store.sqlite import APPLICATION_ID

REPO = Path(__file__).resolve().parents[2]
DATA = Path(__file__).parent / "data"


def foreign(path: Path) -> Path:
    """Another application's file, with a `games` table of its own (the issue's reproduction)."""
    conn = sqlite3.connect(path)
    conn.execute("CREATE TABLE games (name TEXT, rating REAL)")
    conn.execute("INSERT INTO games VALUES ('chess', 4.5)")
    conn.commit()
    conn.close()
    return path


def application_id(path: Path) -> int:
    conn = sqlite3.connect(path)
    try:
        return conn.execute("PRAGMA application_id").fetchone()[0]
    finally:
        conn.close()


async def test_another_applications_file_is_refused_before_anything_is_written(tmp_path):
    path = foreign(tmp_path / "theirs.sqlite3")
    before = path.read_bytes()
    with pytest.raises(ForeignDatabase) as caught:
        await SqliteStore(path).open()
    assert path.read_bytes() == before  # not switched to WAL, nothing written
    assert not Path(f"{path}-wal").exists() and not Path(f"{path}-shm").exists()
    said = described(caught.value)
    assert "another application" in said and str(path) in said and "\n" not in said, said


def test_the_console_refuses_another_applications_file_in_one_sentence(tmp_path):
    path = foreign(tmp_path / "theirs.sqlite3")
    before = path.read_bytes()
    env = {k: v for k, v in os.environ.items() if k != "DISCORD_TOKEN"}
    done = subprocess.run([sys.executable, "-m", "bot", "console", "--db", str(path)], input="/game status\n",
                          capture_output=True, text=True, timeout=60, cwd=REPO, env=env)
    output = done.stdout + done.stderr
    assert done.returncode != 0 and "Traceback" not in output, output
    assert "another application" in output, output
    assert path.read_bytes() == before


async def test_a_file_of_another_application_id_is_refused_even_with_the_bots_tables(tmp_path):
    path = tmp_path / "marked.sqlite3"
    async with SqliteStore(path) as store:
        await store.create_game(**new_game_args())
    conn = sqlite3.connect(path)
    conn.execute("PRAGMA application_id = 1234")
    conn.commit()
    conn.close()
    with pytest.raises(ForeignDatabase):
        await SqliteStore(path).open()


async def test_a_new_database_is_marked(tmp_path):
    path = tmp_path / "new.sqlite3"
    async with SqliteStore(path) as store:
        await store.create_game(**new_game_args())
    assert application_id(path) == APPLICATION_ID
    async with SqliteStore(path) as store:  # and opens again
        assert await store.count_games() == 1


async def test_a_database_the_bot_made_before_the_mark_opens_and_is_marked(tmp_path):
    path = tmp_path / "release.sqlite3"
    shutil.copy(DATA / "release-v5.sqlite3", path)
    assert application_id(path) == 0
    async with SqliteStore(path) as store:
        assert await store.count_games() > 0
    assert application_id(path) == APPLICATION_ID


async def test_an_sqlite_file_with_no_table_is_a_new_database(tmp_path):
    path = tmp_path / "blank.sqlite3"
    conn = sqlite3.connect(path)
    conn.execute("PRAGMA user_version = 0")
    conn.execute("VACUUM")  # a file with its header and no table
    conn.close()
    async with SqliteStore(path) as store:
        assert await store.count_games() == 0
    assert application_id(path) == APPLICATION_ID


def test_check_refuses_another_applications_file_in_one_sentence(tmp_path, monkeypatch, capsys):
    from bot.__main__ import main as bot_main

    path = foreign(tmp_path / "theirs.sqlite3")
    before = path.read_bytes()
    monkeypatch.setenv("SOLO_BOT_DB", str(path))
    monkeypatch.delenv("DISCORD_TOKEN", raising=False)
    assert bot_main(["check"]) == 2
    err = capsys.readouterr().err
    assert "another application" in err and "Traceback" not in err and len(err.strip().splitlines()) == 1, err
    assert path.read_bytes() == before
