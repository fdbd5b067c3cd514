"""The durable no-op: the least any bot does that answers only once its command is on disk.

It is EchoBot's ``/echo noop`` with two things added: before it answers, it commits one row to an SQLite file
in WAL mode with ``synchronous=FULL`` (the store's durability: one fsync of the WAL per commit), and its answer
has the shape of the bot's usual reply (an embed with a title, two lines, a field and a footer; six buttons in
two rows), sent as the bot sends it (``interaction.response.send_message``). It
has no game, no engine, no lock, no store threads: the commit runs on the event loop, the cheapest a durable
commit gets at one channel, where nothing else waits. bench_bot plays it at one channel beside the no-op and
the bot: the bot's own work is what it takes beyond this floor.
"""

from __future__ import annotations

import sqlite3
from pathlib import Path
from typing import Any

import discord
from discord import app_commands
from discord.ext import commands

from bot.buttons import ButtonSpec, view_of

TITLE = "Volfyirion — the dragon"
LINES = ("• Mint built in Tylaris.\n"
         "• Put the top card of the Asset Deck face down at the bottom of the Rage Pile (2 cards now).")
FIELD = ("What to do now", "Turn 1: your main phase. The Rage Pile has 2 cards.")
FOOTER = "Game #2 · action {n} · /game undo takes the last action back"
BUTTONS = ("End turn", "Danger", "Put aside (6 BP)", "Put aside (6 KP)", "State", "Undo")


class DurableLog:
    """One connection to a file holding one table; ``commit`` writes a row and returns once it is durable."""

    def __init__(self, path: Path) -> None:
        self.db = sqlite3.connect(path, isolation_level=None)
        self.db.execute("PRAGMA journal_mode=WAL")
        self.db.execute("PRAGMA synchronous=FULL")
        self.db.execute("CREATE TABLE IF NOT EXISTS log (n INTEGER PRIMARY KEY, body TEXT NOT NULL)")
        self.count = self.db.execute("SELECT count(*) FROM log").fetchone()[0]

    def commit(self) -> int:
        self.count += 1
        self.db.execute("BEGIN IMMEDIATE")
        self.db.execute("INSERT INTO log VALUES (?, ?)", (self.count, '{"card": "mint", "city": "Tylaris"}'))
        self.db.execute("COMMIT")
        return self.count

    def close(self) -> None:
        self.db.close()


def reply_like_the_bot(n: int) -> dict[str, Any]:
    """A reply of the bot's usual shape, its buttons made as the bot makes them (``buttons.view_of``)."""
    embed = discord.Embed(title=TITLE, description=LINES, color=0xB91C1C)
    embed.add_field(name=FIELD[0], value=FIELD[1], inline=False)
    embed.set_footer(text=FOOTER.format(n=n))
    buttons = [ButtonSpec("floor", label, arg=i, style=discord.ButtonStyle.danger if label == "Undo"
                          else discord.ButtonStyle.secondary) for i, label in enumerate(BUTTONS)]
    return {"embed": embed, "view": view_of(2, n, buttons)}


class DurableNoop(commands.Bot):
    """A bot whose ``/echo noop`` commits to ``path`` before it answers; log it in through the stand-in."""

    def __init__(self, path: Path) -> None:
        super().__init__(command_prefix=commands.when_mentioned, intents=discord.Intents(guilds=True),
                         help_command=None)
        self.log = DurableLog(path)
        echo = app_commands.Group(name="echo", description="The durable no-op")

        @echo.command(description="Commit one row, then answer like the bot")
        async def noop(interaction: discord.Interaction) -> None:
            await interaction.response.send_message(**reply_like_the_bot(self.log.commit()))

        self.tree.add_command(echo)

    async def close(self) -> None:
        await super().close()
        self.log.close()
