"""A stand-in for Discord's REST API and gateway on 127.0.0.1, for a real discord.py client.

One aiohttp server holds both: REST under `/api/v10`, the gateway websocket at `/gateway`. It keeps a
world (guilds, channels, users), every message the bot sent, the commands it synced, and the interactions
it was sent, and it enforces what Discord enforces — one initial response per interaction, the response
deadline, the webhook token's lifetime, payload limits — answering with Discord's error codes and
recording each refusal in `violations`.
"""

from __future__ import annotations

import asyncio
import contextlib
import json
import logging
import re
import secrets
import time
from collections.abc import Awaitable, Callable
from dataclasses import dataclass, field
from typing import Any

from aiohttp import WSMsgType, web

from . import limits
from .world import BOT_PERMISSIONS, Channel, Snowflakes, User, World, iso_now

log = logging.getLogger(__name__)

API = "/api/v10"
EPHEMERAL = 1 << 6
LOADING = 1 << 7
DEFAULT_ATTACHMENT_LIMIT = 10 * 1024 * 1024  # Discord's limit for a server without boosts

# Interaction types and callback types (Discord's numbers).
PING, APPLICATION_COMMAND, MESSAGE_COMPONENT, AUTOCOMPLETE, MODAL_SUBMIT = 1, 2, 3, 4, 5
CHANNEL_MESSAGE, DEFERRED_MESSAGE, DEFERRED_UPDATE, UPDATE_MESSAGE, AUTOCOMPLETE_RESULT, MODAL = 4, 5, 6, 7, 8, 9
ALLOWED_CALLBACKS = {
    APPLICATION_COMMAND: {CHANNEL_MESSAGE, DEFERRED_MESSAGE, MODAL},
    MESSAGE_COMPONENT: {CHANNEL_MESSAGE, DEFERRED_MESSAGE, DEFERRED_UPDATE, UPDATE_MESSAGE, MODAL},
    AUTOCOMPLETE: {AUTOCOMPLETE_RESULT},
    MODAL_SUBMIT: {CHANNEL_MESSAGE, DEFERRED_MESSAGE, DEFERRED_UPDATE, UPDATE_MESSAGE},
}

# A validator sees every JSON body the bot sends: (kind, method, path, body) -> list of problems.
# kind is one of "callback", "webhook", "channel_message", "commands".
Validator = Callable[[str, str, str, Any], list[str]]


class DiscordError(Exception):
    """An error response in Discord's format."""

    def __init__(self, status: int, code: int, message: str, errors: dict | None = None, kind: str = "") -> None:
        super().__init__(message)
        self.status, self.code, self.message, self.errors, self.kind = status, code, message, errors, kind

    def body(self) -> dict:
        data: dict[str, Any] = {"message": self.message, "code": self.code}
        if self.errors:
            data["errors"] = self.errors
        return data


def invalid_form(errors: dict, kind: str) -> DiscordError:
    return DiscordError(400, 50035, "Invalid Form Body", errors, kind)


@dataclass
class File:
    filename: str
    data: bytes
    content_type: str | None = None


@dataclass
class Violation:
    """A request the stand-in refused (as Discord would) — tests assert there are none."""

    kind: str  # double_response, late_response, expired_token, limits, empty_message, ...
    method: str
    path: str
    status: int
    code: int
    message: str
    errors: dict | None = None
    interaction_id: int | None = None


@dataclass
class StoredMessage:
    """A message as Discord holds it (`payload`), what the bot sent for it (`sent`, edits merged), files."""

    payload: dict
    sent: dict
    files: list[File] = field(default_factory=list)

    @property
    def id(self) -> int:
        return int(self.payload["id"])

    @property
    def channel_id(self) -> int:
        return int(self.payload["channel_id"])


@dataclass
class Activity:
    """One thing the bot did for an interaction (or in a channel while it was open)."""

    kind: str  # response, edit, followup, channel, delete, rejected
    payload: dict  # the JSON body (for a callback: the whole body with type and data)
    files: list[File] = field(default_factory=list)
    message_id: int | None = None


@dataclass
class InteractionRecord:
    id: int
    token: str
    type: int
    channel: Channel
    user: User
    payload: dict
    message_id: int | None = None  # the message a component/modal interaction came from
    created: float = 0.0  # monotonic time of dispatch
    response_type: int | None = None
    original_id: int | None = None
    observers: list[Callable[[InteractionRecord, Activity], None]] = field(default_factory=list)

    @property
    def responded(self) -> bool:
        return self.response_type is not None


class GatewaySession:
    def __init__(self, session_id: str) -> None:
        self.id = session_id
        self.ws: web.WebSocketResponse | None = None
        self.seq = 0
        self.lock = asyncio.Lock()

    @property
    def open(self) -> bool:
        return self.ws is not None and not self.ws.closed

    async def send(self, op: int, data: Any, event: str | None = None) -> None:
        async with self.lock:
            if not self.open:
                raise ConnectionError("the bot's gateway connection is closed")
            frame: dict[str, Any] = {"op": op, "d": data, "s": None, "t": event}
            if op == 0:
                self.seq += 1
                frame["s"] = self.seq
            await self.ws.send_str(json.dumps(frame))


class StandIn:
    """`async with StandIn() as standin:` — the server runs on 127.0.0.1 on a free port."""

    def __init__(
        self,
        world: World | None = None,
        *,
        deadline: float = 3.0,
        token_lifetime: float = 15 * 60.0,
        attachment_size_limit: int = DEFAULT_ATTACHMENT_LIMIT,
        bot_token: str = "standin-bot-token",
    ) -> None:
        self.world = world or World.default()
        self.deadline = deadline
        self.token_lifetime = token_lifetime
        self.attachment_size_limit = attachment_size_limit
        self.bot_token = bot_token
        self.ids = Snowflakes()
        self.violations: list[Violation] = []
        self.unknown_routes: list[tuple[str, str]] = []
        self.requests: list[tuple[str, str]] = []
        self.messages: dict[int, StoredMessage] = {}
        self.synced: dict[int | None, list[dict]] = {}  # guild id (None: global) -> the body the bot PUT
        self.commands: dict[int | None, list[dict]] = {}  # the same with ids, as Discord answers
        self.interactions: dict[int, InteractionRecord] = {}
        self._by_token: dict[str, InteractionRecord] = {}
        self._validators: list[Validator] = []
        self._channel_observers: list[Callable[[StoredMessage], None]] = []
        self._sessions: dict[str, GatewaySession] = {}
        self._active: GatewaySession | None = None
        self._connected = asyncio.Event()
        self.resumes = 0
        self._runner: web.AppRunner | None = None
        self.port = 0
        self._routes = self._route_table()

    # -- lifecycle -------------------------------------------------------------------------------------------

    async def __aenter__(self) -> StandIn:
        await self.start()
        return self

    async def __aexit__(self, *exc: object) -> None:
        await self.close()

    async def start(self) -> None:
        app = web.Application(client_max_size=self.attachment_size_limit * 12)
        app.router.add_get("/gateway", self._gateway)
        app.router.add_route("*", "/{tail:.*}", self._rest)
        self._runner = web.AppRunner(app, access_log=None, handle_signals=False)
        await self._runner.setup()
        site = web.TCPSite(self._runner, "127.0.0.1", 0)
        await site.start()
        self.port = site._server.sockets[0].getsockname()[1]  # type: ignore[union-attr]

    async def close(self) -> None:
        for session in self._sessions.values():
            if session.open:
                await session.ws.close(code=1001)
        if self._runner is not None:
            await self._runner.cleanup()
            self._runner = None

    @property
    def base_url(self) -> str:
        return f"http://127.0.0.1:{self.port}"

    @property
    def api_base(self) -> str:
        """What `discord.http.Route.BASE` must be set to."""
        return self.base_url + API

    @property
    def gateway_url(self) -> str:
        """What `discord.gateway.DiscordWebSocket.DEFAULT_GATEWAY` must be set to."""
        return f"ws://127.0.0.1:{self.port}/gateway"

    def add_validator(self, validator: Validator) -> None:
        """Run `validator(kind, method, path, body)` on every JSON body the bot sends; problems it returns
        are refused with a 400 and recorded as violations of kind `validator`."""
        self._validators.append(validator)

    def watch_channels(self, observer: Callable[[StoredMessage], None]) -> Callable[[], None]:
        """Call `observer` for each message the bot posts to a channel; returns a function that stops it."""
        self._channel_observers.append(observer)
        return lambda: self._channel_observers.remove(observer)

    def connect(self, bot: Any, **options: Any) -> Any:
        """`async with standin.connect(bot) as driver:` — see bot.standin.driver.Driver."""
        from .driver import Driver

        return Driver(self, bot, **options)

    def channel_messages(self, channel: Channel | str | int) -> list[StoredMessage]:
        channel_id = self.world.channel(channel).id
        return [m for m in self.messages.values() if m.channel_id == channel_id]

    # -- interactions ----------------------------------------------------------------------------------------

    async def wait_connected(self, timeout: float = 10.0) -> None:
        await asyncio.wait_for(self._connected.wait(), timeout)

    def new_interaction(
        self, type_: int, data: dict, *, user: User, channel: Channel, locale: str | None = None,
        message: StoredMessage | None = None,
    ) -> InteractionRecord:
        """Build an INTERACTION_CREATE payload as Discord sends it (a guild interaction)."""
        guild = self.world.guild_of(channel)
        interaction_id = self.ids.next()
        token = "aW50ZXJhY3Rpb24" + secrets.token_urlsafe(48)
        member = user.member_payload()
        payload: dict[str, Any] = {
            "id": str(interaction_id),
            "application_id": str(self.world.application_id),
            "type": type_,
            "data": data,
            "guild_id": str(guild.id),
            "guild": {"id": str(guild.id), "locale": guild.locale, "features": []},
            "channel_id": str(channel.id),
            "channel": channel.payload(),
            "member": member,
            "token": token,
            "version": 1,
            "locale": locale or user.locale,
            "guild_locale": guild.locale,
            "app_permissions": str(BOT_PERMISSIONS),
            "entitlements": [],
            "entitlement_sku_ids": [],
            "authorizing_integration_owners": {"0": str(guild.id)},
            "context": 0,
            "attachment_size_limit": self.attachment_size_limit,
        }
        if message is not None:
            payload["message"] = message.payload
        record = InteractionRecord(interaction_id, token, type_, channel, user, payload,
                                   message_id=message.id if message else None)
        self.interactions[interaction_id] = record
        self._by_token[token] = record
        return record

    async def drop_connection(self, code: int = 4000) -> None:
        """Close the client's gateway connection as Discord does at times; discord.py resumes."""
        if self._active is not None and self._active.open:
            self._connected.clear()
            await self._active.ws.close(code=code)

    async def dispatch(self, record: InteractionRecord, *, late: float = 0.0) -> None:
        """Send INTERACTION_CREATE to the connected client (waiting up to 10 s for a reconnecting one);
        the response deadline starts now, or `late` seconds ago (an interaction delivered late)."""
        if not self._connected.is_set():
            with contextlib.suppress(TimeoutError):
                await self.wait_connected(10.0)
        session = self._active
        if session is None or not session.open:
            raise ConnectionError("no discord.py client is connected to the stand-in")
        record.created = time.monotonic() - late
        await session.send(0, record.payload, "INTERACTION_CREATE")

    # -- gateway ---------------------------------------------------------------------------------------------

    async def _gateway(self, request: web.Request) -> web.WebSocketResponse:
        # discord.py asks for `compress=zlib-stream` (or zstd-stream) in the URL, but it only decompresses
        # binary frames: text frames of plain JSON are read as they are, so the stand-in sends those.
        ws = web.WebSocketResponse(max_msg_size=0)
        await ws.prepare(request)
        session: GatewaySession | None = None
        await ws.send_str(json.dumps({"op": 10, "d": {"heartbeat_interval": 41250}, "s": None, "t": None}))
        async for msg in ws:
            if msg.type != WSMsgType.TEXT:
                continue
            frame = json.loads(msg.data)
            op, data = frame.get("op"), frame.get("d")
            if op == 1:  # heartbeat
                await ws.send_str(json.dumps({"op": 11, "d": None, "s": None, "t": None}))
            elif op == 2:  # identify
                if data.get("token") != self.bot_token:
                    await ws.close(code=4004, message=b"Authentication failed.")
                    break
                session = GatewaySession(secrets.token_hex(16))
                session.ws = ws
                self._sessions[session.id] = session
                await self._ready(session)
            elif op == 6:  # resume
                session = self._sessions.get(data.get("session_id"))
                if session is None or data.get("token") != self.bot_token:
                    await ws.send_str(json.dumps({"op": 9, "d": False, "s": None, "t": None}))
                    continue
                session.ws = ws
                self._active = session
                self.resumes += 1
                await session.send(0, {}, "RESUMED")
                self._connected.set()
            elif op == 8:  # request guild members: answer with the members we know
                await self._members_chunk(session, data)
        if session is not None and session is self._active and session.ws is ws:
            self._connected.clear()  # until the client resumes or identifies again
        return ws

    async def _ready(self, session: GatewaySession) -> None:
        world = self.world
        await session.send(0, {
            "v": 10,
            "user": world.bot.payload() | {"verified": True, "mfa_enabled": False, "email": None},
            "guilds": [{"id": str(g.id), "unavailable": True} for g in world.guilds],
            "session_id": session.id,
            "session_type": "normal",
            "resume_gateway_url": self.gateway_url,
            "application": {"id": str(world.application_id), "flags": 0},
            "private_channels": [],
            "relationships": [],
            "presences": [],
            "geo_ordered_rtc_regions": [],
            "shard": [0, 1],
        }, "READY")
        for guild in world.guilds:
            await session.send(0, guild.payload(world.bot), "GUILD_CREATE")
        self._active = session
        self._connected.set()

    async def _members_chunk(self, session: GatewaySession | None, data: dict) -> None:
        if session is None:
            return
        members = [u.member_payload() for u in self.world.users]
        await session.send(0, {"guild_id": data.get("guild_id"), "members": members, "chunk_index": 0,
                               "chunk_count": 1, "nonce": data.get("nonce")}, "GUILD_MEMBERS_CHUNK")

    # -- REST plumbing ---------------------------------------------------------------------------------------

    def _route_table(self) -> list[tuple[str, re.Pattern, Callable[..., Awaitable[Any]], bool]]:
        """(method, path pattern, handler, needs the bot token)."""
        table = [
            ("GET", r"/gateway(/bot)?", self._get_gateway, False),
            ("GET", r"/users/@me", self._get_me, True),
            ("GET", r"/oauth2/applications/@me", self._get_application, True),
            ("GET", r"/applications/@me", self._get_application, True),
            ("GET", r"/applications/(?P<app>\d+)/commands", self._get_commands, True),
            ("PUT", r"/applications/(?P<app>\d+)/commands", self._put_commands, True),
            ("GET", r"/applications/(?P<app>\d+)/guilds/(?P<guild>\d+)/commands", self._get_commands, True),
            ("PUT", r"/applications/(?P<app>\d+)/guilds/(?P<guild>\d+)/commands", self._put_commands, True),
            ("POST", r"/interactions/(?P<iid>\d+)/(?P<token>[^/]+)/callback", self._callback, False),
            ("GET", r"/webhooks/(?P<app>\d+)/(?P<token>[^/]+)/messages/(?P<mid>@original|\d+)", self._wh_get, False),
            ("PATCH", r"/webhooks/(?P<app>\d+)/(?P<token>[^/]+)/messages/(?P<mid>@original|\d+)", self._wh_edit,
             False),
            ("DELETE", r"/webhooks/(?P<app>\d+)/(?P<token>[^/]+)/messages/(?P<mid>@original|\d+)",
             self._wh_delete, False),
            ("POST", r"/webhooks/(?P<app>\d+)/(?P<token>[^/]+)", self._wh_followup, False),
            ("POST", r"/channels/(?P<cid>\d+)/messages", self._post_channel_message, True),
            ("GET", r"/channels/(?P<cid>\d+)/messages", self._get_channel_messages, True),
            ("GET", r"/channels/(?P<cid>\d+)/messages/(?P<mid>\d+)", self._get_channel_message, True),
            ("PATCH", r"/channels/(?P<cid>\d+)/messages/(?P<mid>\d+)", self._edit_channel_message, True),
            ("DELETE", r"/channels/(?P<cid>\d+)/messages/(?P<mid>\d+)", self._delete_channel_message, True),
            ("POST", r"/channels/(?P<cid>\d+)/typing", self._typing, True),
            ("GET", r"/channels/(?P<cid>\d+)", self._get_channel, True),
            ("GET", r"/guilds/(?P<guild>\d+)", self._get_guild, True),
            ("GET", r"/guilds/(?P<guild>\d+)/channels", self._get_guild_channels, True),
        ]
        return [(method, re.compile(pattern + "$"), handler, auth) for method, pattern, handler, auth in table]

    async def _rest(self, request: web.Request) -> web.Response:
        path = request.path
        self.requests.append((request.method, path))
        if not path.startswith(API):
            return self._unknown(request)
        sub = path[len(API):]
        for method, pattern, handler, auth in self._routes:
            match = pattern.match(sub)
            if match is None or method != request.method:
                continue
            if auth and request.headers.get("Authorization") != f"Bot {self.bot_token}":
                return _json({"message": "401: Unauthorized", "code": 0}, 401)
            try:
                result = await handler(request, **match.groupdict())
            except DiscordError as error:
                self.violations.append(Violation(error.kind or "error", request.method, path, error.status,
                                                 error.code, error.message, error.errors,
                                                 _iid_of(self, match.groupdict())))
                self._notify_rejection(match.groupdict(), error)
                return _json(error.body(), error.status)
            if result is None:
                return web.Response(status=204)
            return _json(result)
        return self._unknown(request)

    def _unknown(self, request: web.Request) -> web.Response:
        self.unknown_routes.append((request.method, request.path))
        log.warning("stand-in: unknown route %s %s", request.method, request.path)
        return _json({"message": "404: Not Found", "code": 0}, 404)

    def _notify_rejection(self, params: dict, error: DiscordError) -> None:
        record = self._record_of(params)
        if record is not None:
            for observer in list(record.observers):
                observer(record, Activity("rejected", error.body()))

    def _record_of(self, params: dict) -> InteractionRecord | None:
        if "iid" in params:
            return self.interactions.get(int(params["iid"]))
        if "token" in params:
            return self._by_token.get(params["token"])
        return None

    def _validate(self, kind: str, request: web.Request, body: Any) -> None:
        problems = [p for v in self._validators for p in v(kind, request.method, request.path, body)]
        if problems:
            errors = {"_validator": {"_errors": [{"code": "VALIDATOR", "message": p} for p in problems]}}
            raise DiscordError(400, 50035, "Invalid Form Body", errors, "validator")

    async def _body(self, request: web.Request) -> tuple[dict, list[File]]:
        """A JSON body, or a multipart one (`payload_json` + `files[n]`) as discord.py sends with files."""
        if not request.content_type.startswith("multipart/"):
            raw = await request.read()
            return (json.loads(raw) if raw else {}), []
        body: dict = {}
        files: list[File] = []
        reader = await request.multipart()
        async for part in reader:
            if part.name == "payload_json":
                body = json.loads(await part.text())
            else:
                data = await part.read()
                files.append(File(part.filename or part.name or "file", bytes(data),
                                  part.headers.get("Content-Type")))
        for f in files:
            if len(f.data) > self.attachment_size_limit:
                raise DiscordError(413, 40005, "Request entity too large", None, "attachment_size")
        return body, files

    # -- REST: login and application -------------------------------------------------------------------------

    async def _get_gateway(self, request: web.Request) -> dict:
        return {"url": self.gateway_url, "shards": 1,
                "session_start_limit": {"total": 1000, "remaining": 999, "reset_after": 0, "max_concurrency": 1}}

    async def _get_me(self, request: web.Request) -> dict:
        return self.world.bot.payload() | {"verified": True, "mfa_enabled": False}

    async def _get_application(self, request: web.Request) -> dict:
        bot = self.world.bot
        return {"id": str(self.world.application_id), "name": bot.name, "icon": None, "description": "",
                "bot_public": False, "bot_require_code_grant": False, "verify_key": "0" * 64,
                "owner": self.world.users[0].payload() if self.world.users else bot.payload(),
                "team": None, "flags": 0, "summary": "", "bot": bot.payload()}

    def _check_app(self, app: str) -> None:
        if int(app) != self.world.application_id:
            raise DiscordError(404, 10002, "Unknown Application", None, "unknown_application")

    async def _get_commands(self, request: web.Request, app: str, guild: str | None = None) -> list:
        self._check_app(app)
        return self.commands.get(int(guild) if guild else None, [])

    async def _put_commands(self, request: web.Request, app: str, guild: str | None = None) -> list:
        self._check_app(app)
        body, _ = await self._body(request)
        self._validate("commands", request, body)
        key = int(guild) if guild else None
        self.synced[key] = body
        answered = []
        for command in body:
            entry = {"id": str(self.ids.next()), "application_id": app, "version": str(self.ids.next()),
                     "type": 1, "default_member_permissions": None, "nsfw": False,
                     "name_localizations": None, "description_localizations": None, "options": []} | command
            if key is not None:
                entry["guild_id"] = str(key)
            answered.append(entry)
        self.commands[key] = answered
        return answered

    # -- REST: interaction callback --------------------------------------------------------------------------

    async def _callback(self, request: web.Request, iid: str, token: str) -> dict | None:
        record = self.interactions.get(int(iid))
        if record is None or record.token != token:
            raise DiscordError(404, 10062, "Unknown interaction", None, "unknown_interaction")
        body, files = await self._body(request)
        if record.responded:
            raise DiscordError(400, 40060, "Interaction has already been acknowledged.", None, "double_response")
        if time.monotonic() - record.created > self.deadline:
            raise DiscordError(404, 10062, "Unknown interaction", None, "late_response")
        kind = body.get("type")
        data = body.get("data") or {}
        if kind not in ALLOWED_CALLBACKS.get(record.type, set()):
            raise invalid_form({"type": {"_errors": [{
                "code": "INTERACTION_RESPONSE_TYPE_INVALID",
                "message": f"Interaction response type {kind} is not valid for interaction type {record.type}"}]}},
                "bad_callback_type")
        errors: dict = {}
        if kind in (CHANNEL_MESSAGE, UPDATE_MESSAGE):
            errors = limits.message_errors(data, prefix=("data",))
            if kind == CHANNEL_MESSAGE and not errors and limits.is_empty_message(data, len(files)):
                raise DiscordError(400, 50006, "Cannot send an empty message", None, "empty_message")
        elif kind == MODAL:
            errors = limits.modal_errors(data, prefix=("data",))
        elif kind == AUTOCOMPLETE_RESULT:
            errors = limits.choices_errors(data, prefix=("data",))
        if errors:
            raise invalid_form(errors, "limits")
        self._validate("callback", request, body)

        record.response_type = kind
        message: StoredMessage | None = None
        if kind in (CHANNEL_MESSAGE, DEFERRED_MESSAGE):
            flags = data.get("flags", 0) & EPHEMERAL
            if kind == DEFERRED_MESSAGE:
                flags |= LOADING
                data = {}
            message = self._store(record.channel.id, data, files, flags=flags, record=record)
            record.original_id = message.id
        elif kind in (DEFERRED_UPDATE, UPDATE_MESSAGE) and record.message_id in self.messages:
            message = self.messages[record.message_id]
            record.original_id = message.id
            if kind == UPDATE_MESSAGE:
                self._edit(message, data, files)
        self._emit(record, Activity("response", body, files, message.id if message else None))
        if request.query.get("with_response") not in ("1", "true", "True"):
            return None
        answer: dict[str, Any] = {"interaction": {
            "id": str(record.id), "type": record.type,
            "response_message_loading": kind == DEFERRED_MESSAGE,
            "response_message_ephemeral": bool(message and message.payload["flags"] & EPHEMERAL),
        }}
        if message is not None:
            answer["interaction"]["response_message_id"] = str(message.id)
            answer["resource"] = {"type": kind, "message": message.payload}
        elif kind != DEFERRED_UPDATE:
            answer["resource"] = {"type": kind}
        return answer

    # -- REST: interaction webhooks --------------------------------------------------------------------------

    def _webhook_record(self, app: str, token: str) -> InteractionRecord:
        record = self._by_token.get(token)
        if record is None or int(app) != self.world.application_id:
            raise DiscordError(404, 10015, "Unknown Webhook", None, "unknown_webhook")
        if time.monotonic() - record.created > self.token_lifetime:
            raise DiscordError(401, 50027, "Invalid Webhook Token", None, "expired_token")
        if not record.responded:
            raise DiscordError(404, 10015, "Unknown Webhook", None, "webhook_before_response")
        return record

    def _webhook_message(self, record: InteractionRecord, mid: str) -> StoredMessage:
        message_id = record.original_id if mid == "@original" else int(mid)
        message = self.messages.get(message_id or 0)
        if message is None:
            raise DiscordError(404, 10008, "Unknown Message", None, "unknown_message")
        return message

    async def _wh_get(self, request: web.Request, app: str, token: str, mid: str) -> dict:
        return self._webhook_message(self._webhook_record(app, token), mid).payload

    async def _wh_edit(self, request: web.Request, app: str, token: str, mid: str) -> dict:
        record = self._webhook_record(app, token)
        message = self._webhook_message(record, mid)
        body, files = await self._body(request)
        errors = limits.message_errors(body)
        if errors:
            raise invalid_form(errors, "limits")
        self._validate("webhook", request, body)
        self._edit(message, body, files)
        self._emit(record, Activity("edit", body, files, message.id))
        return message.payload

    async def _wh_delete(self, request: web.Request, app: str, token: str, mid: str) -> None:
        record = self._webhook_record(app, token)
        message = self._webhook_message(record, mid)
        del self.messages[message.id]
        self._emit(record, Activity("delete", {}, [], message.id))

    async def _wh_followup(self, request: web.Request, app: str, token: str) -> dict | None:
        record = self._webhook_record(app, token)
        body, files = await self._body(request)
        errors = limits.message_errors(body)
        if errors:
            raise invalid_form(errors, "limits")
        if limits.is_empty_message(body, len(files)):
            raise DiscordError(400, 50006, "Cannot send an empty message", None, "empty_message")
        self._validate("webhook", request, body)
        original = self.messages.get(record.original_id or 0)
        if record.response_type == DEFERRED_MESSAGE and original and original.payload["flags"] & LOADING:
            # Discord: the first followup after a deferred response replaces the "thinking" message.
            self._edit(original, body, files)
            message = original
        else:
            message = self._store(record.channel.id, body, files, flags=body.get("flags", 0) & EPHEMERAL,
                                  record=record)
        self._emit(record, Activity("followup", body, files, message.id))
        wait = request.query.get("wait", "false").lower() in ("1", "true")
        return message.payload if wait else None

    # -- REST: channels and guilds ---------------------------------------------------------------------------

    def _channel(self, cid: str) -> Channel:
        channel = self.world.find_channel(int(cid))
        if channel is None:
            raise DiscordError(404, 10003, "Unknown Channel", None, "unknown_channel")
        return channel

    async def _post_channel_message(self, request: web.Request, cid: str) -> dict:
        channel = self._channel(cid)
        body, files = await self._body(request)
        errors = limits.message_errors(body)
        if errors:
            raise invalid_form(errors, "limits")
        if limits.is_empty_message(body, len(files)):
            raise DiscordError(400, 50006, "Cannot send an empty message", None, "empty_message")
        self._validate("channel_message", request, body)
        message = self._store(channel.id, body, files, flags=0)
        for observer in list(self._channel_observers):
            observer(message)
        return message.payload

    async def _get_channel_messages(self, request: web.Request, cid: str) -> list:
        channel = self._channel(cid)
        limit = int(request.query.get("limit", 50))
        found = [m.payload for m in self.messages.values() if m.channel_id == channel.id]
        return list(reversed(found))[:limit]

    def _channel_message(self, cid: str, mid: str) -> StoredMessage:
        channel = self._channel(cid)
        message = self.messages.get(int(mid))
        if message is None or message.channel_id != channel.id:
            raise DiscordError(404, 10008, "Unknown Message", None, "unknown_message")
        return message

    async def _get_channel_message(self, request: web.Request, cid: str, mid: str) -> dict:
        return self._channel_message(cid, mid).payload

    async def _edit_channel_message(self, request: web.Request, cid: str, mid: str) -> dict:
        message = self._channel_message(cid, mid)
        body, files = await self._body(request)
        errors = limits.message_errors(body)
        if errors:
            raise invalid_form(errors, "limits")
        self._validate("channel_message", request, body)
        self._edit(message, body, files)
        return message.payload

    async def _delete_channel_message(self, request: web.Request, cid: str, mid: str) -> None:
        del self.messages[self._channel_message(cid, mid).id]

    async def _typing(self, request: web.Request, cid: str) -> None:
        self._channel(cid)

    async def _get_channel(self, request: web.Request, cid: str) -> dict:
        return self._channel(cid).payload()

    async def _get_guild(self, request: web.Request, guild: str) -> dict:
        for g in self.world.guilds:
            if g.id == int(guild):
                data = g.payload(self.world.bot)
                for key in ("channels", "threads", "members", "voice_states", "presences"):
                    data.pop(key)
                return data
        raise DiscordError(404, 10004, "Unknown Guild", None, "unknown_guild")

    async def _get_guild_channels(self, request: web.Request, guild: str) -> list:
        return [c.payload() for g in self.world.guilds if g.id == int(guild) for c in g.channels
                if not c.is_thread]

    # -- messages --------------------------------------------------------------------------------------------

    def _store(self, channel_id: int, body: dict, files: list[File], *, flags: int,
               record: InteractionRecord | None = None) -> StoredMessage:
        message_id = self.ids.next()
        channel = self.world.find_channel(channel_id)
        payload: dict[str, Any] = {
            "id": str(message_id),
            "channel_id": str(channel_id),
            "guild_id": str(channel.guild_id) if channel else None,
            "author": self.world.bot.payload(),
            "content": "",
            "timestamp": iso_now(),
            "edited_timestamp": None,
            "tts": False,
            "mention_everyone": False,
            "mentions": [],
            "mention_roles": [],
            "attachments": [],
            "embeds": [],
            "components": [],
            "pinned": False,
            "type": 0,
            "flags": flags | (body.get("flags", 0) & limits.IS_COMPONENTS_V2),
        }
        if record is not None:
            payload |= {"type": 20 if record.type == APPLICATION_COMMAND else 19,
                        "webhook_id": str(self.world.application_id),
                        "application_id": str(self.world.application_id),
                        "interaction_metadata": {"id": str(record.id), "type": record.type,
                                                 "user": record.user.payload(),
                                                 "authorizing_integration_owners": {"0": str(channel.guild_id)}}}
        message = StoredMessage(payload, {})
        self.messages[message_id] = message
        self._edit(message, body, files, created=True)
        return message

    def _edit(self, message: StoredMessage, body: dict, files: list[File], *, created: bool = False) -> None:
        for key in ("content", "embeds", "components", "tts", "poll"):
            if key in body:
                value = body[key]
                message.payload[key] = value if value is not None else ([] if key != "content" else "")
                message.sent[key] = message.payload[key]
        if "flags" in body:
            message.sent["flags"] = body["flags"]
        if not created:  # an edit of a deferred ("thinking") message ends its loading state
            message.payload["flags"] = message.payload["flags"] & ~LOADING
            message.payload["edited_timestamp"] = iso_now()
        if "attachments" in body or files:
            pairs = list(zip(message.payload["attachments"], message.files, strict=True))
            if "attachments" in body:  # the attachments the bot listed are kept, the others dropped
                keep = {str(a.get("id")) for a in body["attachments"] or []}
                pairs = [(a, f) for a, f in pairs if a["id"] in keep]
            for f in files:
                attachment_id = str(self.ids.next())
                url = f"{self.base_url}/attachments/{message.id}/{attachment_id}/{f.filename}"
                pairs.append(({"id": attachment_id, "filename": f.filename, "size": len(f.data), "url": url,
                               "proxy_url": url, "content_type": f.content_type or "application/octet-stream"}, f))
            message.payload["attachments"] = [a for a, _ in pairs]
            message.files = [f for _, f in pairs]

    def _emit(self, record: InteractionRecord, activity: Activity) -> None:
        for observer in list(record.observers):
            observer(record, activity)


def _iid_of(standin: StandIn, params: dict) -> int | None:
    record = standin._record_of(params)
    return record.id if record else None


def _json(data: Any, status: int = 200) -> web.Response:
    # Exactly `application/json`: discord.py compares the header verbatim before parsing JSON.
    return web.Response(body=json.dumps(data).encode(), status=status, headers={"Content-Type": "application/json"})
