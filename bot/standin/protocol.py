"""What the stand-in's server and its driver share: Discord's numbers (interaction and callback types, flags)
and the records of what the bot sent (messages, activities, interactions). Neither imports the other."""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass, field
from typing import Any, Protocol

from .world import Channel, Snowflakes, User, World

JSON = dict[str, Any]  # a payload as Discord's JSON has it

API = "/api/v10"
EPHEMERAL = 1 << 6
LOADING = 1 << 7
IS_COMPONENTS_V2 = 1 << 15
DEFAULT_ATTACHMENT_LIMIT = 10 * 1024 * 1024  # Discord's limit for a server without boosts

# Interaction types and callback types (Discord's numbers).
PING, APPLICATION_COMMAND, MESSAGE_COMPONENT, AUTOCOMPLETE, MODAL_SUBMIT = 1, 2, 3, 4, 5
CHANNEL_MESSAGE, DEFERRED_MESSAGE, DEFERRED_UPDATE, UPDATE_MESSAGE, AUTOCOMPLETE_RESULT, MODAL = 4, 5, 6, 7, 8, 9
PONG = 1


@dataclass
class File:
    filename: str
    data: bytes
    content_type: str | None = None


@dataclass
class StoredMessage:
    """A message as Discord holds it (`payload`), what the bot sent for it (`sent`, edits merged), files."""

    payload: JSON
    sent: JSON
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
    payload: JSON  # the JSON body (for a callback: the whole body with type and data)
    files: list[File] = field(default_factory=list)
    message_id: int | None = None


@dataclass
class InteractionRecord:
    id: int
    token: str
    type: int
    channel: Channel
    user: User
    payload: JSON
    message_id: int | None = None  # the message a component/modal interaction came from
    created: float = 0.0  # monotonic time of dispatch
    response_type: int | None = None
    original_id: int | None = None
    shard: int | None = None  # the shard it was dispatched to
    # Whether the first answer asked for the message back (``?with_response=true``: the callback's answer then
    # holds the whole message); None before any answer.
    asked_for_message: bool | None = None
    observers: list[Callable[[InteractionRecord, Activity], None]] = field(default_factory=list)

    @property
    def responded(self) -> bool:
        return self.response_type is not None


class Server(Protocol):
    """What the driver uses of the stand-in's server (bot.standin.server.StandIn), so it needs no import of it."""

    world: World
    deadline: float
    bot_token: str
    ids: Snowflakes
    messages: dict[int, StoredMessage]
    commands: dict[int | None, list[JSON]]
    interactions: dict[int, InteractionRecord]

    @property
    def api_base(self) -> str: ...
    @property
    def gateway_url(self) -> str: ...
    def new_interaction(self, type_: int, data: JSON, *, user: User, channel: Channel, locale: str | None = None,
                        message: StoredMessage | None = None, context: int | None = None) -> InteractionRecord: ...
    def watch_channels(self, observer: Callable[[StoredMessage], None]) -> Callable[[], None]: ...
    async def dispatch(self, record: InteractionRecord, *, wait: bool = True, late: float = 0.0) -> None: ...
    def connect(self, bot: Any, **options: Any) -> Any: ...
