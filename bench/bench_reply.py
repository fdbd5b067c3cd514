"""What a game reply costs to build: today's Components V2 message beside the embed and View the bot sent before
(issue 35, point 6's guard rail), from the same changes, in one run.

Run: ``.venv/bin/python -m bench.bench_reply`` (``--quick`` for fewer replies); bench_path prints it too. Every step of
a whole Seasons game (table dice and bot dice) and of a whole Volfyirion game is composed in both shapes, in
English and in Japanese, compact (the usual reply) and in full (the state shown): the V2 reply as the controller
composes it (``Controller.compose``, then its ``LayoutView`` and the payload discord.py sends), the embed reply
as the controller composed it before (``embed_reply``, kept here: ``game_embed``, its fields, ``view_of``, then
its payload). The table gives the median and the 99th percentile per reply in microseconds, each shape timed
in turn on the same change so that the machine's drift touches both alike.
"""

from __future__ import annotations

import argparse
import asyncio
import gc
import statistics
import time
from collections.abc import Callable, Iterator
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
SHAPES: dict[str, Builder] = {"embed and View (before)": embed_reply, "Components V2 (now)": v2_reply}


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


def report(timings: dict[tuple[str, str], list[float]]) -> list[list[str]]:
    rows = []
    for (shape, kind), values in timings.items():
        ordered = sorted(values)
        p99 = ordered[min(len(ordered) - 1, int(len(ordered) * 0.99))]
        rows.append([shape, kind, str(len(values)), f"{statistics.median(values):.0f}", f"{p99:.0f}"])
    print_table("A game reply's build, before and after Components V2 (µs per reply)",
                ["shape", "reply", "replies", "median", "p99"], rows,
                ["every step of whole games (Seasons table and bot dice, Volfyirion), in English and Japanese, each "
                 "shape timed in turn on the same change (each first on every other change)", "the build ends with the payload discord.py sends"])
    return rows


def main(quick: bool = False) -> None:
    print("A game reply's build" + (" (quick: fewer replies)" if quick else ""))
    print_machine()
    report(asyncio.run(measure(quick)))


if __name__ == "__main__":
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--quick", action="store_true", help="fewer replies: a smoke run")
    main(parser.parse_args().quick)
