"""Play a real discord.py client through the stand-in: slash commands, button presses, forms, autocomplete.

    async with StandIn() as standin:
        async with standin.connect(bot) as driver:      # Driver(standin, bot, timeout=None, token=None)
            reply = await driver.slash("<game> start", {"difficulty": "wizard", "dice": "table"},
                                       user="haruka", channel="session", locale="ja")
            reply = await driver.press(reply.buttons[0]["custom_id"], message=reply.original)
            opened = await driver.press("…:reveal")
            reply = await driver.submit(opened.modal["custom_id"], {"cards": "12, 31"})
            choices = await driver.autocomplete("<game> die", {"face": "cry"}, focused="face")

Entering logs the client in (Route.BASE and the gateway URL are set for the duration and restored on
exit; the client's `guild_ready_timeout` is made tiny) and waits until it is ready. Option values are typed
per the command schema: what the bot synced to the stand-in if it did, else its command tree, translated
as a sync would send it (`driver.refresh_schema()` after a sync). A choice is picked by its value or by its
name in any language, forgiving as card names are, by the beginning of one of them, or by a word one typo
away from only one of them. What Discord's client itself would refuse (unknown command or option, a missing
required option, a value outside the choices or bounds, a disabled button, a form field that is missing or
too long) raises `DriverError(key, **params)`.

When a reply is complete: an interaction is *answered* by an initial response of type 4 (message),
7 (update), 8 (autocomplete) or 9 (modal), or — after a deferral (type 5 or 6) — by the first edit of the
original or the first followup; a refused response (a 4xx the stand-in answered) also counts, so a broken
reply fails fast instead of timing out. A bot that says when it has finished with an interaction (the
project's bot: ``bot.handled(interaction_id)``, asked before the interaction is sent) is then waited for, so
the reply holds everything the bot sent for it — trailing followups, the result posted in the parent channel,
the followup sent after a 429. Another client (or ``settle=False``, the benchmarks) returns at the answer: a
test then waits for the later messages it expects with ``reply.until(predicate)``. Nothing here waits for a
quiet moment. If nothing answers within `timeout`, `NoReply` is raised; a bot that finished without
answering raises it at once.

Late and repeated delivery: `late=3.5` on `slash`/`press`/`submit` delivers an interaction created 3.5 s
ago (its snowflake carries that time, and the stand-in's deadline counts from it, as Discord's does): the
reply is then complete at the first thing the bot sends or has refused, without waiting for the deadline.
(The tests' driver, tests/support/standin, also delivers an interaction once more, as a RESUME may.)

Channel posts: a message the bot posts to a channel while a reply is collecting belongs to that reply
when it is in the interaction's channel, its parent (a game in a thread posting to the parent channel),
or a thread under it.
"""

from __future__ import annotations

import asyncio
import contextlib
import time
from collections.abc import Callable
from dataclasses import dataclass
from typing import Any

import discord
import yarl
from discord.gateway import DiscordWebSocket
from discord.http import Route

from engine.core import fold, one_edit

from .controls import walk
from .protocol import (
    APPLICATION_COMMAND,
    AUTOCOMPLETE,
    AUTOCOMPLETE_RESULT,
    CHANNEL_MESSAGE,
    EPHEMERAL,
    IS_COMPONENTS_V2,
    JSON,
    MESSAGE_COMPONENT,
    MODAL,
    MODAL_SUBMIT,
    UPDATE_MESSAGE,
    Activity,
    File,
    InteractionRecord,
    Server,
    StoredMessage,
)
from .world import DISCORD_EPOCH_MS, Channel, User

ANSWERS = {CHANNEL_MESSAGE, UPDATE_MESSAGE, AUTOCOMPLETE_RESULT, MODAL}
SUB_COMMAND, SUB_COMMAND_GROUP = 1, 2
STRING, INTEGER, BOOLEAN, USER, CHANNEL, ROLE, MENTIONABLE, NUMBER, ATTACHMENT = 3, 4, 5, 6, 7, 8, 9, 10, 11
PRESSABLE = {2, 3, 5, 6, 7, 8}  # buttons and select menus
# Components V2 (Discord's component types): what the driver reads of a V2 message.
TEXT_DISPLAY, THUMBNAIL, MEDIA_GALLERY, FILE_COMPONENT = 10, 11, 12, 13
ATTACHMENT_SCHEME = "attachment://"
# A boolean option as typed in the console, in either language.
BOOLEAN_WORDS = {"true": True, "yes": True, "1": True, "はい": True,
                 "false": False, "no": False, "0": False, "いいえ": False}


class DriverError(Exception):
    """An interaction Discord's own client would not let the user send (unknown command, bad option...).

    `key` names the problem for the console's translations; `params` fill its template."""

    def __init__(self, key: str, **params: Any) -> None:
        super().__init__(f"{key}: {params}")
        self.key, self.params = key, params


class NoReply(TimeoutError):
    """The bot did not answer the interaction in time; `reply` holds what arrived."""

    def __init__(self, reply: Reply) -> None:
        super().__init__(f"no answer to interaction {reply.interaction_id}")
        self.reply = reply


def pressable(payload: JSON) -> list[JSON]:
    """Buttons and select menus of a message, numbered as the console numbers them: in reading order —
    rows top to bottom, each row left to right, components inside containers and sections included (a
    section's accessory after its text)."""
    return [c for c in walk(payload.get("components") or []) if c.get("type") in PRESSABLE]


def text_displays(components: list[JSON]) -> list[str]:
    """The content of every Text Display (type 10) in reading order, nested in containers and sections too."""
    return [str(c["content"]) for c in walk(components)
            if c.get("type") == TEXT_DISPLAY and isinstance(c.get("content"), str)]


def media_urls(components: list[JSON]) -> list[str]:
    """The media a message's components show, in reading order: a Media Gallery's items, a Thumbnail's
    image, a File component's file (``attachment://board.png`` for an uploaded one)."""
    found: list[str] = []
    for comp in walk(components):
        kind = comp.get("type")
        if kind == MEDIA_GALLERY:
            found += [str((item.get("media") or {}).get("url") or "") for item in comp.get("items") or []]
        elif kind == THUMBNAIL:
            found.append(str((comp.get("media") or {}).get("url") or ""))
        elif kind == FILE_COMPONENT:
            found.append(str((comp.get("file") or {}).get("url") or ""))
    return [url for url in found if url]


def message_text(payload: JSON) -> list[str]:
    """A message's visible text, in order: its content, its embeds (titles, descriptions, fields, footers)
    and its Text Displays (Components V2: a message may hold both kinds of reply, one kind each)."""
    parts = [payload.get("content") or ""]
    for embed in payload.get("embeds") or []:
        parts += [embed.get("title") or "", embed.get("description") or ""]
        for fld in embed.get("fields") or []:
            parts += [fld.get("name") or "", fld.get("value") or ""]
        parts.append((embed.get("footer") or {}).get("text") or "")
    parts += text_displays(payload.get("components") or [])
    return [p for p in parts if p]


def attachment_name(url: str) -> str | None:
    """``attachment://board.png`` → ``board.png``; None for any other url."""
    return url[len(ATTACHMENT_SCHEME):] if url.startswith(ATTACHMENT_SCHEME) else None


@dataclass
class Message:
    """One message of a reply, in its final state: what the bot sent (edits merged) and its files."""

    id: int
    channel_id: int
    payload: JSON  # content, embeds, components, flags... as the bot sent them
    files: list[File]
    ephemeral: bool
    kind: str  # original, followup, channel

    @property
    def buttons(self) -> list[JSON]:
        return pressable(self.payload)

    @property
    def text(self) -> str:
        """Its visible text (content, embeds, Text Displays nested anywhere), one part a line."""
        return "\n".join(message_text(self.payload))

    @property
    def v2(self) -> bool:
        """Whether it is a Components V2 message (flag 1 << 15: its text is in its components)."""
        return bool(int(self.payload.get("flags") or 0) & IS_COMPONENTS_V2)

    @property
    def media(self) -> list[File]:
        """The files its components show (a Media Gallery's ``attachment://board.png``, a Thumbnail, a File
        component), resolved to the message's attachments by name, in reading order."""
        by_name = {f.filename: f for f in self.files}
        names = [attachment_name(url) for url in media_urls(self.payload.get("components") or [])]
        return [by_name[name] for name in names if name is not None and name in by_name]


class Reply:
    """Everything the bot sent for one interaction (see the module docstring for when it is complete)."""

    def __init__(self, standin: Server, record: InteractionRecord) -> None:
        self.standin = standin
        self.record = record
        self.activities: list[Activity] = []
        self._answered = asyncio.Event()
        self._wake = asyncio.Event()  # set on any activity
        self._order: list[tuple[int, str]] = []  # (message id, kind) in order of first appearance
        self.late = False  # delivered past the deadline: complete at the bot's first (refused) attempt
        # time.perf_counter() when the stand-in took the first answer: what the player would see, whatever the
        # bot still does afterwards before this driver's coroutine runs again (the benches' latency)
        self.answered_at: float | None = None

    # -- collecting --

    def observe(self, record: InteractionRecord, activity: Activity) -> None:
        self.activities.append(activity)
        self._wake.set()
        if activity.kind == "response":
            if activity.payload.get("type") in ANSWERS:
                self._answer()
            kind = "original"
        elif activity.kind in ("edit", "followup", "rejected"):
            self._answer()
            kind = "original" if activity.message_id == record.original_id else "followup"
        else:
            kind = activity.kind
        if activity.message_id is not None and activity.message_id not in {m for m, _ in self._order}:
            self._order.append((activity.message_id, kind))

    def _answer(self) -> None:
        if not self._answered.is_set():
            self.answered_at = time.perf_counter()
            self._answered.set()

    def observe_channel(self, message: StoredMessage) -> None:
        channel = self.record.channel
        posted = self.standin.world.find_channel(message.channel_id)
        same = message.channel_id == channel.id
        parent = channel.parent_id is not None and message.channel_id == channel.parent_id
        child = posted is not None and posted.parent_id == channel.id
        if same or parent or child:
            self.activities.append(Activity("channel", message.sent, message.files, message.id))
            self._order.append((message.id, "channel"))
            self._wake.set()

    async def wait(self, timeout: float, handled: asyncio.Future[None] | None) -> None:
        """Until answered (NoReply after `timeout`, as soon as the response deadline passed with no initial
        response at all — Discord's "This interaction failed" — or when the bot finished without answering),
        then until the bot has finished with the interaction (``handled``, when it says so)."""
        give_up = time.monotonic() + timeout
        while not self._answered.is_set():
            limit = give_up
            if not self.record.responded and not self.late:
                limit = min(limit, self.record.created + self.standin.deadline + 0.25)
            if time.monotonic() >= limit or (handled is not None and handled.done()):
                raise NoReply(self)
            self._wake.clear()
            waits = {asyncio.ensure_future(self._wake.wait())} | ({handled} if handled is not None else set())
            _, pending = await asyncio.wait(waits, timeout=limit - time.monotonic(), return_when=asyncio.FIRST_COMPLETED)
            for waiting in pending - {handled}:
                waiting.cancel()
        if handled is not None:
            try:
                await asyncio.wait_for(asyncio.shield(handled), give_up - time.monotonic())
            except TimeoutError:
                raise NoReply(self) from None

    async def until(self, done: Callable[[Reply], bool], timeout: float = 30.0) -> Reply:
        """Wait for more of this interaction's messages until ``done(self)`` holds (a followup or a post that a
        bot which does not say when it is done sends after its answer). Counts what arrived, not time:
        ``timeout`` only bounds a wait for something that never comes (then AssertionError)."""
        give_up = time.monotonic() + timeout
        while not done(self):
            if time.monotonic() >= give_up:
                raise AssertionError(f"still waiting for a message after {timeout} s: {self.text[:500]}")
            self._wake.clear()
            with contextlib.suppress(TimeoutError):
                await asyncio.wait_for(self._wake.wait(), give_up - time.monotonic())
        return self

    # -- reading --

    @property
    def interaction_id(self) -> int:
        return self.record.id

    @property
    def answered(self) -> bool:
        return self._answered.is_set()

    @property
    def response_type(self) -> int | None:
        """The initial response's type: 4 message, 5 deferred, 6 deferred update, 7 update, 8 choices, 9 modal."""
        return self.record.response_type

    @property
    def response(self) -> JSON | None:
        """The `data` of the initial response as the bot sent it."""
        for activity in self.activities:
            if activity.kind == "response":
                return activity.payload.get("data") or {}
        return None

    @property
    def deferred(self) -> bool:
        return self.response_type in (5, 6)

    @property
    def ephemeral(self) -> bool:
        original = self.standin.messages.get(self.record.original_id or 0)
        return bool(original and original.payload["flags"] & EPHEMERAL)

    @property
    def modal(self) -> JSON | None:
        return self.response if self.response_type == MODAL else None

    @property
    def choices(self) -> list[JSON] | None:
        return (self.response or {}).get("choices", []) if self.response_type == AUTOCOMPLETE_RESULT else None

    @property
    def edits(self) -> list[Activity]:
        return [a for a in self.activities if a.kind == "edit"]

    @property
    def followups(self) -> list[Activity]:
        return [a for a in self.activities if a.kind == "followup"]

    @property
    def rejections(self) -> list[JSON]:
        """Error bodies the stand-in answered the bot's requests for this interaction with."""
        return [a.payload for a in self.activities if a.kind == "rejected"]

    @property
    def messages(self) -> list[Message]:
        """The messages of this reply in their final state: the original, followups, channel posts."""
        found = []
        for message_id, kind in self._order:
            stored = self.standin.messages.get(message_id)
            if stored is None:  # deleted
                continue
            found.append(Message(stored.id, stored.channel_id, dict(stored.sent), list(stored.files),
                                 bool(stored.payload["flags"] & EPHEMERAL), kind))
        return found

    @property
    def original(self) -> Message | None:
        return next((m for m in self.messages if m.id == self.record.original_id), None)

    @property
    def files(self) -> list[File]:
        return [f for m in self.messages for f in m.files]

    @property
    def buttons(self) -> list[JSON]:
        """Buttons and selects of the last message of this reply that has any."""
        for message in reversed(self.messages):
            if message.buttons:
                return message.buttons
        return []

    @property
    def text(self) -> str:
        """All visible text of the reply's messages: content, embed titles, descriptions, fields, footers, and
        every Text Display (Components V2), nested in containers and sections too."""
        return "\n".join(part for message in self.messages for part in message_text(message.payload))

    @property
    def media(self) -> list[File]:
        """The files the reply's messages show in their components (a V2 reply's board picture)."""
        return [f for m in self.messages for f in m.media]


class Driver:
    """`async with standin.connect(bot) as driver:` — logs the client in and plays interactions."""

    def __init__(self, standin: Server, bot: discord.Client, *, timeout: float | None = None,
                 ready_timeout: float = 15.0, token: str | None = None) -> None:
        self.standin = standin
        self.token = token if token is not None else standin.bot_token
        self.bot = bot
        self.timeout = timeout if timeout is not None else standin.deadline + 5.0
        self.ready_timeout = ready_timeout
        self.schema: list[JSON] = []
        self._modals: dict[str, tuple[JSON, InteractionRecord]] = {}
        self._task: asyncio.Task[None] | None = None
        self._saved: tuple[str, yarl.URL] | None = None

    async def __aenter__(self) -> Driver:
        self._saved = (Route.BASE, DiscordWebSocket.DEFAULT_GATEWAY)
        Route.BASE = self.standin.api_base
        DiscordWebSocket.DEFAULT_GATEWAY = yarl.URL(self.standin.gateway_url)
        # The stand-in sends every GUILD_CREATE right after READY: no need to wait 2 s for stragglers.
        self.bot._connection.guild_ready_timeout = 0.05
        try:
            await self.bot.login(self.token)
            self._task = asyncio.create_task(self.bot.connect(reconnect=False))
            ready = asyncio.create_task(self.bot.wait_until_ready())
            done, _ = await asyncio.wait({ready, self._task}, timeout=self.ready_timeout,
                                         return_when=asyncio.FIRST_COMPLETED)
            if ready not in done:
                ready.cancel()
                if self._task in done:
                    self._task.result()  # raises what stopped the client
                raise TimeoutError("the client did not become ready on the stand-in")
            await self._load_schema()
        except BaseException:
            await self._shutdown()
            raise
        return self

    async def __aexit__(self, *exc: object) -> None:
        await self._shutdown()

    async def _shutdown(self) -> None:
        with contextlib.suppress(Exception):
            await self.bot.close()
        if self._task is not None:
            with contextlib.suppress(Exception, asyncio.CancelledError):
                await asyncio.wait_for(self._task, 5.0)
        if self._saved is not None:
            Route.BASE, DiscordWebSocket.DEFAULT_GATEWAY = self._saved
            self._saved = None

    def refresh_schema(self) -> None:
        """The command schema: what the bot synced to the stand-in, else what its command tree holds."""
        synced = [c for commands in self.standin.commands.values() for c in commands]
        tree = getattr(self.bot, "tree", None)
        self.schema = synced or [c.to_dict(tree) | extra for c, extra in self._tree_commands()]

    async def _load_schema(self) -> None:
        """``refresh_schema``, except that a schema from a command tree with a translator is translated as a sync
        would send it, so a choice can be picked by the name Discord's client shows in any language."""
        tree = getattr(self.bot, "tree", None)
        if self.standin.commands or tree is None or tree.translator is None:
            self.refresh_schema()
            return
        self.schema = [await c.get_translated_payload(tree, tree.translator) | extra
                       for c, extra in self._tree_commands()]

    def _tree_commands(self) -> list[tuple[Any, JSON]]:
        """The commands of the bot's tree, global then each guild's, with the fields that say where."""
        tree = getattr(self.bot, "tree", None)
        if tree is None:
            return []
        found: list[tuple[Any, JSON]] = [(c, {}) for c in tree.get_commands()]
        for guild in self.standin.world.guilds:
            found += [(c, {"guild_id": str(guild.id)}) for c in tree.get_commands(guild=discord.Object(guild.id))]
        return found

    # -- interactions --

    async def slash(self, name: str, options: dict[str, Any] | None = None, *, user: User | str | None = None,
                    channel: Channel | str | None = None, locale: str | None = None, settle: bool = True,
                    timeout: float | None = None, anywhere: bool = False, late: float = 0.0) -> Reply:
        """Run `/name` (e.g. "game status") with options typed per the command's schema. Like Discord's
        client, only where the command is offered (its `contexts`: 0 server, 1 DM with the bot, 2 group DM);
        `anywhere=True` sends it all the same, as an outdated registration or a forged client could. `late`:
        delivered that many seconds after its creation."""
        data = self._command_data(name, options or {}, focused=None, locale=locale or self.standin.world.user(user).locale)
        if not anywhere:
            self._check_context(name, channel)
        return await self._run(APPLICATION_COMMAND, data, user, channel, locale, None, settle, timeout, late)

    def _check_context(self, name: str, channel: Channel | str | None) -> None:
        top, path, _ = self.find_command(name)
        contexts = top.get("contexts")
        place = self.standin.world.channel(channel)
        context = 0 if place.guild_id is not None else (1 if place.type == 1 else 2)
        if contexts is not None and context not in contexts:
            raise DriverError("console.error.unknown_command", command="/" + " ".join(path),
                              choices="-")

    async def autocomplete(self, name: str, options: dict[str, Any], *, focused: str,
                           user: User | str | None = None, channel: Channel | str | None = None,
                           locale: str | None = None, timeout: float | None = None,
                           anywhere: bool = False) -> list[JSON]:
        """The choices the bot offers while `focused` is being typed (its value so far in `options`)."""
        data = self._command_data(name, options, focused=focused)
        if not anywhere:
            self._check_context(name, channel)
        reply = await self._run(AUTOCOMPLETE, data, user, channel, locale, None, False, timeout)
        return reply.choices or []

    async def press(self, custom_id: str, *, message: Message | StoredMessage | int | None = None,
                    values: list[str] | None = None, user: User | str | None = None, locale: str | None = None,
                    settle: bool = True, timeout: float | None = None, late: float = 0.0) -> Reply:
        """Press the button (or choose `values` in the select menu) `custom_id` on a message the bot sent
        (by default the latest message that has it)."""
        stored = self._message_with(custom_id, message)
        component = next(c for c in pressable(stored.payload) if c.get("custom_id") == custom_id)
        if component.get("disabled"):
            raise DriverError("console.error.disabled", label=component.get("label") or custom_id)
        data: dict[str, Any] = {"custom_id": custom_id, "component_type": component["type"]}
        if component["type"] != 2:
            data["values"] = list(values or [])
        channel = self.standin.world.find_channel(stored.channel_id)
        return await self._run(MESSAGE_COMPONENT, data, user, channel, locale, stored, settle, timeout, late)

    async def submit(self, custom_id: str, fields: dict[str, str], *, user: User | str | None = None,
                     locale: str | None = None, settle: bool = True, timeout: float | None = None,
                     late: float = 0.0) -> Reply:
        """Fill and submit the form `custom_id` the bot opened; fields by text input custom_id or label."""
        if custom_id not in self._modals:
            raise DriverError("console.error.no_form")
        modal, opener = self._modals[custom_id]
        components = self._modal_answers(modal, fields)
        message = self.standin.messages.get(opener.message_id or 0)
        data = {"custom_id": custom_id, "components": components}
        return await self._run(MODAL_SUBMIT, data, user or opener.user, opener.channel, locale, message, settle,
                               timeout, late)

    @property
    def open_modal(self) -> JSON | None:
        """The form the bot opened last (custom_id, title, components), if any."""
        return next(reversed(self._modals.values()))[0] if self._modals else None

    async def _run(self, type_: int, data: JSON, user: Any, channel: Any, locale: str | None,
                   message: StoredMessage | None, settle: bool, timeout: float | None,
                   late: float = 0.0) -> Reply:
        world = self.standin.world
        record = self.standin.new_interaction(type_, data, user=world.user(user), channel=world.channel(channel),
                                              locale=locale, message=message)
        if late:
            self._backdate(record, late)
        reply = Reply(self.standin, record)
        reply.late = late >= self.standin.deadline
        record.observers.append(reply.observe)
        stop_watching = self.standin.watch_channels(reply.observe_channel)
        handled = self._handled(record.id) if settle else None
        try:
            await self.standin.dispatch(record, late=late)
            await reply.wait(self.timeout if timeout is None else timeout, handled)
        finally:
            stop_watching()
            if handled is not None:
                handled.cancel()
        if reply.response_type == MODAL and reply.modal:
            self._modals.pop(reply.modal["custom_id"], None)
            self._modals[reply.modal["custom_id"]] = (reply.modal, record)
        return reply

    def _handled(self, interaction_id: int) -> asyncio.Future[None] | None:
        """The bot's own word that it has finished with the interaction, when it gives one (``handled``)."""
        handled = getattr(self.bot, "handled", None)
        return handled(interaction_id) if callable(handled) else None

    def _backdate(self, record: InteractionRecord, late: float) -> None:
        """Give the interaction an id created `late` seconds ago, as Discord's would be when it arrives late."""
        ms = int((time.time() - late) * 1000) - DISCORD_EPOCH_MS
        new_id = (ms << 22) | (self.standin.ids.next() & 0x3FFFFF)
        self.standin.interactions.pop(record.id, None)
        record.id = new_id
        record.payload["id"] = str(new_id)
        self.standin.interactions[new_id] = record

    # -- building payloads --

    def find_command(self, name: str) -> tuple[JSON, list[str], list[JSON]]:
        """(top-level command, path of names, the leaf's option schemas) for "game status"."""
        words = name.strip().lstrip("/").split()
        top = next((c for c in self.schema if words and c["name"] == words[0] and c.get("type", 1) == 1), None)
        if top is None:
            raise DriverError("console.error.unknown_command", command="/" + " ".join(words))
        node, path = top, [words[0]]
        for word in words[1:]:
            sub = next((o for o in node.get("options") or []
                        if o["name"] == word and o["type"] in (SUB_COMMAND, SUB_COMMAND_GROUP)), None)
            if sub is None:
                raise DriverError("console.error.unknown_command", command="/" + " ".join(words))
            node, path = sub, path + [word]
        leaf_options = node.get("options") or []
        if any(o["type"] in (SUB_COMMAND, SUB_COMMAND_GROUP) for o in leaf_options):
            raise DriverError("console.error.incomplete_command", command="/" + " ".join(words),
                              choices=", ".join(o["name"] for o in leaf_options))
        return top, path, leaf_options

    def command_names(self) -> list[str]:
        """Every runnable command's full name ("game status", "game undo", ...)."""
        names = []

        def walk(prefix: list[str], node: JSON) -> None:
            subs = [o for o in node.get("options") or [] if o["type"] in (SUB_COMMAND, SUB_COMMAND_GROUP)]
            if not subs:
                names.append(" ".join(prefix))
            for sub in subs:
                walk(prefix + [sub["name"]], sub)

        for command in self.schema:
            if command.get("type", 1) == 1:
                walk([command["name"]], command)
        return names

    def _command_data(self, name: str, options: dict[str, Any], *, focused: str | None,
                      locale: str | None = None) -> JSON:
        top, path, schemas = self.find_command(name)
        resolved: dict[str, JSON] = {}
        typed = []
        by_name = {o["name"]: o for o in schemas}
        for key, value in options.items():
            schema = by_name.get(key)
            if schema is None:
                raise DriverError("console.error.unknown_option", option=key, command="/" + " ".join(path),
                                  choices=", ".join(by_name) or "-")
            if key == focused:
                typed.append({"name": key, "type": schema["type"], "value": str(value), "focused": True})
            else:
                typed.append({"name": key, "type": schema["type"],
                              "value": self._typed(schema, value, resolved, locale)})
        given = set(options)
        missing = [o["name"] for o in schemas if o.get("required") and o["name"] not in given]
        if missing and focused is None:
            raise DriverError("console.error.missing_option", option=", ".join(missing),
                              command="/" + " ".join(path))
        for depth, word in enumerate(reversed(path[1:])):
            typed = [{"name": word, "type": SUB_COMMAND if depth == 0 else SUB_COMMAND_GROUP, "options": typed}]
        data: dict[str, Any] = {"id": top.get("id", "1"), "name": top["name"], "type": 1, "options": typed}
        if top.get("guild_id"):
            data["guild_id"] = top["guild_id"]
        if resolved:
            data["resolved"] = resolved
        return data

    def _typed(self, schema: JSON, value: Any, resolved: dict[str, JSON], locale: str | None = None) -> Any:
        """The value as Discord's client sends it for this option type (a choice picked by its value or by the
        name the client shows, in any language: see ``_chosen``)."""
        kind, name = schema["type"], schema["name"]
        choices = schema.get("choices") or []
        if choices:
            chosen = _chosen(choices, str(value))
            if chosen is None:
                raise DriverError("console.error.bad_choice", option=name, value=value,
                                  choices=choice_names(choices, locale))
            return chosen["value"]
        if kind == STRING:
            text = str(value)
            low, high = schema.get("min_length", 0), schema.get("max_length", 6000)
            if not low <= len(text) <= high:
                raise DriverError("console.error.bad_length", option=name, low=low, high=high, length=len(text))
            return text
        if kind in (INTEGER, NUMBER):
            low, high = schema.get("min_value"), schema.get("max_value")
            try:
                number = int(value) if kind == INTEGER else float(value)
            except (ValueError, TypeError):
                number = None
            if number is None or (low is not None and number < low) or (high is not None and number > high):
                key = "console.error.bad_integer" if kind == INTEGER else "console.error.bad_number"
                raise DriverError(key, option=name, value=value, low="−∞" if low is None else low,
                                  high="∞" if high is None else high)
            return number
        if kind == BOOLEAN:
            if isinstance(value, bool):
                return value
            if str(value).casefold() in BOOLEAN_WORDS:
                return BOOLEAN_WORDS[str(value).casefold()]
            raise DriverError("console.error.bad_boolean", option=name, value=value)
        try:
            if kind in (USER, MENTIONABLE):
                user = self.standin.world.user(value)
                resolved.setdefault("users", {})[str(user.id)] = user.payload()
                member = user.member_payload()
                member.pop("user")
                resolved.setdefault("members", {})[str(user.id)] = member
                return str(user.id)
            if kind == CHANNEL:
                channel = self.standin.world.channel(value)
                resolved.setdefault("channels", {})[str(channel.id)] = channel.payload() | {"permissions": "0"}
                return str(channel.id)
        except (ValueError, KeyError, TypeError):
            raise DriverError("console.error.bad_value", option=name, value=value) from None
        raise DriverError("console.error.unsupported_option", option=name)

    def _message_with(self, custom_id: str, message: Any) -> StoredMessage:
        if isinstance(message, Message | StoredMessage):
            message = message.id
        candidates = [self.standin.messages.get(message)] if message is not None else \
            reversed(list(self.standin.messages.values()))
        for stored in candidates:
            if stored and any(c.get("custom_id") == custom_id for c in pressable(stored.payload)):
                return stored
        raise DriverError("console.error.no_button", number=custom_id)

    def _modal_answers(self, modal: JSON, fields: dict[str, str]) -> list[JSON]:
        inputs = []  # (row type, row, text input)
        for row in modal.get("components") or []:
            if row.get("type") == 1:
                inputs += [(1, row, c) for c in row.get("components") or []]
            elif row.get("type") == 18:
                inputs.append((18, row, row.get("component") or {}))
        answers: dict[str, str] = {}
        for key, value in fields.items():
            match = next((c for _, row, c in inputs if key.casefold() in (
                str(c.get("custom_id", "")).casefold(), str(c.get("label") or row.get("label") or "").casefold())),
                None)
            if match is None:
                raise DriverError("console.error.unknown_field", field=key,
                                  choices=", ".join(str(c.get("custom_id")) for _, _, c in inputs))
            answers[match["custom_id"]] = str(value)
        components = []
        for row_type, row, comp in inputs:
            value = answers.get(comp.get("custom_id"), comp.get("value") or "")
            if comp.get("required", True) and not value:
                raise DriverError("console.error.missing_field", field=comp.get("custom_id"))
            if len(value) > comp.get("max_length", 4000) or (value and len(value) < comp.get("min_length", 0)):
                raise DriverError("console.error.bad_value", option=comp.get("custom_id"), value=value)
            answer = {"type": 4, "custom_id": comp["custom_id"], "value": value}
            if row_type == 18:
                components.append({"type": 18, "id": row.get("id", 0), "component": answer})
            else:
                components.append({"type": 1, "components": [answer]})
        return components


def choice_names(choices: list[JSON], locale: str | None, sep: str | None = None) -> str:
    """The choices as the player's client lists them: by their names in ``locale`` when the command gives
    them (見習い／魔法使い／大魔導師 in Japanese), else by the values one types (``apprentice, wizard``)."""
    names = [(c.get("name_localizations") or {}).get(locale or "") or str(c["value"]) for c in choices]
    localized = any((c.get("name_localizations") or {}).get(locale or "") for c in choices)
    return (sep or ("／" if localized else ", ")).join(names)


def _chosen(choices: list[JSON], typed: str) -> JSON | None:
    """The choice ``typed`` names: by its value or its name in any language (``ノーマル`` as well as
    ``normal``), forgiving as card names are (``engine.core.fold``: case, width, separators); else the one
    choice whose value or name it begins (``ボットのダイス`` for 「ボットのダイス（ボットが振る）」); else the one
    it misses by a single typo (``engine.core.one_edit``: a command's spelling for the game's name it differs
    from by one letter) — as Discord's client narrows its list while one types. None when it names none, or
    several."""
    want = fold(typed)

    def names(choice: JSON) -> set[str]:
        return {fold(str(n)) for n in (choice["value"], choice["name"],
                                        *(choice.get("name_localizations") or {}).values())}

    exact = [c for c in choices if want in names(c)]
    if exact:
        return exact[0]
    if len(want) < 2:
        return None
    for fits in (lambda n: n.startswith(want), lambda n: one_edit(want, n)):
        found = [c for c in choices if any(fits(n) for n in names(c))]
        if found:
            return found[0] if len(found) == 1 else None
    return None
