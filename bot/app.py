"""The Discord client: command tree, buttons, forms, one error handler, the store's lifetime."""

from __future__ import annotations

import asyncio
import contextlib
import logging
import time
from collections.abc import Callable, Coroutine
from typing import TYPE_CHECKING, Any, cast

import discord
from discord import app_commands
from discord.ext import commands

from engine.core import Rules, State

from . import games as registered
from .buttons import CUSTOM_ID, GameButton, form_values
from .channels import gate
from .config import Config
from .controller import Controller
from .delivery import commit_state
from .handled import Handled, Parser, wrap_interaction_parser
from .i18n import CommandTranslator, lang_of, t
from .metrics import Metrics, command_name
from .registry import Registry
from .render.layout import custom_ids
from .render.notices import notice
from .replies import send
from .sessions import REFUSALS, GameService
from .store import StoreError, make_store
from .sync import sync_at_start
from .threads import may_reopen, reopen, user_of

if TYPE_CHECKING:
    from .games.plugin import AnyGame
    from .http import HttpServer

log = logging.getLogger(__name__)
# How long a stop waits for the gateway to close before it closes the store all the same (docker stop allows 10 s).
GATEWAY_CLOSE_SECONDS = 4.0

IDENTIFY_INTERVAL = 5.0  # seconds between two identifies in one bucket (Discord's rate limit)


class SoloTree(app_commands.CommandTree):
    """The command tree, refusing options whose type is not the one the command declares (only a stale
    command sync can send those): without this a user option would reach a text parameter as an object.

    Every slash command is timed under its full name (bot.metrics): from this check to discord.py's
    ``on_app_command_completion`` event, or to the error handler (``SoloBot.on_app_command_error``).
    discord.py builds the tree itself (``tree_cls``), so the bot gives it its metrics just after."""

    metrics: Metrics

    async def interaction_check(self, interaction: discord.Interaction) -> bool:
        if interaction.type is discord.InteractionType.application_command:
            interaction.extras["began"] = time.perf_counter()
        elif interaction.type is not discord.InteractionType.autocomplete:
            return True
        command = interaction.command
        if command is None:
            return True  # an unknown command is answered by the tree's own error path
        parameters = {p.name: p for p in getattr(command, "parameters", [])}
        options = [o for o in leaf_options(payload(interaction)) if isinstance(o, dict) and o.get("name") in parameters]
        wrong = [o for o in options if not _well_typed(o, parameters[o["name"]].type.value)]
        refusal: tuple[str, dict[str, Any]] | None = ("refuse.bad_option", {"value": str(wrong[0].get("name"))}) if wrong else None
        if refusal is None and interaction.type is discord.InteractionType.application_command:
            # The option's bounds are the bot's own: Discord's client keeps to them, a forged or outdated one need
            # not (a 5,000-digit die face, a crystal change of 10**30).
            past = (_past_bounds(o, parameters[o["name"]], "/" + command.qualified_name) for o in options)
            refusal = next((found for found in past if found is not None), None)
        if refusal is None:
            return True
        if interaction.type is discord.InteractionType.autocomplete:
            await interaction.response.autocomplete([])
        else:
            key, params = refusal
            await send(interaction, notice=notice(lang_of(interaction.locale), key, params=params), ephemeral=True)
            timed(self.metrics, interaction)
        return False


# What a player or a stale command sync causes, answered as such: not the bot's failures.
EXPECTED_ERRORS = (app_commands.CheckFailure, app_commands.TransformerError, app_commands.CommandNotFound,
                   app_commands.CommandSignatureMismatch)


def timed(metrics: Metrics, interaction: discord.Interaction, *, failed: bool = False) -> None:
    """A slash command is over: count it and its time, once (bot.metrics)."""
    began = interaction.extras.pop("began", None)
    if began is not None:
        metrics.observe(command_name(payload(interaction)), began, failed=failed)


def payload(interaction: discord.Interaction) -> dict[str, Any]:
    """The interaction's data as the plain JSON object Discord sent (discord.py types it per interaction type)."""
    return cast(dict[str, Any], interaction.data or {})


def leaf_options(data: dict[str, Any] | None) -> list[dict[str, Any]]:
    """A slash command's own options, below its group and subcommand."""
    options = (data or {}).get("options") or []
    while options and isinstance(options[0], dict) and options[0].get("type") in (1, 2):
        options = options[0].get("options") or []
    return options


_VALUE_TYPES = {3: (str,), 4: (int,), 5: (bool,), 10: (int, float)}


def _well_typed(option: dict[str, Any], declared: int) -> bool:
    """The option claims the declared type and, for plain values, carries one of that type."""
    if option.get("type") != declared:
        return False
    kinds = _VALUE_TYPES.get(declared)
    if kinds is None or "value" not in option:
        return True
    value = option["value"]
    return isinstance(value, kinds) and (declared == 5 or not isinstance(value, bool))


# Discord's own limits, for an option that declares none: an integer it can carry exactly, a string's length.
INTEGER_BOUND = 2**53
STRING_MAX = 6000


def _past_bounds(option: dict[str, Any], parameter: Any, command: str) -> tuple[str, dict[str, Any]] | None:
    """The refusal (key and its values) of an option whose value is past the parameter's bounds, or None."""
    value = option.get("value")
    low, high = parameter.min_value, parameter.max_value
    if parameter.type is discord.AppCommandOptionType.string and isinstance(value, str):
        low, high = low or 0, STRING_MAX if high is None else high
        if not low <= len(value) <= high:
            return "refuse.bad_length", {"option": f"{command} {option['name']}:", "low": low, "high": high,
                                         "length": len(value)}
    elif parameter.type is discord.AppCommandOptionType.integer and isinstance(value, int):
        low = -INTEGER_BOUND if low is None else low
        high = INTEGER_BOUND if high is None else high
        if not low <= value <= high:
            return "refuse.out_of_range", {"option": f"{command} {option['name']}:", "low": _signed(low),
                                           "high": _signed(high)}
    return None


def _signed(number: float) -> str:
    """A bound as the bot writes numbers: a real minus sign."""
    return f"−{-number}" if number < 0 else str(number)


class SoloBot(commands.AutoShardedBot):
    """Plays the automaton of each registered game (bot/games) for solo players, one game per channel.

    Sharded: the shard count and this process's shards come from `config.shards` (SOLO_BOT_SHARDS), else
    Discord's recommendation (GET /gateway/bot). Commands are offered wherever a solo player is (issue 36):
    `contexts` [0, 1, 2] (servers, the DM with the bot, group DMs) for both installs, a server's
    (`integration_types` 0) and a user's (1); bot.places says what the bot may do in each place."""

    def __init__(self, config: Config, *, seed: Callable[[], int] | None = None, games: Registry[AnyGame] | None = None) -> None:
        """``games``: the registry this bot plays (by default bot/games's), handed down to what reads a game."""
        intents = discord.Intents.none()
        intents.guilds = True
        super().__init__(command_prefix=commands.when_mentioned, intents=intents, help_command=None,
                         # no reply ever notifies anyone: the result card and the leaderboard name players
                         # (`<@id>`), a refusal names a game's owner, replies echo what players typed (issue 35)
                         allowed_mentions=discord.AllowedMentions.none(),
                         tree_cls=SoloTree, shard_count=config.shards.count,
                         # None: every shard (documented as Optional; discord.py's options TypedDict says List)
                         shard_ids=list(config.shards.ids) if config.shards.ids is not None else None,  # type: ignore[arg-type]
                         allowed_contexts=app_commands.AppCommandContext(guild=True, dm_channel=True,
                                                                         private_channel=True),
                         allowed_installs=app_commands.AppInstallationType(guild=True, user=True))
        self._gate_tasks: set[asyncio.Task[None]] = set()
        self.handled = Handled()  # ``await bot.handled(interaction_id)``: the bot is done with it (bot.handled)
        self._identify_concurrency: int | None = None
        self._identified: dict[int, float] = {}  # identify bucket -> when its last shard identified
        self.config = config
        self.store = make_store(config.db_target)
        self.metrics = Metrics(self)
        cast(SoloTree, self.tree).metrics = self.metrics
        self.metrics.watch_store(self.store)  # store write latency, stale-version refusals
        self.http_server: HttpServer | None = None  # bot.http, on SOLO_BOT_HTTP_PORT
        if seed is None and config.seed is not None:
            seed = lambda: config.seed  # noqa: E731 - fixed seeds make console sessions reproducible
        self.games = registered.registry() if games is None else games
        registered.install(self.games)
        self.service = GameService(self.store, rules=self.games_rules, cache_seconds=config.cache_seconds, seed=seed)
        self.controller = Controller(self, self.games)
        self._guard_interaction_parser()

    def games_rules(self, kind: str) -> Rules[State]:
        """The engine of a registered game (the sessions' ``rules``)."""
        return self.games.get(kind).rules()

    def _guard_interaction_parser(self) -> None:
        """discord.py's gateway parser raises on a malformed INTERACTION_CREATE (Discord never sends one), and
        an exception there ends the connection: log it and stay online instead. An archived or locked thread
        is refused before discord.py parses it (``channels.gate``)."""
        def guard(parse: Parser) -> Parser:
            def guarded(data: dict[str, Any]) -> None:
                try:
                    refusal = gate(data)
                    if refusal == "refuse.thread_archived" and may_reopen(data) is not None:
                        self._in_task(self._reopen_then_parse(data, parse))  # its owner back (bot/threads.py)
                        return
                    if refusal is not None:  # an archived or locked thread: answered, nothing applied
                        self._refuse_raw(data, refusal)
                        return
                    parse(data)
                except Exception:
                    log.warning("ignored a malformed interaction %s",
                                data.get("id") if isinstance(data, dict) else "?", exc_info=True)
            return self.handled.around(guarded)

        wrap_interaction_parser(self, guard)

    async def before_identify_hook(self, shard_id: int | None, *, initial: bool = False) -> None:
        """Discord lets `max_concurrency` shards identify together: shard ids in one bucket
        (`shard_id % max_concurrency`) wait 5 s between identifies, the others need not wait (discord.py's
        default waits 5 s before every shard but the first)."""
        if self._identify_concurrency is None:
            try:
                self._identify_concurrency = max(1, (await self.fetch_session_start_limits()).max_concurrency)
            except (discord.GatewayNotFound, discord.HTTPException):  # GET /gateway/bot failed: one at a time
                self._identify_concurrency = 1
        bucket = (shard_id or 0) % self._identify_concurrency
        last = self._identified.get(bucket)
        if last is not None:
            await asyncio.sleep(max(0.0, last + IDENTIFY_INTERVAL - time.monotonic()))
        self._identified[bucket] = time.monotonic()

    def _refuse_raw(self, data: dict[str, Any], key: str) -> None:
        interaction = discord.Interaction(data=cast(Any, data), state=self._connection)
        self._in_task(self._answer_refusal(interaction, key))

    def _in_task(self, work: Coroutine[Any, Any, None]) -> None:
        task = asyncio.get_running_loop().create_task(work)
        self._gate_tasks.add(task)
        task.add_done_callback(self._gate_tasks.discard)

    async def _reopen_then_parse(self, data: dict[str, Any], parse: Parser) -> None:
        """An interaction from a thread Discord archived: its game's owner is back, so the bot unarchives the
        thread and the interaction goes on as usual; anyone else (or a thread Discord would not reopen) gets
        today's refusal. Ends when everything the interaction started has ended (what ``Handled`` waits for)."""
        thread_id = may_reopen(data) or 0
        try:
            row = await self.store.active_game(thread_id) or await self.store.last_game(thread_id)
        except StoreError:
            row = None
        if row is None or row.owner_id != user_of(data) or not await reopen(self, thread_id):
            await self._answer_refusal(discord.Interaction(data=cast(Any, data), state=self._connection),
                                       "refuse.thread_archived")
            return
        data["channel"]["thread_metadata"]["archived"] = False  # as it is now
        before = asyncio.all_tasks()
        parse(data)
        started = asyncio.all_tasks() - before
        if started:
            await asyncio.wait(started)

    async def _answer_refusal(self, interaction: discord.Interaction, key: str) -> None:
        try:
            if interaction.type is discord.InteractionType.autocomplete:
                await interaction.response.autocomplete([])
            elif interaction.type is not discord.InteractionType.ping:
                await send(interaction, notice=notice(lang_of(interaction.locale), key), ephemeral=True)
        except discord.HTTPException:
            log.warning("could not refuse interaction %s (%s)", interaction.id, key)

    async def setup_hook(self) -> None:
        # Shielded: a SIGTERM while the store opens cancels the login, and `close()` then waits for the open
        # to finish and closes it (a cancelled open would leave its connection thread behind).
        await asyncio.shield(self.store.open())
        await self.tree.set_translator(CommandTranslator())
        from .commands import game

        for entry in self.games:  # each game's command group and UI
            self.tree.add_command(entry.commands(self.controller, self.service))
            self.controller.uis[entry.kind] = entry.ui()
        game.install(self.tree, self.games, self.controller, self.service, self.store)
        self.add_dynamic_items(GameButton)
        self.tree.error(self.on_app_command_error)
        await sync_at_start(self)  # only when the commands changed, only from the process holding shard 0
        if self.config.http_port is not None:
            from .http import HttpServer

            self.http_server = HttpServer(self, self.config.http_host, self.config.http_port)
            await self.http_server.start()

    async def close(self) -> None:
        try:
            await self.controller.drain()  # let changes under way commit and answer (SIGTERM, docker stop)
            await self.service.drain()
            try:
                # A gateway Discord no longer answers (a half-open connection while it is away) holds aiohttp's
                # websocket close for its 10 s handshake: past docker stop's grace, so it is bounded, and the
                # store is closed all the same (the gateway's close goes on, shielded, until the loop ends).
                await asyncio.wait_for(asyncio.shield(super().close()), GATEWAY_CLOSE_SECONDS)
            except TimeoutError:
                log.warning("the gateway did not close within %s s (Discord away?): closing the store anyway",
                            GATEWAY_CLOSE_SECONDS)
        finally:
            if self.http_server is not None:
                await self.http_server.close()
            await self.store.close()

    async def on_app_command_completion(self, interaction: discord.Interaction, command: Any) -> None:
        timed(self.metrics, interaction)

    async def on_interaction(self, interaction: discord.Interaction) -> None:
        """Form submissions are handled here, so that a form opened before a restart still works."""
        data = payload(interaction)
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
        async with self.metrics.command(match["op"]):
            await self.controller.on_form(
                interaction, int(match["game"]), int(match["ply"]), match["op"], form_values(data)
            )

    async def _answer_unknown(self, interaction: discord.Interaction) -> None:
        if not interaction.response.is_done():
            await send(interaction, notice=notice(lang_of(interaction.locale), "refuse.unknown_button"), ephemeral=True)

    async def on_app_command_error(
        self, interaction: discord.Interaction, error: app_commands.AppCommandError | Exception
    ) -> None:
        """The one error handler, for commands (the tree's) and for buttons, menus and forms
        (``Controller.answering``): a refusal (``Refusal``, ``RuleError``, ``StoreError``) is answered privately
        as the controller refuses, what else the user can fix gets a localized answer, the rest a log line."""
        expected = isinstance(getattr(error, "original", error), REFUSALS) or isinstance(error, EXPECTED_ERRORS)
        timed(self.metrics, interaction, failed=not expected)
        lg = lang_of(interaction.locale)
        if isinstance(error, app_commands.CheckFailure) and interaction.response.is_done():
            return  # the check has answered already
        refusal = getattr(error, "original", error)
        if isinstance(refusal, REFUSALS) and interaction.type is not discord.InteractionType.autocomplete:
            await self.controller.refuse(interaction, refusal)  # after a "thinking…" too: send() follows up
            return
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
        try:
            await send(interaction, notice=notice(lg, key, params=params), ephemeral=True)
        except discord.HTTPException:
            log.warning("could not send the error reply: %s", t("en", key, **params))


def _on_message(message: discord.Message | None, custom_id: str) -> bool:
    """Whether ``custom_id`` is a control of ``message``: in its rows, or nested in a Components V2 message."""
    return message is not None and custom_id in custom_ids(message.components)


def create_bot(config: Config, *, seed: Callable[[], int] | None = None) -> SoloBot:
    """The bot, configured; ``seed`` (a function returning an int) fixes new games' seeds for tests."""
    return SoloBot(config, seed=seed)
