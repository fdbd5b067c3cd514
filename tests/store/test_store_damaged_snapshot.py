"""A damaged snapshot never makes a game unplayable (issue 37): a snapshot is derived data, so one that cannot be
read or does not resume is passed by, the game replays from an earlier snapshot or from the start of its log,
the damage is logged once at WARNING and the snapshot is written again. A damaged action row (the log itself)
is refused with the `store.corrupt` sentence, never "try again". SQLite and PostgreSQL alike."""

from __future__ import annotations

import json
import logging
import os
import sqlite3
import subprocess
import sys
from pathlib import Path

import asyncpg
import pytest

from bot.games import rules_for
from bot.i18n import t
from bot.sessions import SNAPSHOT_EVERY, GameService
from bot.store import SqliteStore, StoreCorrupt
from engine.core import Action, GameRecord
from engine.seasons import RULES
from engine.seasons.autoplay import play_game

SEED = 7
OPTIONS = {"difficulty": "wizard", "dice": "table"}
CHANNEL, OWNER = 500, 9
REPO = Path(__file__).resolve().parents[2]
# The two damages: bytes that are not UTF-8 (SQLite only: PostgreSQL's TEXT cannot hold them) and JSON
# cut short.
NOT_UTF8 = "CAST(X'7B22FF22' AS TEXT)"
CUT_SHORT = "'{\"version\": 1'"


def moves(n: int) -> list[Action]:
    actions, _ = play_game(OPTIONS["difficulty"], OPTIONS["dice"], SEED)
    return actions[:n]


async def sql(store, statement: str) -> None:
    """One statement on the store's database, beside the store (as an operator's or a disk's damage)."""
    if isinstance(store, SqliteStore):
        conn = sqlite3.connect(store.path)
        conn.execute(statement)
        conn.commit()
        conn.close()
        return
    conn = await asyncpg.connect(store.dsn)
    try:
        await conn.execute(statement)
    finally:
        await conn.close()


async def started(store, n: int):
    service = GameService(store, rules=rules_for, seed=lambda: SEED)
    played = await service.start(kind="seasons", options=dict(OPTIONS), guild_id=1, channel_id=CHANNEL,
                                 parent_channel_id=None, owner_id=OWNER)
    for action in moves(n):
        played = await service.play(CHANNEL, OWNER, action)
    return played.row


def damages(backend: str) -> list[str]:
    return [NOT_UTF8, CUT_SHORT] if backend == "sqlite" else [CUT_SHORT]


@pytest.mark.backends("sqlite", "postgres")
@pytest.mark.parametrize("which", ["not_utf8", "cut_short"])
async def test_a_damaged_snapshot_is_passed_by_logged_once_and_written_again(store, backend, which, caplog):
    damage = {"not_utf8": NOT_UTF8, "cut_short": CUT_SHORT}[which]
    if damage not in damages(backend):
        pytest.skip("PostgreSQL's TEXT holds only UTF-8")
    row = await started(store, SNAPSHOT_EVERY + 1)  # a snapshot at ply 25, one action after it
    good = await store.latest_snapshot(row.id, SNAPSHOT_EVERY)
    assert good is not None and good[0] == SNAPSHOT_EVERY and good[1] is not None
    await sql(store, f"UPDATE snapshots SET state = {damage} WHERE game_id = {row.id} AND ply = {SNAPSHOT_EVERY}")
    assert await store.latest_snapshot(row.id, SNAPSHOT_EVERY) == (SNAPSHOT_EVERY, None)  # unreadable, said so

    full = GameRecord.replay(RULES, OPTIONS, SEED, moves(SNAPSHOT_EVERY + 1))
    with caplog.at_level(logging.WARNING, logger="bot.sessions"):
        service = GameService(store, rules=rules_for)  # a restart: nothing cached
        record = await service.record(row)
        assert record.state.to_json() == full.state.to_json()
        assert await store.latest_snapshot(row.id, SNAPSHOT_EVERY) == good  # written again, the same state
        service.forget(row.id)
        assert (await service.record(row)).state.to_json() == full.state.to_json()
    warned = [r for r in caplog.records if r.levelno == logging.WARNING and "snapshot at ply 25" in r.getMessage()]
    assert len(warned) == 1, caplog.text
    # The game goes on.
    next_move = play_game(OPTIONS["difficulty"], OPTIONS["dice"], SEED)[0][SNAPSHOT_EVERY + 1]
    played = await service.play(CHANNEL, OWNER, next_move)
    assert played.row.ply == SNAPSHOT_EVERY + 2


@pytest.mark.backends("sqlite", "postgres")
async def test_a_snapshot_that_is_json_but_no_state_replays_from_the_log_start(store):
    row = await started(store, SNAPSHOT_EVERY + 3)
    await sql(store, f"UPDATE snapshots SET state = '{{\"version\": 1}}' WHERE game_id = {row.id}")
    record = await GameService(store, rules=rules_for).record(row)
    assert record.state.to_json() == GameRecord.replay(RULES, OPTIONS, SEED, moves(SNAPSHOT_EVERY + 3)).state.to_json()
    assert (await store.latest_snapshot(row.id, SNAPSHOT_EVERY))[1] != {"version": 1}


@pytest.mark.backends("sqlite", "postgres")
async def test_a_damaged_snapshot_is_not_written_again_over_a_game_that_moved_on(store):
    row = await started(store, SNAPSHOT_EVERY + 1)
    assert await store.put_snapshot(row.id, SNAPSHOT_EVERY, {"x": 1}, revision=row.revision - 1) is False
    assert await store.put_snapshot(row.id, SNAPSHOT_EVERY + 5, {"x": 1}, revision=row.revision) is False
    assert (await store.latest_snapshot(row.id, SNAPSHOT_EVERY))[1] != {"x": 1}


@pytest.mark.backends("sqlite", "postgres")
async def test_a_damaged_action_row_is_the_store_corrupt_sentence(store, backend):
    row = await started(store, 5)
    await sql(store, f"UPDATE actions SET action = '{{\"type\": ' WHERE game_id = {row.id} AND ply = 3")
    with pytest.raises(StoreCorrupt) as caught:
        await GameService(store, rules=rules_for).record(row)
    for lang in ("en", "ja"):
        said = t(lang, caught.value.key, **caught.value.params)
        assert "try again" not in said and "もう一度" not in said, said
    assert "damaged" in t("en", caught.value.key, **caught.value.params)


async def test_an_action_row_that_is_not_utf8_is_the_store_corrupt_sentence(tmp_path):
    async with SqliteStore(tmp_path / "bot.sqlite3") as store:
        row = await started(store, 5)
        await sql(store, f"UPDATE actions SET action = {NOT_UTF8} WHERE game_id = {row.id} AND ply = 4")
        with pytest.raises(StoreCorrupt):
            await GameService(store, rules=rules_for).record(row)


async def test_an_action_the_rules_refuse_is_the_store_corrupt_sentence(tmp_path):
    async with SqliteStore(tmp_path / "bot.sqlite3") as store:
        row = await started(store, SNAPSHOT_EVERY + 2)
        bad = json.dumps({"type": "no such action"})
        await sql(store, f"UPDATE actions SET action = '{bad}' WHERE game_id = {row.id} AND ply = 2")
        await sql(store, f"DELETE FROM snapshots WHERE game_id = {row.id}")
        with pytest.raises(StoreCorrupt) as caught:
            await GameService(store, rules=rules_for).record(row)
        assert caught.value.reason == "unreplayable"


def console(db: Path, script: str) -> str:
    env = {k: v for k, v in os.environ.items() if k != "DISCORD_TOKEN"}
    done = subprocess.run([sys.executable, "-m", "bot", "console", "--db", str(db)], input=script,
                          capture_output=True, text=True, timeout=120, cwd=REPO, env=env)
    return done.stdout + done.stderr


def test_the_console_banner_and_commands_go_past_a_damaged_snapshot(tmp_path):
    """The issue's reproduction: a Seasons game past 25 actions, its snapshot damaged; the console crashed
    loading the game for its banner and every command there was "Something went wrong… try again"."""
    db = tmp_path / "bot.sqlite3"
    console(db, "/seasons start difficulty:wizard dice:table\n" + "/seasons crystals change:1\n" * 26)
    conn = sqlite3.connect(db)
    assert conn.execute("SELECT ply FROM games").fetchone()[0] == 26
    conn.execute(f"UPDATE snapshots SET state = {NOT_UTF8}")
    conn.commit()
    conn.close()
    output = console(db, "/game status\n/seasons crystals change:1\n")
    assert "Traceback" not in output and "went wrong" not in output, output
    assert "In progress in" in output and "action 27" in output, output


def test_the_console_banner_says_a_damaged_log_in_words(tmp_path):
    db = tmp_path / "bot.sqlite3"
    console(db, "/seasons start difficulty:wizard dice:table\n" + "/seasons crystals change:1\n" * 3)
    conn = sqlite3.connect(db)
    conn.execute("UPDATE actions SET action = '{\"type\": ' WHERE ply = 2")
    conn.commit()
    conn.close()
    output = console(db, "/game status\n")
    assert "Traceback" not in output and "went wrong" not in output and "try again" not in output, output
    assert "The game database is damaged" in output, output
