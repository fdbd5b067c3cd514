"""A local stand-in for Discord's REST API and gateway (127.0.0.1 only), and a driver that plays a real
discord.py client through it: what the local console runs. The tests' stand-in (tests/support/standin)
extends it with what Discord refuses, shards, RESUME and validators."""

from .driver import Driver, DriverError, Message, NoReply, Reply, pressable
from .protocol import File, StoredMessage
from .server import StandIn
from .world import Channel, Guild, User, World

StandIn.driver = Driver  # what `StandIn.connect` makes: the server itself does not import the driver

__all__ = [
    "Channel", "Driver", "DriverError", "File", "Guild", "Message", "NoReply", "Reply", "StandIn",
    "StoredMessage", "User", "World", "pressable",
]
