"""EchoBot: a tiny real discord.py bot that exercises every kind of reply: the no-op floor of the benchmarks
(`/echo noop`), and the bot the stand-in's and the console's own tests drive. It ships with the benchmarks, not
with the bot (nothing in bot/ runs it)."""

from __future__ import annotations

import asyncio
import contextlib
import re

import discord
from discord import app_commands
from discord.ext import commands

from bot.handled import Handled, wrap_interaction_parser

FACES = ["1 water", "2 water", "3 crystals", "1 fire, 1 dot", "star", "draw", "transmute", "2 earth"]


class CountButton(discord.ui.DynamicItem[discord.ui.Button], template=r"echo:count:(?P<n>\d+)"):
    """A button that survives restarts: its state is all in its custom_id."""

    def __init__(self, n: int) -> None:
        super().__init__(discord.ui.Button(label=f"Count {n}", custom_id=f"echo:count:{n}",
                                           style=discord.ButtonStyle.primary))
        self.n = n

    @classmethod
    async def from_custom_id(cls, interaction: discord.Interaction, item: discord.ui.Button,
                             match: re.Match[str]) -> CountButton:
        return cls(int(match["n"]))

    async def callback(self, interaction: discord.Interaction) -> None:
        view = discord.ui.View(timeout=None)
        view.add_item(CountButton(self.n + 1))
        view.add_item(FormButton())
        await interaction.response.edit_message(content=f"count {self.n + 1}", view=view)


class FormButton(discord.ui.DynamicItem[discord.ui.Button], template=r"echo:form"):
    def __init__(self) -> None:
        super().__init__(discord.ui.Button(label="Form", custom_id="echo:form"))

    @classmethod
    async def from_custom_id(cls, interaction: discord.Interaction, item: discord.ui.Button,
                             match: re.Match[str]) -> FormButton:
        return cls()

    async def callback(self, interaction: discord.Interaction) -> None:
        await interaction.response.send_modal(EchoForm())


class EchoForm(discord.ui.Modal, title="Echo form"):
    name = discord.ui.TextInput(label="Name", custom_id="name", max_length=40)
    note = discord.ui.TextInput(label="Note", custom_id="note", required=False, style=discord.TextStyle.long)

    def __init__(self) -> None:
        super().__init__(custom_id="echo:modal", timeout=None)

    async def on_submit(self, interaction: discord.Interaction) -> None:
        await interaction.response.send_message(f"form {self.name.value}|{self.note.value}")


class Chooser(discord.ui.View):
    def __init__(self) -> None:
        super().__init__(timeout=None)

    @discord.ui.select(custom_id="echo:choose", placeholder="Pick letters", min_values=1, max_values=3,
                       options=[discord.SelectOption(label=f"Letter {c.upper()}", value=c) for c in "abc"])
    async def chosen(self, interaction: discord.Interaction, select: discord.ui.Select) -> None:
        await interaction.response.send_message(f"chose {','.join(select.values)}")


class Echo(app_commands.Group, name="echo", description="Echo replies of every kind"):
    @app_commands.command(description="Answer ok at once")
    async def noop(self, interaction: discord.Interaction) -> None:
        await interaction.response.send_message("ok")

    @app_commands.command(description="Say something")
    @app_commands.describe(text="What to say", hidden="Only you see it")
    async def say(self, interaction: discord.Interaction, text: str, hidden: bool = False) -> None:
        await interaction.response.send_message(f"{text} ({interaction.locale.value})", ephemeral=hidden)

    @app_commands.command(description="Defer, then answer with a followup")
    async def later(self, interaction: discord.Interaction, text: str, pause: float = 0.0) -> None:
        await interaction.response.defer(thinking=True)
        await asyncio.sleep(pause)
        await interaction.followup.send(f"later {text}")
        await interaction.followup.send("and one more")

    @app_commands.command(description="Defer, then edit the original")
    async def edit(self, interaction: discord.Interaction, text: str) -> None:
        await interaction.response.defer()
        await interaction.edit_original_response(content=f"edited {text}",
                                                 embed=discord.Embed(title="Edited", description=text))

    @app_commands.command(description="A message with buttons")
    async def buttons(self, interaction: discord.Interaction) -> None:
        view = discord.ui.View(timeout=None)
        view.add_item(CountButton(0))
        view.add_item(FormButton())
        view.add_item(discord.ui.Button(label="Docs", url="https://example.com/docs"))
        embed = discord.Embed(title="Buttons", description="Press one").add_field(name="Count", value="0")
        await interaction.response.send_message(embed=embed, view=view)

    @app_commands.command(description="A select menu")
    async def choose(self, interaction: discord.Interaction) -> None:
        await interaction.response.send_message("choose", view=Chooser())

    @app_commands.command(description="Open a form")
    async def form(self, interaction: discord.Interaction) -> None:
        await interaction.response.send_modal(EchoForm())

    @app_commands.command(description="Attach files")
    async def files(self, interaction: discord.Interaction, text: str) -> None:
        text_file = discord.File(__import__("io").BytesIO(text.encode()), filename="echo.json")
        blob = discord.File(__import__("io").BytesIO(bytes(range(16))), filename="blob.bin")
        await interaction.response.send_message("files", files=[text_file, blob])

    @app_commands.command(description="Post to the channel (the parent channel in a thread)")
    async def post(self, interaction: discord.Interaction, text: str) -> None:
        channel = interaction.channel
        target = channel.parent if isinstance(channel, discord.Thread) else channel
        await interaction.response.send_message("posting", ephemeral=True)
        await target.send(embed=discord.Embed(title="Result", description=text))

    @app_commands.command(description="Answer after a pause")
    async def slow(self, interaction: discord.Interaction, pause: float) -> None:
        await asyncio.sleep(pause)
        with contextlib.suppress(discord.NotFound):  # the stand-in refused the late answer, as Discord would
            await interaction.response.send_message("slow")

    @app_commands.command(description="Send a followup after a pause")
    async def followup(self, interaction: discord.Interaction, pause: float) -> None:
        await interaction.response.defer()
        await asyncio.sleep(pause)
        with contextlib.suppress(discord.HTTPException):
            await interaction.followup.send("late followup")

    @app_commands.command(description="Reply with too much content")
    async def toolong(self, interaction: discord.Interaction, size: int) -> None:
        with contextlib.suppress(discord.HTTPException):
            await interaction.response.send_message("x" * size)

    @app_commands.command(description="Pick a face")
    @app_commands.choices(size=[app_commands.Choice(name="Small", value="s"),
                                app_commands.Choice(name="Large", value="l")])
    async def pick(self, interaction: discord.Interaction, face: str, count: int = 1,
                   size: app_commands.Choice[str] | None = None) -> None:
        chosen = size.value if size else "-"
        await interaction.response.send_message(f"picked {face} x{count} {chosen}")

    @pick.autocomplete("face")
    async def pick_face(self, interaction: discord.Interaction, current: str) -> list[app_commands.Choice[str]]:
        return [app_commands.Choice(name=f, value=f) for f in FACES if current.lower() in f][:25]


def EchoBot() -> commands.Bot:
    """A fresh bot with the `/echo` group; log it in through `standin.connect(bot)`."""
    bot = commands.Bot(command_prefix=commands.when_mentioned, intents=discord.Intents(guilds=True),
                       help_command=None)
    bot.tree.add_command(Echo())
    bot.handled = Handled()  # type: ignore[attr-defined] - says when it is done with an interaction (bot.handled)
    wrap_interaction_parser(bot, bot.handled.around)  # type: ignore[attr-defined]

    async def setup_hook() -> None:
        bot.add_dynamic_items(CountButton, FormButton)
        bot.add_view(Chooser())

    bot.setup_hook = setup_hook  # type: ignore[method-assign]
    return bot
