"""The Discord client: command tree, buttons, forms, one error handler, the store's lifetime."""

from __future__ import annotations

import contextlib
import logging

import discord
from discord import app_commands
from discord.ext import commands

from .buttons import CUSTOM_ID, GameButton, form_values
from .config import Config
from .controller import Controller
from .delivery import commit_state
from .i18n import CommandTranslator, lang_of, t
from .render.embeds import notice_embed
from .sessions import GameService
from .store import SqliteStore

log = logging.getLogger(__name__)


class SoloTree(app_commands.CommandTree):
    """The command tree, refusing options whose type is not the one the command declares (only a stale
    command sync can send those): without this a user option would reach a text parameter as an object."""

    async def interaction_check(self, interaction: discord.Interaction) -> bool:
        if interaction.type not in (discord.InteractionType.application_command,
                                    discord.InteractionType.autocomplete):
            return True
        try:
            command, options = self._get_app_command_options(interaction.data or {})
        except Exception:  # noqa: BLE001 - an unknown command is answered by the tree's own error path
            return True
        declared = {p.name: p.type.value for p in getattr(command, "parameters", [])}
        wrong = [o for o in options if isinstance(o, dict) and o.get("name") in declared
                 and not _well_typed(o, declared[o["name"]])]
        if not wrong:
            return True
        if interaction.type is discord.InteractionType.autocomplete:
            await interaction.response.autocomplete([])
        else:
            embed = notice_embed(lang_of(interaction.locale), "refuse.bad_option", value=str(wrong[0].get("name")))
            await interaction.response.send_message(embed=embed, ephemeral=True)
        return False


_VALUE_TYPES = {3: (str,), 4: (int,), 5: (bool,), 10: (int, float)}


def _well_typed(option: dict, declared: int) -> bool:
    """The option claims the declared type and, for plain values, carries one of that type."""
    if option.get("type") != declared:
        return False
    kinds = _VALUE_TYPES.get(declared)
    if kinds is None or "value" not in option:
        return True
    value = option["value"]
    return isinstance(value, kinds) and (declared == 5 or not isinstance(value, bool))


class SoloBot(commands.Bot):
    """Plays Dummbot (Seasons) and Volfyirion for solo players, one game per channel."""

    def __init__(self, config: Config, *, seed=None) -> None:  # noqa: ANN001 - a () -> int for tests
        intents = discord.Intents.none()
        intents.guilds = True
        super().__init__(command_prefix=commands.when_mentioned, intents=intents, help_command=None,
                         tree_cls=SoloTree)
        self.config = config
        self.store = SqliteStore(config.db_path)
        if seed is None and config.seed is not None:
            seed = lambda: config.seed  # noqa: E731 - fixed seeds make console sessions reproducible
        self.service = GameService(self.store, cache_seconds=config.cache_seconds, seed=seed)
        self.controller = Controller(self)
        self._guard_interaction_parser()

    def _guard_interaction_parser(self) -> None:
        """discord.py's gateway parser raises on a malformed INTERACTION_CREATE (Discord never sends one), and
        an exception there ends the connection: log it and stay online instead."""
        parsers = self._connection.parsers
        parse = parsers["INTERACTION_CREATE"]

        def guarded(data: dict) -> None:
            try:
                parse(data)
            except Exception:  # noqa: BLE001 - one bad event must not take the bot offline
                log.warning("ignored a malformed interaction %s", data.get("id") if isinstance(data, dict) else "?",
                            exc_info=True)

        parsers["INTERACTION_CREATE"] = guarded

    async def setup_hook(self) -> None:
        await self.store.open()
        await self.tree.set_translator(CommandTranslator())
        from .commands import game, seasons, volfyirion

        for module in (seasons, volfyirion, game):
            module.install(self)
        self.add_dynamic_items(GameButton)
        self.tree.on_error = self.on_app_command_error

    async def close(self) -> None:
        try:
            await self.controller.drain()  # let changes under way commit and answer (SIGTERM, docker stop)
            await self.service.drain()
            await super().close()
        finally:
            await self.store.close()

    async def on_interaction(self, interaction: discord.Interaction) -> None:
        """Form submissions are handled here, so that a form opened before a restart still works."""
        data = interaction.data or {}
        if interaction.type is discord.InteractionType.component:
            # Our buttons are DynamicItems, which discord.py only calls for a custom_id that is really on
            # the message; anything else (forged, foreign, or from an old message format) gets a clear answer.
            custom_id = str(data.get("custom_id", ""))
            if CUSTOM_ID.fullmatch(custom_id) is None or not _on_message(interaction.message, custom_id):
                await self._answer_unknown(interaction)
            return
        if interaction.type is not discord.InteractionType.modal_submit:
            return
        match = CUSTOM_ID.fullmatch(str(data.get("custom_id", "")))
        if match is None or not match["op"].startswith("form_"):
            await self._answer_unknown(interaction)
            return
        await self.controller.on_form(
            interaction, int(match["game"]), int(match["ply"]), match["op"], form_values(data)
        )

    async def _answer_unknown(self, interaction: discord.Interaction) -> None:
        if not interaction.response.is_done():
            embed = notice_embed(lang_of(interaction.locale), "refuse.unknown_button")
            await interaction.response.send_message(embed=embed, ephemeral=True)

    async def on_app_command_error(
        self, interaction: discord.Interaction, error: app_commands.AppCommandError
    ) -> None:
        """The one error handler: a localized answer for what the user can fix, a log line for the rest."""
        lg = lang_of(interaction.locale)
        if isinstance(error, app_commands.CheckFailure) and interaction.response.is_done():
            return  # the check has answered already
        if interaction.type is discord.InteractionType.autocomplete:
            # Suggestions cannot carry an error message: offer none.
            if not interaction.response.is_done():
                with contextlib.suppress(discord.HTTPException):
                    await interaction.response.autocomplete([])
            return
        if isinstance(error, app_commands.TransformerError):
            key, params = "refuse.bad_option", {"value": str(error.value)[:100]}
        elif isinstance(error, app_commands.CommandNotFound):
            key, params = "refuse.unknown_command", {}
        elif isinstance(error, app_commands.CommandSignatureMismatch):
            # Discord still has an older version of the command: `python -m bot sync` brings it up to date.
            log.warning("command %r differs from what Discord has: run `python -m bot sync`", error.command.name)
            key, params = "refuse.command_changed", {}
        elif isinstance(error, app_commands.CheckFailure):
            key, params = "refuse.not_allowed", {}
        else:
            original = getattr(error, "original", error)
            log.error("command failed", exc_info=(type(original), original, original.__traceback__))
            # "Nothing was changed" only when no change went to the store (bot.delivery.commit_state).
            key = "refuse.internal_unknown" if commit_state(interaction) else "refuse.internal"
            params = {}
        embed = notice_embed(lg, key, **params)
        try:
            if interaction.response.is_done():
                await interaction.followup.send(embed=embed, ephemeral=True)
            else:
                await interaction.response.send_message(embed=embed, ephemeral=True)
        except discord.HTTPException:
            log.warning("could not send the error reply: %s", t("en", key, **params))


def _on_message(message: discord.Message | None, custom_id: str) -> bool:
    if message is None:
        return False
    for row in message.components:
        for item in getattr(row, "children", [row]):
            if getattr(item, "custom_id", None) == custom_id:
                return True
    return False


def create_bot(config: Config, *, seed=None) -> SoloBot:  # noqa: ANN001
    """The bot, configured; ``seed`` (a function returning an int) fixes new games' seeds for tests."""
    return SoloBot(config, seed=seed)
