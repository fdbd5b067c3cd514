"""Issue 13, PostgreSQL going away under load: two real bot processes (`python -m bot`, shards 0-1/4 and 2-3/4)
on one real PostgreSQL server (tests/support/postgres.py), games in channels of both. In the middle of the run
(a seeded count of acknowledged actions, never a time) the server is stopped — "fast" (a normal restart) and
"immediate" (a crash: connections die without a word) — with both processes up and their players still playing:

- while it is away, every command is answered with the localized "try again in a moment" refusal, word for word
  (English and Japanese players), `/readyz` says 503 and `/healthz` still 200;
- the server comes back and the SAME processes (started once, never restarted) apply commands again;
- at the end every acknowledged action is in the database, none doubled (an action refused while the server
  went away is stored at most once: its outcome could not be known), none half applied (each game's state is the
  replay of its stored log).
"""

from __future__ import annotations

import asyncio
import random
import sys
from dataclasses import dataclass, field
from pathlib import Path

import pytest

from bot.i18n import t
from engine.core import Action
from tests.support.standin import StandIn

sys.path.insert(0, str(Path(__file__).resolve().parent))
sys.path.insert(0, str(Path(__file__).resolve().parents[1] / "load"))
from bot_process import driver_for
from load_helpers import Tally, acknowledged, check_record, export, plan, send, start
from test_faults_processes import SHARDS, bot_processes, metric_sum, owner, sharded_world
from test_faults_processes import settle as settled_log

# What a player reads while the database is away: the store's refusal with the reason "unreachable".
AWAY = {lang: t(lang, "store.unavailable", reason="unreachable") for lang in ("en", "ja")}
# The one other honest answer, for a change whose COMMIT lost its answer while the server went away (the store
# could not ask it afterwards whether the change took effect): "it may or may not have been saved".
UNKNOWN = {lang: t(lang, "refuse.internal_unknown") for lang in ("en", "ja")}


@dataclass
class Player:
    game: object  # load_helpers.ChannelGame
    process: str
    lang: str
    limit: int
    pending: Action | None = None  # refused while the server went away: stored or not, nobody could know
    refusals: int = 0


@dataclass
class Outage:
    tally: Tally = field(default_factory=Tally)
    away: bool = False  # set before the server is stopped, cleared once it answers again
    refused: list[tuple[str, str]] = field(default_factory=list)  # (process, language) of each refusal
    acknowledged_while_stopping: int = 0  # answered before the server went down
    unknown: int = 0  # refusals that said "may or may not have been saved"
    kept: int = 0  # refused actions found stored afterwards (their commit went through, its answer did not)
    outages: list[str] = field(default_factory=list)  # the stop modes, in order
    readyz_away: dict[str, set[int]] = field(default_factory=dict)  # what each process's /readyz said then
    healthz_away: dict[str, set[int]] = field(default_factory=dict)
    after: int = 0  # actions acknowledged after the server came back

    def summary(self) -> str:
        langs = sorted({lang for _, lang in self.refused})
        return (f"PostgreSQL restarts under load {self.outages}: commands={self.tally.commands} acknowledged="
                f"{self.tally.acknowledged} refusals_while_away={len(self.refused)} ({'+'.join(langs)}) "
                f"of_which_outcome_unknown={self.unknown} kept_of_refused={self.kept} acknowledged_after="
                f"{self.after} readyz_away={self.readyz_away} healthz_away={self.healthz_away}; no process restarted")


async def play(driver, player: Player, run: Outage, back: asyncio.Event, rng: random.Random,
               progressed: asyncio.Event) -> None:
    game = player.game
    while game.pos < player.limit:
        if player.pending is not None:
            await back.wait()  # the server is back and this player's game was settled
            continue
        action = game.script[game.pos]
        reply = await send(driver, game, action, by_button=rng.random() < 0.4)
        run.tally.count(reply, 0.0)
        if acknowledged(reply):
            game.log.append(action)
            game.reply = reply
            if run.away:
                run.acknowledged_while_stopping += 1
            elif run.outages:  # the server has come back at least once
                run.after += 1
        else:
            assert run.away, f"{game.channel.name} {action.to_json()} refused while the server was up: {reply.text}"
            if reply.text == UNKNOWN[player.lang]:
                run.unknown += 1
            else:
                assert reply.text == AWAY[player.lang], f"not the words for a database away: {reply.text!r}"
            run.refused.append((player.process, player.lang))
            player.refusals += 1
            player.pending = action
        progressed.set()


async def wait_for(condition, progressed: asyncio.Event, tasks: list[asyncio.Task]) -> None:
    """Until `condition()` holds, woken by each answer a player gets; a failed player fails the test."""
    while not condition():
        failed = [t for t in tasks if t.done() and t.exception() is not None]
        if failed:
            raise failed[0].exception()
        if all(t.done() for t in tasks):
            raise AssertionError("every player finished before the condition held")
        progressed.clear()
        await progressed.wait()


async def settle(driver, player: Player) -> bool:
    """The server is back: the stored log is the acknowledged one, or it plus the refused action (once), and
    the game answers again. True when the refused action was stored."""
    kept = await settled_log(driver, player)
    assert acknowledged(player.game.reply), player.game.reply.text
    return kept


async def outage(driver, pg_server, mode: str, procs: dict, players: list[Player], run: Outage,
                 back: asyncio.Event, progressed: asyncio.Event, tasks: list[asyncio.Task]) -> None:
    """Stop the server (``mode``) while the players play; every player still playing is refused; start it
    again; the same processes are ready again; each refused action is settled; play resumes."""
    back.clear()
    run.away = True
    await asyncio.to_thread(pg_server.stop, mode)
    # Every player still playing is refused (counted answers, not a time).
    await wait_for(lambda: all(p.pending is not None or p.game.pos >= p.limit for p in players), progressed, tasks)
    for name, proc in procs.items():
        run.readyz_away.setdefault(name, set()).add((await proc.get("/readyz"))[0])
        run.healthz_away.setdefault(name, set()).add((await proc.get("/healthz"))[0])
    # A second try while it is still away: refused again, with the same words.
    for p in [p for p in players if p.pending is not None]:
        reply = await send(driver, p.game, p.pending, by_button=False)
        assert not acknowledged(reply) and reply.text == AWAY[p.lang], reply.text
        run.refused.append((p.process, p.lang))
    # Back: the same processes, never restarted.
    await asyncio.to_thread(pg_server.start)
    for proc in procs.values():
        await proc.until_ready()
    for p in players:
        if p.pending is not None:
            run.kept += await settle(driver, p)
    run.outages.append(mode)
    run.away = False
    back.set()


async def restart_under_load(tmp_path: Path, pg_server, dsn: str, modes: list[str], *,
                             per_shard: int, actions: int, seed: int) -> Outage:
    rng = random.Random(seed)
    world, places = sharded_world(per_shard)
    run = Outage()
    try:
        async with StandIn(world) as standin, bot_processes(standin, dsn, tmp_path, logs=True) as procs:
            for proc in procs.values():
                await proc.start()
            await standin.wait_shards(range(SHARDS))
            driver = driver_for(standin, timeout=60.0)
            players: list[Player] = []
            for shard, shard_places in sorted(places.items()):
                for k, (channel, user) in enumerate(shard_places):
                    user.locale = "ja" if k % 2 else "en-US"  # both languages on both processes
                    game = plan(shard * per_shard + k, channel, user)
                    await start(driver, game, run.tally, length=actions, db=dsn)
                    players.append(Player(game, owner(shard), "ja" if k % 2 else "en",
                                          min(actions, len(game.script))))
            assert {(p.process, p.lang) for p in players} == {("A", "en"), ("A", "ja"), ("B", "en"), ("B", "ja")}
            total = sum(p.limit for p in players)
            points = sorted(rng.sample(range(total // 6, total * 2 // 3), len(modes)))
            back = asyncio.Event()
            back.set()
            progressed = asyncio.Event()
            tasks = [asyncio.ensure_future(play(driver, p, run, back, random.Random(rng.random()), progressed))
                     for p in players]
            try:
                for point, mode in zip(points, modes, strict=True):
                    await wait_for(lambda: sum(p.game.pos for p in players) >= point, progressed, tasks)  # noqa: B023
                    await outage(driver, pg_server, mode, procs, players, run, back, progressed, tasks)
                await asyncio.gather(*tasks)
            finally:
                for task in tasks:
                    task.cancel()
                await asyncio.gather(*tasks, return_exceptions=True)
            for p in players:  # every game holds exactly what was acknowledged, and is its replay
                check_record(p.game, await export(driver, p.game))
            for name, proc in procs.items():
                assert proc.starts == 1 and proc.proc.returncode is None, f"{name} was restarted or died"
                assert metric_sum(await proc.metrics(), "solo_bot_commands_total") > 0
    finally:
        if not pg_server.running():
            pg_server.start()
    return run


@pytest.mark.parametrize("mode", ["fast", "immediate"])
async def test_postgresql_restart_under_load_refuses_then_recovers_without_a_bot_restart(
        tmp_path, pg_server, pg_dsn, mode, figures):
    run = await restart_under_load(tmp_path, pg_server, pg_dsn, [mode], per_shard=2, actions=30, seed=131)
    figures(run.summary())
    assert run.outages == [mode]
    assert {process for process, _ in run.refused} == {"A", "B"}, run.refused  # both processes said it
    assert {lang for _, lang in run.refused} == {"en", "ja"}, run.refused  # in both languages
    assert run.readyz_away == {"A": {503}, "B": {503}}, run.readyz_away
    assert run.healthz_away == {"A": {200}, "B": {200}}, run.healthz_away
    assert run.after >= 1  # commands applied again after the server came back
    assert run.tally.acknowledged >= 8 * 2


@pytest.mark.soak
async def test_soak_postgresql_restarts_again_and_again_under_load(tmp_path, pg_server, pg_dsn, figures):
    modes = ["fast", "immediate"] * 3
    run = await restart_under_load(tmp_path, pg_server, pg_dsn, modes, per_shard=3, actions=120, seed=132)
    figures(run.summary())
    assert run.outages == modes
    assert run.readyz_away == {"A": {503}, "B": {503}}, run.readyz_away
