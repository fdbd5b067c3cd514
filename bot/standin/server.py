"""A stand-in for Discord's REST API and gateway on 127.0.0.1, for a real discord.py client: what the local
console runs.

One aiohttp server holds both: REST under `/api/v10`, the gateway websocket at `/gateway`. It keeps a
world (guilds, channels, users), every message the bot sent, the commands it synced and the interactions
it was sent, and answers as Discord does when all goes well. What Discord refuses (a second response, a late
one, payloads over the limits, missing permissions), several shards, RESUME and payload validators are the
tests' (tests/support/standin): its stand-in extends this one through the `_check_…` hooks, which accept
everything here.
"""

from __future__ import annotations

import asyncio
import json
import logging
import re
import secrets
import time
from collections.abc import Awaitable, Callable
from typing import Any

from aiohttp import WSMsgType, web

from . import multipart
from .controls import LiveControls, stored_components
from .protocol import (
    API,
    APPLICATION_COMMAND,
    CHANNEL_MESSAGE,
    DEFAULT_ATTACHMENT_LIMIT,
    DEFERRED_MESSAGE,
    DEFERRED_UPDATE,
    EPHEMERAL,
    IS_COMPONENTS_V2,
    JSON,
    LOADING,
    MESSAGE_COMPONENT,
    MODAL_SUBMIT,
    UPDATE_MESSAGE,
    Activity,
    File,
    InteractionRecord,
    StoredMessage,
)
from .world import (
    CONTEXT_BOT_DM,
    CONTEXT_GUILD,
    CONTEXT_PRIVATE_CHANNEL,
    DM,
    Channel,
    Snowflakes,
    User,
    World,
    iso_now,
)

log = logging.getLogger(__name__)

Handler = Callable[..., Awaitable[Any]]


class DiscordError(Exception):
    """An error response in Discord's format."""

    def __init__(self, status: int, code: int, message: str, errors: JSON | None = None, kind: str = "") -> None:
        super().__init__(message)
        self.status, self.code, self.message, self.errors, self.kind = status, code, message, errors, kind

    def body(self) -> JSON:
        data: JSON = {"message": self.message, "code": self.code}
        if self.errors:
            data["errors"] = self.errors
        return data


class GatewaySession:
    """One gateway session: its connection and its sequence numbers."""

    def __init__(self, session_id: str, shard: tuple[int, int] = (0, 1)) -> None:
        self.id = session_id
        self.shard = shard
        self.ws: web.WebSocketResponse | None = None
        self.seq = 0
        self.lock = asyncio.Lock()
        self.connected = asyncio.Event()

    @property
    def open(self) -> bool:
        return self.live() is not None

    def live(self) -> web.WebSocketResponse | None:
        """The connection while it is open."""
        return self.ws if self.ws is not None and not self.ws.closed else None

    async def send(self, op: int, data: Any, event: str | None = None, *, queue: bool = False) -> None:
        """Send a frame (``queue``: see the tests' session, which keeps dispatches for a RESUME)."""
        async with self.lock:
            if not self.open:
                raise ConnectionError("the bot's gateway connection is closed")
            frame: JSON = {"op": op, "d": data, "s": None, "t": event}
            if op == 0:
                self.seq += 1
                frame["s"] = self.seq
            await self._write(frame)

    async def _write(self, frame: JSON) -> None:
        if (ws := self.live()) is not None:
            await ws.send_str(json.dumps(frame))


class StandIn:
    """`async with StandIn() as standin:` — the server runs on 127.0.0.1 on a free port."""

    # The driver class `connect` makes (bot.standin.driver.Driver, set by the package's __init__).
    driver: Callable[..., Any]

    def __init__(
        self,
        world: World | None = None,
        *,
        deadline: float = 3.0,
        attachment_size_limit: int = DEFAULT_ATTACHMENT_LIMIT,
        bot_token: str = "standin-bot-token",  # noqa: S107 - the local stand-in's own token, no secret
    ) -> None:
        self.world = world or World.default()
        self.deadline = deadline
        self.attachment_size_limit = attachment_size_limit
        self.bot_token = bot_token
        self.ids = Snowflakes()
        self.unknown_routes: list[tuple[str, str]] = []
        self.messages: dict[int, StoredMessage] = {}
        self.synced: dict[int | None, list[JSON]] = {}  # guild id (None: global) -> the body the bot PUT
        self.commands: dict[int | None, list[JSON]] = {}  # the same with ids, as Discord answers
        self.interactions: dict[int, InteractionRecord] = {}
        self._by_token: dict[str, InteractionRecord] = {}
        self._channel_observers: list[Callable[[StoredMessage], None]] = []
        self.controls = LiveControls()  # the messages with live controls, per channel and game
        self._sessions: dict[str, GatewaySession] = {}
        self._active: GatewaySession | None = None  # the session interactions go to (shard 0's)
        self._connected = asyncio.Event()
        self._runner: web.AppRunner | None = None
        self.port = 0
        self._routes = self._route_table()

    # -- lifecycle -------------------------------------------------------------------------------------------

    async def __aenter__(self) -> StandIn:
        await self.start()
        return self

    async def __aexit__(self, *exc: object) -> None:
        await self.close()

    async def start(self, port: int = 0) -> None:
        """Listen on 127.0.0.1:``port`` (0: a free one)."""
        app = web.Application(client_max_size=self.attachment_size_limit * 12)
        app.router.add_get("/gateway", self._gateway)
        app.router.add_route("*", "/{tail:.*}", self._rest)
        self._runner = web.AppRunner(app, access_log=None, handle_signals=False)
        await self._runner.setup()
        site = web.TCPSite(self._runner, "127.0.0.1", port)
        await site.start()
        self.port = site._server.sockets[0].getsockname()[1]  # type: ignore[union-attr]

    async def close(self) -> None:
        for session in self._sessions.values():
            if (ws := session.live()) is not None:
                await ws.close(code=1001)
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

    def watch_channels(self, observer: Callable[[StoredMessage], None]) -> Callable[[], None]:
        """Call `observer` for each message the bot posts to a channel; returns a function that stops it."""
        self._channel_observers.append(observer)
        return lambda: self._channel_observers.remove(observer)

    def connect(self, bot: Any, **options: Any) -> Any:
        """`async with standin.connect(bot) as driver:` — see bot.standin.driver.Driver (set as
        `StandIn.driver` by the package, so that this module does not import the driver)."""
        return self.driver(self, bot, **options)

    # -- interactions ----------------------------------------------------------------------------------------

    async def wait_connected(self, timeout: float = 10.0) -> None:
        await asyncio.wait_for(self._connected.wait(), timeout)

    def new_interaction(
        self, type_: int, data: JSON, *, user: User, channel: Channel, locale: str | None = None,
        message: StoredMessage | None = None, context: int | None = None,
    ) -> InteractionRecord:
        """Build an INTERACTION_CREATE payload as Discord sends it: a guild interaction (context 0), or in a
        DM with the bot (context 1) or a group DM (context 2) — those carry `user`, no `member` or guild.
        `app_permissions` and the member's `permissions` are computed from roles and channel overwrites."""
        world = self.world
        interaction_id = self.ids.next()
        token = "aW50ZXJhY3Rpb24" + secrets.token_urlsafe(48)
        payload: JSON = {
            "id": str(interaction_id),
            "application_id": str(world.application_id),
            "type": type_,
            "data": data,
            "channel_id": str(channel.id),
            "channel": channel.payload(),
            "token": token,
            "version": 1,
            "locale": locale or user.locale,
            "app_permissions": str(world.permissions(world.bot, channel)),
            "entitlements": [],
            "entitlement_sku_ids": [],
            "attachment_size_limit": self.attachment_size_limit,
        }
        if channel.guild_id is not None:
            guild = world.guild_of(channel)
            payload |= {
                "guild_id": str(guild.id),
                "guild": {"id": str(guild.id), "locale": guild.locale, "features": []},
                "member": user.member_payload(guild, guild.permissions(user, channel)),
                "guild_locale": guild.locale,
                "authorizing_integration_owners": {"0": str(guild.id)},
                "context": CONTEXT_GUILD if context is None else context,
            }
        else:
            payload |= {
                "user": user.payload(),
                "authorizing_integration_owners": {"0": "0"} if channel.type == DM else {"1": str(user.id)},
                "context": (CONTEXT_BOT_DM if channel.type == DM else CONTEXT_PRIVATE_CHANNEL)
                if context is None else context,
            }
        if message is not None:
            payload["message"] = message.payload
        record = InteractionRecord(interaction_id, token, type_, channel, user, payload,
                                   message_id=message.id if message else None)
        self.interactions[interaction_id] = record
        self._by_token[token] = record
        return record

    async def dispatch(self, record: InteractionRecord, *, wait: bool = True, late: float = 0.0) -> None:
        """Send INTERACTION_CREATE to the connected client (waiting up to 10 s for it to connect); the response
        deadline starts now, or `late` seconds ago (an interaction delivered late)."""
        session = self._active
        if session is None or not session.open:
            await self.wait_connected(10.0)
            session = self._active
        if session is None or not session.open:
            raise ConnectionError("no discord.py client is connected to the stand-in")
        record.created = time.monotonic() - late
        record.shard = session.shard[0]
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
                session = await self._identify(ws, data)
                if session is None:
                    break
            elif op == 6:  # resume
                session = await self._resume(ws, data) or session
            elif op == 8:  # request guild members: answer with the members we know
                await self._members_chunk(session, data)
        if session is not None and session.ws is ws:
            session.connected.clear()  # until the client resumes or identifies again
            if session is self._active:
                self._connected.clear()
        return ws

    async def _identify(self, ws: web.WebSocketResponse, data: JSON) -> GatewaySession | None:
        shard = data.get("shard") or [0, 1]
        session = self._new_session(secrets.token_hex(16), (int(shard[0]), int(shard[1])))
        session.ws = ws
        self._sessions[session.id] = session
        await self._ready(session)
        return session

    def _new_session(self, session_id: str, shard: tuple[int, int]) -> GatewaySession:
        return GatewaySession(session_id, shard)

    async def _resume(self, ws: web.WebSocketResponse, data: JSON) -> GatewaySession | None:
        """Nothing to resume here (the console's connection stays up): an invalid session, so the client
        identifies again."""
        await ws.send_str(json.dumps({"op": 9, "d": False, "s": None, "t": None}))
        return None

    def guilds_of_shard(self, shard_id: int, count: int) -> list[Any]:
        return [g for g in self.world.guilds if (g.id >> 22) % count == shard_id]

    async def _ready(self, session: GatewaySession) -> None:
        world = self.world
        shard_id, count = session.shard
        guilds = self.guilds_of_shard(shard_id, count)
        await session.send(0, {
            "v": 10,
            "user": world.bot.payload() | {"verified": True, "mfa_enabled": False, "email": None, "locale": "en-US"},
            "guilds": [{"id": str(g.id), "unavailable": True} for g in guilds],
            "session_id": session.id,
            "session_type": "normal",
            "resume_gateway_url": self.gateway_url,
            "application": {"id": str(world.application_id), "flags": 0},
            "private_channels": [],
            "relationships": [],
            "presences": [],
            "geo_ordered_rtc_regions": [],
            "shard": [shard_id, count],
        }, "READY")
        for guild in guilds:
            await session.send(0, guild.payload(world.bot), "GUILD_CREATE")
        self._connected_session(session)

    def _connected_session(self, session: GatewaySession) -> None:
        session.connected.set()
        if session.shard[0] == 0:
            self._active = session
            self._connected.set()

    async def _members_chunk(self, session: GatewaySession | None, data: JSON) -> None:
        if session is None:
            return
        members = [u.member_payload() for u in self.world.users]
        await session.send(0, {"guild_id": data.get("guild_id"), "members": members, "chunk_index": 0,
                               "chunk_count": 1, "nonce": data.get("nonce")}, "GUILD_MEMBERS_CHUNK")

    # -- REST plumbing ---------------------------------------------------------------------------------------

    def _route_table(self) -> list[tuple[str, re.Pattern[str], Handler, bool]]:
        """(method, path pattern, handler, needs the bot token)."""
        table: list[tuple[str, str, Handler, bool]] = [
            ("GET", r"/gateway(/bot)?", self._get_gateway, False),
            ("GET", r"/users/@me", self._get_me, True),
            ("GET", r"/oauth2/applications/@me", self._get_application, True),
            ("GET", r"/applications/@me", self._get_application, True),
            ("GET", r"/applications/(?P<app>\d+)/commands", self._get_commands, True),
            ("PUT", r"/applications/(?P<app>\d+)/commands", self._put_commands, True),
            ("GET", r"/applications/(?P<app>\d+)/guilds/(?P<guild>\d+)/commands", self._get_commands, True),
            ("PUT", r"/applications/(?P<app>\d+)/guilds/(?P<guild>\d+)/commands", self._put_commands, True),
            ("POST", r"/interactions/(?P<iid>\d+)/(?P<token>[^/]+)/callback", self._callback, False),
            ("PATCH", r"/webhooks/(?P<app>\d+)/(?P<token>[^/]+)/messages/(?P<mid>@original|\d+)", self._wh_edit,
             False),
            ("DELETE", r"/webhooks/(?P<app>\d+)/(?P<token>[^/]+)/messages/(?P<mid>@original|\d+)",
             self._wh_delete, False),
            ("POST", r"/webhooks/(?P<app>\d+)/(?P<token>[^/]+)", self._wh_followup, False),
            ("POST", r"/channels/(?P<cid>\d+)/messages", self._post_channel_message, True),
            ("PATCH", r"/channels/(?P<cid>\d+)/messages/(?P<mid>\d+)", self._edit_channel_message, True),
            ("GET", r"/channels/(?P<cid>\d+)", self._get_channel, True),
        ]
        return [(method, re.compile(pattern + "$"), handler, auth) for method, pattern, handler, auth in table]

    async def _rest(self, request: web.Request) -> web.Response:
        path = request.path
        if not path.startswith(API):
            return self._unknown(request)
        sub = path[len(API):]
        for method, pattern, handler, auth in self._routes:
            match = pattern.match(sub)
            if match is None or method != request.method:
                continue
            if auth and request.headers.get("Authorization") != f"Bot {self.bot_token}":
                return _json({"message": "401: Unauthorized", "code": 0}, 401)
            intercepted = self._intercept(handler.__name__, request)
            if intercepted is not None:
                return intercepted
            try:
                result = await handler(request, **match.groupdict())
            except DiscordError as error:
                self._refused(request, match.groupdict(), error)
                return _json(error.body(), error.status)
            if result is None:
                return web.Response(status=204)
            self._answering(request.method, path, 200, result)
            return _json(result)
        return self._unknown(request)

    def _intercept(self, handler: str, request: web.Request) -> web.Response | None:
        """An answer in place of the handler's (the tests' rate limits); None: the handler answers."""
        return None

    def _answering(self, method: str, path: str, status: int, body: Any) -> None:
        """Sees every JSON body the stand-in answers with (the tests check them against Discord's description)."""

    def _refused(self, request: web.Request, params: dict[str, str], error: DiscordError) -> None:
        """A request answered with an error: the interaction's reply learns it (it is complete then)."""
        record = self._record_of(params)
        if record is not None:
            for observer in list(record.observers):
                observer(record, Activity("rejected", error.body()))

    def _unknown(self, request: web.Request) -> web.Response:
        self.unknown_routes.append((request.method, request.path))
        log.warning("stand-in: unknown route %s %s", request.method, request.path)
        return _json({"message": "404: Not Found", "code": 0}, 404)

    def _record_of(self, params: dict[str, str]) -> InteractionRecord | None:
        if "iid" in params:
            return self.interactions.get(int(params["iid"]))
        if "token" in params:
            return self._by_token.get(params["token"])
        return None

    async def _body(self, request: web.Request) -> tuple[Any, list[File]]:
        """A JSON body (an object, or an array), or a multipart one (`payload_json` + `files[n]`) as discord.py
        sends with files."""
        content_type = request.headers.get("Content-Type", "")
        raw = await request.read()
        if not content_type.lower().startswith("multipart/"):
            return (json.loads(raw) if raw else {}), []
        body: JSON = {}
        files: list[File] = []
        try:
            boundary = multipart.boundary_of(content_type)
            if boundary is None:
                raise multipart.MalformedMultipart(f"not multipart/form-data: {content_type[:80]}")
            for part in multipart.parts(raw, boundary):
                if part.name == "payload_json":
                    body = json.loads(part.data)
                else:
                    files.append(File(part.filename or part.name or "file", part.data, part.content_type))
        except multipart.MalformedMultipart as exc:
            raise DiscordError(400, 50035, "Invalid Form Body", None, "multipart") from exc
        return body, files

    # -- what Discord would refuse: the tests' stand-in checks it, this one takes everything ----------------

    def _check_callback(self, request: web.Request, record: InteractionRecord, body: JSON,
                        files: list[File]) -> None:
        """An interaction's initial response, before it is taken."""

    def _check_webhook(self, request: web.Request, record: InteractionRecord, body: JSON, files: list[File], *,
                       ephemeral: bool, new: bool, message: StoredMessage | None = None) -> None:
        """A followup (``new``) or an edit of an interaction's message (``message``), before it is taken."""

    def _check_channel_message(self, request: web.Request, channel: Channel, body: JSON, files: list[File], *,
                               new: bool, message: StoredMessage | None = None) -> None:
        """A message the bot posts (``new``) or edits (``message``) with its own token, before it is taken."""

    def _check_commands(self, request: web.Request, body: Any) -> None:
        """The commands the bot syncs, before they are taken."""

    # -- REST: login and application -------------------------------------------------------------------------

    async def _get_gateway(self, request: web.Request) -> JSON:
        return {"url": self.gateway_url, "shards": 1,
                "session_start_limit": {"total": 1000, "remaining": 999, "reset_after": 0, "max_concurrency": 1}}

    async def _get_me(self, request: web.Request) -> JSON:
        return self.world.bot.payload() | {"verified": True, "mfa_enabled": False, "locale": "en-US"}

    async def _get_application(self, request: web.Request) -> JSON:
        bot = self.world.bot
        return {"id": str(self.world.application_id), "name": bot.name, "icon": None, "description": "",
                "bot_public": False, "bot_require_code_grant": False, "verify_key": "0" * 64,
                "owner": self.world.users[0].payload() if self.world.users else bot.payload(),
                "team": None, "flags": 0, "summary": "", "bot": bot.payload(), "type": None, "flags_new": "0",
                "redirect_uris": [], "interactions_endpoint_url": None, "role_connections_verification_url": None,
                "approximate_guild_count": len(self.world.guilds), "approximate_user_install_count": 0,
                "approximate_user_authorization_count": 0, "explicit_content_filter": 0,
                "eligible_oauth2_scopes": ["bot", "applications.commands"]}

    def _check_app(self, app: str) -> None:
        if int(app) != self.world.application_id:
            raise DiscordError(404, 10002, "Unknown Application", None, "unknown_application")

    async def _get_commands(self, request: web.Request, app: str, guild: str | None = None) -> list[JSON]:
        self._check_app(app)
        return self.commands.get(int(guild) if guild else None, [])

    async def _put_commands(self, request: web.Request, app: str, guild: str | None = None) -> list[JSON]:
        self._check_app(app)
        body, _ = await self._body(request)
        self._check_commands(request, body)
        key = int(guild) if guild else None
        self.synced[key] = body
        answered = []
        for command in body:
            entry = {"id": str(self.ids.next()), "application_id": app, "version": str(self.ids.next()),
                     "type": 1, "default_member_permissions": None, "nsfw": False,
                     "name_localizations": None, "description_localizations": None, "options": []} | command
            if entry.get("integration_types") is None:  # Discord answers with its defaults
                entry["integration_types"] = [0]
            if key is not None:
                entry["guild_id"] = str(key)
            answered.append(entry)
        self.commands[key] = answered
        return answered

    # -- REST: interaction callback --------------------------------------------------------------------------

    async def _callback(self, request: web.Request, iid: str, token: str) -> JSON | None:
        record = self.interactions.get(int(iid))
        if record is None or record.token != token:
            raise DiscordError(404, 10062, "Unknown interaction", None, "unknown_interaction")
        body, files = await self._body(request)
        self._check_callback(request, record, body, files)
        kind = body.get("type")
        data = body.get("data") or {}
        record.response_type = kind
        record.asked_for_message = request.query.get("with_response") in ("1", "true", "True")
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
        if not record.asked_for_message:
            return None
        answer: JSON = {"interaction": {
            "id": str(record.id), "type": record.type,
            "response_message_loading": kind == DEFERRED_MESSAGE,
            "response_message_ephemeral": bool(message and message.payload["flags"] & EPHEMERAL),
        }}
        if message is not None:
            answer["interaction"]["response_message_id"] = str(message.id)
        if message is not None and kind in (CHANNEL_MESSAGE, UPDATE_MESSAGE):
            # The OpenAPI description has a `resource` for types 4 and 7 (and 12, activities) only.
            answer["resource"] = {"type": kind, "message": message.payload}
        return answer

    # -- REST: interaction webhooks --------------------------------------------------------------------------

    def _webhook_record(self, app: str, token: str) -> InteractionRecord:
        record = self._by_token.get(token)
        if record is None or int(app) != self.world.application_id:
            raise DiscordError(404, 10015, "Unknown Webhook", None, "unknown_webhook")
        return record

    def _webhook_message(self, record: InteractionRecord, mid: str) -> StoredMessage:
        message_id = record.original_id if mid == "@original" else int(mid)
        message = self.messages.get(message_id or 0)
        if message is None:
            raise DiscordError(404, 10008, "Unknown Message", None, "unknown_message")
        return message

    async def _wh_edit(self, request: web.Request, app: str, token: str, mid: str) -> JSON:
        record = self._webhook_record(app, token)
        message = self._webhook_message(record, mid)
        body, files = await self._body(request)
        self._check_webhook(request, record, body, files, ephemeral=bool(message.payload["flags"] & EPHEMERAL),
                            new=False, message=message)
        self._edit(message, body, files)
        self._emit(record, Activity("edit", body, files, message.id))
        return message.payload

    async def _wh_delete(self, request: web.Request, app: str, token: str, mid: str) -> None:
        record = self._webhook_record(app, token)
        message = self._webhook_message(record, mid)
        self._delete(message)
        self._emit(record, Activity("delete", {}, [], message.id))

    async def _wh_followup(self, request: web.Request, app: str, token: str) -> JSON | None:
        record = self._webhook_record(app, token)
        body, files = await self._body(request)
        original = self.messages.get(record.original_id or 0)
        # Discord: the first followup after a deferred response replaces the "thinking" message.
        replaces = record.response_type == DEFERRED_MESSAGE and original and original.payload["flags"] & LOADING
        ephemeral = bool(original.payload["flags"] & EPHEMERAL) if replaces and original \
            else bool(body.get("flags", 0) & EPHEMERAL)
        self._check_webhook(request, record, body, files, ephemeral=ephemeral, new=True)
        if replaces and original:
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

    async def _post_channel_message(self, request: web.Request, cid: str) -> JSON:
        channel = self._channel(cid)
        body, files = await self._body(request)
        self._check_channel_message(request, channel, body, files, new=True)
        message = self._store(channel.id, body, files, flags=0)
        for observer in list(self._channel_observers):
            observer(message)
        return message.payload

    def _channel_message(self, cid: str, mid: str) -> StoredMessage:
        channel = self._channel(cid)
        message = self.messages.get(int(mid))
        if message is None or message.channel_id != channel.id:
            raise DiscordError(404, 10008, "Unknown Message", None, "unknown_message")
        return message

    async def _edit_channel_message(self, request: web.Request, cid: str, mid: str) -> JSON:
        message = self._channel_message(cid, mid)
        body, files = await self._body(request)
        self._check_channel_message(request, self._channel(cid), body, files, new=False, message=message)
        self._edit(message, body, files)
        return message.payload

    async def _get_channel(self, request: web.Request, cid: str) -> JSON:
        return self._channel(cid).payload()

    # -- messages --------------------------------------------------------------------------------------------

    def _store(self, channel_id: int, body: JSON, files: list[File], *, flags: int,
               record: InteractionRecord | None = None) -> StoredMessage:
        message_id = self.ids.next()
        channel = self.world.find_channel(channel_id)
        payload: JSON = {
            "id": str(message_id),
            "channel_id": str(channel_id),
            "guild_id": str(channel.guild_id) if channel and channel.guild_id else None,
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
            "flags": flags | (body.get("flags", 0) & IS_COMPONENTS_V2),
        }
        if record is not None:
            payload |= {"type": 20 if record.type == APPLICATION_COMMAND else 19,
                        "webhook_id": str(self.world.application_id),
                        "application_id": str(self.world.application_id),
                        "interaction_metadata": self._interaction_metadata(record)}
        message = StoredMessage(payload, {})
        self.messages[message_id] = message
        self._edit(message, body, files, created=True)
        return message

    def _interaction_metadata(self, record: InteractionRecord) -> JSON:
        """A message's `interaction_metadata`, per interaction type (as the OpenAPI description has it)."""
        data: JSON = {"id": str(record.id), "type": record.type, "user": record.user.payload(),
                      "authorizing_integration_owners": record.payload["authorizing_integration_owners"]}
        if record.type == MESSAGE_COMPONENT:
            data["interacted_message_id"] = str(record.message_id or 0)
        elif record.type == MODAL_SUBMIT:
            opener = self.messages.get(record.message_id or 0)
            trigger = (opener.payload.get("interaction_metadata") if opener else None) or {
                "id": str(record.id), "type": APPLICATION_COMMAND, "user": record.user.payload(),
                "authorizing_integration_owners": record.payload["authorizing_integration_owners"]}
            if trigger.get("type") == MODAL_SUBMIT:
                trigger = trigger["triggering_interaction_metadata"]
            data["triggering_interaction_metadata"] = trigger
        return data

    def _edit(self, message: StoredMessage, body: JSON, files: list[File], *, created: bool = False) -> None:
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
        for key in ("content", "embeds", "components", "tts", "poll"):
            if key in body:
                value = body[key]
                message.payload[key] = value if value is not None else ([] if key != "content" else "")
                message.sent[key] = message.payload[key]
                if key == "components" and message.payload[key]:  # as Discord stores them (ids, media)
                    message.payload[key] = stored_components(message.payload[key], message.payload["attachments"],
                                                             self.ids)
                if key == "embeds" and message.payload[key]:  # Discord stores rich embeds, fields not inline
                    message.payload[key] = [_stored_embed(e) for e in message.payload[key]]
        if "flags" in body:
            message.sent["flags"] = body["flags"]
            # A message becomes Components V2 by an edit that sets the flag (it never stops being one).
            message.payload["flags"] |= int(body["flags"] or 0) & IS_COMPONENTS_V2
        if not created:  # an edit of a deferred ("thinking") message ends its loading state
            message.payload["flags"] = message.payload["flags"] & ~LOADING
            message.payload["edited_timestamp"] = iso_now()
        self.controls.changed(message)

    def _delete(self, message: StoredMessage) -> None:
        """A message deleted (by its webhook or in its channel): gone, and its controls with it."""
        del self.messages[message.id]
        self.controls.deleted(message)

    # -- live controls (issue 35: at most one message with live controls per game) --------------------------

    def live_controls(self, channel: Channel | str | int, game: int | None = None) -> int:
        """How many non-ephemeral messages in ``channel`` carry enabled buttons or selects now (link buttons
        aside); with ``game``, only those whose controls belong to that game (custom_ids ``solo:<game>:…``)."""
        return self.controls.now(self.world.channel(channel).id, game)

    def most_live_controls(self, channel: Channel | str | int, game: int | None = None) -> int:
        """The most messages with live controls ``channel`` (or ``game`` there) had at any moment: the running
        maximum of `live_controls`, updated on every message created, edited or deleted."""
        return self.controls.most(self.world.channel(channel).id, game)

    def _emit(self, record: InteractionRecord, activity: Activity) -> None:
        for observer in list(record.observers):
            observer(record, activity)


def _stored_embed(embed: JSON) -> JSON:
    stored: JSON = {"type": "rich"} | embed
    if stored.get("fields"):
        stored["fields"] = [{"inline": False} | f for f in stored["fields"]]
    return stored


def _json(data: Any, status: int = 200) -> web.Response:
    # Exactly `application/json`: discord.py compares the header verbatim before parsing JSON.
    return web.Response(body=json.dumps(data).encode(), status=status, headers={"Content-Type": "application/json"})
