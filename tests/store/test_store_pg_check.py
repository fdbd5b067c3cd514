"""``python -m bot check`` on a PostgreSQL target (SOLO_BOT_DB=postgresql://…): the schema version, every table
read, every active game's log resumed from its latest snapshot and compared with a full replay; 0 when sound,
1 with what is wrong, 2 when the server cannot be reached. Against the real server the test run starts."""

from __future__ import annotations

import asyncio
import json

import asyncpg
import pytest

from bot.__main__ import main as bot_main
from bot.games import rules_for
from bot.sessions import GameService
from bot.store import PostgresStore
from bot.store.postgres import PG_SCHEMA_VERSION
from engine.core import GameRecord
from engine.seasons import RULES as SEASONS
from engine.seasons.autoplay import play_game as seasons_game
from engine.volfyirion.autoplay import play_game as volfyirion_game

SEED = 11


async def _games(dsn: str) -> dict[str, int]:
    """A Seasons game under way (24 actions, fewer than the bot's SNAPSHOT_EVERY, with snapshots at plies 10 and
    20 put in as the bot stores them), a short Volfyirion game, an abandoned game: the ids."""
    async with PostgresStore(dsn) as store:
        service = GameService(store, rules=rules_for, seed=lambda: SEED)
        actions, _ = seasons_game("wizard", "table", SEED)
        options = {"difficulty": "wizard", "dice": "table"}
        played = await service.start(kind="seasons", options=options, guild_id=1, channel_id=10,
                                     parent_channel_id=None, owner_id=7)
        for action in actions[:24]:
            played = await service.play(10, 7, action)
        for ply in (10, 20):
            state = GameRecord.replay(SEASONS, options, SEED, actions[:ply]).state.to_json()
            await _sql(dsn, f"INSERT INTO snapshots VALUES ({played.row.id}, {ply}, '{json.dumps(state)}', 'now')")
        record = volfyirion_game(SEED, max_actions=12, allow_win=False)
        other = await service.start(kind="volfyirion", options=dict(record.options), guild_id=1, channel_id=20,
                                    parent_channel_id=None, owner_id=8)
        for action in record.actions:
            await service.play(20, 8, action)
        gone = await service.start(kind="seasons", options=options, guild_id=1, channel_id=30,
                                   parent_channel_id=None, owner_id=9)
        await store.abandon(gone.row.id, expected_ply=0, by_user=9)
        return {"seasons": played.row.id, "volfyirion": other.row.id}


async def _check(monkeypatch, dsn: str, *args: str) -> int:
    monkeypatch.setenv("SOLO_BOT_DB", dsn)
    return await asyncio.to_thread(bot_main, ["check", *args])


async def _sql(dsn: str, *statements: str) -> None:
    conn = await asyncpg.connect(dsn)
    try:
        for statement in statements:
            await conn.execute(statement)
    finally:
        await conn.close()


async def test_check_on_postgresql_reads_every_table_and_replays_every_game(pg_dsn, monkeypatch,
                                                                                     capsys) -> None:
    await _games(pg_dsn)
    assert await _check(monkeypatch, pg_dsn) == 0
    out = capsys.readouterr().out
    assert "ok: postgresql://postgres@127.0.0.1" in out and f"schema version {PG_SCHEMA_VERSION}" in out
    assert "3 games replayed" in out and "3 games" in out and "snapshots" in out


async def test_a_snapshot_that_disagrees_with_the_log_fails_the_check(pg_dsn, monkeypatch, capsys) -> None:
    ids = await _games(pg_dsn)
    # The snapshot at ply 20 replaced by the one at ply 10: a valid state, the wrong one.
    await _sql(pg_dsn, f"UPDATE snapshots SET state = (SELECT state FROM snapshots WHERE game_id = {ids['seasons']}"
                       f" AND ply = 10) WHERE game_id = {ids['seasons']} AND ply = 20")
    assert await _check(monkeypatch, pg_dsn, "--quick") == 0  # the quick check replays nothing
    capsys.readouterr()
    assert await _check(monkeypatch, pg_dsn) == 1
    err = capsys.readouterr().err
    # The tail after the wrong snapshot is refused by the rules, or gives another state: either is reported.
    assert f"game {ids['seasons']}: " in err and "snapshot at ply 20" in err, err
    assert f"game {ids['volfyirion']}" not in err


async def test_a_gap_in_a_log_and_a_log_the_rules_refuse_fail_the_check(pg_dsn, monkeypatch, capsys) -> None:
    ids = await _games(pg_dsn)
    await _sql(pg_dsn, f"DELETE FROM actions WHERE game_id = {ids['seasons']} AND ply = 3",
               f"UPDATE actions SET action = '{json.dumps({'type': 'no_such_action'})}'"
               f" WHERE game_id = {ids['volfyirion']} AND ply = 2")
    assert await _check(monkeypatch, pg_dsn) == 1
    err = capsys.readouterr().err
    assert "has 2 problem(s)" in err
    assert f"game {ids['seasons']}: its live actions are not plies 1…24" in err
    assert f"game {ids['volfyirion']}: its log does not replay" in err


@pytest.mark.parametrize(("setup", "says"), [
    ("", "no bot schema in this database"),
    ("schema", "written by a newer bot"),
])
async def test_a_database_without_the_bots_schema_or_a_newer_one_fails_the_check(pg_dsn, monkeypatch, capsys,
                                                                                   setup, says) -> None:
    if setup:
        async with PostgresStore(pg_dsn):
            pass
        await _sql(pg_dsn, f"UPDATE solo_schema SET version = {PG_SCHEMA_VERSION + 1}")
    assert await _check(monkeypatch, pg_dsn) == 1
    assert says in capsys.readouterr().err


async def test_a_server_that_does_not_answer_is_exit_code_2(pg_server, monkeypatch, capsys) -> None:
    dsn = f"postgresql://postgres:secret@127.0.0.1:{pg_server.port + 1}/nothing"
    assert await _check(monkeypatch, dsn) == 2
    err = capsys.readouterr().err
    assert "cannot be reached" in err and "secret" not in err
