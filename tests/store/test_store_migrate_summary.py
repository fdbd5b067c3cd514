"""Schema V10 (SQLite) and PG_V3 (PostgreSQL): ``games.summary``, written on every action and never read, goes.

A database of the schema before the step holds games with a summary in their row (as every release before wrote
it), actions (one undone), snapshots and a result; opened with this version, the column is gone and everything
else is as it was: every row, every game replaying to the same state, the leaderboard.
"""

from __future__ import annotations

import json
import sqlite3
from pathlib import Path

import asyncpg
import pytest
from store_helpers import PLACE_COLUMNS, PLACE_UNDO, new_game_args

from bot.store import FinishInfo, PostgresStore, Ranking, SqliteStore, postgres, schema
from engine.core import GameRecord
from engine.seasons import RULES
from engine.seasons.autoplay import autoplay

RANKING = Ranking(order=(("margin", "desc"),), outcomes=("won", "lost"))
WON = FinishInfo(status="finished", outcome="won", difficulty="wizard", player_score=120, opponent_score=80,
                 length=3, result={"outcome": "won", "player_score": 120, "opponent_score": 80})


def _with_place(steps: list) -> list:
    """``steps`` with today's ``place`` columns added by the last one, so that today's code can write them."""
    return [*steps[:-1], (*steps[-1], *PLACE_COLUMNS)]


async def _fill(store, record: GameRecord) -> list[int]:
    """A real game of ``record``'s actions (one undone on the way, a snapshot at ply 4) and a finished one."""
    row = await store.create_game(**{**new_game_args(100), "options": record.options, "seed": record.seed})
    for i, action in enumerate(record.actions[:8]):
        if i == 2:
            row = await store.append_action(row.id, expected_ply=row.ply, action={"type": "oops"}, user_id=7)
            row = await store.undo_action(row.id, expected_ply=row.ply, user_id=7)
        snapshot = _state(record, 4).to_json() if i + 1 == 4 else None
        row = await store.append_action(row.id, expected_ply=row.ply, action=action.to_json(), user_id=7,
                                        snapshot=snapshot)
    done = await store.create_game(**new_game_args(101))
    done = await store.append_action(done.id, expected_ply=0, action={"type": "score"}, user_id=7, finish=WON)
    return [row.id, done.id]


def _record() -> GameRecord:
    record = autoplay(None, 3, max_actions=8)
    assert record.ply == 8
    return record


def _state(record: GameRecord, ply: int):
    return GameRecord.replay(RULES, record.options, record.seed, record.actions[:ply]).state


async def _kept(store, ids: list[int], record: GameRecord) -> None:
    """Every game as it was written, the first replaying to ``record``'s state after its eight actions."""
    playing, done = await store.game(ids[0]), await store.game(ids[1])
    assert (playing.ply, playing.status, playing.options, playing.seed) == (8, "active", record.options, record.seed)
    assert (done.ply, done.status) == (1, "finished")
    live = await store.live_actions(playing.id)
    assert [a.action for a in live] == [a.to_json() for a in record.actions[:8]]
    assert len(await store.history(playing.id, 100)) == 9  # the undone action stays in the log
    snapshot = await store.latest_snapshot(playing.id, 8)
    assert snapshot is not None and snapshot[0] == 4
    replayed = GameRecord.replay(RULES, playing.options, playing.seed, [a.action for a in live], snapshot=snapshot)
    assert replayed.state == _state(record, 8) == record.state
    assert [r.game_id for r in await store.leaderboard(1, "seasons", ranking=RANKING)] == [done.id]


async def test_v10_drops_the_summary_column_keeping_every_game(db_path: Path, monkeypatch) -> None:
    before = schema.MIGRATIONS.index(schema.V10)
    record = _record()
    with monkeypatch.context() as m:  # a file of the schema before V10
        m.setattr("bot.store.sqlite.MIGRATIONS", _with_place(schema.MIGRATIONS[:before]))
        m.setattr("bot.store.sqlite.SCHEMA_VERSION", before)
        async with SqliteStore(db_path, background_check=False) as store:
            ids = await _fill(store, record)
    with sqlite3.connect(db_path) as conn:  # the summary every release before wrote
        for statement in PLACE_UNDO:  # today's columns, added to write the file (store_helpers)
            conn.execute(statement)
        conn.execute("UPDATE games SET summary = ?", (json.dumps(record.state.summary().to_json()),))
        assert conn.execute("PRAGMA user_version").fetchone()[0] == before
    async with SqliteStore(db_path, background_check=False) as store:
        await _kept(store, ids, record)
    with sqlite3.connect(db_path) as conn:
        assert conn.execute("PRAGMA user_version").fetchone()[0] == schema.SCHEMA_VERSION
        assert "summary" not in [c[1] for c in conn.execute("PRAGMA table_info(games)")]
        assert conn.execute("PRAGMA foreign_key_check").fetchall() == []
        assert conn.execute("PRAGMA integrity_check").fetchone()[0] == "ok"


async def test_a_new_sqlite_database_has_no_summary_column(db_path: Path) -> None:
    async with SqliteStore(db_path, background_check=False) as store:
        await _kept(store, await _fill(store, record := _record()), record)
    with sqlite3.connect(db_path) as conn:
        assert "summary" not in [c[1] for c in conn.execute("PRAGMA table_info(games)")]


async def _columns(dsn: str) -> list[str]:
    conn = await asyncpg.connect(dsn)
    try:
        rows = await conn.fetch("SELECT column_name FROM information_schema.columns WHERE table_name = 'games'")
        return [r[0] for r in rows]
    finally:
        await conn.close()


async def test_pg_v3_drops_the_summary_column_keeping_every_game(pg_dsn: str, monkeypatch) -> None:
    before = postgres.PG_MIGRATIONS.index(postgres.PG_V3)
    record = _record()
    with monkeypatch.context() as m:  # a database of the schema before PG_V3
        m.setattr("bot.store.postgres.PG_MIGRATIONS", _with_place(postgres.PG_MIGRATIONS[:before]))
        m.setattr("bot.store.postgres.PG_SCHEMA_VERSION", before)
        async with PostgresStore(pg_dsn) as store:
            ids = await _fill(store, record)
    conn = await asyncpg.connect(pg_dsn)
    try:
        for statement in PLACE_UNDO:  # today's columns, added to write the database (store_helpers)
            await conn.execute(statement)
        await conn.execute("UPDATE games SET summary = $1", json.dumps(record.state.summary().to_json()))
        assert await conn.fetchval("SELECT max(version) FROM solo_schema") == before
    finally:
        await conn.close()
    assert "summary" in await _columns(pg_dsn)
    async with PostgresStore(pg_dsn) as store:
        await _kept(store, ids, record)
    assert "summary" not in await _columns(pg_dsn) and "revision" in await _columns(pg_dsn)
    conn = await asyncpg.connect(pg_dsn)
    try:
        assert await conn.fetchval("SELECT max(version) FROM solo_schema") == postgres.PG_SCHEMA_VERSION
    finally:
        await conn.close()


@pytest.mark.parametrize("kind", ["seasons", "a-third-game"])
async def test_a_new_postgres_database_has_no_summary_column_and_takes_any_kind(pg_dsn: str, kind: str) -> None:
    async with PostgresStore(pg_dsn) as store:
        game = await store.create_game(**new_game_args(kind=kind))
        assert (await store.game(game.id)).kind == kind
    assert "summary" not in await _columns(pg_dsn)
