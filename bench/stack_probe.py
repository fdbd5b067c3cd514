"""One side of bench_stack: issue 26's guard-rail figures, measured by the tree this file is run in.

``python -m bench.stack_probe SCALE RESUME_DBS STARTUP_DB`` prints one JSON line; ``build SCALE DIR`` first
writes those databases with this tree's store; ``once SCALE DIR`` does both in one interpreter (one run: the
quick mode, where an interpreter's start is a good part of the time). bench_stack copies this file
into the baseline's tree too, so both sides are measured by the same code, each with its own bot, store and
bench helpers (bench_bot, bench_store): only what they share by name is used here.
"""

from __future__ import annotations

import asyncio
import json
import shutil
import statistics
import sys
import tempfile
from collections import defaultdict
from pathlib import Path
from typing import Any

import bench.bench_bot as bench_bot
import bench.bench_store as bench_store
from bench.common import percentile
from bot import collector

try:  # the tests' stand-in (bench_bot counts its refusals)
    from tests.support.standin import StandIn
except ModuleNotFoundError:  # bench_stack's baseline tree, from before the stand-in had a tests' half
    from bot.standin import StandIn  # type: ignore[assignment, no-redef]

# (commands per channel at 1 channel, at MOST channels, appends at 200 writers, resume runs, startup runs)
SCALES = {"full": (150, 5, 2000, 7, 3), "quick": (6, 1, 200, 1, 1)}
MOST = 200
# The channels of the crowded load: quick mode is a smoke run, and MOST channels are most of its time.
CHANNELS = {"full": MOST, "quick": 20}
RESUME_SIZES = (50, 5000)  # quick: 50 and 500
STARTUP_GAMES = 10_000


async def load(per_one: int, per_most: int, most: int, workdir: Path) -> dict[str, Any]:
    """The no-op, the durable no-op (1 channel) and the bot at 1 and ``most`` channels, as bench_bot plays
    them (the figures keep the names of MOST channels, whatever ``most`` is)."""
    scale = bench_bot.Scale(runs=1, levels={1: per_one, most: per_most}, resume_sizes=(), resume_runs=0,
                            cached_games=0, startup_games=0, startup_runs=0)
    bench_bot.NOFSYNC_UP_TO = 0  # the bot without fsync is not a guard rail
    world = bench_bot.crowded_world(most)
    channels = [c for c in world.guilds[0].channels if c.name.startswith("bench-")]
    users = [u for u in world.users if u.name.startswith("bench-player-")]
    seasons, volfyirion = bench_bot.seasons_stream(), bench_bot.volfyirion_stream()
    streams = (seasons + volfyirion, volfyirion + seasons)
    tables = [bench_bot.Table(channels[i], users[i], streams[i % 2]) for i in range(most)]
    results: dict[tuple[str, int], list[Any]] = defaultdict(list)
    with bench_bot.collected_logs():
        async with StandIn(world) as standin:
            _, late = await bench_bot._load_runs(standin, scale, tables, workdir / "load.sqlite3", results,
                                                 defaultdict(list))
    (noop_one,), (durable,), (bot_one,) = results["noop", 1], results["durable", 1], results["bot", 1]
    (noop_most,), (bot_most,) = results["noop", most], results["bot", most]
    groups = bot_most.groups
    return {
        "ratio_200": bot_most.rate / noop_most.rate, "bot_200": bot_most.rate, "noop_200": noop_most.rate,
        "p99_200_ms": percentile(bot_most.latencies, 99) * 1e3,
        "failed_200": bot_most.failures, "late": late,
        "plain_1_ms": percentile(bot_one.without_picture(), 50) * 1e3,
        "durable_1_ms": percentile(durable.latencies, 50) * 1e3,
        "noop_1_ms": percentile(noop_one.latencies, 50) * 1e3,
        "writes_per_commit_200": groups[1] / groups[0] if groups[0] else float("nan"),
    }


async def store(appends: int, workdir: Path) -> dict[str, Any]:
    found = await bench_store._measure(workdir / "store.sqlite3", (MOST,), appends, 1)
    ((rate, latencies),) = found[MOST]["write"]
    return {"appends_200": rate, "append_p99_ms": percentile(latencies, 99) * 1e3}


async def resume(paths: list[Path], runs: int, workdir: Path) -> dict[str, Any]:
    """The first command's load after a restart (bench_bot.first_command), on a copy of each game's file."""
    found = {}
    for path in paths:
        n = int(path.stem.split("-")[1])
        copy = workdir / path.name
        shutil.copyfile(path, copy)
        cold = [(await bench_bot.first_command(copy, n))[0] for _ in range(runs)]
        found[f"resume_{n}_ms"] = statistics.median(cold) * 1e3
    return found


async def startup(path: Path, runs: int, workdir: Path) -> dict[str, Any]:
    copy = workdir / path.name
    ready = []
    async with StandIn() as standin:
        for _ in range(runs):
            shutil.copyfile(path, copy)
            ready.append((await bench_bot.time_to_ready(standin, copy))[0])
    return {"startup_ms": statistics.median(ready) * 1e3}


async def probe(scale: str, resume_dbs: list[Path], startup_db: Path) -> dict[str, Any]:
    per_one, per_most, appends, resume_runs, startup_runs = SCALES[scale]
    collector.tune()  # the collector as ``python -m bot`` sets it
    with tempfile.TemporaryDirectory(prefix="bench-stack-") as tmp:
        workdir = Path(tmp)
        return {**await load(per_one, per_most, CHANNELS[scale], workdir), **await store(appends, workdir),
                **await resume(resume_dbs, resume_runs, workdir), **await startup(startup_db, startup_runs, workdir)}


async def databases(workdir: Path, quick: bool) -> tuple[list[Path], Path]:
    """The resume games and the startup file, written by this tree's store (each side reads its own schema)."""
    sizes = (50, 500) if quick else RESUME_SIZES
    resume = []
    for n in sizes:
        path = workdir / f"resume-{n}.sqlite3"
        store = await bench_bot.new_store(path, fast=True)
        try:
            await bench_bot.play_into(store, channel_id=n, kind="seasons", actions=bench_bot.long_seasons_game(n))
        finally:
            await store.close()
        bench_bot.compact(path)
        resume.append(path)
    full = workdir / "startup-full.sqlite3"
    store = await bench_bot.new_store(full, fast=True)
    try:
        seasons, _ = bench_bot.seasons_game(bench_bot.SEASONS_OPTIONS["difficulty"],
                                            bench_bot.SEASONS_OPTIONS["dice"], bench_bot.SEED)
        await bench_bot.play_into(store, 1, "seasons", seasons)
        volf = bench_bot.volfyirion_game(bench_bot.SEED, max_actions=400, options=bench_bot.VOLFYIRION_OPTIONS)
        await bench_bot.play_into(store, 2, "volfyirion", volf.actions)
    finally:
        await store.close()
    bench_bot.clone_games(full, 100 if quick else STARTUP_GAMES)
    bench_bot.compact(full)
    return resume, full




if __name__ == "__main__":
    if sys.argv[1] in ("build", "once"):  # ``build SCALE DIR``: write the databases, print their paths
        scale, folder = sys.argv[2], Path(sys.argv[3])
        folder.mkdir(parents=True, exist_ok=True)
        resume_dbs, startup_db = asyncio.run(databases(folder, scale == "quick"))
        if sys.argv[1] == "build":
            print(json.dumps({"resume": [str(p) for p in resume_dbs], "startup": str(startup_db)}))
        else:  # ``once SCALE DIR``: and measure on them
            print(json.dumps(asyncio.run(probe(scale, resume_dbs, startup_db))))
    else:
        scale, resume_dbs, startup_db = sys.argv[1], sys.argv[2], sys.argv[3]
        figures = asyncio.run(probe(scale, [Path(p) for p in resume_dbs.split(",")], Path(startup_db)))
        print(json.dumps(figures))
