"""Seasons games stored under edition 2 replay unchanged after the chosen table dice and the known hand
(S-1.4, S-2.4): their options keep ``edition: 2``, so a face of a die the seed did not choose and a reveal the
known hand would refuse are taken as they were when played."""

from __future__ import annotations

from pathlib import Path

from test_store_migrate_seasons import _first_release_database

from bot.store import SqliteStore
from engine.core import GameRecord
from engine.seasons import RULES


async def test_s1_4_s2_4_a_stored_edition_2_table_game_replays_as_it_was_played(tmp_path: Path) -> None:
    options = {"difficulty": "wizard", "dice": "table", "edition": 2}  # as edition 2 stored them
    log = [{"type": "die", "face": {"crystals": 6, "dots": 2}},  # winter die 4: seed 4 chose dice 2 and 3
           {"type": "time", "steps": 1}, {"type": "reveal", "cards": ["9", "28", "41", "5"]}]
    _first_release_database(tmp_path / "old.sqlite3", options, log)
    async with SqliteStore(tmp_path / "old.sqlite3") as store:
        row = await store.game(1)
        actions = [a.action for a in await store.live_actions(1)]
    assert row.options == options
    record = GameRecord.replay(RULES, row.options, row.seed, actions)
    assert RULES.new_game(row.options, row.seed).state.chosen["winter"] == [2, 3]
    assert record.state.crystals == 6 and record.state.summoned == ["9"]
    assert record.state.hand_known == ["28", "41", "5"] and record.state.summary().chosen_dice == {}
