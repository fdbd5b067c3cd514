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
from typing import Any

from .permissions import (
    ADD_REACTIONS,
    ATTACH_FILES,
    CREATE_PUBLIC_THREADS,
    EMBED_LINKS,
    MANAGE_GUILD,
    MANAGE_THREADS,
    READ_MESSAGE_HISTORY,
    SEND_MESSAGES,
    SEND_MESSAGES_IN_THREADS,
    USE_APPLICATION_COMMANDS,
    VIEW_CHANNEL,
    Overwrite,
    Role,
    base_permissions,
    channel_permissions,
)

MEMBER_PERMISSIONS = (ADD_REACTIONS | VIEW_CHANNEL | SEND_MESSAGES | EMBED_LINKS | ATTACH_FILES | READ_MESSAGE_HISTORY
                      | USE_APPLICATION_COMMANDS | SEND_MESSAGES_IN_THREADS)
BOT_PERMISSIONS = MEMBER_PERMISSIONS | MANAGE_THREADS | CREATE_PUBLIC_THREADS
# In a DM, Discord grants these (no Manage Server, nothing guild-wide).
DM_PERMISSIONS = MEMBER_PERMISSIONS

GUILD_TEXT = 0
DM = 1
GROUP_DM = 3
PUBLIC_THREAD = 11
GUILD_FORUM = 15
GUILD_MEDIA = 16

# Interaction contexts (the interaction's `context` field).
CONTEXT_GUILD, CONTEXT_BOT_DM, CONTEXT_PRIVATE_CHANNEL = 0, 1, 2

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
    manager: bool = False  # has Manage Server in its guilds (the guild's "manager" role)
    bot: bool = False
    role_names: list[str] = field(default_factory=list)  # more roles, by name, in every guild that has them
    installed: bool = False  # added the app to their own account (a user install: integration type 1)

    def payload(self) -> dict[str, Any]:
        return {
            "id": str(self.id),
            "username": self.name,
            "global_name": self.name,
            "discriminator": "0",
            "avatar": None,
            "bot": self.bot,
            "public_flags": 0,
            "flags": 0,
            "primary_guild": None,
        }

    @property
    def permissions(self) -> int:
        return MEMBER_PERMISSIONS | (MANAGE_GUILD if self.manager else 0)

    def member_payload(self, guild: Guild | None = None, permissions: int | None = None) -> dict[str, Any]:
        return {
            "user": self.payload(),
            "nick": None,
            "avatar": None,
            "banner": None,
            "communication_disabled_until": None,
            "premium_since": None,
            "roles": [str(r.id) for r in guild.roles_of(self)] if guild is not None else [],
            "joined_at": "2024-01-01T00:00:00+00:00",
            "deaf": False,
            "mute": False,
            "flags": 0,
            "pending": False,
            "permissions": str(self.permissions if permissions is None else permissions),
        }


@dataclass
class Channel:
    id: int
    name: str
    guild_id: int | None  # None for a DM or a group DM
    parent_id: int | None = None  # set for a thread
    kind: int | None = None  # Discord's channel type; None: a text channel, or a public thread under a parent
    overwrites: list[Overwrite] = field(default_factory=list)
    archived: bool = False  # threads only
    locked: bool = False  # threads only
    auto_archive_duration: int = 1440  # threads only: minutes without a message before Discord archives it
    idle_minutes: float = 0.0  # threads only: since its last message (``StandIn.pass_time`` moves it on)
    owner_id: int | None = None  # threads only: who made it (None: someone else than the bot)
    recipients: list[User] = field(default_factory=list)  # DMs and group DMs

    @property
    def type(self) -> int:
        if self.kind is not None:
            return self.kind
        return PUBLIC_THREAD if self.parent_id is not None else GUILD_TEXT

    @property
    def is_thread(self) -> bool:
        return self.parent_id is not None

    @property
    def is_private(self) -> bool:
        return self.type in (DM, GROUP_DM)

    def payload(self) -> dict[str, Any]:
        if self.is_private:
            data = {"id": str(self.id), "type": self.type, "last_message_id": None, "flags": 0,
                    "recipients": [u.payload() for u in self.recipients]}
            if self.type == GROUP_DM:
                data |= {"name": self.name, "icon": None, "owner_id": str(self.recipients[0].id)}
            return data
        data = {
            "id": str(self.id),
            "type": self.type,
            "name": self.name,
            "guild_id": str(self.guild_id),
            "position": 0,
            "permission_overwrites": [o.payload() for o in self.overwrites],
            "nsfw": False,
            "topic": None,
            "last_message_id": None,
            "rate_limit_per_user": 0,
            "flags": 0,
        }
        if self.type in (GUILD_FORUM, GUILD_MEDIA):
            data |= {"available_tags": [], "default_reaction_emoji": None, "default_sort_order": None,
                     "default_forum_layout": 0, "default_thread_rate_limit_per_user": 0}
        if self.is_thread:
            data |= {
                "parent_id": str(self.parent_id),
                "owner_id": str(self.owner_id or 1),
                "message_count": 0,
                "total_message_sent": 0,
                "member_count": 1,
                "thread_metadata": {
                    "archived": self.archived,
                    "auto_archive_duration": self.auto_archive_duration,
                    "archive_timestamp": "2024-01-01T00:00:00+00:00",
                    "locked": self.locked,
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
    roles: list[Role] = field(default_factory=list)
    owner_id: int = 0  # nobody in the stand-in's world: the owner would have every permission
    bot_member: bool = True  # False: the bot was never added here (reached only through a user install)

    def __post_init__(self) -> None:
        if not self.roles:
            self.roles = [Role(self.id, "@everyone", MEMBER_PERMISSIONS),
                          Role(stable_id(f"role:{self.name}:manager"), "manager", MANAGE_GUILD, 1),
                          Role(stable_id(f"role:{self.name}:automaton"), "automaton", BOT_PERMISSIONS, 2)]
        if not self.owner_id:
            self.owner_id = stable_id(f"user:owner of {self.name}")

    @property
    def everyone(self) -> Role:
        return self.roles[0]

    def role(self, name: str) -> Role:
        return next(r for r in self.roles if r.name == name)

    def roles_of(self, user: User) -> list[Role]:
        wanted = set(user.role_names) | ({"manager"} if user.manager else set()) | ({"automaton"} if user.bot else set())
        return [r for r in self.roles[1:] if r.name in wanted]

    def add_channel(self, name: str, *, parent: Channel | None = None, kind: int | None = None) -> Channel:
        channel = Channel(stable_id(f"channel:{self.name}:{name}"), name, self.id,
                          parent.id if parent else None, kind)
        self.channels.append(channel)
        return channel

    def find(self, channel_id: int) -> Channel | None:
        return next((c for c in self.channels if c.id == channel_id), None)

    def permissions(self, user: User, channel: Channel) -> int:
        """What `user` may do in `channel`, computed as Discord does (a thread takes its parent's overwrites)."""
        roles = self.roles_of(user)
        base = base_permissions(owner=user.id == self.owner_id, everyone=self.everyone.permissions,
                                roles=[r.permissions for r in roles])
        holder: Channel | None = channel
        if channel.is_thread:  # a thread takes its parent's overwrites
            holder = None if channel.parent_id is None else self.find(channel.parent_id)
        return channel_permissions(base, everyone_id=self.id, member_id=user.id, role_ids={r.id for r in roles},
                                   overwrites=holder.overwrites if holder else [], in_thread=channel.is_thread)

    def app_permissions(self, bot: User, channel: Channel) -> int:
        """The interaction's `app_permissions` here: the bot's own, or — in a server without the bot — what
        @everyone may do in the channel, with Embed Links and Attach Files, which Discord always grants an app
        answering an interaction there."""
        if self.bot_member:
            return self.permissions(bot, channel)
        holder = self.find(channel.parent_id) if channel.is_thread and channel.parent_id else channel
        return channel_permissions(self.everyone.permissions, everyone_id=self.id, member_id=0, role_ids=set(),
                                   overwrites=holder.overwrites if holder else [],
                                   in_thread=channel.is_thread) | EMBED_LINKS | ATTACH_FILES

    def payload(self, bot: User) -> dict[str, Any]:
        """The GUILD_CREATE payload: text channels in `channels`, threads in `threads`."""
        return {
            "id": str(self.id),
            "name": self.name,
            "icon": None,
            "owner_id": str(self.owner_id),
            "preferred_locale": self.locale,
            "unavailable": False,
            "large": False,
            "member_count": 1,
            "features": [],
            "emojis": [],
            "stickers": [],
            "roles": [r.payload() for r in self.roles],
            "members": [bot.member_payload(self) | {"permissions": str(BOT_PERMISSIONS)}],
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
            "description": None, "home_header": None, "splash": None, "discovery_splash": None, "banner": None,
            "application_id": None, "region": "deprecated", "system_channel_flags": 0, "widget_enabled": False,
            "widget_channel_id": None, "max_presences": None, "max_members": 500000,
            "max_stage_video_channel_users": 50, "max_video_channel_users": 25, "vanity_url_code": None,
            "premium_subscription_count": 0, "rules_channel_id": None, "safety_alerts_channel_id": None,
            "public_updates_channel_id": None, "premium_progress_bar_enabled": False, "incidents_data": None,
            "nsfw": False,
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

    private: list[Channel] = field(default_factory=list)  # DMs and group DMs

    def add_guild(self, name: str, *, locale: str = "en-US", bot_member: bool = True) -> Guild:
        """A server; ``bot_member=False``: one the bot was never added to (its commands reach it only through a
        player's user install, and the bot's token reaches none of its channels)."""
        guild = Guild(stable_id(f"guild:{name}"), name, locale, bot_member=bot_member)
        self.guilds.append(guild)
        return guild

    def add_user(self, name: str, *, locale: str = "en-US", manager: bool = False, installed: bool = False) -> User:
        user = User(stable_id(f"user:{name}"), name, locale, manager, installed=installed)
        self.users.append(user)
        return user

    def dm(self, user: User | str) -> Channel:
        """The DM channel between ``user`` and the bot (interactions there have context 1)."""
        user = self.user(user)
        for channel in self.private:
            if channel.type == DM and channel.recipients == [user]:
                return channel
        channel = Channel(stable_id(f"dm:{user.name}"), f"dm-{user.name}", None, kind=DM, recipients=[user])
        self.private.append(channel)
        return channel

    def group_dm(self, name: str, users: list[User | str]) -> Channel:
        """A group DM of users (the bot is never in one: a user install's context 2)."""
        for channel in self.private:
            if channel.type == GROUP_DM and channel.name == name:
                return channel
        channel = Channel(stable_id(f"group-dm:{name}"), name, None, kind=GROUP_DM,
                          recipients=[self.user(u) for u in users])
        self.private.append(channel)
        return channel

    def bot_guilds(self) -> list[Guild]:
        """The servers the bot is a member of (the gateway tells it of these only)."""
        return [g for g in self.guilds if g.bot_member]

    def bot_reaches(self, channel: Channel) -> bool:
        """Whether the bot's own token reaches ``channel``: its DMs and its servers' channels, never a group DM
        or a server it is not in."""
        if channel.guild_id is None:
            return channel.type == DM
        return self.guild_of(channel).bot_member

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
        channels = [c for g in self.guilds for c in g.channels] + self.private
        if key is None:
            return channels[0]
        name = key.lstrip("#") if isinstance(key, str) else key
        for channel in channels:
            if name in (channel.name, channel.id, str(channel.id)):
                return channel
        raise KeyError(f"no channel {key!r} in the stand-in's world")

    def ensure_channel(self, spec: str) -> Channel:
        """The channel named ``spec``, made in the first guild when it does not exist yet: ``NAME`` is a
        text channel, ``PARENT/NAME`` a thread under the text channel ``PARENT`` (made too when needed).
        Run it before the stand-in starts: the bot learns its channels when it connects."""
        parent_name, _, name = spec.lstrip("#").rpartition("/")
        try:
            found = self.channel(name)
        except KeyError:
            found = None
        parent = None if found is None or found.parent_id is None else self.find_channel(found.parent_id)
        if found is not None and (not parent_name or (parent is not None and parent.name == parent_name)):
            return found
        guild = self.guilds[0]
        parent = self.ensure_channel(parent_name) if parent_name else None
        if parent is not None and parent.is_thread:
            raise ValueError(f"a thread cannot hold a thread: {spec!r}")
        return guild.add_channel(name, parent=parent)

    def find_channel(self, channel_id: int) -> Channel | None:
        for guild in self.guilds:
            for channel in guild.channels:
                if channel.id == channel_id:
                    return channel
        return next((c for c in self.private if c.id == channel_id), None)

    def guild_of(self, channel: Channel) -> Guild:
        return next(g for g in self.guilds if g.id == channel.guild_id)

    def permissions(self, user: User, channel: Channel) -> int:
        """`user`'s permissions in `channel` (in a DM: what Discord grants there)."""
        if channel.guild_id is None:
            return DM_PERMISSIONS
        return self.guild_of(channel).permissions(user, channel)

    def app_permissions(self, channel: Channel) -> int:
        """An interaction's `app_permissions` in ``channel`` (see ``Guild.app_permissions``)."""
        if channel.guild_id is None:
            return DM_PERMISSIONS
        return self.guild_of(channel).app_permissions(self.bot, channel)
