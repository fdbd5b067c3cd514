"""A local stand-in for Discord's REST API and gateway (127.0.0.1 only), and a driver that plays a real
discord.py client through it. Used by the local console, the end-to-end tests and the benchmarks."""

from .driver import Driver, DriverError, Message, NoReply, Reply, pressable
from .server import File, StandIn, StoredMessage, Violation
from .world import Channel, Guild, User, World

StandIn.driver = Driver  # what `StandIn.connect` makes: the server itself does not import the driver

__all__ = [
    "Channel", "Driver", "DriverError", "File", "Guild", "Message", "NoReply", "Reply", "StandIn",
    "StoredMessage", "User", "Violation", "World", "pressable",
]
