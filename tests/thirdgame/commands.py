"""``/tug``: start, push, pass; its buttons (push, pass, undo) through the controller like every game's."""

from __future__ import annotations

from typing import Any

import discord
from discord import app_commands

from bot.buttons import ButtonSpec
from bot.commands.common import GameGroup
from bot.games import GameUI
from bot.i18n import L, t
from engine.core import Action

KIND = "tug"


class TugCommands(GameGroup):
    def __init__(self, controller: Any, service: Any) -> None:
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
    def buttons(self, step: Any, row: Any, lg: str, summary: dict[str, Any]) -> list[ButtonSpec]:
        specs = [ButtonSpec(op, t(lg, f"button.tug.{op}"), style=discord.ButtonStyle.primary)
                 for op in ("push", "pass") if op in step.waiting.legal]
        if row.ply:
            specs.append(ButtonSpec("undo", t(lg, "button.undo"), style=discord.ButtonStyle.danger))
        return specs

    def button_action(self, op: str, arg: str | None, record: Any) -> Action | None:
        return Action(op) if op in ("push", "pass") else None

    def board(self, summary: dict[str, Any], lang: str = "en") -> bytes:
        from .embed import board

        return board(summary, lang)
