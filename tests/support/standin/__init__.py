"""The tests' Discord stand-in (and the benchmarks'): the console's stand-in (bot.standin) with everything
Discord refuses, several shards, RESUME, dropped connections, rate limits and validators (see .server), and
Discord's payload limits (.limits). What the tests read of the console's stand-in is re-exported here, so a
test imports its stand-in from one place.

    from tests.support.standin import StandIn, World
"""

from bot.standin import (
    Channel,
    DriverError,
    File,
    Guild,
    Message,
    NoReply,
    Reply,
    StoredMessage,
    User,
    World,
    pressable,
)
from bot.standin.protocol import (
    APPLICATION_COMMAND,
    AUTOCOMPLETE,
    AUTOCOMPLETE_RESULT,
    CHANNEL_MESSAGE,
    DEFERRED_MESSAGE,
    DEFERRED_UPDATE,
    EPHEMERAL,
    MESSAGE_COMPONENT,
    MODAL,
    MODAL_SUBMIT,
    UPDATE_MESSAGE,
    Activity,
)

from .server import RATE_LIMITED_ROUTES, Driver, StandIn, Violation


def channel_posts(reply: Reply) -> list[Activity]:
    """What the bot posted to a channel (not as the interaction's answer) while ``reply`` was collecting."""
    return [a for a in reply.activities if a.kind == "channel"]


__all__ = [
    "APPLICATION_COMMAND", "AUTOCOMPLETE", "AUTOCOMPLETE_RESULT", "CHANNEL_MESSAGE", "DEFERRED_MESSAGE",
    "DEFERRED_UPDATE", "EPHEMERAL", "MESSAGE_COMPONENT", "MODAL", "MODAL_SUBMIT", "RATE_LIMITED_ROUTES",
    "UPDATE_MESSAGE", "Channel", "Driver", "DriverError", "File", "Guild", "Message", "NoReply", "Reply", "StandIn",
    "StoredMessage", "User", "Violation", "World", "channel_posts", "pressable",
]
