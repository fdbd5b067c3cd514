"""A play's ``meanwhile`` (issue 12): the controller composes its reply while the store commits, from the change
as it will be once committed. The row it is given must be the row the store then returns (its time aside), for
every action of whole games, or the reply would show another version than the one stored."""

from __future__ import annotations

import dataclasses
from pathlib import Path

import pytest

from bot.sessions import GameService, Played
from bot.store import SqliteStore
from engine.seasons.autoplay import autoplay as seasons_autoplay
from engine.volfyirion.autoplay import autoplay as volfyirion_autoplay

SEED = 7
GAMES = {
    "seasons": (seasons_autoplay, {"difficulty": "wizard", "dice": "table"}),
    "volfyirion": (volfyirion_autoplay, {"difficulty": "hard"}),
}


@pytest.mark.parametrize("kind", sorted(GAMES))
async def test_the_foreseen_row_is_the_committed_row_for_a_whole_game(tmp_path: Path, kind: str) -> None:
    autoplay, options = GAMES[kind]
    record = autoplay(options, SEED, max_actions=400)
    assert record.state.finished
    async with SqliteStore(tmp_path / "g.sqlite3", synchronous="OFF") as store:
        service = GameService(store, seed=lambda: SEED)
        await service.start(kind=kind, options=dict(options), guild_id=1, channel_id=500, parent_channel_id=None,
                            owner_id=9)
        for action in record.actions:
            foreseen: list[Played] = []
            played = await service.play(500, 9, action, meanwhile=foreseen.append)
            assert len(foreseen) == 1
            seen = foreseen[0]
            assert dataclasses.replace(seen.row, updated_at=played.row.updated_at) == played.row
            assert (seen.step, seen.record, seen.finished_now) == (played.step, played.record, played.finished_now)
        assert played.row.status == "finished"


async def test_a_refused_play_is_not_foreseen(tmp_path: Path) -> None:
    """The engine refuses before anything is written: nothing is composed for it."""
    from engine.core import Action, RuleError

    async with SqliteStore(tmp_path / "g.sqlite3", synchronous="OFF") as store:
        service = GameService(store, seed=lambda: SEED)
        await service.start(kind="seasons", options={"difficulty": "wizard", "dice": "table"}, guild_id=1,
                            channel_id=500, parent_channel_id=None, owner_id=9)
        foreseen: list[Played] = []
        with pytest.raises(RuleError):
            await service.play(500, 9, Action("no_such_action"), meanwhile=foreseen.append)
        assert foreseen == []
