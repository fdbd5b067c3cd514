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
import itertools
import json
import logging
import re
import secrets
import time
from collections.abc import Awaitable, Callable
from dataclasses import dataclass
from typing import Any

from aiohttp import WSMsgType, web

from . import limits, multipart
from . import permissions as perms
from .protocol import (  # noqa: F401 - Discord's numbers, re-exported for the tests that read them here
    ALLOWED_CALLBACKS,
    API,
    APPLICATION_COMMAND,
    AUTOCOMPLETE,
    AUTOCOMPLETE_RESULT,
    CHANNEL_MESSAGE,
    DEFAULT_ATTACHMENT_LIMIT,
    DEFERRED_MESSAGE,
    DEFERRED_UPDATE,
    EPHEMERAL,
    LOADING,
    MESSAGE_COMPONENT,
    MODAL,
    MODAL_SUBMIT,
    PING,
    PONG,
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
    GROUP_DM,
    GUILD_FORUM,
    GUILD_MEDIA,
    Channel,
    Snowflakes,
    User,
    World,
    iso_now,
)

log = logging.getLogger(__name__)

# Routes `StandIn.rate_limit` can answer 429 on (handler name -> route name).
RATE_LIMITED_ROUTES = {
    "_post_channel_message": "channel_message", "_edit_channel_message": "channel_edit",
    "_wh_followup": "followup", "_wh_edit": "edit", "_put_commands": "commands",
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


class GatewaySession:
    """One shard's gateway session. Dispatches sent while its connection is down are kept (with their
    sequence numbers) and replayed on RESUME, as Discord does."""

    REPLAY_LIMIT = 1000

    def __init__(self, session_id: str, shard: tuple[int, int] = (0, 1),
                 check: Callable[[str, Any], None] | None = None) -> None:
        self.id = session_id
        self.check = check  # sees every dispatch (event name, data) before it is sent
        self.shard = shard
        self.ws: web.WebSocketResponse | None = None
        self.seq = 0
        self.lock = asyncio.Lock()
        self.sent: list[dict] = []  # the last dispatches, for a RESUME
        self.connected = asyncio.Event()

    @property
    def open(self) -> bool:
        return self.live() is not None

    def live(self) -> web.WebSocketResponse | None:
        """The connection while it is open."""
        return self.ws if self.ws is not None and not self.ws.closed else None

    async def send(self, op: int, data: Any, event: str | None = None, *, queue: bool = False) -> None:
        """Send a frame; with ``queue``, a dispatch while the connection is down waits for a RESUME."""
        async with self.lock:
            if not self.open and not (queue and op == 0):
                raise ConnectionError("the bot's gateway connection is closed")
            frame: dict[str, Any] = {"op": op, "d": data, "s": None, "t": event}
            if op == 0:
                if self.check is not None:
                    self.check(event or "", data)
                self.seq += 1
                frame["s"] = self.seq
                self.sent.append(frame)
                del self.sent[:-self.REPLAY_LIMIT]
            if (ws := self.live()) is not None:
                await ws.send_str(json.dumps(frame))

    async def replay(self, after: int) -> int:
        """Send again every dispatch after sequence ``after``; how many."""
        async with self.lock:
            missed = [f for f in self.sent if f["s"] > after]
            assert self.ws is not None, "a RESUME comes on a connection"
            for frame in missed:
                await self.ws.send_str(json.dumps(frame))
            return len(missed)


class StandIn:
    """`async with StandIn() as standin:` — the server runs on 127.0.0.1 on a free port."""

    # The driver class `connect` makes (bot.standin.driver.Driver, set by the package's __init__).
    driver: Callable[..., Any]

    def __init__(
        self,
        world: World | None = None,
        *,
        deadline: float = 3.0,
        token_lifetime: float = 15 * 60.0,
        attachment_size_limit: int = DEFAULT_ATTACHMENT_LIMIT,
        bot_token: str = "standin-bot-token",
        max_guilds_per_shard: int = 2500,
        max_concurrency: int = 16,
    ) -> None:
        self.world = world or World.default()
        self.max_guilds_per_shard = max_guilds_per_shard
        self.max_concurrency = max_concurrency
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
        self._response_validators: list[Callable[[str, str, int, Any], list[str]]] = []
        self._event_validators: list[Callable[[str, Any], list[str]]] = []
        self._channel_observers: list[Callable[[StoredMessage], None]] = []
        self._sessions: dict[str, GatewaySession] = {}
        self._active: GatewaySession | None = None  # shard 0's session
        self._shards: dict[int, GatewaySession] = {}  # shard id -> its current session
        self.shard_count: int | None = None  # what the client identified with
        self.gateway_closes: list[int] = []  # close codes the stand-in sent (4004, 4010, 4011...)
        self._connected = asyncio.Event()
        self.resumes = 0
        self.replayed = 0  # dispatches sent again on RESUME
        self.resume_gate = asyncio.Event()  # RESUMEs wait for it: clear it to keep a shard disconnected
        self.resume_gate.set()
        self._rate_limits: dict[str, list] = {}  # route -> [times left, retry_after, scope]
        self.rate_limited: list[tuple[str, str]] = []  # requests answered 429
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
        """Listen on 127.0.0.1:``port`` (0: a free one). A test that takes Discord away closes the stand-in and
        starts it again on the port it had: the bot reconnects (resumes) to the same sessions."""
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

    def add_validator(self, validator: Validator) -> None:
        """Run `validator(kind, method, path, body)` on every JSON body the bot sends; problems it returns
        are refused with a 400 and recorded as violations of kind `validator`."""
        self._validators.append(validator)

    def add_response_validator(self, validator: Callable[[str, str, int, Any], list[str]]) -> None:
        """Check every JSON body the stand-in answers with `validator(method, path, status, body)`; problems
        (the stand-in's own) are recorded as violations of kind `standin_response`."""
        self._response_validators.append(validator)

    def add_event_validator(self, validator: Callable[[str, Any], list[str]]) -> None:
        """Check every gateway dispatch the stand-in sends with `validator(event, data)`; problems are
        recorded as violations of kind `standin_event`."""
        self._event_validators.append(validator)

    def _check_event(self, event: str, data: Any) -> None:
        for validator in self._event_validators:
            problems = validator(event, data)
            if problems:
                self.violations.append(Violation("standin_event", "GATEWAY", event, 0, 0,
                                                 "; ".join(problems)))

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

    async def wait_shards(self, shard_ids: list[int] | tuple[int, ...], timeout: float = 10.0) -> None:
        """Wait until each of ``shard_ids`` has a connected session (shards may come from several clients, one
        process each: every shard's interactions go to whichever client identified it last)."""
        async def connected(shard_id: int) -> None:
            while True:
                session = self._shards.get(shard_id)
                if session is not None and session.connected.is_set() and session.open:
                    return
                await asyncio.sleep(0.02)

        await asyncio.wait_for(asyncio.gather(*(connected(i) for i in shard_ids)), timeout)

    def shards_connected(self) -> list[int]:
        """The shard ids with a connected session now."""
        return sorted(i for i, s in self._shards.items() if s.connected.is_set() and s.open)

    def new_interaction(
        self, type_: int, data: dict, *, user: User, channel: Channel, locale: str | None = None,
        message: StoredMessage | None = None, context: int | None = None,
    ) -> InteractionRecord:
        """Build an INTERACTION_CREATE payload as Discord sends it: a guild interaction (context 0), or in a
        DM with the bot (context 1) or a group DM (context 2) — those carry `user`, no `member` or guild.
        `app_permissions` and the member's `permissions` are computed from roles and channel overwrites."""
        world = self.world
        interaction_id = self.ids.next()
        token = "aW50ZXJhY3Rpb24" + secrets.token_urlsafe(48)
        payload: dict[str, Any] = {
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

    async def drop_connection(self, code: int = 4000, *, shard: int = 0) -> None:
        """Close a shard's gateway connection as Discord does at times; discord.py resumes."""
        session = self._shards.get(shard)
        ws = None if session is None else session.live()
        if session is not None and ws is not None:
            session.connected.clear()
            if shard == 0:
                self._connected.clear()
            await ws.close(code=code)

    def shard_of(self, channel: Channel) -> int:
        """The shard that receives a guild's events: (guild_id >> 22) % shard_count; DMs go to shard 0."""
        count = self.shard_count or 1
        return 0 if channel.guild_id is None else (channel.guild_id >> 22) % count

    async def dispatch(self, record: InteractionRecord, *, wait: bool = True, late: float = 0.0) -> None:
        """Send INTERACTION_CREATE to the shard that owns the interaction's guild (waiting up to 10 s for a
        reconnecting one; with ``wait=False`` a disconnected shard gets it on RESUME); the response deadline
        starts now, or `late` seconds ago (an interaction delivered late)."""
        shard = self.shard_of(record.channel)
        session = self._shards.get(shard)
        if wait and (session is None or not session.open):
            with contextlib.suppress(TimeoutError):
                await self.wait_connected(10.0)
                session = self._shards.get(shard)
                if session is not None:
                    await asyncio.wait_for(session.connected.wait(), 10.0)
        if session is None or (wait and not session.open):
            raise ConnectionError("no discord.py client is connected to the stand-in")
        record.created = time.monotonic() - late
        record.shard = shard
        await session.send(0, record.payload, "INTERACTION_CREATE", queue=not wait)

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
            elif op == 6:  # resume: the missed dispatches, then RESUMED
                await self.resume_gate.wait()  # a test may hold resumes back (clear it, then set it)
                session = self._sessions.get(data.get("session_id"))
                if session is None or data.get("token") != self.bot_token:
                    await ws.send_str(json.dumps({"op": 9, "d": False, "s": None, "t": None}))
                    continue
                session.ws = ws
                self._shards[session.shard[0]] = session
                if session.shard[0] == 0:
                    self._active = session
                self.resumes += 1
                self.replayed += await session.replay(int(data.get("seq") or 0))
                await session.send(0, {}, "RESUMED")
                session.connected.set()
                if session.shard[0] == 0:
                    self._connected.set()
            elif op == 8:  # request guild members: answer with the members we know
                await self._members_chunk(session, data)
        if session is not None and session.ws is ws:
            session.connected.clear()  # until the client resumes or identifies again
            if session is self._active:
                self._connected.clear()
        return ws

    def recommended_shards(self) -> int:
        """Discord's recommendation (GET /gateway/bot): the fewest shards that leave no shard with more than
        `max_guilds_per_shard` guilds."""
        count = max(1, -(-len(self.world.guilds) // self.max_guilds_per_shard))
        while any(len(self.guilds_of_shard(i, count)) > self.max_guilds_per_shard for i in range(count)):
            count += 1
        return count

    def guilds_of_shard(self, shard_id: int, count: int) -> list:
        return [g for g in self.world.guilds if (g.id >> 22) % count == shard_id]

    async def _close(self, ws: web.WebSocketResponse, code: int, reason: str) -> None:
        self.gateway_closes.append(code)
        await ws.close(code=code, message=reason.encode())

    async def _identify(self, ws: web.WebSocketResponse, data: dict) -> GatewaySession | None:
        if data.get("token") != self.bot_token:
            await self._close(ws, 4004, "Authentication failed.")
            return None
        shard = data.get("shard") or [0, 1]
        shard_id, count = int(shard[0]), int(shard[1])
        if not 0 <= shard_id < count:
            await self._close(ws, 4010, "Invalid shard.")
            return None
        if len(self.guilds_of_shard(shard_id, count)) > self.max_guilds_per_shard:
            await self._close(ws, 4011, "Sharding required.")
            return None
        self.shard_count = count
        session = GatewaySession(secrets.token_hex(16), (shard_id, count), self._check_event)
        session.ws = ws
        self._sessions[session.id] = session
        await self._ready(session)
        return session

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
        self._shards[shard_id] = session
        session.connected.set()
        if shard_id == 0:
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
        table: list[tuple[str, str, Callable[..., Awaitable[Any]], bool]] = [
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
            limited = self._take_rate_limit(handler.__name__, request)
            if limited is not None:
                return limited
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
            for validator in self._response_validators:
                problems = validator(request.method, path, 200, result)
                if problems:
                    self.violations.append(Violation("standin_response", request.method, path, 200, 0,
                                                     "; ".join(problems)))
            return _json(result)
        return self._unknown(request)

    # -- rate limits -----------------------------------------------------------------------------------------

    def rate_limit(self, route: str, *, times: int = 1, retry_after: float = 0.05, scope: str = "user") -> None:
        """The next `times` requests on `route` (one of `RATE_LIMITED_ROUTES`' names: channel_message,
        channel_edit, followup, edit, commands) answer 429 with `retry_after` seconds, as Discord does when a
        bucket is empty (`scope` "global" sets `global: true`). Off until a test turns it on."""
        if route not in RATE_LIMITED_ROUTES.values():
            raise ValueError(f"no rate-limited route {route!r}: one of {sorted(RATE_LIMITED_ROUTES.values())}")
        self._rate_limits[route] = [times, retry_after, scope]

    def _take_rate_limit(self, handler: str, request: web.Request) -> web.Response | None:
        route = RATE_LIMITED_ROUTES.get(handler)
        limit = self._rate_limits.get(route or "")
        if limit is None or limit[0] <= 0:
            return None
        limit[0] -= 1
        retry_after, scope = limit[1], limit[2]
        self.rate_limited.append((request.method, request.path))
        body = {"message": "You are being rate limited.", "retry_after": retry_after, "global": scope == "global",
                "code": 0}
        for validator in self._response_validators:
            problems = validator(request.method, request.path, 429, body)
            if problems:
                self.violations.append(Violation("standin_response", request.method, request.path, 429, 0,
                                                 "; ".join(problems)))
        headers = {"Content-Type": "application/json", "Via": "1.1 google", "Retry-After": str(max(1, round(retry_after))),
                   "X-RateLimit-Limit": "5", "X-RateLimit-Remaining": "0",
                   "X-RateLimit-Reset-After": f"{retry_after:.3f}", "X-RateLimit-Bucket": f"standin-{route}",
                   "X-RateLimit-Scope": scope}
        if scope == "global":
            headers["X-RateLimit-Global"] = "true"
        return web.Response(body=json.dumps(body).encode(), status=429, headers=headers)

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

    async def _body(self, request: web.Request) -> tuple[Any, list[File]]:
        """A JSON body (an object, or an array), or a multipart one (`payload_json` + `files[n]`) as discord.py sends with files."""
        content_type = request.headers.get("Content-Type", "")
        raw = await request.read()
        if not content_type.lower().startswith("multipart/"):
            return (json.loads(raw) if raw else {}), []
        body: dict = {}
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
        for f in files:
            if len(f.data) > self.attachment_size_limit:
                raise DiscordError(413, 40005, "Request entity too large", None, "attachment_size")
        return body, files

    # -- REST: login and application -------------------------------------------------------------------------

    async def _get_gateway(self, request: web.Request) -> dict:
        return {"url": self.gateway_url, "shards": self.recommended_shards(),
                "session_start_limit": {"total": 1000, "remaining": 999, "reset_after": 0,
                                        "max_concurrency": self.max_concurrency}}

    async def _get_me(self, request: web.Request) -> dict:
        return self.world.bot.payload() | {"verified": True, "mfa_enabled": False, "locale": "en-US"}

    async def _get_application(self, request: web.Request) -> dict:
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
            if entry.get("integration_types") is None:  # Discord answers with its defaults
                entry["integration_types"] = [0]
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
        allowed = ALLOWED_CALLBACKS.get(record.type, set())
        if record.type == MODAL_SUBMIT and record.message_id is None:
            # A form opened by a slash command has no message to update: only a new message (or deferring one).
            allowed = allowed - {DEFERRED_UPDATE, UPDATE_MESSAGE}
        if kind not in allowed:
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
        if kind in (CHANNEL_MESSAGE, UPDATE_MESSAGE):
            self._check_interaction_message(record, data, files, ephemeral=bool(data.get("flags", 0) & EPHEMERAL)
                                            if kind == CHANNEL_MESSAGE else self._is_ephemeral(record.message_id))
        self._validate("callback", request, body)

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
        answer: dict[str, Any] = {"interaction": {
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
        self._check_interaction_message(record, body, files, ephemeral=bool(message.payload["flags"] & EPHEMERAL))
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
        original = self.messages.get(record.original_id or 0)
        replaces = record.response_type == DEFERRED_MESSAGE and original and original.payload["flags"] & LOADING
        ephemeral = bool(original.payload["flags"] & EPHEMERAL) if replaces and original else bool(body.get("flags", 0) & EPHEMERAL)
        self._check_interaction_message(record, body, files, ephemeral=ephemeral)
        self._validate("webhook", request, body)
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
        self._check_channel_post(channel, body, files)
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

    # -- permissions and channel state -----------------------------------------------------------------------

    def _check_channel_post(self, channel: Channel, body: dict, files: list[File]) -> None:
        """A message the bot posts with its own token: the channel must take messages and the bot's
        permissions there (roles and overwrites) must allow it and what it carries."""
        if channel.type in (GUILD_FORUM, GUILD_MEDIA):
            raise DiscordError(400, 50008, "Cannot send messages in a non-text channel", None, "non_text_channel")
        if channel.type == GROUP_DM:  # a bot is never in a group DM
            raise DiscordError(403, perms.MISSING_ACCESS, "Missing Access", None, "missing_access")
        if channel.is_private:
            return
        granted = self.world.permissions(self.world.bot, channel)
        if not granted & perms.VIEW_CHANNEL:
            raise DiscordError(403, perms.MISSING_ACCESS, "Missing Access", None, "missing_access")
        sending = perms.SEND_MESSAGES_IN_THREADS if channel.is_thread else perms.SEND_MESSAGES
        self._check_thread_open(channel, granted)
        self._check_granted(granted, sending, "send")
        self._check_content(granted, body, files)

    def _check_interaction_message(self, record: InteractionRecord, body: dict, files: list[File], *,
                                   ephemeral: bool) -> None:
        """An interaction's message (response, followup, edit): no Send Messages needed, but embeds and files
        need the app's Embed Links and Attach Files (`app_permissions`), and a public message cannot go into
        an archived or locked thread."""
        granted = int(record.payload.get("app_permissions") or 0)
        if record.channel.guild_id is None:
            return
        if not ephemeral:
            self._check_thread_open(record.channel, granted)
        self._check_content(granted, body, files)

    def _check_thread_open(self, channel: Channel, granted: int) -> None:
        if not channel.is_thread:
            return
        if channel.locked and not granted & perms.MANAGE_THREADS:
            raise DiscordError(403, 160005, "Thread is locked", None, "thread_locked")
        if channel.archived:
            raise DiscordError(400, 50083, "Thread is archived", None, "thread_archived")

    def _check_content(self, granted: int, body: dict, files: list[File]) -> None:
        if body.get("embeds"):
            self._check_granted(granted, perms.EMBED_LINKS, "embeds")
        if files:
            self._check_granted(granted, perms.ATTACH_FILES, "files")

    @staticmethod
    def _check_granted(granted: int, needed: int, what: str) -> None:
        if granted & needed != needed:
            raise DiscordError(403, perms.MISSING_PERMISSIONS, "Missing Permissions",
                               {"needed": perms.names(needed & ~granted), "for": what}, "missing_permissions")

    def _is_ephemeral(self, message_id: int | None) -> bool:
        message = self.messages.get(message_id or 0)
        return bool(message and message.payload["flags"] & EPHEMERAL)

    async def update_channel(self, channel: Channel) -> None:
        """Tell the connected client a channel or thread changed (archived, locked, new overwrites)."""
        event = "THREAD_UPDATE" if channel.is_thread else "CHANNEL_UPDATE"
        session = self._shards.get(self.shard_of(channel))
        if session is not None and session.open:
            await session.send(0, channel.payload(), event)

    # -- messages --------------------------------------------------------------------------------------------

    def _store(self, channel_id: int, body: dict, files: list[File], *, flags: int,
               record: InteractionRecord | None = None) -> StoredMessage:
        message_id = self.ids.next()
        channel = self.world.find_channel(channel_id)
        payload: dict[str, Any] = {
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
            "flags": flags | (body.get("flags", 0) & limits.IS_COMPONENTS_V2),
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

    def _interaction_metadata(self, record: InteractionRecord) -> dict:
        """A message's `interaction_metadata`, per interaction type (as the OpenAPI description has it)."""
        data: dict[str, Any] = {"id": str(record.id), "type": record.type, "user": record.user.payload(),
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

    def _edit(self, message: StoredMessage, body: dict, files: list[File], *, created: bool = False) -> None:
        for key in ("content", "embeds", "components", "tts", "poll"):
            if key in body:
                value = body[key]
                message.payload[key] = value if value is not None else ([] if key != "content" else "")
                message.sent[key] = message.payload[key]
                if key == "components" and message.payload[key]:  # Discord numbers every component
                    message.payload[key] = _numbered(message.payload[key])
                if key == "embeds" and message.payload[key]:  # Discord stores rich embeds, fields not inline
                    message.payload[key] = [_stored_embed(e) for e in message.payload[key]]
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


def _stored_embed(embed: dict) -> dict:
    stored = {"type": "rich"} | embed
    if stored.get("fields"):
        stored["fields"] = [{"inline": False} | f for f in stored["fields"]]
    return stored


def _numbered(components: list[dict]) -> list[dict]:
    """A copy of `components` where each has the numeric `id` Discord gives it (1, 2, … in order)."""
    counter = itertools.count(1)

    def walk(items: list[dict]) -> list[dict]:
        numbered = []
        for item in items:
            copy = dict(item)
            copy.setdefault("id", next(counter))
            if isinstance(copy.get("components"), list):
                copy["components"] = walk(copy["components"])
            numbered.append(copy)
        return numbered

    return walk(components)


def _iid_of(standin: StandIn, params: dict) -> int | None:
    record = standin._record_of(params)
    return record.id if record else None


def _json(data: Any, status: int = 200) -> web.Response:
    # Exactly `application/json`: discord.py compares the header verbatim before parsing JSON.
    return web.Response(body=json.dumps(data).encode(), status=status, headers={"Content-Type": "application/json"})
