"""`python -m bot check` finds a damaged game (issue 37): every game is replayed from its log and compared with its
latest snapshot, on SQLite and PostgreSQL alike; each game that does not replay or disagrees is reported and the
exit code is non-zero. The reproduction: a snapshot damaged with `UPDATE snapshots SET state = …`, which `check`
called OK. And a 0-byte file is said, not taken for a sound empty database."""

from __future__ import annotations

import asyncio
import json

import pytest
from test_store_damaged_snapshot import (
    CUT_SHORT,
    NOT_UTF8,
    OPTIONS,
    SEED,
    SNAPSHOT_EVERY,
    moves,
    sql,
    started,
)

from bot.__main__ import main as bot_main
from bot.store import SqliteStore
from engine.core import GameRecord
from engine.seasons import RULES


async def check(monkeypatch, target) -> int:
    monkeypatch.setenv("SOLO_BOT_DB", str(target))
    monkeypatch.delenv("DISCORD_TOKEN", raising=False)
    return await asyncio.to_thread(bot_main, ["check"])


async def two_games(store):
    """The damaged one (past a snapshot) and a sound one in another channel (a finished or short game)."""
    row = await started(store, SNAPSHOT_EVERY + 1)
    other = await store.create_game(guild_id=1, channel_id=900, parent_channel_id=None, owner_id=8,
                                    kind="seasons", options={"difficulty": "wizard", "dice": "table"}, seed=3)
    return row, other


@pytest.mark.backends("sqlite", "postgres")
async def test_check_passes_sound_games_and_replays_every_one(store, db_target, monkeypatch, capsys):
    await two_games(store)
    assert await check(monkeypatch, db_target) == 0
    out = capsys.readouterr().out
    assert "2 games replayed" in out or "every game (2) replays" in out, out


@pytest.mark.backends("sqlite", "postgres")
async def test_check_reports_a_damaged_snapshot_and_exits_non_zero(store, backend, db_target, monkeypatch, capsys):
    row, other = await two_games(store)
    damage = NOT_UTF8 if backend == "sqlite" else CUT_SHORT
    await sql(store, f"UPDATE snapshots SET state = {damage} WHERE game_id = {row.id}")
    assert await check(monkeypatch, db_target) == 1
    err = capsys.readouterr().err
    assert f"game {row.id}: its snapshot at ply {SNAPSHOT_EVERY} cannot be read" in err, err
    assert f"game {other.id}" not in err


@pytest.mark.backends("sqlite", "postgres")
async def test_check_reports_a_snapshot_that_disagrees_with_the_log(store, db_target, monkeypatch, capsys):
    row, _ = await two_games(store)
    # A valid state, the wrong one: the game's state one action earlier.
    state = GameRecord.replay(RULES, OPTIONS, SEED, moves(SNAPSHOT_EVERY - 1)).state.to_json()
    await sql(store, f"UPDATE snapshots SET state = '{json.dumps(state)}' WHERE game_id = {row.id}")
    assert await check(monkeypatch, db_target) == 1
    assert f"game {row.id}: its snapshot at ply {SNAPSHOT_EVERY} disagrees with its log" in capsys.readouterr().err


@pytest.mark.backends("sqlite", "postgres")
async def test_check_reports_a_damaged_action_row(store, db_target, monkeypatch, capsys):
    row, _ = await two_games(store)
    await sql(store, f"UPDATE actions SET action = '{{\"type\": ' WHERE game_id = {row.id} AND ply = 4")
    assert await check(monkeypatch, db_target) == 1
    assert f"game {row.id}: the action at ply 4 is not readable JSON" in capsys.readouterr().err


async def test_check_says_a_zero_byte_file(tmp_path, monkeypatch, capsys):
    empty = tmp_path / "bot.sqlite3"
    empty.write_bytes(b"")
    assert await check(monkeypatch, empty) == 1
    assert "empty (0-byte) file" in capsys.readouterr().err
    assert empty.read_bytes() == b""


async def test_opening_a_zero_byte_file_says_so_at_start(tmp_path, caplog):
    empty = tmp_path / "bot.sqlite3"
    empty.write_bytes(b"")
    async with SqliteStore(empty, background_check=False) as store:
        assert await store.count_games() == 0
    assert any("empty (0-byte) file" in r.getMessage() for r in caplog.records if r.levelname == "WARNING")
