"""The live records GameService keeps (issue 12): one idle past ``cache_seconds`` is dropped at the next
command, the ones in use stay, and the next command on a dropped game rebuilds it from the store."""

from __future__ import annotations

from pathlib import Path

import pytest

from bot.games import rules_for
from bot.sessions import GameService, Refusal
from bot.store import SqliteStore
from engine.seasons.autoplay import play_game

OPTIONS = {"difficulty": "wizard", "dice": "table"}


async def test_idle_records_leave_the_cache_the_used_ones_stay(tmp_path: Path) -> None:
    async with SqliteStore(tmp_path / "c.sqlite3", synchronous="OFF") as store:
        service = GameService(store, rules=rules_for, seed=lambda: 7, cache_seconds=60.0)
        games = []
        for channel in (501, 502, 503):
            played = await service.start(kind="seasons", options=dict(OPTIONS), guild_id=1, channel_id=channel,
                                         parent_channel_id=None, owner_id=9)
            games.append(played.row.id)
        assert list(service._cache) == games
        # 501 and 502 idle for longer than cache_seconds; 503 used a moment ago.
        for game_id in games[:2]:
            service._cache[game_id].touched -= 61.0
        first, _ = play_game(OPTIONS["difficulty"], OPTIONS["dice"], 7)
        played = await service.play(503, 9, first[0])  # any command evicts first
        assert list(service._cache) == [games[2]]
        # 502 comes back from the store, as it was.
        row = await store.game(games[1])
        record = await service.record(row)
        assert record.ply == row.ply == 0
        assert list(service._cache) == [games[2], games[1]]
        assert played.record.ply == 1


async def test_a_refusal_on_a_row_another_process_replaced_is_asked_again_of_the_store(tmp_path: Path) -> None:
    """Process 1 keeps channel 700's game (owner 9); process 2 ends it and user 10 starts another there. User
    10's command reaching process 1 is played on the store's row, not refused as "not the owner"."""
    async with SqliteStore(tmp_path / "c.sqlite3", synchronous="OFF") as store:
        one, two = GameService(store, rules=rules_for, seed=lambda: 7), GameService(store, rules=rules_for, seed=lambda: 7)
        await one.start(kind="seasons", options=dict(OPTIONS), guild_id=1, channel_id=700, parent_channel_id=None,
                        owner_id=9)
        await two.abandon(700, 9, may_manage=False)
        newer = await two.start(kind="seasons", options=dict(OPTIONS), guild_id=1, channel_id=700,
                                parent_channel_id=None, owner_id=10)
        first, _ = play_game(OPTIONS["difficulty"], OPTIONS["dice"], 7)
        played = await one.play(700, 10, first[0])
        assert (played.row.id, played.row.ply) == (newer.row.id, 1)


async def test_refused_presses_keep_nothing(tmp_path: Path) -> None:
    """Refused presses on games this process has not loaded keep no record behind."""
    async with SqliteStore(tmp_path / "c.sqlite3", synchronous="OFF") as store:
        owner = GameService(store, rules=rules_for, seed=lambda: 7)
        for channel in range(600, 610):
            await owner.start(kind="seasons", options=dict(OPTIONS), guild_id=1, channel_id=channel,
                              parent_channel_id=None, owner_id=9)
        restarted = GameService(store, rules=rules_for, seed=lambda: 7, max_cached=2)
        first, _ = play_game(OPTIONS["difficulty"], OPTIONS["dice"], 7)
        for channel in range(600, 610):
            with pytest.raises(Refusal):
                await restarted.play(channel, 10, first[0])  # not the owner
        assert restarted.cached_games() == 0
