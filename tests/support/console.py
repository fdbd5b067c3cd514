"""The local console over the tests' stand-in, printing each reply as JSON into a buffer: what the console tests
(tests/bot/console_session.py) and the bench of what a player types (bench/bench_table.py) type into."""

from __future__ import annotations

import contextlib
import dataclasses
import io
from collections.abc import AsyncIterator
from pathlib import Path

from bot.app import create_bot
from bot.config import Config
from bot.console import LOCALES, Console, Printer
from tests.support.standin import StandIn, World


@contextlib.asynccontextmanager
async def console_at(db_path: Path, *, lang: str, seed: int) -> AsyncIterator[tuple[Console, io.StringIO, StandIn]]:
    """A console playing as "player" in #table of the default world, its games in ``db_path`` seeded ``seed``."""
    world = World.default()
    out = io.StringIO()
    async with StandIn(world) as standin:
        config = dataclasses.replace(Config(), token=None, db_path=db_path, api_base=standin.api_base)
        bot = create_bot(config, seed=lambda: seed)
        async with standin.connect(bot, timeout=standin.deadline + 30.0) as driver:
            yield Console(driver, Printer(out, lang, True, world), user="player", channel="table",
                          locale=LOCALES[lang]), out, standin
