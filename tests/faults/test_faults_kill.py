"""kill -9 of the bot at seeded moments while several games are played, then a restart on the same file.

The bot runs in a process of its own (bot_process.py); the stand-in and the players run here. The kill
points are counted, not timed: before a round, the seeded schedule picks the numbers of acknowledged
actions (over all the round's games, whose scripts are known in advance) at which the process gets
SIGKILL, all well inside the round's total, so every point is reached however fast or slow the machine is
and each is one kill. At a kill the players' commands in flight are cut; after the restart every game's
`/game export` must hold every action whose reply arrived, the one in flight at most once, and a state
equal to the replay of the stored log (never half an action). Then play goes on, to each game's end.
"""

from __future__ import annotations

import asyncio
import random
import sys
from dataclasses import dataclass, field
from pathlib import Path

import pytest

from engine.core import Action
from tests.support.standin import StandIn

sys.path.insert(0, str(Path(__file__).resolve().parent))
sys.path.insert(0, str(Path(__file__).resolve().parents[1] / "load"))
from bot_process import BotProcess, driver_for
from load_helpers import (
    ChannelGame,
    Tally,
    acknowledged,
    check_record,
    crowded_world,
    export,
    plan,
    send,
    start,
)


@dataclass
class Player:
    game: ChannelGame
    pending: Action | None = None  # sent, but no reply came: it may or may not be stored
    task: asyncio.Task | None = None  # the command in flight


@dataclass
class KillRun:
    kills: int = 0
    in_flight: int = 0  # commands cut off by a kill
    stored_in_flight: int = 0  # of those, how many the restarted bot had kept
    tally: Tally = field(default_factory=Tally)
    games: int = 0
    schedule: list[list[int]] = field(default_factory=list)  # each round's kill points (acknowledged actions)

    def summary(self) -> str:
        return (f"games={self.games} (each played to its end) kills={self.kills} at acknowledged-action counts "
                f"{self.schedule[:3]}{'…' if len(self.schedule) > 3 else ''} commands={self.tally.commands} "
                f"acknowledged={self.tally.acknowledged} (all found after each restart) "
                f"in_flight_at_kill={self.in_flight} kept={self.stored_in_flight} "
                f"dropped={self.in_flight - self.stored_in_flight} (unacknowledged; none half applied)")


async def settle(driver, player: Player, tally: Tally) -> None:
    """After a restart: the store holds exactly the acknowledged log, plus at most the pending action;
    the state is the replay of what is stored. The game carries on from what is stored."""
    game = player.game
    record = await export(driver, game)
    acked = [a.to_json() for a in game.log]
    stored = record["actions"]
    if player.pending is None:
        assert stored == acked, f"{game.channel.name}: acknowledged {len(acked)} actions, stored {len(stored)}"
    else:
        assert stored in (acked, acked + [player.pending.to_json()]), (
            f"{game.channel.name}: stored log is neither the acknowledged one nor it plus the action in flight")
        if len(stored) > len(acked):
            game.log.append(player.pending)
        player.pending = None
    check_record(game, record)
    # The buttons of the newest message, as the player would see them after the restart.
    game.reply = await driver.slash("game status", {}, settle=False, **game.who)


async def play_until_end(driver, player: Player, gate: asyncio.Event, run: KillRun, rng: random.Random,
                         progressed: asyncio.Event) -> None:
    game = player.game
    while game.pos < len(game.script):
        await gate.wait()
        if not gate.is_set() or player.pending is not None:
            await asyncio.sleep(0.01)
            continue
        if game.pos >= len(game.script):
            break  # the restart found the last action stored: the game is over
        action = game.script[game.pos]
        player.task = asyncio.ensure_future(send(driver, game, action, by_button=rng.random() < 0.4))
        await asyncio.wait({player.task})
        task, player.task = player.task, None
        if task.cancelled():
            continue  # cut off by a kill: the orchestrator marked it pending, the restart settles it
        if task.exception() is not None:
            raise task.exception()
        reply = task.result()
        run.tally.count(reply, 0.0)
        assert acknowledged(reply), f"{game.channel.name} {action.to_json()} refused: {reply.text}"
        game.log.append(action)
        game.reply = reply
        progressed.set()


def kill_points(rng: random.Random, total: int, kills: int) -> list[int]:
    """`kills` distinct counts of acknowledged actions, all in the first two thirds of the round's `total`:
    the schedule always fits, whatever the machine's speed."""
    room = max(2, total * 2 // 3)
    assert room - 1 >= kills, f"the round's games are too short for {kills} kill points ({total} actions)"
    return sorted(rng.sample(range(1, room), kills))


async def kill_rounds(tmp_path: Path, *, rounds: int, games_per_round: int, kills_per_round: int,
                      seed: int) -> KillRun:
    rng = random.Random(seed)
    world, places = crowded_world(rounds * games_per_round)
    run = KillRun()
    async with StandIn(world) as standin:
        proc = BotProcess(standin, tmp_path / "killed.sqlite3")
        await proc.start()
        driver = driver_for(standin, timeout=15.0)
        try:
            for r in range(rounds):
                chunk = places[r * games_per_round:(r + 1) * games_per_round]
                players = [Player(plan(r * games_per_round + i, *place)) for i, place in enumerate(chunk)]
                run.games += len(players)
                for p in players:  # one after another: each game's seed, hence its script, is fixed
                    await start(driver, p.game, run.tally, length=400, db=tmp_path / "killed.sqlite3")
                total = sum(len(p.game.script) for p in players)
                points = kill_points(rng, total, kills_per_round)
                run.schedule.append(points)
                gate = asyncio.Event()
                gate.set()
                progressed = asyncio.Event()
                playing = [asyncio.ensure_future(play_until_end(driver, p, gate, run, random.Random(rng.random()),
                                                                progressed))
                           for p in players]
                for point in points:
                    # Wait for the point: a count of acknowledged actions, never a time.
                    while sum(p.game.pos for p in players) < point:
                        failed = [t for t in playing if t.done() and t.exception() is not None]
                        if failed:
                            raise failed[0].exception()
                        progressed.clear()
                        await progressed.wait()
                    # SIGKILL with whatever is in flight; those commands' replies never come.
                    gate.clear()
                    proc.kill()
                    cut = []
                    for p in players:
                        if p.task is not None and not p.task.done():
                            p.pending = p.game.script[p.game.pos]
                            p.task.cancel()
                            cut.append(p.task)
                    await asyncio.gather(*cut, return_exceptions=True)
                    await proc.wait()
                    run.kills += 1
                    await proc.start()
                    driver.refresh_schema()
                    for p in players:
                        pending = p.pending is not None
                        before = len(p.game.log)
                        await settle(driver, p, run.tally)
                        run.in_flight += pending
                        run.stored_in_flight += pending and len(p.game.log) > before
                    gate.set()
                await asyncio.gather(*playing)
                for p in players:  # every game played to its end, and is what a replay gives
                    record = await export(driver, p.game)
                    check_record(p.game, record)
                    assert record["result"] is not None, f"{p.game.channel.name} did not end"
        finally:
            await proc.stop()
    return run


async def test_kill_9_at_random_moments_keeps_every_acknowledged_action(tmp_path, figures):
    run = await kill_rounds(tmp_path, rounds=1, games_per_round=3, kills_per_round=3, seed=11)
    figures(f"kill -9 (short): {run.summary()}")
    assert run.kills == 3  # one per scheduled point, always: the points are counts, not times
    assert run.tally.acknowledged > 30


@pytest.mark.soak
async def test_soak_a_hundred_kill_points(tmp_path, figures):
    run = await kill_rounds(tmp_path, rounds=20, games_per_round=4, kills_per_round=5, seed=12)
    figures(f"kill -9 (soak): {run.summary()}")
    assert run.kills == 100
    assert run.in_flight > 0
