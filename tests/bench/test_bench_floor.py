"""The durable no-op (bench/floor.py), the floor under issue 12's 1-channel target: each command is committed
with the store's durability before its answer goes, and the answer has the shape of the bot's reply. No timing
is checked."""

from __future__ import annotations

import sqlite3
import sys
from pathlib import Path

ROOT = str(Path(__file__).resolve().parents[2])
if ROOT not in sys.path:
    sys.path.insert(0, ROOT)

from bench.floor import DurableNoop  # noqa: E402
from tests.support.standin import StandIn  # noqa: E402


async def test_each_command_is_on_disk_before_its_answer_and_answered_like_the_bot(tmp_path: Path) -> None:
    path = tmp_path / "floor.sqlite3"
    bot = DurableNoop(path)
    committed_when_answered = []
    async with StandIn() as standin, standin.connect(bot) as driver:
        def rows_seen(kind: str, method: str, path_: str, body: object) -> list[str]:
            # What another connection sees as each answer reaches Discord: the command's row, committed.
            if kind == "callback":
                committed_when_answered.append(sqlite3.connect(path).execute("SELECT max(n) FROM log").fetchone()[0])
            return []

        standin.add_validator(rows_seen)
        assert bot.log.db.execute("PRAGMA journal_mode").fetchone()[0] == "wal"
        assert bot.log.db.execute("PRAGMA synchronous").fetchone()[0] == 2  # FULL
        replies = [await driver.slash("echo noop", settle=False) for _ in range(3)]
    assert committed_when_answered == [1, 2, 3]
    for n, reply in enumerate(replies, start=1):
        assert not reply.rejections and not reply.ephemeral
        assert "Volfyirion — the dragon" in reply.text and f"action {n}" in reply.text
        assert [b["label"] for b in reply.buttons][-1] == "Undo" and len(reply.buttons) == 6
        assert reply.original is not None and len(reply.original.payload["components"]) == 2  # two rows
    assert sqlite3.connect(path).execute("SELECT count(*) FROM log").fetchone()[0] == 3
