"""The stand-in's world: guilds, channels, threads, users, and the bot's own identity.

Ids are fixed numbers (not random) so a console run with `--db` finds the same guild, channel and owner
the next time it starts: games are bound to channel ids and owned by user ids.
"""

from __future__ import annotations

import hashlib
import itertools
import time
from dataclasses import dataclass, field
from datetime import UTC, datetime

# Permission bits (https://discord.com/developers/docs/topics/permissions).
MANAGE_GUILD = 1 << 5
MEMBER_PERMISSIONS = (
    (1 << 6)  # ADD_REACTIONS
    | (1 << 10)  # VIEW_CHANNEL
    | (1 << 11)  # SEND_MESSAGES
    | (1 << 14)  # EMBED_LINKS
    | (1 << 15)  # ATTACH_FILES
    | (1 << 16)  # READ_MESSAGE_HISTORY
    | (1 << 31)  # USE_APPLICATION_COMMANDS
    | (1 << 38)  # SEND_MESSAGES_IN_THREADS
)
BOT_PERMISSIONS = MEMBER_PERMISSIONS | (1 << 34)  # + MANAGE_THREADS

GUILD_TEXT = 0
PUBLIC_THREAD = 11

DISCORD_EPOCH_MS = 1420070400000


def stable_id(name: str) -> int:
    """A snowflake-shaped id derived from a name, the same in every run."""
    digest = int.from_bytes(hashlib.sha256(name.encode()).digest()[:6], "big")
    return (1 << 60) | digest


class Snowflakes:
    """Fresh, increasing snowflakes (timestamp in the high bits, like Discord's) for messages and interactions."""

    def __init__(self) -> None:
        self._counter = itertools.count(1)

    def next(self) -> int:
        ms = int(time.time() * 1000) - DISCORD_EPOCH_MS
        return (ms << 22) | (next(self._counter) & 0x3FFFFF)


def iso_now() -> str:
    return datetime.now(UTC).isoformat()


@dataclass
class User:
    id: int
    name: str
    locale: str = "en-US"
    manager: bool = False  # has Manage Server in its guilds
    bot: bool = False

    def payload(self) -> dict:
        return {
            "id": str(self.id),
            "username": self.name,
            "global_name": self.name,
            "discriminator": "0",
            "avatar": None,
            "bot": self.bot,
            "public_flags": 0,
            "flags": 0,
        }

    @property
    def permissions(self) -> int:
        return MEMBER_PERMISSIONS | (MANAGE_GUILD if self.manager else 0)

    def member_payload(self) -> dict:
        return {
            "user": self.payload(),
            "nick": None,
            "avatar": None,
            "roles": [],
            "joined_at": "2024-01-01T00:00:00+00:00",
            "deaf": False,
            "mute": False,
            "flags": 0,
            "pending": False,
            "permissions": str(self.permissions),
        }


@dataclass
class Channel:
    id: int
    name: str
    guild_id: int
    parent_id: int | None = None  # set for a thread

    @property
    def is_thread(self) -> bool:
        return self.parent_id is not None

    def payload(self) -> dict:
        data = {
            "id": str(self.id),
            "type": PUBLIC_THREAD if self.is_thread else GUILD_TEXT,
            "name": self.name,
            "guild_id": str(self.guild_id),
            "position": 0,
            "permission_overwrites": [],
            "nsfw": False,
            "topic": None,
            "last_message_id": None,
            "rate_limit_per_user": 0,
            "flags": 0,
        }
        if self.is_thread:
            data |= {
                "parent_id": str(self.parent_id),
                "owner_id": "1",
                "message_count": 0,
                "member_count": 1,
                "thread_metadata": {
                    "archived": False,
                    "auto_archive_duration": 1440,
                    "archive_timestamp": "2024-01-01T00:00:00+00:00",
                    "locked": False,
                },
            }
            for key in ("position", "permission_overwrites", "topic"):
                data.pop(key)
        return data


@dataclass
class Guild:
    id: int
    name: str
    locale: str = "en-US"
    channels: list[Channel] = field(default_factory=list)

    def add_channel(self, name: str, *, parent: Channel | None = None) -> Channel:
        channel = Channel(stable_id(f"channel:{self.name}:{name}"), name, self.id,
                          parent.id if parent else None)
        self.channels.append(channel)
        return channel

    def payload(self, bot: User) -> dict:
        """The GUILD_CREATE payload: text channels in `channels`, threads in `threads`."""
        return {
            "id": str(self.id),
            "name": self.name,
            "icon": None,
            "owner_id": str(bot.id),
            "preferred_locale": self.locale,
            "unavailable": False,
            "large": False,
            "member_count": 1,
            "features": [],
            "emojis": [],
            "stickers": [],
            "roles": [{
                "id": str(self.id), "name": "@everyone", "permissions": str(MEMBER_PERMISSIONS),
                "position": 0, "color": 0, "hoist": False, "managed": False, "mentionable": False, "flags": 0,
            }],
            "members": [bot.member_payload() | {"permissions": str(BOT_PERMISSIONS)}],
            "channels": [c.payload() for c in self.channels if not c.is_thread],
            "threads": [c.payload() for c in self.channels if c.is_thread],
            "voice_states": [],
            "presences": [],
            "stage_instances": [],
            "guild_scheduled_events": [],
            "verification_level": 0,
            "default_message_notifications": 0,
            "explicit_content_filter": 0,
            "mfa_level": 0,
            "nsfw_level": 0,
            "premium_tier": 0,
            "system_channel_id": None,
            "afk_channel_id": None,
            "afk_timeout": 300,
            "joined_at": "2024-01-01T00:00:00+00:00",
        }


@dataclass
class World:
    bot: User
    application_id: int
    guilds: list[Guild] = field(default_factory=list)
    users: list[User] = field(default_factory=list)

    @classmethod
    def default(cls) -> World:
        """One guild with a `#table` channel, a `session` thread under it, a `#lobby` channel,
        a player (`player`, en-US), a Japanese player (`haruka`, ja) and a manager (`admin`)."""
        bot = User(stable_id("user:automaton"), "automaton", bot=True)
        world = cls(bot=bot, application_id=bot.id)
        guild = world.add_guild("Solo Table")
        table = guild.add_channel("table")
        guild.add_channel("session", parent=table)
        guild.add_channel("lobby")
        world.add_user("player")
        world.add_user("haruka", locale="ja")
        world.add_user("admin", manager=True)
        return world

    def add_guild(self, name: str, *, locale: str = "en-US") -> Guild:
        guild = Guild(stable_id(f"guild:{name}"), name, locale)
        self.guilds.append(guild)
        return guild

    def add_user(self, name: str, *, locale: str = "en-US", manager: bool = False) -> User:
        user = User(stable_id(f"user:{name}"), name, locale, manager)
        self.users.append(user)
        return user

    def user(self, key: User | str | int | None = None) -> User:
        """A user by object, name or id; None means the first user."""
        if isinstance(key, User):
            return key
        if key is None:
            return self.users[0]
        for user in self.users:
            if key in (user.name, user.id, str(user.id)):
                return user
        raise KeyError(f"no user {key!r} in the stand-in's world")

    def channel(self, key: Channel | str | int | None = None) -> Channel:
        """A channel or thread by object, name (`table`, `#table`) or id; None means the first channel."""
        if isinstance(key, Channel):
            return key
        channels = [c for g in self.guilds for c in g.channels]
        if key is None:
            return channels[0]
        name = key.lstrip("#") if isinstance(key, str) else key
        for channel in channels:
            if name in (channel.name, channel.id, str(channel.id)):
                return channel
        raise KeyError(f"no channel {key!r} in the stand-in's world")

    def find_channel(self, channel_id: int) -> Channel | None:
        for guild in self.guilds:
            for channel in guild.channels:
                if channel.id == channel_id:
                    return channel
        return None

    def guild_of(self, channel: Channel) -> Guild:
        return next(g for g in self.guilds if g.id == channel.guild_id)
