"""Issue 13, several processes: two real bot processes (`python -m bot`, configured by their environment
only) on one shared database, each holding its own shard range (SOLO_BOT_SHARDS=0-1/4 and 2-3/4), behind one
stand-in that speaks all four shards. Games run in channels of both processes' servers.

- Only the process holding shard 0 syncs the commands (the other one, started first, syncs nothing).
- A load run with kill -9 of one process at seeded points, counted in acknowledged actions (never in time),
  and its restart: the other process's players keep playing meanwhile; after the restart every game's
  `/game export` holds every acknowledged action, the one in flight at most once (none doubled), and a state
  equal to the replay of its stored log (none half applied).

The database is a parameter (`DATABASES`): one SQLite file, and a real PostgreSQL server started by the test run
(tests/support/postgres.py).
"""

from __future__ import annotations

import asyncio
import contextlib
import random
import sys
from collections.abc import AsyncIterator
from dataclasses import dataclass, field
from pathlib import Path

import pytest
from prometheus_client.parser import text_string_to_metric_families

from engine.core import Action
from tests.support.standin import StandIn, World

sys.path.insert(0, str(Path(__file__).resolve().parent))
sys.path.insert(0, str(Path(__file__).resolve().parents[1] / "load"))
from bot_command import BotCommand
from bot_process import driver_for
from load_helpers import Tally, acknowledged, check_record, export, plan, send, start

SHARDS = 4
RANGES = {"A": "0-1/4", "B": "2-3/4"}  # as in deploy/compose.yaml
DATABASES = {
    "sqlite": lambda request, tmp: str(tmp / "shared.sqlite3"),
    "postgresql": lambda request, tmp: request.getfixturevalue("pg_dsn"),  # a real server (tests/support)
}


@pytest.fixture(params=sorted(DATABASES))
def shared_db(request: pytest.FixtureRequest, tmp_path: Path) -> str:
    return DATABASES[request.param](request, tmp_path)


def shard_of(guild_id: int) -> int:
    return (guild_id >> 22) % SHARDS


def sharded_world(per_shard: int) -> tuple[World, dict[int, list]]:
    """A server on each of the 4 shards (names picked so that their ids land there), `per_shard` channels in
    each with a player of its own. Returns the world and, per shard, its (channel, user) places."""
    world = World.default()
    guilds = {shard_of(g.id): g for g in world.guilds}
    i = 0
    while len(guilds) < SHARDS:
        name = f"server {i}"
        i += 1
        if shard_of(World.default().add_guild(name).id) not in guilds:  # a throwaway world to learn the id
            guild = world.add_guild(name)
            guilds[shard_of(guild.id)] = guild
    places: dict[int, list] = {}
    for shard, guild in sorted(guilds.items()):
        places[shard] = [(guild.add_channel(f"multi-{shard}-{k}"), world.add_user(f"multi-{shard}-{k}"))
                         for k in range(per_shard)]
    return world, places


def owner(shard: int) -> str:
    return "A" if shard < SHARDS // 2 else "B"


@dataclass
class Player:
    game: object  # load_helpers.ChannelGame
    process: str  # "A" or "B": the process holding its server's shard
    limit: int  # play this many actions (or the game's end)
    pending: Action | None = None  # sent, no reply came: it may or may not be stored
    task: asyncio.Task | None = None


@dataclass
class Run:
    tally: Tally = field(default_factory=Tally)
    kills: list[str] = field(default_factory=list)
    in_flight: int = 0
    kept: int = 0
    played_while_down: int = 0  # actions acknowledged by the other process while one was down
    commands: dict[str, float] = field(default_factory=dict)
    stale: dict[str, float] = field(default_factory=dict)  # stale-version refusals, per process

    def summary(self) -> str:
        return (f"two processes, kills={self.kills} commands={self.tally.commands} "
                f"acknowledged={self.tally.acknowledged} (all found after each restart) in_flight_at_kill="
                f"{self.in_flight} kept={self.kept} played_by_the_other_while_one_was_down={self.played_while_down} "
                f"commands_per_process={self.commands}")


async def play(driver, player: Player, gates: dict[str, asyncio.Event], run: Run, rng: random.Random,
               progressed: asyncio.Event, down: set[str]) -> None:
    game = player.game
    while game.pos < player.limit:
        gate = gates[player.process]
        await gate.wait()
        if player.pending is not None:
            await asyncio.sleep(0.01)  # the restart settles it first
            continue
        if game.pos >= player.limit:  # the restart kept the action in flight, and it was the last one
            break
        action = game.script[game.pos]
        player.task = asyncio.ensure_future(send(driver, game, action, by_button=rng.random() < 0.4))
        await asyncio.wait({player.task})
        task, player.task = player.task, None
        if task.cancelled():
            continue
        if task.exception() is not None:
            raise task.exception()
        reply = task.result()
        run.tally.count(reply, 0.0)
        assert acknowledged(reply), f"{game.channel.name} {action.to_json()} refused: {reply.text}"
        game.log.append(action)
        game.reply = reply
        if down - {player.process}:
            run.played_while_down += 1
        progressed.set()


async def settle(driver, player: Player) -> bool:
    """After the restart: the stored log is the acknowledged one, or it plus the action in flight (never
    twice); the state is its replay. True when the action in flight was kept."""
    game = player.game
    record = await export(driver, game)
    acked = [a.to_json() for a in game.log]
    kept = False
    if player.pending is None:
        assert record["actions"] == acked, f"{game.channel.name}: acknowledged {len(acked)}, stored {len(record['actions'])}"
    else:
        assert record["actions"] in (acked, acked + [player.pending.to_json()]), (
            f"{game.channel.name}: the stored log is neither the acknowledged one nor it plus the action in flight")
        kept = len(record["actions"]) > len(acked)
        if kept:
            game.log.append(player.pending)
        player.pending = None
    check_record(game, record)
    game.reply = await driver.slash("game status", {}, settle=False, **game.who)
    return kept


def metric_sum(metrics_text: str, name: str) -> float:
    return sum(s.value for f in text_string_to_metric_families(metrics_text) for s in f.samples if s.name == name)


@contextlib.asynccontextmanager
async def bot_processes(standin: StandIn, db: str, home: Path, *,
                        logs: bool = False) -> AsyncIterator[dict[str, BotCommand]]:
    """The two bot processes of RANGES (A: shards 0-1, B: 2-3) on ``db``, not started yet; stopped at the end,
    with each one's log printed when ``logs`` (pytest shows it when the test fails)."""
    procs = {name: BotCommand(standin, db, shards=shards, home=home, name=name) for name, shards in RANGES.items()}
    try:
        yield procs
    finally:
        for proc in procs.values():
            await proc.stop()
            if logs:
                print(f"-- {proc.name}'s log (shown when the test fails) --\n{proc.tail(200)}")


async def two_processes_with_kills(tmp_path: Path, db: str, *, per_shard: int, actions: int, kills: list[str],
                                   seed: int) -> Run:
    rng = random.Random(seed)
    world, places = sharded_world(per_shard)
    run = Run()
    async with StandIn(world) as standin, bot_processes(standin, db, tmp_path) as procs:
        puts = lambda: [p for m, p in standin.requests if m == "PUT" and p.endswith("/commands")]  # noqa: E731
        await procs["B"].start()  # shards 2-3 first: it must not sync the commands
        assert puts() == [], "the process without shard 0 synced the commands"
        await procs["A"].start()
        assert len(puts()) == 1, "the process holding shard 0 did not sync the commands once"
        await standin.wait_shards(range(SHARDS))
        driver = driver_for(standin, timeout=20.0)
        players = []
        for shard, shard_places in sorted(places.items()):
            for k, (channel, user) in enumerate(shard_places):
                game = plan(shard * per_shard + k, channel, user)
                await start(driver, game, run.tally, length=actions, db=db)
                players.append(Player(game, owner(shard), min(actions, len(game.script))))
        assert {p.process for p in players} == {"A", "B"}
        total = sum(p.limit for p in players)
        room = max(2, total * 2 // 3)
        points = sorted(rng.sample(range(1, room), len(kills)))
        gates = {name: asyncio.Event() for name in procs}
        for gate in gates.values():
            gate.set()
        progressed = asyncio.Event()
        down: set[str] = set()
        playing = [asyncio.ensure_future(play(driver, p, gates, run, random.Random(rng.random()), progressed, down))
                   for p in players]
        for point, victim in zip(points, kills, strict=True):
            while sum(p.game.pos for p in players) < point:  # a count of acknowledged actions, not a time
                failed = [t for t in playing if t.done() and t.exception() is not None]
                if failed:
                    raise failed[0].exception()
                progressed.clear()
                await progressed.wait()
            gates[victim].clear()
            procs[victim].kill()  # SIGKILL, whatever is in flight
            down.add(victim)
            cut = []
            for p in players:
                if p.process == victim and p.task is not None and not p.task.done():
                    p.pending = p.game.script[p.game.pos]
                    p.task.cancel()
                    cut.append(p.task)
            await asyncio.gather(*cut, return_exceptions=True)
            await procs[victim].wait()
            run.kills.append(victim)
            # The other process goes on meanwhile: wait (counting acknowledged actions) for one of its own.
            others = [p for p in players if p.process != victim and p.game.pos < p.limit]
            mark = sum(p.game.pos for p in others)
            while others and sum(p.game.pos for p in others) == mark:
                if all(p.game.pos >= p.limit for p in others):
                    break
                progressed.clear()
                await progressed.wait()
            await procs[victim].start()  # ready: its shards connected, the database answering
            down.discard(victim)
            for p in players:
                if p.process == victim:
                    pending = p.pending is not None
                    kept = await settle(driver, p)
                    run.in_flight += pending
                    run.kept += kept
            gates[victim].set()
        await asyncio.gather(*playing)
        for p in players:  # every game holds exactly what was acknowledged, and is its replay
            check_record(p.game, await export(driver, p.game))
        assert len(puts()) == 1, "a restart synced the commands again"
        for name, proc in procs.items():
            page = await proc.metrics()
            run.commands[name] = metric_sum(page, "solo_bot_commands_total")
            run.stale[name] = metric_sum(page, "solo_bot_stale_version_refusals_total")
    return run


async def test_two_processes_share_the_database_and_survive_kill_9_of_either(tmp_path, shared_db, figures):
    run = await two_processes_with_kills(tmp_path, shared_db, per_shard=1, actions=40, kills=["B", "A"], seed=13)
    figures(f"several processes (short): {run.summary()}")
    assert run.kills == ["B", "A"]
    assert run.tally.acknowledged >= 40
    assert run.played_while_down >= 1  # one process down, the other one's servers kept playing
    assert all(v > 0 for v in run.commands.values()), run.commands  # both processes served commands
    # A channel is one process's: the two never wrote over each other's version.
    assert run.stale == {"A": 0, "B": 0}, run.stale


@pytest.mark.soak
async def test_soak_two_processes_many_kills(tmp_path, shared_db, figures):
    run = await two_processes_with_kills(tmp_path, shared_db, per_shard=3, actions=200,
                                         kills=["A", "B"] * 5, seed=14)
    figures(f"several processes (soak): {run.summary()}")
    assert len(run.kills) == 10
