"""The store alone: SQLite against PostgreSQL at 1, 10 and 200 channels writing at once, with their floors.

Run: ``.venv/bin/python -m bench.bench_store`` (``--quick`` for small counts). Each channel holds a game and a
player who appends the next action as soon as the last one is committed (a closed loop); the figure is actions
committed per second and the p50/p99 latency of one append (``append_action``: one transaction, the conditional
UPDATE on the revision, the action row, a snapshot every ``SNAPSHOT_EVERY``). The floor is the same loop reading the game's row
(``store.game``): one round trip to the database without a transaction or a write, so the ratio is what the
durable write adds. SQLite is the shipped file (WAL, synchronous=FULL); PostgreSQL is a server this bench starts
in a temporary directory (bench/pgserver.py) with the distribution's durability (fsync on, synchronous_commit
on: every commit waits for its WAL flush, as SQLite's does), with the store's default pool of 10 connections. Without the PostgreSQL server binaries its rows say
so and the SQLite ones still run.
"""

from __future__ import annotations

import argparse
import asyncio
import contextlib
import statistics
import tempfile
import time
from collections.abc import Awaitable, Callable, Iterator
from pathlib import Path

from bench.common import percentile, print_machine, print_table
from bot.sessions import SNAPSHOT_EVERY
from bot.store import GameRow, Store, make_store

LEVELS = (1, 10, 200)
WRITES = 2000  # appends per cell (spread over the channels), and as many reads for the floor
RUNS = 3


@contextlib.contextmanager
def postgres_server() -> Iterator[str | None]:
    """A throw-away PostgreSQL server's DSN (the distribution's durability), or None without its binaries."""
    from bench.pgserver import temporary_server

    with temporary_server(durable=True) as server:
        yield None if server is None else server.dsn(server.create_database())


async def _loop(games: list[GameRow], per: int, step: Callable[[GameRow], Awaitable[GameRow]]) -> tuple[float, list[float]]:
    """Every channel runs ``per`` steps in a closed loop, all channels at once: (steps per second, latencies)."""
    latencies: list[float] = []

    async def channel(game: GameRow) -> None:
        for _ in range(per):
            start = time.perf_counter()
            game = await step(game)
            latencies.append(time.perf_counter() - start)

    start = time.perf_counter()
    await asyncio.gather(*(channel(g) for g in games))
    return len(latencies) / (time.perf_counter() - start), latencies


async def _cell(store: Store, level: int, per: int, base: int) -> dict[str, tuple[float, list[float]]]:
    games = [await store.create_game(guild_id=1, channel_id=base + i, parent_channel_id=None, owner_id=7,
                                     kind="seasons", options={"difficulty": "wizard"}, seed=i) for i in range(level)]

    async def write(game: GameRow) -> GameRow:
        n = game.ply + 1
        return await store.append_action(game.id, expected_ply=game.ply, expected_revision=game.revision,
                                         action={"type": "bench", "n": n}, user_id=7,
                                         snapshot={"n": n} if n % SNAPSHOT_EVERY == 0 else None)

    async def read(game: GameRow) -> GameRow:
        await store.game(game.id)
        return game

    floor = await _loop(games, per, read)
    writes = await _loop(games, per, write)
    for game in games:
        await store.abandon(game.id, expected_ply=None, by_user=7)
    return {"floor": floor, "write": writes}


async def _measure(target: str | Path, levels: tuple[int, ...], writes: int, runs: int) -> dict[int, dict[str, list]]:
    found: dict[int, dict[str, list]] = {level: {"floor": [], "write": []} for level in levels}
    async with make_store(target) as store:
        base = 0
        for run in range(runs):
            del run
            for level in levels:  # the levels take turns in every run: a drift of the machine hits all alike
                base += 1000
                cell = await _cell(store, level, max(2, writes // level), base)
                for kind, figures in cell.items():
                    found[level][kind].append(figures)
    return found


def _rows(name: str, found: dict[int, dict[str, list]]) -> list[list[object]]:
    rows = []
    for level, cell in found.items():
        w_rate = statistics.median(r for r, _ in cell["write"])
        f_rate = statistics.median(r for r, _ in cell["floor"])
        w50, w99 = (statistics.median(percentile(lat, p) * 1e3 for _, lat in cell["write"]) for p in (50, 99))
        f50 = statistics.median(percentile(lat, 50) * 1e3 for _, lat in cell["floor"])
        rows.append([name, level, w_rate, w50, w99, f_rate, f50, f_rate / w_rate if w_rate else float("nan")])
    return rows


async def _appends(path: Path, n: int, **checkpoints: object) -> tuple[float, list[float], list[float]]:
    """One channel appending ``n`` actions in a closed loop on a new SQLite file with this checkpoint schedule:
    (appends per second, their latencies, the duration of each checkpoint)."""
    from bot.store import SqliteStore
    from bot.store.group_commit import GroupCommit

    spent: list[float] = []
    timed = GroupCommit._checkpoint

    async def checkpoint(self: GroupCommit) -> None:
        start = time.perf_counter()
        await timed(self)
        spent.append(time.perf_counter() - start)

    GroupCommit._checkpoint = checkpoint  # type: ignore[method-assign]
    try:
        async with SqliteStore(path, background_check=False, **checkpoints) as store:  # type: ignore[arg-type]
            game = await store.create_game(guild_id=1, channel_id=1, parent_channel_id=None, owner_id=7,
                                           kind="seasons", options={"difficulty": "wizard"}, seed=1)

            async def write(game: GameRow) -> GameRow:
                k = game.ply + 1
                return await store.append_action(game.id, expected_ply=game.ply, action={"type": "bench", "n": k},
                                                 user_id=7, snapshot={"n": k} if k % SNAPSHOT_EVERY == 0 else None)

            rate, latencies = await _loop([game], n, write)
    finally:
        GroupCommit._checkpoint = timed  # type: ignore[method-assign]
    return rate, latencies, spent


def checkpoint_cost(quick: bool = False) -> None:
    """What the WAL's checkpoint schedule (issue 37: passive, every CHECKPOINT_EVERY commits and when idle)
    costs one channel's appends, against no checkpoint but SQLite's own (at 1,000 pages)."""
    from bot.store.group_commit import CHECKPOINT_EVERY

    n, runs = (400, 1) if quick else (2000, RUNS)
    rows: list[list[object]] = []
    schedules = {"none (SQLite's own at 4 MB)": {"checkpoint_every": None, "checkpoint_idle": None},
                 f"passive every {CHECKPOINT_EVERY} commits": {}}
    found: dict[str, list[tuple[float, list[float], list[float]]]] = {name: [] for name in schedules}
    with tempfile.TemporaryDirectory() as tmp:
        for run in range(runs):
            for name, options in schedules.items():  # in turns: a drift of the machine hits both alike
                found[name].append(asyncio.run(_appends(Path(tmp) / f"{run}-{len(found[name])}-{hash(name)}.sqlite3",
                                                        n, **options)))
    for name, cells in found.items():
        spent = [s for _, _, ss in cells for s in ss]
        rows.append([name, statistics.median(r for r, _, _ in cells),
                     statistics.median(percentile(lat, 50) * 1e3 for _, lat, _ in cells),
                     statistics.median(percentile(lat, 99) * 1e3 for _, lat, _ in cells),
                     len(spent) // len(cells), statistics.median(spent) * 1e3 if spent else 0.0])
    print_table("The WAL's checkpoint schedule: one channel's appends on SQLite (synchronous=FULL)",
                ["checkpoints", "appends/s", "p50 ms", "p99 ms", "checkpoints/run", "one checkpoint ms"], rows,
                [f"{n} appends in a closed loop, median of {runs} run(s); a checkpoint runs on the writer between "
                 "two commits, so its time is added to the next append's wait"])


CHECK_GAMES = 10_000


def check_duration(quick: bool = False) -> None:
    """How long ``python -m bot check`` takes on a file of CHECK_GAMES finished games (issue 37: it replays every
    game from its log and compares it with its latest snapshot, after PRAGMA integrity_check)."""
    import contextlib as _contextlib
    import io

    from bench.bench_bot import (
        SEASONS_OPTIONS,
        SEED,
        VOLFYIRION_OPTIONS,
        clone_games,
        compact,
        new_store,
        play_into,
        seasons_game,
        volfyirion_game,
    )
    from bot.store.sqlite import check_main

    total = 20 if quick else CHECK_GAMES

    async def fill(path: Path) -> None:
        store = await new_store(path, fast=True)
        try:
            seasons_actions, _ = seasons_game(SEASONS_OPTIONS["difficulty"], SEASONS_OPTIONS["dice"], SEED)
            await play_into(store, 1, "seasons", seasons_actions)
            await play_into(store, 2, "volfyirion", volfyirion_game(SEED, max_actions=400,
                                                                    options=VOLFYIRION_OPTIONS).actions)
        finally:
            await store.close()

    with tempfile.TemporaryDirectory() as tmp:
        path = Path(tmp) / "check.sqlite3"
        asyncio.run(fill(path))
        games = clone_games(path, total)
        compact(path)
        said = io.StringIO()
        start = time.perf_counter()
        with _contextlib.redirect_stdout(said):
            code = asyncio.run(check_main(path))
        took = time.perf_counter() - start
        size = path.stat().st_size / 2**20
    if code != 0:
        raise RuntimeError(f"the bench database did not pass the check: {said.getvalue()}")
    print_table("python -m bot check: integrity check, then every game replayed against its latest snapshot",
                ["games", "MiB", "seconds", "ms per game"], [[f"{games:,}", size, took, took / games * 1e3]],
                ["finished games: copies of one finished Seasons and one finished Volfyirion game (their actions, "
                 "snapshots and results as the bot wrote them)"])


def main(quick: bool = False) -> None:
    print_machine()
    levels = (1, 10, 50) if quick else LEVELS
    writes, runs = (100, 1) if quick else (WRITES, RUNS)
    rows: list[list[object]] = []
    notes = [f"{writes} appends per cell over the channels (at least 2 each), median of {runs} run(s)",
             "floor: the same closed loop reading the game's row; floor/write: how many reads one durable write costs"]
    with tempfile.TemporaryDirectory() as tmp:
        rows += _rows("SQLite", asyncio.run(_measure(Path(tmp) / "bench.sqlite3", levels, writes, runs)))
    with postgres_server() as dsn:
        if dsn is None:
            from bench.pgserver import MISSING

            notes.append(f"PostgreSQL not measured: {MISSING}")
            print(f"PostgreSQL: {MISSING}; measuring SQLite only")
        else:
            rows += _rows("PostgreSQL", asyncio.run(_measure(dsn, levels, writes, runs)))
    print_table("Store writes per second, SQLite against PostgreSQL, by channels writing at once",
                ["store", "channels", "appends/s", "p50 ms", "p99 ms", "floor reads/s", "floor p50 ms",
                 "floor/write"], rows, notes)
    checkpoint_cost(quick)
    check_duration(quick)


if __name__ == "__main__":
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--quick", action="store_true")
    main(quick=parser.parse_args().quick)
