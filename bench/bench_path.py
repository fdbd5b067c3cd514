"""One command's path at one channel, step by step: the bot beside the no-op, and the no-op with memory stirred.

Run: ``.venv/bin/python -m bench.bench_path`` (``--quick`` for small counts). Issue 12's 1-channel target (a
command without a picture within the no-op's p50 + 1 ms) is read by bench_bot; this bench shows where that
command's time goes. Probes (wrappers on discord.py's, aiohttp's, the stand-in's and the store's functions, put
back afterwards) note when each step begins, in wall time and in the event loop thread's CPU time; a table
gives the median of each step over the commands answered without a picture, in rounds where the bot and the
no-op play in turn. The probes' own cost (a few microseconds each) is included.

The second table is the no-op again, with some memory written and dropped between two of its commands (strings
and a dict, nothing the command touches): the same code then runs slower. The steps the bot and the no-op share
(the stand-in's dispatch, discord.py's parsing, the HTTP request, the stand-in reading it) are slower in the
bot's process by about as much: there the command's own work stands between them.
"""

from __future__ import annotations

import argparse
import asyncio
import gc
import inspect
import statistics
import sys
import tempfile
import time
from collections.abc import Callable
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import aiohttp.web_protocol
import discord.state
import discord.webhook.async_
from discord import app_commands

import bot.pictures
import bot.store.group_commit
from bench import bench_reply
from bench.bench_bot import Table, client_for, crowded_world, pictures_out, seasons_stream, volfyirion_stream
from bench.common import print_machine, print_table
from bot import collector
from bot.standin.driver import Reply
from tests.support.standin import StandIn


@dataclass(frozen=True)
class Scale:
    rounds: int
    commands: int  # each side, each round
    warmup: int


FULL = Scale(rounds=3, commands=600, warmup=40)
QUICK = Scale(rounds=1, commands=20, warmup=8)
STIRS = (0, 2_000, 20_000)  # strings (and a dict of them) made and dropped between two no-op commands

# The steps of a command, in the order it meets them; * those the bot and the no-op both take, through the same
# code (the bot's command has options, its reply an embed and buttons). The bot's write has no counterpart.
START = "the driver makes the command"
DISPATCH = "the stand-in sends the interaction"
PARSE = "discord.py parses it"
COMMAND = "the command runs"
WRITE = "its write is given to the store"
DURABLE = "the command goes on, its write durable"
REPLY = "the reply goes out (discord.py, aiohttp)"
READ = "the stand-in reads it"
ANSWERED = "the stand-in has the answer"
END = "the driver hears back"
STEPS = [START, DISPATCH, PARSE, COMMAND, WRITE, DURABLE, REPLY, READ, ANSWERED, END]
SHARED = {START, DISPATCH, PARSE, REPLY, READ}
PICTURE = "a picture follows"  # the reply has a picture to follow: not one of the target's commands

# (owner, function, the step its call begins, the step its return begins or None).
PROBES: list[tuple[Any, str, str, str | None]] = [
    (StandIn, "dispatch", DISPATCH, None),
    (discord.state.ConnectionState, "parse_interaction_create", PARSE, None),
    (app_commands.CommandTree, "_call", COMMAND, None),
    (bot.store.group_commit.GroupCommit, "transaction", WRITE, DURABLE),
    (discord.webhook.async_.AsyncWebhookAdapter, "request", REPLY, None),
    (aiohttp.web_protocol.RequestHandler, "data_received", READ, None),
    (Reply, "_answer", ANSWERED, None),
    (bot.pictures.PictureQueue, "submit", PICTURE, None),
]
Marks = dict[str, tuple[float, float]]  # step -> when it began: (wall, the loop thread's CPU), seconds
Steps = dict[str, tuple[float, float, float]]  # step -> medians in ms: (began at, lasted, its CPU)


class Probes:
    """``with Probes() as probes:`` — wrappers noting when each step of the command under way first begins,
    put back at the end. Made before any client: discord.py binds its parsers when it starts."""

    def __init__(self) -> None:
        self.marks: Marks = {}
        self._saved = [(owner, name, owner.__dict__[name]) for owner, name, _, _ in PROBES]
        for owner, name, step, end in PROBES:
            setattr(owner, name, self._probe(owner.__dict__[name], step, end))

    def __enter__(self) -> Probes:
        return self

    def __exit__(self, *exc: object) -> None:
        for owner, name, original in self._saved:
            setattr(owner, name, original)

    def mark(self, step: str) -> None:
        if step not in self.marks:
            self.marks[step] = (time.perf_counter(), time.thread_time())

    def _probe(self, original: Callable[..., Any], step: str, end: str | None) -> Callable[..., Any]:
        if inspect.iscoroutinefunction(original):
            async def probe_async(*args: Any, **kwargs: Any) -> Any:
                self.mark(step)
                try:
                    return await original(*args, **kwargs)
                finally:
                    if end is not None:
                        self.mark(end)
            return probe_async

        def probe(*args: Any, **kwargs: Any) -> Any:
            self.mark(step)
            return original(*args, **kwargs)
        return probe


def stir(strings: int) -> int:
    """Make and drop ``strings`` short strings and a dict of them; their size in bytes."""
    junk = [str(i) * 3 for i in range(strings)]
    index = dict.fromkeys(junk)
    return sum(map(sys.getsizeof, junk)) + sys.getsizeof(junk) + sys.getsizeof(index) if strings else 0


async def play(driver: Any, table: Table, pick: Callable[[Table], Any], count: int, probes: Probes | None = None,
               strings: int = 0) -> list[Marks]:
    """``count`` commands one after the other; with ``probes``, the marks of each answered without a picture."""
    kept = []
    for _ in range(count):
        stir(strings)
        name, options = pick(table)
        if probes is not None:
            probes.marks = {}
            probes.mark(START)
        await driver.slash(name, options, channel=table.channel, user=table.user, settle=False)
        if probes is not None:
            probes.mark(END)
            if PICTURE not in probes.marks:
                kept.append(probes.marks)
    return kept


def step_medians(commands: list[Marks]) -> Steps:
    """Each step's medians over the commands that took the same steps as the first: when it began (from the
    command's start), how long until the next step began, and the loop thread's CPU meanwhile."""
    if not commands:
        return {}
    steps = [s for s in STEPS if s in commands[0]]
    complete = [c for c in commands if all(s in c for s in steps)]
    out = {}
    for step, after in zip(steps, [*steps[1:], None], strict=True):
        began = statistics.median((c[step][0] - c[START][0]) * 1e3 for c in complete)
        lasted = cpu = 0.0
        if after is not None:
            lasted = statistics.median((c[after][0] - c[step][0]) * 1e3 for c in complete)
            cpu = statistics.median((c[after][1] - c[step][1]) * 1e3 for c in complete)
        out[step] = (began, lasted, cpu)
    return out


async def measure(scale: Scale, workdir: Path) -> dict[str, list[Steps]]:
    """Rounds of the bot, then the no-op with each amount of memory stirred, in turn; each side's step medians."""
    world = crowded_world(1)
    channel = next(c for c in world.guilds[0].channels if c.name.startswith("bench-"))
    user = next(u for u in world.users if u.name.startswith("bench-player-"))
    noop = ("echo noop", {})
    sides: dict[str, tuple[str, Callable[[Table], Any], int]] = {"bot": ("bot", Table.next_command, 0),
                                                                   "durable": ("durable", lambda _t: noop, 0)}
    sides |= {f"no-op {n}": ("noop", lambda _t: noop, n) for n in STIRS}
    results: dict[str, list[Steps]] = {side: [] for side in sides}
    with Probes() as probes:
        async with StandIn(world) as standin:
            for r in range(scale.rounds):
                for side, (who, pick, strings) in sides.items():
                    table = Table(channel, user, seasons_stream() + volfyirion_stream())
                    client = client_for(who, workdir / f"path-{r}-{who}-{strings}.sqlite3")
                    async with standin.connect(client) as driver:
                        await play(driver, table, pick, scale.warmup)
                        await pictures_out(client, prepared=True)  # a bot that has finished starting
                        collector.settle()
                        commands = await play(driver, table, pick, scale.commands, probes, strings)
                        await pictures_out(client)
                    results[side].append(step_medians(commands))
    return results


def pooled(rounds: list[Steps], step: str, i: int) -> float | None:
    values = [r[step][i] for r in rounds if step in r]
    return statistics.median(values) if values else None


def shared_time(rounds: list[Steps]) -> float | None:
    """The shared steps' durations, summed; the median over the rounds."""
    sums = [sum(r[s][1] for s in SHARED if s in r) for r in rounds if r]
    return statistics.median(sums) if sums else None


def report(results: dict[str, list[Steps]], scale: Scale) -> None:
    bot_rounds, noop_rounds, durable_rounds = results["bot"], results["no-op 0"], results["durable"]
    rows = []
    for step in STEPS:
        values = [pooled(bot_rounds, step, i) for i in range(3)] + [pooled(noop_rounds, step, i) for i in range(2)]
        values += [pooled(durable_rounds, step, i) for i in range(2)]
        rows.append([step + (" *" if step in SHARED else ""), *(_ms(v) for v in values)])
    print_table("One command at 1 channel, step by step (ms from the command's start; each step until the next)",
                ["step begins", "bot at", "bot step", "bot step CPU", "no-op at", "no-op step", "durable at",
                 "durable step"], rows,
                [f"medians of the commands answered without a picture ({scale.commands} a side in each of "
                 f"{scale.rounds} round(s), the bot and the no-op in turn), then the median of the rounds; CPU is "
                 "the event loop thread's: a step whose CPU is below its time waited (for the writer's thread, "
                 "the fsync)", "the stand-in plays Discord in the same process and loop: its steps count for both",
                 "* the steps the bot and the no-op share, through the same code",
                 "durable: the durable no-op (bench/floor.py), whose command commits one row on the loop (its "
                 "fsync in the command's step) and answers with a reply of the bot's shape"])
    stirred = [[f"{stir(n) / 2**20:.2f} MiB" if n else "nothing", _ms(pooled(results[f"no-op {n}"], ANSWERED, 0)),
                _ms(shared_time(results[f"no-op {n}"]))] for n in STIRS]
    stirred.append(["(the bot: its command)", _ms(pooled(bot_rounds, ANSWERED, 0)), _ms(shared_time(bot_rounds))])
    print_table("The no-op with memory stirred between its commands: the same code, slower",
                ["made and dropped between two commands", "answered at (ms)", "shared steps * (ms)"], stirred,
                ["short strings and a dict of them, which the command never touches; in the bot's process the "
                 "command's own work (the engine, the store, the reply) comes between the shared steps"])


def _ms(value: float | None) -> str:
    return "—" if value is None else f"{value:.3f}"


def main(quick: bool = False) -> None:
    scale = QUICK if quick else FULL
    print("One command's path" + (" (quick: small counts, figures indicative only)" if quick else ""))
    print_machine()
    threshold = gc.get_threshold()
    collector.tune()  # the collector as ``python -m bot`` sets it
    try:
        with tempfile.TemporaryDirectory(prefix="bench-path-") as tmp:
            report(asyncio.run(measure(scale, Path(tmp))), scale)
        # Issue 35's guard rail: a Components V2 reply costs no more to build than the embed reply before it.
        bench_reply.report(asyncio.run(bench_reply.measure(quick)))
    finally:
        gc.set_threshold(*threshold)
        gc.unfreeze()


if __name__ == "__main__":
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--quick", action="store_true", help="small counts: a smoke run, not figures")
    main(parser.parse_args().quick)
