"""``/tug``: start, push, pass; its buttons (push, pass, undo), through the controller like every game's."""

from __future__ import annotations

import discord
from discord import app_commands

from bot.buttons import ButtonSpec
from bot.commands.common import GameGroup
from bot.controller import Controller
from bot.games.plugin import GameUI
from bot.i18n import L, t
from bot.sessions import GameService
from bot.store import GameRow
from engine.core import Action, GameRecord, Step
from tests.thirdgame.engine import TugState, TugSummary

KIND = "tug"
MOVES = ("push", "pass")


class TugCommands(GameGroup):
    def __init__(self, controller: Controller, service: GameService) -> None:
        super().__init__(controller, service, name="tug", description=L("Tug: a test game", "cmd.tug"))

    @app_commands.command(name="start", description=L("Start a tug", "cmd.tug.start"))
    async def start(self, interaction: discord.Interaction) -> None:
        await self.start_game(interaction, KIND, {"difficulty": "normal"})

    @app_commands.command(name="push", description=L("Push", "cmd.tug.push"))
    async def push(self, interaction: discord.Interaction) -> None:
        await self.controller.act(interaction, Action("push"), kind=KIND)

    @app_commands.command(name="pass", description=L("Pass", "cmd.tug.pass"))
    async def pass_(self, interaction: discord.Interaction) -> None:
        await self.controller.act(interaction, Action("pass"), kind=KIND)


class TugUI(GameUI):
    def buttons(self, step: Step[TugState], row: GameRow, lang: str, summary: TugSummary) -> list[ButtonSpec]:
        specs = [ButtonSpec(op, t(lang, f"button.tug.{op}"), style=discord.ButtonStyle.primary)
                 for op in MOVES if op in step.waiting.legal]
        if row.ply:
            specs.append(ButtonSpec("undo", t(lang, "button.undo"), style=discord.ButtonStyle.danger))
        return specs

    def button_action(self, op: str, arg: str | None, record: GameRecord[TugState]) -> Action | None:
        return Action(op) if op in MOVES else None

    def board(self, summary: TugSummary, lang: str = "en") -> bytes:
        from .board import board

        return board(summary, lang)
