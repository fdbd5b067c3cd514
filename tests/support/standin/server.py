"""The tests' stand-in: the console's (bot.standin.server) with what Discord refuses and what only tests need.

It enforces what Discord enforces — one initial response per interaction, the response deadline, the webhook
token's lifetime, payload limits, permissions, open threads — answering with Discord's error codes and
recording each refusal in `violations`. A test that takes Discord away closes the stand-in and starts it
again on the port it had (`start(port)`): the bot reconnects (resumes) to the same sessions. It plays Discord's gateway with several shards (one session each,
4010/4011 when the client shards wrongly), keeps each session's dispatches for a RESUME (which a test can hold
back with `resume_gate`), drops connections on demand, answers 429 when a test asks, and runs the validators
a test gives it on every body the bot sends and every body and event the stand-in itself sends.
"""

from __future__ import annotations

import asyncio
import contextlib
import json
import re
import time
from collections.abc import Callable
from dataclasses import dataclass
from typing import Any

from aiohttp import web

from bot.standin import permissions as perms
from bot.standin.driver import Driver as ConsoleDriver
from bot.standin.driver import Reply
from bot.standin.protocol import (
    APPLICATION_COMMAND,
    AUTOCOMPLETE,
    AUTOCOMPLETE_RESULT,
    CHANNEL_MESSAGE,
    DEFAULT_ATTACHMENT_LIMIT,
    DEFERRED_MESSAGE,
    DEFERRED_UPDATE,
    EPHEMERAL,
    MESSAGE_COMPONENT,
    MODAL,
    MODAL_SUBMIT,
    PING,
    PONG,
    UPDATE_MESSAGE,
    File,
    InteractionRecord,
    StoredMessage,
)
from bot.standin.server import JSON, DiscordError, GatewaySession, Handler
from bot.standin.server import StandIn as ConsoleStandIn
from bot.standin.world import GROUP_DM, GUILD_FORUM, GUILD_MEDIA, Channel, World

from . import layout, limits, mentions
from .mentions import Pings

# The initial responses Discord takes for each interaction type.
ALLOWED_CALLBACKS = {
    PING: {PONG},
    APPLICATION_COMMAND: {CHANNEL_MESSAGE, DEFERRED_MESSAGE, MODAL},
    MESSAGE_COMPONENT: {CHANNEL_MESSAGE, DEFERRED_MESSAGE, DEFERRED_UPDATE, UPDATE_MESSAGE, MODAL},
    AUTOCOMPLETE: {AUTOCOMPLETE_RESULT},
    MODAL_SUBMIT: {CHANNEL_MESSAGE, DEFERRED_MESSAGE, DEFERRED_UPDATE, UPDATE_MESSAGE},
}

# Routes `StandIn.rate_limit` can answer 429 on (handler name -> route name).
RATE_LIMITED_ROUTES = {
    "_post_channel_message": "channel_message", "_edit_channel_message": "channel_edit",
    "_wh_followup": "followup", "_wh_edit": "edit", "_put_commands": "commands",
}

# A validator sees every JSON body the bot sends: (kind, method, path, body) -> list of problems.
# kind is one of "callback", "webhook", "channel_message", "commands".
Validator = Callable[[str, str, str, Any], list[str]]


# Error codes Discord answers a refused request with.
MISSING_ACCESS = 50001
MISSING_PERMISSIONS = 50013
PERMISSION_NAMES = {
    perms.VIEW_CHANNEL: "View Channel", perms.SEND_MESSAGES: "Send Messages", perms.EMBED_LINKS: "Embed Links",
    perms.ATTACH_FILES: "Attach Files", perms.SEND_MESSAGES_IN_THREADS: "Send Messages in Threads",
    perms.MANAGE_GUILD: "Manage Server", perms.MANAGE_THREADS: "Manage Threads",
}


def message_errors(data: JSON, *, prefix: tuple[str, ...] = (), before: StoredMessage | None = None,
                   files: list[File] | None = None) -> JSON:
    """A message body's limits, then what Components V2 refuses in it (for an edit, of the message ``before``;
    ``files``: those uploaded with it), then its `allowed_mentions` (each as Discord's error tree)."""
    old = before.payload if before is not None else None
    names = layout.attachment_names(data, [f.filename for f in files or []], old)
    return (limits.message_errors(data, prefix=prefix, v2=layout.is_v2(data, old))
            or layout.v2_errors(data, prefix=prefix, before=old, attachments=names)
            or mentions.allowed_mentions_errors(data, prefix=prefix))


def emptied(data: JSON, before: StoredMessage | None) -> bool:
    """An edit that would leave a Components V2 message with no components, so nothing to show."""
    return (before is not None and layout.is_v2(data, before.payload) and "components" in data
            and not data["components"])


def permission_names(bits: int) -> str:
    return ", ".join(name for bit, name in PERMISSION_NAMES.items() if bits & bit) or str(bits)


def invalid_form(errors: JSON, kind: str) -> DiscordError:
    return DiscordError(400, 50035, "Invalid Form Body", errors, kind)


def empty_message() -> DiscordError:
    return DiscordError(400, 50006, "Cannot send an empty message", None, "empty_message")


@dataclass
class Violation:
    """A request the stand-in refused (as Discord would) — tests assert there are none."""

    kind: str  # double_response, late_response, expired_token, limits, empty_message, ...
    method: str
    path: str
    status: int
    code: int
    message: str
    errors: JSON | None = None
    interaction_id: int | None = None


class ReplayingSession(GatewaySession):
    """One shard's gateway session. Dispatches sent while its connection is down are kept (with their
    sequence numbers) and replayed on RESUME, as Discord does."""

    REPLAY_LIMIT = 1000

    def __init__(self, session_id: str, shard: tuple[int, int] = (0, 1),
                 check: Callable[[str, Any], None] | None = None) -> None:
        super().__init__(session_id, shard)
        self.check = check  # sees every dispatch (event name, data) before it is sent
        self.sent: list[JSON] = []  # the last dispatches, for a RESUME

    async def send(self, op: int, data: Any, event: str | None = None, *, queue: bool = False) -> None:
        """Send a frame; with ``queue``, a dispatch while the connection is down waits for a RESUME."""
        async with self.lock:
            if not self.open and not (queue and op == 0):
                raise ConnectionError("the bot's gateway connection is closed")
            frame: JSON = {"op": op, "d": data, "s": None, "t": event}
            if op == 0:
                if self.check is not None:
                    self.check(event or "", data)
                self.seq += 1
                frame["s"] = self.seq
                self.sent.append(frame)
                del self.sent[:-self.REPLAY_LIMIT]
            await self._write(frame)

    async def replay(self, after: int) -> int:
        """Send again every dispatch after sequence ``after``; how many."""
        async with self.lock:
            missed = [f for f in self.sent if f["s"] > after]
            assert self.ws is not None, "a RESUME comes on a connection"
            for frame in missed:
                await self.ws.send_str(json.dumps(frame))
            return len(missed)


class Driver(ConsoleDriver):
    """The console's driver, and what only tests do with an interaction."""

    async def redeliver(self, reply: Reply) -> None:
        """Deliver `reply`'s interaction again (same id, token and creation time), as a RESUME replay may.
        Nothing waits for an answer: the bot must not act on it (look at the store, or the bot's own count)."""
        record = reply.record
        await self.standin.dispatch(record, late=time.monotonic() - record.created)


class StandIn(ConsoleStandIn):
    """`async with StandIn() as standin:` — the server runs on 127.0.0.1 on a free port."""

    driver = Driver  # what `connect` makes

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
        super().__init__(world, deadline=deadline, attachment_size_limit=attachment_size_limit,
                         bot_token=bot_token)
        self.max_guilds_per_shard = max_guilds_per_shard
        self.max_concurrency = max_concurrency
        self.token_lifetime = token_lifetime
        self.violations: list[Violation] = []
        self.requests: list[tuple[str, str]] = []
        self._validators: list[Validator] = []
        self._response_validators: list[Callable[[str, str, int, Any], list[str]]] = []
        self._event_validators: list[Callable[[str, Any], list[str]]] = []
        self._shards: dict[int, ReplayingSession] = {}  # shard id -> its current session
        self.shard_count: int | None = None  # what the client identified with
        self.gateway_closes: list[int] = []  # close codes the stand-in sent (4004, 4010, 4011...)
        self.resumes = 0
        self.replayed = 0  # dispatches sent again on RESUME
        self.resume_gate = asyncio.Event()  # RESUMEs wait for it: clear it to keep a shard disconnected
        self.resume_gate.set()
        self._rate_limits: dict[str, list[Any]] = {}  # route -> [times left, retry_after, scope]
        self.rate_limited: list[tuple[str, str]] = []  # requests answered 429
        self.pings: dict[int, Pings] = {}  # message id -> whom it notified (its last text, see .mentions)

    # -- validators ------------------------------------------------------------------------------------------

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

    def _answering(self, method: str, path: str, status: int, body: Any) -> None:
        for validator in self._response_validators:
            problems = validator(method, path, status, body)
            if problems:
                self.violations.append(Violation("standin_response", method, path, status, 0,
                                                 "; ".join(problems)))

    def _validate(self, kind: str, request: web.Request, body: Any) -> None:
        problems = [p for v in self._validators for p in v(kind, request.method, request.path, body)]
        if problems:
            errors = {"_validator": {"_errors": [{"code": "VALIDATOR", "message": p} for p in problems]}}
            raise DiscordError(400, 50035, "Invalid Form Body", errors, "validator")

    # -- shards and sessions ---------------------------------------------------------------------------------

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

    async def update_channel(self, channel: Channel) -> None:
        """Tell the connected client a channel or thread changed (archived, locked, new overwrites)."""
        event = "THREAD_UPDATE" if channel.is_thread else "CHANNEL_UPDATE"
        session = self._shards.get(self.shard_of(channel))
        if session is not None and session.open:
            await session.send(0, channel.payload(), event)

    def recommended_shards(self) -> int:
        """Discord's recommendation (GET /gateway/bot): the fewest shards that leave no shard with more than
        `max_guilds_per_shard` guilds."""
        count = max(1, -(-len(self.world.guilds) // self.max_guilds_per_shard))
        while any(len(self.guilds_of_shard(i, count)) > self.max_guilds_per_shard for i in range(count)):
            count += 1
        return count

    async def _get_gateway(self, request: web.Request) -> JSON:
        return {"url": self.gateway_url, "shards": self.recommended_shards(),
                "session_start_limit": {"total": 1000, "remaining": 999, "reset_after": 0,
                                        "max_concurrency": self.max_concurrency}}

    async def _close(self, ws: web.WebSocketResponse, code: int, reason: str) -> None:
        self.gateway_closes.append(code)
        await ws.close(code=code, message=reason.encode())

    def _new_session(self, session_id: str, shard: tuple[int, int]) -> GatewaySession:
        return ReplayingSession(session_id, shard, self._check_event)

    async def _identify(self, ws: web.WebSocketResponse, data: JSON) -> GatewaySession | None:
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
        return await super()._identify(ws, data)

    def _connected_session(self, session: GatewaySession) -> None:
        assert isinstance(session, ReplayingSession)
        self._shards[session.shard[0]] = session
        super()._connected_session(session)

    async def _resume(self, ws: web.WebSocketResponse, data: JSON) -> GatewaySession | None:
        """The missed dispatches, then RESUMED."""
        await self.resume_gate.wait()  # a test may hold resumes back (clear it, then set it)
        session = self._sessions.get(data.get("session_id") or "")
        if not isinstance(session, ReplayingSession) or data.get("token") != self.bot_token:
            await ws.send_str(json.dumps({"op": 9, "d": False, "s": None, "t": None}))
            return None
        session.ws = ws
        self._shards[session.shard[0]] = session
        if session.shard[0] == 0:
            self._active = session
        self.resumes += 1
        self.replayed += await session.replay(int(data.get("seq") or 0))
        await session.send(0, {}, "RESUMED")
        super()._connected_session(session)
        return session

    # -- REST plumbing ---------------------------------------------------------------------------------------

    def _route_table(self) -> list[tuple[str, re.Pattern[str], Handler, bool]]:
        """The console's routes, and the reads and deletes none of the bot's commands makes (a test's may)."""
        table: list[tuple[str, str, Handler, bool]] = [
            ("GET", r"/webhooks/(?P<app>\d+)/(?P<token>[^/]+)/messages/(?P<mid>@original|\d+)", self._wh_get, False),
            ("GET", r"/channels/(?P<cid>\d+)/messages", self._get_channel_messages, True),
            ("GET", r"/channels/(?P<cid>\d+)/messages/(?P<mid>\d+)", self._get_channel_message, True),
            ("DELETE", r"/channels/(?P<cid>\d+)/messages/(?P<mid>\d+)", self._delete_channel_message, True),
            ("POST", r"/channels/(?P<cid>\d+)/typing", self._typing, True),
            ("GET", r"/guilds/(?P<guild>\d+)", self._get_guild, True),
            ("GET", r"/guilds/(?P<guild>\d+)/channels", self._get_guild_channels, True),
        ]
        return super()._route_table() + [(method, re.compile(pattern + "$"), handler, auth)
                                         for method, pattern, handler, auth in table]

    async def _rest(self, request: web.Request) -> web.Response:
        self.requests.append((request.method, request.path))
        return await super()._rest(request)

    def _refused(self, request: web.Request, params: dict[str, str], error: DiscordError) -> None:
        record = self._record_of(params)
        self.violations.append(Violation(error.kind or "error", request.method, request.path, error.status,
                                         error.code, error.message, error.errors, record.id if record else None))
        super()._refused(request, params, error)

    async def _body(self, request: web.Request) -> tuple[Any, list[File]]:
        body, files = await super()._body(request)
        for f in files:
            if len(f.data) > self.attachment_size_limit:
                raise DiscordError(413, 40005, "Request entity too large", None, "attachment_size")
        return body, files

    # -- REST: reads and deletes ------------------------------------------------------------------------------

    async def _wh_get(self, request: web.Request, app: str, token: str, mid: str) -> JSON:
        return self._webhook_message(self._webhook_record(app, token), mid).payload

    async def _get_channel_messages(self, request: web.Request, cid: str) -> list[JSON]:
        channel = self._channel(cid)
        limit = int(request.query.get("limit", 50))
        found = [m.payload for m in self.messages.values() if m.channel_id == channel.id]
        return list(reversed(found))[:limit]

    async def _get_channel_message(self, request: web.Request, cid: str, mid: str) -> JSON:
        return self._channel_message(cid, mid).payload

    async def _delete_channel_message(self, request: web.Request, cid: str, mid: str) -> None:
        self._delete(self._channel_message(cid, mid))

    async def _typing(self, request: web.Request, cid: str) -> None:
        self._channel(cid)

    async def _get_guild(self, request: web.Request, guild: str) -> JSON:
        for g in self.world.guilds:
            if g.id == int(guild):
                data = g.payload(self.world.bot)
                for key in ("channels", "threads", "members", "voice_states", "presences"):
                    data.pop(key)
                return data
        raise DiscordError(404, 10004, "Unknown Guild", None, "unknown_guild")

    async def _get_guild_channels(self, request: web.Request, guild: str) -> list[JSON]:
        return [c.payload() for g in self.world.guilds if g.id == int(guild) for c in g.channels
                if not c.is_thread]

    # -- rate limits -----------------------------------------------------------------------------------------

    def rate_limit(self, route: str, *, times: int = 1, retry_after: float = 0.05, scope: str = "user") -> None:
        """The next `times` requests on `route` (one of `RATE_LIMITED_ROUTES`' names: channel_message,
        channel_edit, followup, edit, commands) answer 429 with `retry_after` seconds, as Discord does when a
        bucket is empty (`scope` "global" sets `global: true`). Off until a test turns it on."""
        if route not in RATE_LIMITED_ROUTES.values():
            raise ValueError(f"no rate-limited route {route!r}: one of {sorted(RATE_LIMITED_ROUTES.values())}")
        self._rate_limits[route] = [times, retry_after, scope]

    def _intercept(self, handler: str, request: web.Request) -> web.Response | None:
        route = RATE_LIMITED_ROUTES.get(handler)
        limit = self._rate_limits.get(route or "")
        if limit is None or limit[0] <= 0:
            return None
        limit[0] -= 1
        retry_after, scope = limit[1], limit[2]
        self.rate_limited.append((request.method, request.path))
        body = {"message": "You are being rate limited.", "retry_after": retry_after, "global": scope == "global",
                "code": 0}
        self._answering(request.method, request.path, 429, body)
        headers = {"Content-Type": "application/json", "Via": "1.1 google", "Retry-After": str(max(1, round(retry_after))),
                   "X-RateLimit-Limit": "5", "X-RateLimit-Remaining": "0",
                   "X-RateLimit-Reset-After": f"{retry_after:.3f}", "X-RateLimit-Bucket": f"standin-{route}",
                   "X-RateLimit-Scope": scope}
        if scope == "global":
            headers["X-RateLimit-Global"] = "true"
        return web.Response(body=json.dumps(body).encode(), status=429, headers=headers)

    # -- what Discord refuses --------------------------------------------------------------------------------

    def _check_callback(self, request: web.Request, record: InteractionRecord, body: JSON,
                        files: list[File]) -> None:
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
        errors: JSON = {}
        if kind in (CHANNEL_MESSAGE, UPDATE_MESSAGE):
            updated = self.messages.get(record.message_id or 0) if kind == UPDATE_MESSAGE else None
            errors = message_errors(data, prefix=("data",), before=updated, files=files)
            if not errors and ((kind == CHANNEL_MESSAGE and limits.is_empty_message(data, len(files)))
                               or emptied(data, updated)):
                raise empty_message()
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

    def _webhook_record(self, app: str, token: str) -> InteractionRecord:
        record = super()._webhook_record(app, token)
        if time.monotonic() - record.created > self.token_lifetime:
            raise DiscordError(401, 50027, "Invalid Webhook Token", None, "expired_token")
        if not record.responded:
            raise DiscordError(404, 10015, "Unknown Webhook", None, "webhook_before_response")
        return record

    def _check_webhook(self, request: web.Request, record: InteractionRecord, body: JSON, files: list[File], *,
                       ephemeral: bool, new: bool, message: StoredMessage | None = None) -> None:
        errors = message_errors(body, before=message, files=files)
        if errors:
            raise invalid_form(errors, "limits")
        if (new and limits.is_empty_message(body, len(files))) or emptied(body, message):
            raise empty_message()
        self._check_interaction_message(record, body, files, ephemeral=ephemeral)
        self._validate("webhook", request, body)

    def _check_channel_message(self, request: web.Request, channel: Channel, body: JSON, files: list[File], *,
                               new: bool, message: StoredMessage | None = None) -> None:
        errors = message_errors(body, before=message, files=files)
        if errors:
            raise invalid_form(errors, "limits")
        if emptied(body, message):
            raise empty_message()
        if new:
            if limits.is_empty_message(body, len(files)):
                raise empty_message()
            self._check_channel_post(channel, body, files)
        self._validate("channel_message", request, body)

    def _check_commands(self, request: web.Request, body: Any) -> None:
        self._validate("commands", request, body)

    async def _get_commands(self, request: web.Request, app: str, guild: str | None = None) -> list[JSON]:
        self._check_guild_commands(guild)
        return await super()._get_commands(request, app, guild)

    async def _put_commands(self, request: web.Request, app: str, guild: str | None = None) -> list[JSON]:
        self._check_guild_commands(guild)
        return await super()._put_commands(request, app, guild)

    def _check_guild_commands(self, guild: str | None) -> None:
        """A guild's commands are the app's only where it is installed: elsewhere Discord answers 50001."""
        if guild is not None and all(g.id != int(guild) for g in self.world.guilds):
            raise DiscordError(403, MISSING_ACCESS, "Missing Access", None, "missing_access")

    # -- mentions -------------------------------------------------------------------------------------------

    def _edit(self, message: StoredMessage, body: JSON, files: list[File], *, created: bool = False) -> None:
        """Every message stored or edited: whom its text notifies, as Discord computes it (tests/support/
        standin/mentions.py), kept in `pings` and in the message's `mentions`, `mention_roles` and
        `mention_everyone`. An edit that leaves the text alone (components, attachments) notifies no one anew."""
        super()._edit(message, body, files, created=created)
        if not created and "content" not in body and not mentions.pinging_text({"components": body.get("components")}):
            return
        now = {"content": message.payload.get("content"), "components": message.payload.get("components"),
               "allowed_mentions": body.get("allowed_mentions"),
               "message_reference": body.get("message_reference") if created else None}
        found = mentions.pings(now)
        self.pings[message.id] = found
        known = {u.id: u for u in self.world.users}
        message.payload["mentions"] = [known[i].payload() for i in sorted(found.users) if i in known]
        message.payload["mention_roles"] = [str(i) for i in sorted(found.roles)]
        message.payload["mention_everyone"] = found.everyone

    def pinged(self) -> dict[int, Pings]:
        """The messages that notified someone (message id -> whom): the bot's must be none (issue 35)."""
        return {mid: found for mid, found in self.pings.items() if found}

    # -- permissions and channel state -----------------------------------------------------------------------

    def _check_channel_post(self, channel: Channel, body: JSON, files: list[File]) -> None:
        """A message the bot posts with its own token: the channel must take messages and the bot's
        permissions there (roles and overwrites) must allow it and what it carries."""
        if channel.type in (GUILD_FORUM, GUILD_MEDIA):
            raise DiscordError(400, 50008, "Cannot send messages in a non-text channel", None, "non_text_channel")
        if channel.type == GROUP_DM:  # a bot is never in a group DM
            raise DiscordError(403, MISSING_ACCESS, "Missing Access", None, "missing_access")
        if channel.is_private:
            return
        granted = self.world.permissions(self.world.bot, channel)
        if not granted & perms.VIEW_CHANNEL:
            raise DiscordError(403, MISSING_ACCESS, "Missing Access", None, "missing_access")
        sending = perms.SEND_MESSAGES_IN_THREADS if channel.is_thread else perms.SEND_MESSAGES
        self._check_thread_open(channel, granted)
        self._check_granted(granted, sending, "send")
        self._check_content(granted, body, files)

    def _check_interaction_message(self, record: InteractionRecord, body: JSON, files: list[File], *,
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

    def _check_content(self, granted: int, body: JSON, files: list[File]) -> None:
        """Embeds need Embed Links, uploads need Attach Files. A Components V2 message needs neither for its
        text: Discord's guide asks only for "the necessary permissions to send messages in the channel"
        (developers/components/using-message-components.mdx, Prerequisites), and its reference lists none for
        Text Displays, Containers or Sections (a Text Display behaves "extremely similar to the content field",
        which needs none); its pictures are uploads (``attachment://``), so Attach Files, as any file."""
        if body.get("embeds"):
            self._check_granted(granted, perms.EMBED_LINKS, "embeds")
        if files:
            self._check_granted(granted, perms.ATTACH_FILES, "files")

    @staticmethod
    def _check_granted(granted: int, needed: int, what: str) -> None:
        if granted & needed != needed:
            raise DiscordError(403, MISSING_PERMISSIONS, "Missing Permissions",
                               {"needed": permission_names(needed & ~granted), "for": what}, "missing_permissions")

    def _is_ephemeral(self, message_id: int | None) -> bool:
        message = self.messages.get(message_id or 0)
        return bool(message and message.payload["flags"] & EPHEMERAL)


__all__ = ["RATE_LIMITED_ROUTES", "DiscordError", "ReplayingSession", "StandIn", "Validator", "Violation"]
