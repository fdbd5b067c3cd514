"""What a game reply costs to build: today's Components V2 message beside the embed and View the bot sent before
(issue 35, point 6's guard rail), from the same changes, in one run.

Run: ``.venv/bin/python -m bench.bench_reply`` (``--quick`` for fewer replies); bench_path prints it too. Every step of
a whole Seasons game (table dice and bot dice) and of a whole Volfyirion game is composed in both shapes, in
English and in Japanese, compact (the usual reply) and in full (the state shown): the V2 reply as the controller
composes it (``Controller.compose``, then its ``LayoutView`` and the payload discord.py sends), the embed reply
as the controller composed it before (``embed_reply``, kept here: ``game_embed``, its fields, ``view_of``, then
its payload). The table gives the median and the 99th percentile per reply in microseconds, each shape timed
in turn on the same change so that the machine's drift touches both alike.

Both shapes share the words (``bot/i18n.py``'s sentences, each game's fields and buttons), so a change that makes
those cheaper makes this tree's embed cheaper too. The guard rail is therefore also measured against a baseline
tree (``--baseline COMMIT``, default ``019b92e``, the tree before issue 35's replies, taken from git history as
bench_stack takes its own): this file is copied into it and run there in a fresh interpreter for its embed reply
(``--probe embed``), while this tree's V2 and embed replies are probed alike, the three taking turns, ``RUNS``
times; each probe times every change ``REPEAT`` times and gives the median and 99th percentile per reply.
"""

from __future__ import annotations

import argparse
import asyncio
import gc
import json
import statistics
import subprocess
import sys
import tempfile
import time
from collections.abc import Callable, Iterator
from pathlib import Path
from types import SimpleNamespace
from typing import Any, cast

import discord

from bench.common import print_machine, print_table
from bot import games as registered
from bot.buttons import view_of
from bot.controller import Controller, with_state_button
from bot.render.embeds import game_embed
from bot.sessions import Played
from bot.store import GameRow
from engine.core import GameRecord
from engine.seasons.autoplay import play_game as seasons_game
from engine.volfyirion.autoplay import play_game as volfyirion_game

LOCALES = {"en": discord.Locale.american_english, "ja": discord.Locale.japanese}
ROOT = Path(__file__).resolve().parent.parent
BASELINE_COMMIT = "019b92e"  # the tree before issue 35: the bot's game replies were embeds
RUNS = 3  # probes of each side, taking turns
REPEAT = 5  # each change timed this many times in a probe


def controller() -> Controller:
    """The controller with every registered game's UI, as the bot's setup makes it (no client, no store: composing
    a reply reads neither)."""
    games = registered.registry()
    registered.install(games)
    made = Controller(cast(Any, SimpleNamespace()), games)
    for entry in games:
        made.uis[entry.kind] = entry.ui()
    return made


def row_of(kind: str, ply: int, options: dict[str, Any]) -> GameRow:
    return GameRow(id=12, guild_id=1, channel_id=2, parent_channel_id=None, owner_id=3, kind=kind, options=options,
                   seed=7, status="active", ply=ply, created_at="", updated_at="")


def changes(quick: bool) -> Iterator[Played]:
    """Each step of whole games of each kind, as the sessions hand it to the controller."""
    for dice in ("table", "bot"):
        options = {"difficulty": "wizard", "dice": dice}
        _, steps = seasons_game("wizard", dice, 7)
        record: GameRecord[Any] = GameRecord(registered.registry().get("seasons").rules(), options, 7)
        for ply, step in enumerate(steps[: 40 if quick else None]):
            yield Played(row_of("seasons", ply, options), step, record)
    game = volfyirion_game(3, max_actions=60 if quick else 400, options={"difficulty": "hard"})
    record = GameRecord(game.rules, {"difficulty": "hard"}, 3)
    for ply, action in enumerate(game.actions, start=1):
        yield Played(row_of("volfyirion", ply, {"difficulty": "hard"}), record.push(action), record)


def embed_reply(ctl: Controller, interaction: Any, played: Played, full: bool) -> dict[str, Any]:
    """The reply as the controller composed it before Components V2: an embed (events, the next step, the state's
    fields, the game's extra fields) and a View of the same controls; then the payload discord.py sends."""
    lg = "ja" if interaction.locale is discord.Locale.japanese else "en"
    row, step = played.row, played.step
    ui = ctl.uis[row.kind]
    summary = played.state_summary()
    embed = game_embed(lg, game=ctl.games.get(row.kind), game_id=row.id, ply=row.ply, summary=summary,
                       events=step.events, waiting=step.waiting, state=full)
    for name, value in ui.extra_fields(step, lg):
        embed.add_field(name=name[:256], value=value[:1024] or "—", inline=False)
    specs = ui.buttons(step, row, lg, summary)
    if not full:
        specs = with_state_button(specs, lg)
    view = view_of(row.id, row.ply, specs)
    return {"embeds": [embed.to_dict()], "components": view.to_components() if view else []}


def v2_reply(ctl: Controller, interaction: Any, played: Played, full: bool) -> dict[str, Any]:
    """The reply as the controller composes it now, and the payload discord.py sends (as the reply goes: its
    picture's gallery comes with the picture's edit, as the embed's image did)."""
    composed = ctl.compose(interaction, played, picture=full)
    return {"components": composed.view().to_components(), "flags": 1 << 15}


Builder = Callable[[Controller, Any, Played, bool], dict[str, Any]]
# In one process both shapes share this tree's words: the embed here is the old shape, not the old tree (for that,
# ``--baseline``).
SHAPES: dict[str, Builder] = {"embed and View (this tree's words)": embed_reply, "Components V2 (now)": v2_reply}


async def measure(quick: bool) -> dict[tuple[str, str], list[float]]:
    """Microseconds per reply, by (shape, compact or full) (in a running loop, as discord.py's views need)."""
    ctl = controller()
    timings: dict[tuple[str, str], list[float]] = {}
    played_all = list(changes(quick))
    for played in played_all[:20]:  # warm both shapes (imports, caches of words)
        for build in SHAPES.values():
            build(ctl, SimpleNamespace(locale=LOCALES["en"]), played, False)
    gc.collect()
    shapes = list(SHAPES.items())
    for n, played in enumerate(played_all):
        for locale in LOCALES.values():
            interaction = SimpleNamespace(locale=locale)
            for full in (False, True):
                # Each shape first on every other change: what the first build leaves warm (a summary, a
                # sentence) favours neither.
                for shape, build in shapes if n % 2 else shapes[::-1]:
                    began = time.perf_counter()
                    build(ctl, interaction, played, full)
                    timings.setdefault((shape, "full" if full else "compact"), []).append(
                        (time.perf_counter() - began) * 1e6)
    return timings


async def probe_timings(shape: str, repeat: int, quick: bool) -> dict[str, list[float]]:
    """One shape alone, as a probe times it: microseconds per reply by compact or full, every change ``repeat``
    times (the same order of work whichever tree runs it)."""
    ctl = controller()
    build = embed_reply if shape == "embed" else v2_reply
    played_all = list(changes(quick))
    for played in played_all[:20]:  # warm up (imports, caches of words)
        build(ctl, SimpleNamespace(locale=LOCALES["en"]), played, False)
    gc.collect()
    timings: dict[str, list[float]] = {"compact": [], "full": []}
    for _ in range(repeat):
        for played in played_all:
            for locale in LOCALES.values():
                interaction = SimpleNamespace(locale=locale)
                for full in (False, True):
                    began = time.perf_counter()
                    build(ctl, interaction, played, full)
                    timings["full" if full else "compact"].append((time.perf_counter() - began) * 1e6)
    return timings


def summary_of(values: list[float]) -> dict[str, float]:
    ordered = sorted(values)
    return {"replies": len(values), "median": statistics.median(values),
            "p99": ordered[min(len(ordered) - 1, int(len(ordered) * 0.99))]}


def baseline_tree(into: Path, commit: str) -> Path | None:
    """The project at ``commit`` with this file copied into its benches; None without git or that commit."""
    from bench.common import (
        tree_at,  # here, not at the top: this file also runs in the baseline's tree, without it
    )

    return tree_at(commit, into, Path(__file__))


def run_probe(tree: Path, shape: str, quick: bool) -> dict[str, dict[str, float]]:
    """``--probe shape`` in a fresh interpreter in ``tree`` (its own bot package): its last line, as JSON."""
    args = [sys.executable, "-m", "bench.bench_reply", "--probe", shape] + (["--quick"] if quick else [])
    done = subprocess.run(args, cwd=tree, capture_output=True, text=True, timeout=1800)
    if done.returncode:
        raise RuntimeError(f"the probe failed in {tree}:\n{done.stderr[-3000:]}")
    return cast(dict[str, dict[str, float]], json.loads(done.stdout.strip().splitlines()[-1]))


def against_baseline(commit: str, quick: bool) -> None:
    """This tree's V2 and embed replies against the baseline tree's embed reply, probes taking turns."""
    with tempfile.TemporaryDirectory() as workdir:
        base = baseline_tree(Path(workdir), commit)
        if base is None:
            return
        sides = {"Components V2, this tree": (ROOT, "v2"), f"embed and View, {commit}": (base, "embed"),
                 "embed and View, this tree": (ROOT, "embed")}
        runs: dict[str, list[dict[str, dict[str, float]]]] = {side: [] for side in sides}
        for _ in range(1 if quick else RUNS):
            for side, (tree, shape) in sides.items():
                runs[side].append(run_probe(tree, shape, quick))
    rows = []
    for side, found in runs.items():
        for kind in ("compact", "full"):
            medians = " · ".join(f"{run[kind]['median']:.0f}" for run in found)
            p99s = " · ".join(f"{run[kind]['p99']:.0f}" for run in found)
            rows.append([side, kind, str(int(found[0][kind]["replies"])), medians, p99s])
    print_table(f"A game reply's build against {commit}'s embed reply (µs per reply, each run)",
                ["side", "reply", "replies a run", "median", "p99"], rows,
                [f"each side a fresh interpreter in its own tree, the sides taking turns; every change {REPEAT} "
                 "times a run", "the build ends with the payload discord.py sends"])


def report(timings: dict[tuple[str, str], list[float]]) -> list[list[str]]:
    rows = []
    for (shape, kind), values in timings.items():
        ordered = sorted(values)
        p99 = ordered[min(len(ordered) - 1, int(len(ordered) * 0.99))]
        rows.append([shape, kind, str(len(values)), f"{statistics.median(values):.0f}", f"{p99:.0f}"])
    print_table("A game reply's build in one process, V2 beside the embed shape (µs per reply)",
                ["shape", "reply", "replies", "median", "p99"], rows,
                ["every step of whole games (Seasons table and bot dice, Volfyirion), in English and Japanese, each "
                 "shape timed in turn on the same change (each first on every other change)", "the build ends with the payload discord.py sends"])
    return rows


def main(quick: bool = False, baseline: str | None = None) -> None:
    print("A game reply's build" + (" (quick: fewer replies)" if quick else ""))
    print_machine()
    report(asyncio.run(measure(quick)))
    if baseline:
        against_baseline(baseline, quick)


if __name__ == "__main__":
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--quick", action="store_true", help="fewer replies: a smoke run")
    parser.add_argument("--baseline", metavar="COMMIT", nargs="?", const=BASELINE_COMMIT, default=None,
                        help=f"also probe this tree against COMMIT's embed reply (default {BASELINE_COMMIT})")
    parser.add_argument("--probe", choices=("embed", "v2"), help=argparse.SUPPRESS)  # one shape, as JSON
    args = parser.parse_args()
    if args.probe:
        found = asyncio.run(probe_timings(args.probe, 1 if args.quick else REPEAT, args.quick))
        print(json.dumps({kind: summary_of(values) for kind, values in found.items()}))
    else:
        main(args.quick, args.baseline)
