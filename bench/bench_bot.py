"""The bot end to end: commands per second and latency through the stand-in, resume, bytes, memory, startup.

Run: ``.venv/bin/python -m bench.bench_bot`` (``--quick`` for small counts). Prints the machine, then one
table per figure, each a median of several runs with a baseline measured in the same run:

- commands/s and p50/p99 latency (dispatch to answered: the moment the stand-in took the answer, Driver
  ``settle=False``) at 1, 10 and 200 channels playing at once, each channel a player who sends the next command
  as soon as the last one is answered (a closed loop), for real games' commands (``/seasons die``/``reveal``…
  and ``/volfyrion play``/``end``…, a new game started when one ends) beside EchoBot's ``/echo noop`` in the
  same channels: the floor that the stand-in, the gateway and discord.py cost without any engine or store;
  and, up to 10 channels, the bot on a store that never fsyncs, to show what durability costs. The bot is
  measured once it has finished starting (its static picture layers drawn), with the garbage collector set
  as ``python -m bot`` sets it (bot/collector.py); issue 12's 1-channel target is read on the commands
  answered without a picture;
- resume: the first command's work after a restart (``GameService.require`` + ``record``, cache cold) for
  Seasons games of 50, 500 and 5,000 actions, against the same database without snapshots (a full
  replay) and a cache hit; bytes per action after VACUUM;
- memory per active game: cached ``GameRecord``s of games played to their last move, tracemalloc and RSS;
- startup to ready with 10,000 finished games in the database against an empty database.

The stand-in, the discord.py client and the bot share one process and one event loop, as in the tests:
the floor is the cost of that loop, and the ratio is what the engine, the store and rendering add to it.
"""

from __future__ import annotations

import argparse
import asyncio
import contextlib
import gc
import logging
import os
import shutil
import sqlite3
import statistics
import subprocess
import sys
import tempfile
import time
import tracemalloc
from collections import defaultdict
from collections.abc import Callable, Iterator
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from bench.common import percentile, print_machine, print_table
from bench.echo import EchoBot
from bench.floor import DurableNoop
from bot import collector
from bot.app import create_bot
from bot.config import Config
from bot.games import rules_for
from bot.sessions import SNAPSHOT_EVERY, GameService
from bot.standin.driver import Driver, NoReply
from bot.standin.world import Channel, User
from bot.store import SqliteStore
from engine.core import Action
from engine.seasons.autoplay import play_game as seasons_game
from engine.volfyirion.autoplay import play_game as volfyirion_game
from tests.support.pictures import all_prepared
from tests.support.seasons_typed import seasons_command
from tests.support.standin import StandIn, World
from tests.support.typed import Command
from tests.support.volfyirion_typed import volfyirion_command

SEED = 7  # every game the bot starts gets this seed, so one recorded game's commands fit every game
SEASONS_OPTIONS = {"difficulty": "wizard", "dice": "table"}
VOLFYIRION_OPTIONS = {"difficulty": "hard"}
GUILD_ID, OWNER_ID = 1, 1001
CLONE_CHANNELS = 10**15  # channel ids of cloned games, far from any real one


@dataclass(frozen=True)
class Scale:
    runs: int
    levels: dict[int, int]  # channels playing at once -> commands each channel sends per run
    resume_sizes: tuple[int, ...]
    resume_runs: int
    cached_games: int
    startup_games: int
    startup_runs: int


FULL = Scale(runs=3, levels={1: 150, 10: 30, 200: 4}, resume_sizes=(50, 500, 5000), resume_runs=7,
             cached_games=1000, startup_games=10_000, startup_runs=3)
QUICK = Scale(runs=1, levels={1: 6, 10: 1}, resume_sizes=(50, 500), resume_runs=1, cached_games=20,
              startup_games=100, startup_runs=1)


# -- commands a player types ---------------------------------------------------------------------------------
def seasons_stream() -> list[Command]:
    """A whole Seasons game as typed: start, every action, the final score."""
    actions, _ = seasons_game(SEASONS_OPTIONS["difficulty"], SEASONS_OPTIONS["dice"], SEED)
    return [("seasons start", dict(SEASONS_OPTIONS))] + [seasons_command(a) for a in actions]


def volfyirion_stream() -> list[Command]:
    game = volfyirion_game(SEED, max_actions=400, options=VOLFYIRION_OPTIONS)
    if not game.state.finished:
        raise RuntimeError("the recorded Volfyirion game did not finish: pick another seed")
    return [("volfyrion start", dict(VOLFYIRION_OPTIONS))] + [volfyirion_command(a) for a in game.actions]


@dataclass
class Table:
    """One channel and its player, and where that player is in their stream of games."""

    channel: Channel
    user: User
    stream: list[Command]
    position: int = 0

    def next_command(self) -> Command:
        command = self.stream[self.position % len(self.stream)]
        self.position += 1
        return command


def crowded_world(channels: int) -> World:
    world = World.default()
    guild = world.guilds[0]
    for i in range(channels):
        guild.add_channel(f"bench-{i}")
        world.add_user(f"bench-player-{i}")
    return world


# -- commands per second and latency -------------------------------------------------------------------------
NOFSYNC_UP_TO = 10  # the bot without fsync is measured up to this many channels
DRAIN = 3.0  # seconds after a run with failures: the driver stops waiting, the bot may still be working


# The databases the load is measured on, one after the other in one run (``python -m bench --db TARGET``,
# repeatable): "sqlite" (a fresh file in the bench's temporary folder), a SQLite file's path (a scratch file:
# the bench writes games into it), "postgres" (a PostgreSQL server the bench starts in a temporary folder with
# the distribution's durability, fsync and synchronous_commit on; skipped, in one line, without the server
# binaries), or a postgresql:// DSN (a fresh, empty database: the PostgreSQL store).
POSTGRES = "postgres"
TARGETS: tuple[str, ...] = ("sqlite", POSTGRES)


def is_postgres(target: str) -> bool:
    return target.startswith(("postgresql://", "postgres://"))


def target_label(target: str) -> str:
    if is_postgres(target):
        return "postgresql"
    return "sqlite" if target == "sqlite" else f"sqlite {target}"


def store_for(target: str, db_path: Path, **options: Any) -> Any:
    """The store the bot uses for ``target`` (``db_path`` is the SQLite file for the "sqlite" target)."""
    if is_postgres(target):
        try:
            from bot.store.postgres import PostgresStore  # the PostgreSQL store (asyncpg)
        except ImportError as exc:
            raise SystemExit(f"{target_label(target)}: this build has no PostgreSQL store ({exc})") from exc
        return PostgresStore(target)
    return SqliteStore(db_path, **options)


def client_for(who: str, db_path: Path, target: str = "sqlite") -> Any:
    """EchoBot (the floor), the durable no-op (the floor of a bot that answers once its command is on disk, in a
    file beside ``db_path``), the bot as shipped, or the bot on a store that never fsyncs."""
    if who == "noop":
        return EchoBot()
    if who == "durable":
        return DurableNoop(durable_path(db_path))
    bot = create_bot(Config(db_path=db_path), seed=lambda: SEED)
    if who == "nofsync":
        bot.store = bot.service.store = SqliteStore(db_path, synchronous="OFF")
    elif is_postgres(target):
        bot.store = bot.service.store = store_for(target, db_path)
    return bot


def durable_path(db_path: Path) -> Path:
    return db_path.with_name(db_path.name + ".durable-noop")


def plays(who: str, level: int, scale: Scale) -> bool:
    """Whether ``who`` is measured at ``level`` channels: the no-op and the bot at every level, the bot without
    fsync up to NOFSYNC_UP_TO, the durable no-op at one channel (the target it is the floor of)."""
    if who == "nofsync":
        return level <= NOFSYNC_UP_TO
    return who != "durable" or level == min(scale.levels)


@contextlib.contextmanager
def collected_logs() -> Iterator[list[logging.LogRecord]]:
    """The bot's and discord.py's log records, kept instead of printed (late answers log tracebacks)."""
    records: list[logging.LogRecord] = []

    class Keep(logging.Handler):
        def emit(self, record: logging.LogRecord) -> None:
            records.append(record)

    handler = Keep(logging.WARNING)
    # asyncio's: a command still running when a client closes ends in "Task exception was never retrieved".
    loggers = [logging.getLogger(name) for name in ("bot", "discord", "asyncio")]
    saved = [lg.propagate for lg in loggers]
    for lg in loggers:
        lg.addHandler(handler)
        lg.propagate = False
    try:
        yield records
    finally:
        for lg, propagate in zip(loggers, saved, strict=True):
            lg.removeHandler(handler)
            lg.propagate = propagate


@dataclass
class Load:
    """One closed-loop run: every latency in seconds, the wall time, what went wrong."""

    latencies: list[float] = field(default_factory=list)
    by_command: dict[str, list[float]] = field(default_factory=lambda: defaultdict(list))
    elapsed: float = 0.0
    failures: int = 0
    groups: tuple[int, int] = (0, 0)  # the SQLite store's group commits in the run, and the writes they held
    replies: list[Any] = field(default_factory=list)  # each command's Reply (None: no answer), until pictured
    pictured: list[bool] = field(default_factory=list)  # whether each command's reply got a picture

    @property
    def rate(self) -> float:
        return len(self.latencies) / self.elapsed if self.elapsed else float("nan")

    def pictures_known(self) -> None:
        """Once the run's pictures are out: which replies got one; the replies themselves are let go (the
        driver's record of each, which the collector would walk for the rest of the bench)."""
        self.pictured = [reply is not None and any(a.files for a in reply.activities) for reply in self.replies]
        self.replies = []

    def without_picture(self) -> list[float]:
        """The latencies of the commands whose reply got no picture."""
        return [latency for latency, pictured in zip(self.latencies, self.pictured, strict=True) if not pictured]


async def closed_loop(driver: Driver, tables: list[Table], per_channel: int,
                      pick: Callable[[Table], Command]) -> Load:
    """Each table sends ``per_channel`` commands, the next one as soon as the last is answered."""
    load = Load()

    async def player(table: Table) -> None:
        for _ in range(per_channel):
            name, options = pick(table)
            start = time.perf_counter()
            try:
                reply = await driver.slash(name, options, channel=table.channel, user=table.user, settle=False)
                # Refused by the stand-in (a rule broken), or turned down by the bot: the stream is off.
                failed = bool(reply.rejections or reply.ephemeral)
                # Answered when the stand-in took the answer (what the player sees), not when this coroutine
                # next runs: that waits for whatever else the event loop has queued by then.
                answered = reply.answered_at or time.perf_counter()
            except NoReply:  # nothing by Discord's deadline: the user saw "This interaction failed"
                failed, reply = True, None
                answered = time.perf_counter()
            latency = answered - start
            load.latencies.append(latency)
            load.replies.append(reply)
            load.by_command[name].append(latency)
            load.failures += failed

    start = time.perf_counter()
    await asyncio.gather(*(player(t) for t in tables))
    load.elapsed = time.perf_counter() - start
    return load


async def pictures_out(client: Any, *, prepared: bool = False) -> None:
    """Until the bot's pictures submitted so far are delivered (or given up), and with ``prepared`` its static
    picture layers drawn (what a bot does in its first moments); nothing for EchoBot."""
    pictures = getattr(getattr(client, "controller", None), "pictures", None)
    if pictures is not None:
        await pictures.idle()
        if prepared:
            await all_prepared()


def group_commits(client: Any) -> tuple[int, int]:
    """(group commits, writes they held) of the client's SQLite store so far; (0, 0) for any other."""
    commits = getattr(getattr(client, "store", None), "commits", None)
    return commits() if callable(commits) else (0, 0)


async def commit_loop(store: Any, channels: int, per_channel: int) -> Load:
    """The store's floor: ``channels`` writers at once, each committing ``per_channel`` bare transactions (one
    small upsert, ``put_setting``) one after the other."""
    load = Load()

    async def writer(i: int) -> None:
        for j in range(per_channel):
            start = time.perf_counter()
            try:
                await store.put_setting(f"bench-floor-{i}", str(j))
            except Exception:
                load.failures += 1
            load.latencies.append(time.perf_counter() - start)

    start = time.perf_counter()
    await asyncio.gather(*(writer(i) for i in range(channels)))
    load.elapsed = time.perf_counter() - start
    return load


async def _load_runs(standin: StandIn, scale: Scale, tables: list[Table], db_path: Path,
                     results: dict[tuple[str, int], list[Load]],
                     warmups: dict[tuple[str, int], list[Load]], target: str = "sqlite") -> tuple[tuple[int, int], int]:
    noop: Command = ("echo noop", {})
    for _ in range(scale.runs):
        # The floors and the bot take turns in every run, so a drift of the machine hits them alike;
        # "nofsync" is the bot on a store without fsync, at the lower levels: what durability costs.
        for who in ("noop", "durable", "bot", "nofsync") if not is_postgres(target) else ("noop", "bot"):
            levels = {n: c for n, c in scale.levels.items() if plays(who, n, scale)}
            client = client_for(who, db_path, target)
            async with standin.connect(client) as driver:
                pick = (lambda _t: noop) if who in ("noop", "durable") else Table.next_command
                for level, per_channel in levels.items():
                    # Warm up (caches, first renders): one command per channel, all at once.
                    warmup = await closed_loop(driver, tables[:level], 1, pick)
                    warmups[who, level].append(warmup)
                    await pictures_out(client, prepared=True)  # a bot that has finished starting
                    warmup.pictures_known()
                    # As ``python -m bot`` once ready (bot/collector.py). This also freezes what the stand-in
                    # and the driver keep of every earlier interaction: Discord's side, never in a bot's
                    # process, which the collector would otherwise walk at every full collection.
                    collector.settle()
                    before = group_commits(client)
                    load = await closed_loop(driver, tables[:level], per_channel, pick)
                    load.groups = tuple(b - a for a, b in zip(before, group_commits(client), strict=True))
                    results[who, level].append(load)
                    await pictures_out(client)  # before the next level, and before replies are asked about them
                    load.pictures_known()
                    if load.failures:
                        await asyncio.sleep(DRAIN)  # a late command may still be at work: let it finish
        # The bare commit, on the same database, at the same levels: the store's own floor.
        store = store_for(target, db_path)
        await store.open()
        try:
            for level, per_channel in scale.levels.items():
                results["commit", level].append(await commit_loop(store, level, per_channel))
        finally:
            await store.close()
    durable_path(db_path).unlink(missing_ok=True)
    late = sum(1 for v in standin.violations if v.kind in ("late_response", "expired_token"))
    return (len(standin.violations), len(standin.unknown_routes)), late


async def bench_load(scale: Scale, workdir: Path, target: str = "sqlite") -> list[list[Any]]:
    """The load on one database; returns its rows for the side-by-side table (bench_databases)."""
    most = max(scale.levels)
    world = crowded_world(most)
    guild = world.guilds[0]
    channels = [c for c in guild.channels if c.name.startswith("bench-")]
    users = [u for u in world.users if u.name.startswith("bench-player-")]
    # Every channel plays a Seasons game, then a Volfyirion game, and so on (half the channels the other way
    # round), so even one channel sees the whole mix.
    seasons, volfyirion = seasons_stream(), volfyirion_stream()
    streams = (seasons + volfyirion, volfyirion + seasons)
    tables = [Table(channels[i], users[i], streams[i % 2]) for i in range(most)]
    results: dict[tuple[str, int], list[Load]] = defaultdict(list)
    warmups: dict[tuple[str, int], list[Load]] = defaultdict(list)
    label = target_label(target)
    db_path = Path(target) if target != "sqlite" and not is_postgres(target) else workdir / "load.sqlite3"

    with collected_logs() as logged:
        async with StandIn(world) as standin:
            problems, late = await _load_runs(standin, scale, tables, db_path, results, warmups, target)

    rows, latency_rows = [], []
    for level in scale.levels:
        floor, bot = results["noop", level], results["bot", level]
        f_rate, b_rate = _median(r.rate for r in floor), _median(r.rate for r in bot)
        rows.append([level, len(bot[0].latencies), f_rate, b_rate, b_rate / f_rate,
                     sum(r.failures for r in floor), sum(r.failures for r in bot)])
        f50, b50 = (_median(percentile(r.latencies, 50) * 1e3 for r in rs) for rs in (floor, bot))
        f99, b99 = (_median(percentile(r.latencies, 99) * 1e3 for r in rs) for rs in (floor, bot))
        latency_rows.append([level, f50, b50, b50 / f50, f99, b99, b99 / f99])
    errors = [r for r in logged if r.levelno >= logging.ERROR]
    warm_failed = sum(w.failures for (who, _), loads in warmups.items() if who == "bot" for w in loads)
    notes = [f"medians of {scale.runs} run(s); each channel is one player who sends the next command as soon "
             "as the last is answered (no thinking time): at N channels N commands are always waiting",
             "failed (all runs): commands refused, or with no answer by Discord's 3 s deadline; in the "
             f"warm-up bursts (one command per channel at once) the bot failed {warm_failed} "
             f"({_warm_detail(warmups)}); the stand-in refused {late} late answers in all "
             f"({problems[0]} violations), the bot logged {len(errors)} errors; unknown routes {problems[1]}",
             "when the bot cannot keep up, latency ≈ channels / throughput (Little's law) and commands start "
             "missing the 3 s deadline: the bot/no-op ratio at the top level is then a ratio of capacities"]
    print_table(f"Commands per second through the stand-in (bot vs no-op /echo noop, same run) [{label}]",
                ["channels", "commands/run", "no-op cmd/s", "bot cmd/s", "bot/no-op", "no-op failed",
                 "bot failed"], rows, notes)
    print_table(f"Latency, dispatch to answered (ms) [{label}]",
                ["channels", "no-op p50", "bot p50", "ratio", "no-op p99", "bot p99", "ratio"], latency_rows,
                ["a command with no answer by the deadline counts with the time the driver gave up on it "
                 "(the deadline + 0.25 s)"])
    side = []
    for level in scale.levels:
        floor, bot, commit = results["noop", level], results["bot", level], results["commit", level]
        side.append([label, level, _median(r.rate for r in bot), _median(r.rate for r in floor),
                     _median(r.rate for r in commit),
                     *(_median(percentile(r.latencies, p) * 1e3 for r in rs) for rs in (bot, commit) for p in (50, 99)),
                     sum(r.failures for r in bot) + sum(r.failures for r in commit)])
    print_table(f"The bare commit on the database (the store's floor) [{label}]",
                ["database", "writers", "bot cmd/s", "no-op cmd/s", "commits/s", "bot p50 ms", "bot p99 ms",
                 "commit p50 ms", "commit p99 ms", "failed"], side,
                ["a bare commit: one small upsert in its own transaction (Store.put_setting), each writer "
                 "committing the next as soon as the last one is done, as many writers as channels"])
    print_targets(label, scale, results)
    if is_postgres(target):
        return side
    fsync_rows = []
    for level in [n for n in scale.levels if n <= NOFSYNC_UP_TO]:
        bot, nofsync = results["bot", level], results["nofsync", level]
        b_rate, n_rate = _median(r.rate for r in bot), _median(r.rate for r in nofsync)
        b50, n50 = (_median(percentile(r.latencies, 50) * 1e3 for r in rs) for rs in (bot, nofsync))
        fsync_rows.append([level, b_rate, n_rate, n_rate / b_rate, b50, n50])
    print_table("What durability costs: the bot with synchronous=FULL (as shipped) and OFF (no fsync)",
                ["channels", "FULL cmd/s", "OFF cmd/s", "OFF/FULL", "FULL p50 ms", "OFF p50 ms"], fsync_rows,
                [f"database on {filesystem(db_path)}; FULL fsyncs the WAL at every commit, one per command"])

    # Where the time goes at one channel: the commands of the mix, pooled over the runs.
    one = min(scale.levels)
    pooled: dict[str, list[float]] = defaultdict(list)
    for load in results["bot", one]:
        for name, values in load.by_command.items():
            pooled[name].extend(values)
    mix = sorted(pooled.items(), key=lambda kv: -len(kv[1]))
    print_table(f"The bot's command mix at {one} channel (pooled over runs)",
                ["command", "count", "p50 ms", "max ms"],
                [[f"/{name}", len(v), statistics.median(v) * 1e3, max(v) * 1e3] for name, v in mix],
                ["commands that show a picture (a new game, a new month or season, the final score) answer "
                 "first: the picture follows by an edit from one picture worker, its CPU still shared"])
    return side


def print_targets(label: str, scale: Scale, results: dict[tuple[str, int], list[Load]]) -> None:
    """Issue 12's targets for commands, each beside its figure and its floor, all from this run."""
    one, most = min(scale.levels), max(scale.levels)
    rate = {(who, n): _median(r.rate for r in results[who, n]) for who in ("noop", "bot") for n in (one, most)}
    p50 = {(who, n): _median(percentile(r.latencies, 50) * 1e3 for r in results[who, n])
           for who in ("noop", "bot") for n in (one, most)}
    plain_ones = [percentile(r.without_picture(), 50) * 1e3 for r in results["bot", one]]
    p99s_most = [percentile(r.latencies, 99) * 1e3 for r in results["bot", most]]
    plain_one, p99_most = _median(plain_ones), _median(p99s_most)
    ratios = [b.rate / n.rate for b, n in zip(results["bot", most], results["noop", most], strict=True)]
    failed_most = sum(r.failures for r in results["bot", most])
    rows = [
        [f"{most} channels: bot/no-op throughput", "≥ 0.50",
         f"{rate['bot', most] / rate['noop', most]:.2f}{_spread(ratios, '{:.2f}')}",
         f"no-op {rate['noop', most]:,.0f} cmd/s", _met(rate["bot", most] >= 0.5 * rate["noop", most])],
        [f"{most} channels: bot p99", "< 500 ms", f"{p99_most:,.0f} ms{_spread(p99s_most, '{:,.0f}')}", "",
         _met(p99_most < 500)],
        [f"{most} channels: commands failed or late", "0", str(failed_most), "", _met(failed_most == 0)],
        [f"{one} channel: bot p50, commands without a picture", "≤ no-op p50 + 1 ms",
         f"{plain_one:.2f} ms{_spread(plain_ones, '{:.2f}')}",
         f"no-op p50 {p50['noop', one]:.2f} ms", _met(plain_one <= p50["noop", one] + 1)],
        [f"{one} channel: bot p50, every command", "(for reference)", f"{p50['bot', one]:.2f} ms",
         f"no-op p50 {p50['noop', one]:.2f} ms", ""],
    ]
    if results["durable", one]:
        # The floor under the 1-channel target: where it lies above the no-op's p50 + 1 ms, no bot that answers
        # only once its command is on disk can meet the target on this machine.
        durables = [percentile(r.latencies, 50) * 1e3 for r in results["durable", one]]
        durable = _median(durables)
        rows.append([f"{one} channel: durable no-op p50 (its floor)", "(for reference)",
                     f"{durable:.2f} ms{_spread(durables, '{:.2f}')}", f"no-op p50 {p50['noop', one]:.2f} ms",
                     "above the target" if durable > p50["noop", one] + 1 else "within the target"])
        rows.append([f"{one} channel: the bot's own work, over that floor", "(for reference)",
                     f"{plain_one - durable:+.2f} ms", f"durable no-op p50 {durable:.2f} ms", ""])
    groups = {n: gs for n in scale.levels if (gs := [r.groups for r in results["bot", n] if r.groups[0]])}
    notes = ["medians of the runs (each run's own figure, the bot beside the no-op played just before it), "
             "in parentheses the lowest and highest run: the target is judged on the median",
             "the reply is what is timed: a picture follows its reply by an edit, off the command's path"]
    if results["durable", one]:
        notes.append("the durable no-op (bench/floor.py): the no-op that first commits one row as the store "
                     "does (WAL, synchronous=FULL: one fsync) on the event loop, then answers with a reply of "
                     "the bot's shape (an embed, six buttons) as the bot sends it; no game, no store threads: the "
                     "least a bot does that answers only once its command is on disk")
    if groups:
        per_level = ", ".join(f"{n} channels {sum(g[1] for g in gs) / sum(g[0] for g in gs):.1f}"
                              for n, gs in groups.items())
        notes.append(f"group commit: writes per COMMIT (one fsync each) — {per_level}")
    print_table(f"Issue 12's command targets [{label}]", ["target", "wanted", "measured", "floor", "met"], rows,
                notes)


def _spread(values: list[float], form: str) -> str:
    """" (lowest–highest)" of several runs' figures; nothing for one run."""
    return f" ({form.format(min(values))}–{form.format(max(values))})" if len(values) > 1 else ""


def _met(ok: bool) -> str:
    return "yes" if ok else "NO"


def resolve_targets(targets: tuple[str, ...], stack: contextlib.ExitStack) -> tuple[list[str], list[str]]:
    """``targets`` with the "postgres" keyword replaced by a fresh database on a temporary server (started
    once, removed when ``stack`` closes), or left out when the server binaries are missing; and the notes that
    say which."""
    from bench.pgserver import MISSING, temporary_server

    resolved, notes, server = [], [], None
    for target in targets:
        if target != POSTGRES:
            resolved.append(target)
            continue
        if server is None:
            server = stack.enter_context(temporary_server(durable=True)) or False
            if server is False:
                print(f"PostgreSQL: {MISSING}; measuring SQLite only", flush=True)
                notes.append(f"PostgreSQL not measured: {MISSING}")
            else:
                notes.append("postgresql: a temporary server started by the bench, with the distribution's "
                             "durability (fsync on, synchronous_commit on), on the same machine, its data on "
                             f"{filesystem(server.root)}")
        if server:
            resolved.append(server.dsn(server.create_database()))
    return resolved, notes


async def bench_databases(scale: Scale, workdir: Path) -> None:
    """The load on every database of ``TARGETS`` in one run, then side by side with their floors."""
    rows = []
    with contextlib.ExitStack() as stack:
        targets, notes = resolve_targets(TARGETS, stack)
        for target in targets:
            rows += await bench_load(scale, workdir, target)
    print_table("Databases side by side: the bot, the no-op command and the bare commit",
                ["database", "channels", "bot cmd/s", "no-op cmd/s", "commits/s", "bot p50 ms", "bot p99 ms",
                 "commit p50 ms", "commit p99 ms", "failed"], sorted(rows, key=lambda r: (r[1], r[0])),
                [f"databases in this run: {', '.join(target_label(t) for t in targets)}; each measured in turn "
                 "on the same machine, its floors (no-op command, bare commit) beside it", *notes])


def _warm_detail(warmups: dict[tuple[str, int], list[Load]]) -> str:
    return ", ".join(f"{level} channels: {sum(w.failures for w in loads)}"
                     for (who, level), loads in sorted(warmups.items()) if who == "bot")


# -- filling databases ---------------------------------------------------------------------------------------
async def play_into(store: SqliteStore, channel_id: int, kind: str, actions: list[Action]) -> int:
    """Play a game through GameService, exactly as the bot saves it (snapshots, summaries, results)."""
    service = GameService(store, rules=rules_for, seed=lambda: SEED)
    options = SEASONS_OPTIONS if kind == "seasons" else VOLFYIRION_OPTIONS
    started = await service.start(kind=kind, options=dict(options), guild_id=GUILD_ID, channel_id=channel_id,
                                  parent_channel_id=None, owner_id=OWNER_ID)
    for action in actions:
        await service.play(channel_id, OWNER_ID, action)
    return started.row.id


def clone_games(path: Path, total: int) -> int:
    """Copy the file's games (ids 1..T, with their actions, snapshots and results) until it holds about
    ``total`` games. One SQL statement per table: far faster than ``total`` games of commits, and the rows
    are the ones the store itself wrote."""
    db = sqlite3.connect(path, isolation_level=None)
    try:
        count = db.execute("SELECT count(*), max(id) FROM games").fetchone()
        if count[0] != count[1]:
            raise RuntimeError("clone_games expects games numbered 1..T")
        templates = count[0]
        copies = max(0, -(-total // templates) - 1)
        numbers = "WITH RECURSIVE k(n) AS (SELECT 1 UNION ALL SELECT n + 1 FROM k WHERE n < :copies)"
        db.execute("BEGIN")
        db.execute(
            f"{numbers} INSERT INTO games (id, guild_id, channel_id, parent_channel_id, owner_id, kind,"
            " options, seed, status, ply, created_at, updated_at)"
            " SELECT g.id + k.n * :t, g.guild_id, :base + g.id + k.n * :t, g.parent_channel_id, g.owner_id,"
            " g.kind, g.options, g.seed, g.status, g.ply, g.created_at, g.updated_at"
            " FROM k, games g",
            {"copies": copies, "t": templates, "base": CLONE_CHANNELS})
        db.execute(
            f"{numbers} INSERT INTO actions (game_id, ply, action, user_id, created_at, undone, undone_at,"
            " undone_by) SELECT a.game_id + k.n * :t, a.ply, a.action, a.user_id, a.created_at, a.undone,"
            " a.undone_at, a.undone_by FROM k, actions a WHERE a.game_id <= :t ORDER BY k.n, a.seq",
            {"copies": copies, "t": templates})
        db.execute(
            f"{numbers} INSERT INTO snapshots (game_id, ply, state, created_at)"
            " SELECT s.game_id + k.n * :t, s.ply, s.state, s.created_at FROM k, snapshots s"
            " WHERE s.game_id <= :t",
            {"copies": copies, "t": templates})
        db.execute(
            f"{numbers} INSERT INTO results (game_id, guild_id, user_id, kind, outcome, difficulty,"
            " player_score, opponent_score, length, result, finished_at, ended_by)"
            " SELECT r.game_id + k.n * :t, r.guild_id, r.user_id, r.kind, r.outcome, r.difficulty,"
            " r.player_score, r.opponent_score, r.length, r.result, r.finished_at, r.ended_by"
            " FROM k, results r WHERE r.game_id <= :t",
            {"copies": copies, "t": templates})
        db.execute("COMMIT")
        return db.execute("SELECT count(*) FROM games").fetchone()[0]
    finally:
        db.close()


def compact(path: Path) -> None:
    """Checkpoint the WAL into the file and VACUUM, so the file size is the data's size."""
    db = sqlite3.connect(path, isolation_level=None)
    try:
        db.execute("PRAGMA wal_checkpoint(TRUNCATE)")
        db.execute("VACUUM")
        db.execute("PRAGMA wal_checkpoint(TRUNCATE)")
    finally:
        db.close()


def table_bytes(path: Path) -> dict[str, int]:
    """Bytes of pages each table and index holds (SQLite's dbstat), and the file's size."""
    with contextlib.closing(sqlite3.connect(path)) as db:
        page_count = db.execute("PRAGMA page_count").fetchone()[0]
        page_size = db.execute("PRAGMA page_size").fetchone()[0]
        try:
            sizes = dict(db.execute("SELECT name, sum(pgsize) FROM dbstat GROUP BY name").fetchall())
        except sqlite3.OperationalError:  # SQLite built without dbstat: the file size alone
            sizes = {}
    sizes["file"] = page_count * page_size
    return sizes


async def new_store(path: Path, *, fast: bool = False) -> SqliteStore:
    # Filling needs no durability: synchronous=OFF. Measurements use the bot's own setting.
    # The background integrity check is off here: the resume figures time the resume alone (a check running
    # on the other core at the same moment roughly doubled them on a 2-core machine).
    store = SqliteStore(path, synchronous="OFF", background_check=False) if fast else \
        SqliteStore(path, background_check=False)
    await store.open()
    return store


# -- resume and bytes per action -----------------------------------------------------------------------------
def long_seasons_game(n: int) -> list[Action]:
    """A Seasons game of ``n`` actions, still active: a real game's moves (without the final score), padded
    with crystal corrections (+1, −1, …) after the first move, as a long evening of fixes would be."""
    actions, _ = seasons_game(SEASONS_OPTIONS["difficulty"], SEASONS_OPTIONS["dice"], SEED, extras=False)
    body = actions[1:-1]
    padding = [Action("crystals", change=1 if i % 2 == 0 else -1) for i in range(n - 1 - len(body))]
    return ([actions[0]] + padding + body)[:n]


async def first_command(path: Path, channel_id: int) -> tuple[float, float, float, int, int]:
    """(seconds for require + record on a cold cache, seconds for the whole log's read alone, seconds for the
    same on a cache hit, the ply reached, the action rows the resume read), each cold figure on a store opened
    afresh: what the first command after a restart costs before the engine's answer is rendered."""
    store = await new_store(path)
    try:
        row = await store.active_game(channel_id)
        start = time.perf_counter()
        await store.live_actions(row.id)
        log_read = time.perf_counter() - start
    finally:
        await store.close()
    store = await new_store(path)
    try:
        service = GameService(store, rules=rules_for)
        start = time.perf_counter()
        row = await service.require(channel_id, kind="seasons")
        record = await service.record(row)
        cold = time.perf_counter() - start
        start = time.perf_counter()
        row = await service.require(channel_id, kind="seasons")
        await service.record(row)
        warm = time.perf_counter() - start
        return cold, log_read, warm, record.ply, store.action_rows_read
    finally:
        await store.close()


async def bench_resume(scale: Scale, workdir: Path) -> None:
    empty = workdir / "empty.sqlite3"
    await (await new_store(empty)).close()
    compact(empty)
    empty_bytes = table_bytes(empty)
    rows, byte_rows = [], []
    for n in scale.resume_sizes:
        path, bare = workdir / f"resume-{n}.sqlite3", workdir / f"resume-{n}-nosnap.sqlite3"
        store = await new_store(path, fast=True)
        try:
            await play_into(store, channel_id=n, kind="seasons", actions=long_seasons_game(n))
        finally:
            await store.close()
        compact(path)
        sizes = table_bytes(path)
        # The baseline: the same game without its snapshots, so resume replays every action.
        shutil.copyfile(path, bare)
        with contextlib.closing(sqlite3.connect(bare, isolation_level=None)) as db:
            db.execute("DELETE FROM snapshots")
        compact(bare)

        with_snap, without, log_reads, hits = [], [], [], []
        for _ in range(scale.resume_runs):
            cold, log_read, warm, ply, read = await first_command(path, n)
            base, _, _, base_ply, _ = await first_command(bare, n)
            if ply != n or base_ply != n:
                raise RuntimeError(f"resumed at ply {ply}/{base_ply}, expected {n}")
            with_snap.append(cold)
            without.append(base)
            log_reads.append(log_read)
            hits.append(warm)
        snap, full = statistics.median(with_snap), statistics.median(without)
        rows.append([n, snap * 1e3, read, statistics.median(log_reads) * 1e3, full * 1e3, full / snap,
                     statistics.median(hits) * 1e3])
        log_bytes = sum(sizes.get(k, 0) for k in ("actions", "actions_live_ply", "actions_game_seq"))
        byte_rows.append([n, (sizes["file"] - empty_bytes["file"]) / n, log_bytes / n,
                          sizes.get("snapshots", 0) / n, sizes["file"] / 1024])
    print_table("Resume: the first command's load after a restart (Seasons, cache cold, ms)",
                ["actions", "with snapshots", "rows read", "whole log read alone", "no snapshots", "ratio",
                 "cache hit"],
                rows,
                [f"medians of {scale.resume_runs} runs; store freshly opened each run (SQLite cache cold, "
                 "OS page cache warm, no background integrity check)", "GameService.record reads the latest snapshot before the last action "
                 f"and only the actions after it (at most {SNAPSHOT_EVERY} rows), so resume is flat in the game's length; "
                 "baselines: reading the whole log alone, and the same game with its snapshots deleted "
                 "(a full replay); target: under 5 ms at 5,000 actions"])
    print_table("Bytes per action (after VACUUM)",
                ["actions", "file bytes/action", "log bytes/action", "snapshot bytes/action", "file KiB"],
                byte_rows,
                ["file: (file − empty database) / actions; log: the actions table and its two indexes; "
                 f"snapshots: a Seasons state every {SNAPSHOT_EVERY} actions"])


# -- memory per active game ----------------------------------------------------------------------------------
def rss_bytes() -> int:
    with open("/proc/self/statm", encoding="ascii") as statm:
        return int(statm.read().split()[1]) * os.sysconf("SC_PAGE_SIZE")


async def cached_growth(path: Path, total: int, how: str) -> float:
    """Bytes each cached game adds, measured by ``how`` (tracemalloc or RSS), after one warm-up game
    (imports, catalogs, the first connection) so that one-off costs are not counted."""
    store = await new_store(path)
    try:
        service = GameService(store, rules=rules_for)
        rows = [await store.game(game_id) for game_id in range(1, total + 1)]
        await service.record(rows[0])
        gc.collect()
        if how == "tracemalloc":
            tracemalloc.start()
        before = tracemalloc.get_traced_memory()[0] if how == "tracemalloc" else rss_bytes()
        for row in rows[1:]:
            await service.record(row)
        gc.collect()
        after = tracemalloc.get_traced_memory()[0] if how == "tracemalloc" else rss_bytes()
        if how == "tracemalloc":
            tracemalloc.stop()
        if service.cached_games() != total:
            raise RuntimeError(f"{service.cached_games()} games cached, expected {total}")
        return (after - before) / (total - 1)
    finally:
        await store.close()


def rss_in_child(path: Path, total: int) -> float:
    """RSS growth per game in a fresh interpreter: in this one, memory freed by the earlier benches would
    be reused and hide the growth."""
    code = ("import asyncio, sys; from pathlib import Path; from bench.bench_bot import cached_growth; "
            "print(asyncio.run(cached_growth(Path(sys.argv[1]), int(sys.argv[2]), 'RSS')))")
    root = Path(__file__).resolve().parents[1]
    done = subprocess.run([sys.executable, "-c", code, str(path), str(total)], cwd=root, capture_output=True,
                          text=True, check=True, timeout=600)
    return float(done.stdout.split()[-1])


async def bench_memory(scale: Scale, workdir: Path) -> None:
    path = workdir / "memory.sqlite3"
    store = await new_store(path, fast=True)
    try:
        # Games played to their last move, not finished: the largest an ordinary game's record gets.
        seasons_actions, _ = seasons_game(SEASONS_OPTIONS["difficulty"], SEASONS_OPTIONS["dice"], SEED)
        await play_into(store, 1, "seasons", seasons_actions[:-1])
        volf = volfyirion_game(SEED, max_actions=400, options=VOLFYIRION_OPTIONS)
        await play_into(store, 2, "volfyirion", volf.actions[:-1])
    finally:
        await store.close()
    total = clone_games(path, scale.cached_games)
    figures = {"tracemalloc": await cached_growth(path, total, "tracemalloc"),
               "RSS (fresh process)": await asyncio.to_thread(rss_in_child, path, total)}
    print_table(f"Memory per active game ({total:,} cached records, half Seasons, half Volfyirion)",
                ["measure", "KiB per game", f"MiB for {total:,}"],
                [[how, per / 1024, per * total / 2**20] for how, per in figures.items()],
                [f"games at their last move: Seasons {len(seasons_actions) - 1} actions, Volfyirion "
                 f"{len(volf.actions) - 1}; each cached record keeps its actions, its last step and a "
                 f"state every {SNAPSHOT_EVERY} actions", "tracemalloc counts the Python objects allocated; RSS adds the "
                 "allocator's slack and SQLite's page cache filling up as the games are read"])


# -- startup to ready ----------------------------------------------------------------------------------------
async def time_to_ready(standin: StandIn, path: Path) -> tuple[float, float, float]:
    """(seconds from creating the bot to ready on the stand-in, seconds opening the store alone, seconds of
    the full integrity check, which runs in the background after the open)."""
    start = time.perf_counter()
    bot = create_bot(Config(db_path=path))
    async with standin.connect(bot):
        ready = time.perf_counter() - start
    store = SqliteStore(path, background_check=False)
    start = time.perf_counter()
    await store.open()
    opened = time.perf_counter() - start
    start = time.perf_counter()
    problems = await store.check(full=True)
    checked = time.perf_counter() - start
    await store.close()
    if problems:
        raise RuntimeError(f"the bench database is damaged: {problems[:3]}")
    return ready, opened, checked


async def bench_startup(scale: Scale, workdir: Path) -> None:
    empty, full = workdir / "startup-empty.sqlite3", workdir / "startup-full.sqlite3"
    await (await new_store(empty)).close()
    store = await new_store(full, fast=True)
    try:
        seasons_actions, _ = seasons_game(SEASONS_OPTIONS["difficulty"], SEASONS_OPTIONS["dice"], SEED)
        await play_into(store, 1, "seasons", seasons_actions)
        volf = volfyirion_game(SEED, max_actions=400, options=VOLFYIRION_OPTIONS)
        await play_into(store, 2, "volfyirion", volf.actions)
    finally:
        await store.close()
    games = clone_games(full, scale.startup_games)
    compact(full)
    with contextlib.closing(sqlite3.connect(full)) as db:
        actions = db.execute("SELECT count(*) FROM actions").fetchone()[0]
    size = full.stat().st_size
    timings: dict[str, list[tuple[float, float, float]]] = defaultdict(list)
    async with StandIn() as standin:
        for _ in range(scale.startup_runs):
            for label, path in (("empty", empty), ("full", full)):
                timings[label].append(await time_to_ready(standin, path))
    rows = []
    for label, path, count in (("empty", empty, 0), ("full", full, games)):
        ready = statistics.median(t[0] for t in timings[label]) * 1e3
        opened = statistics.median(t[1] for t in timings[label]) * 1e3
        checked = statistics.median(t[2] for t in timings[label]) * 1e3
        rows.append([f"{count:,} finished games", path.stat().st_size / 2**20, ready, opened, checked])
    rows[1].append(rows[1][2] / rows[0][2])
    rows[0].append(1.0)
    print_table("Startup: bot created to ready on the stand-in (ms)",
                ["database", "MiB", "to ready", "store open alone", "full check (background)", "ratio"], rows,
                [f"medians of {scale.startup_runs} run(s); games are copies of one finished Seasons and one "
                 "finished Volfyirion game, with their actions, snapshots and results",
                 "the bot loads no game at startup; opening the store runs PRAGMA quick_check on a file up to "
                 "8 MiB, else reads the header and schema only; the full PRAGMA integrity_check (timed alone "
                 "here) runs after it on its own connection, not before ready; target: ready in under 100 ms with 10,000 finished games",
                 f"real games take {size / games / 1024:.1f} KiB each, {size / actions:.0f} bytes per action "
                 f"({actions:,} actions; game rows, snapshots and results included)"])


# -- helpers -------------------------------------------------------------------------------------------------
def _median(values: Any) -> float:
    return statistics.median(list(values))


def filesystem(path: Path) -> str:
    """The file system type the path lives on (from /proc/mounts), for the fsync note."""
    best, kind = "", "unknown file system"
    with contextlib.suppress(OSError), open("/proc/mounts", encoding="utf-8") as mounts:
        for line in mounts:
            parts = line.split()
            if len(parts) >= 3 and str(path.resolve()).startswith(parts[1]) and len(parts[1]) > len(best):
                best, kind = parts[1], parts[2]
    return kind


PARTS = ("load", "resume", "memory", "startup")


async def run(scale: Scale, parts: tuple[str, ...] = PARTS) -> None:
    threshold = gc.get_threshold()
    collector.tune()  # the collector as ``python -m bot`` sets it
    try:
        with tempfile.TemporaryDirectory(prefix="bench-bot-") as tmp:
            workdir = Path(tmp)
            for part in parts:
                await {"load": bench_databases, "resume": bench_resume, "memory": bench_memory,
                       "startup": bench_startup}[part](scale, workdir)
    finally:
        gc.set_threshold(*threshold)
        gc.unfreeze()


def main(quick: bool = False, parts: tuple[str, ...] = PARTS) -> None:
    scale = QUICK if quick else FULL
    print("Bot end-to-end bench" + (" (quick: small counts, figures indicative only)" if quick else ""))
    print_machine()
    asyncio.run(run(scale, parts))


if __name__ == "__main__":
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--quick", action="store_true", help="small counts: a smoke run, not figures")
    parser.add_argument("--part", action="append", choices=PARTS, help="run only this part (repeatable)")
    parser.add_argument("--db", action="append", metavar="TARGET",
                        help="the load on this database (repeatable, in one run): sqlite, a SQLite file path, "
                             "postgres (a temporary server, the default beside sqlite) or a postgresql:// DSN")
    args = parser.parse_args()
    if args.db:
        TARGETS = tuple(args.db)
    main(args.quick, tuple(args.part or PARTS))
