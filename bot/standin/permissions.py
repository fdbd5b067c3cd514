"""Discord's permission model for the stand-in: roles, channel overwrites, computed as Discord computes them.

https://discord.com/developers/docs/topics/permissions#permission-overwrites — base permissions (the guild
owner has all; @everyone's permissions OR the member's roles'; Administrator means all), then the channel's
overwrites in order: @everyone's deny/allow, the member's roles' denies and allows together, the member's own
deny/allow. A thread takes its parent's overwrites. Implicit rules: no View Channel means nothing; without
Send Messages (Send Messages in Threads in a thread) there is no Embed Links, Attach Files, Mention Everyone
or Send TTS either.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

ADMINISTRATOR = 1 << 3
MANAGE_CHANNELS = 1 << 4
MANAGE_GUILD = 1 << 5
ADD_REACTIONS = 1 << 6
VIEW_CHANNEL = 1 << 10
SEND_MESSAGES = 1 << 11
SEND_TTS_MESSAGES = 1 << 12
EMBED_LINKS = 1 << 14
ATTACH_FILES = 1 << 15
READ_MESSAGE_HISTORY = 1 << 16
MENTION_EVERYONE = 1 << 17
USE_APPLICATION_COMMANDS = 1 << 31
MANAGE_THREADS = 1 << 34
CREATE_PUBLIC_THREADS = 1 << 35
SEND_MESSAGES_IN_THREADS = 1 << 38
ALL = (1 << 51) - 1

NEEDS_SEND = EMBED_LINKS | ATTACH_FILES | MENTION_EVERYONE | SEND_TTS_MESSAGES

ROLE, MEMBER = 0, 1  # overwrite types


@dataclass
class Role:
    id: int
    name: str
    permissions: int
    position: int = 0

    def payload(self) -> dict[str, Any]:
        return {"id": str(self.id), "name": self.name, "permissions": str(self.permissions),
                "position": self.position, "color": 0, "hoist": False, "managed": False, "mentionable": False,
                "flags": 0, "colors": {"primary_color": 0, "secondary_color": None, "tertiary_color": None},
                "icon": None, "unicode_emoji": None}


@dataclass
class Overwrite:
    id: int
    type: int  # ROLE or MEMBER
    allow: int = 0
    deny: int = 0

    def payload(self) -> dict[str, Any]:
        return {"id": str(self.id), "type": self.type, "allow": str(self.allow), "deny": str(self.deny)}


def base_permissions(*, owner: bool, everyone: int, roles: list[int]) -> int:
    if owner:
        return ALL
    permissions = everyone
    for role in roles:
        permissions |= role
    return ALL if permissions & ADMINISTRATOR else permissions


def channel_permissions(base: int, *, everyone_id: int, member_id: int, role_ids: set[int],
                        overwrites: list[Overwrite], in_thread: bool = False) -> int:
    """Discord's `compute_overwrites`, then its implicit rules."""
    if base & ADMINISTRATOR:
        return ALL
    permissions = base
    by_id = {(o.type, o.id): o for o in overwrites}
    everyone = by_id.get((ROLE, everyone_id))
    if everyone is not None:
        permissions = (permissions & ~everyone.deny) | everyone.allow
    allow = deny = 0
    for overwrite in overwrites:
        if overwrite.type == ROLE and overwrite.id in role_ids and overwrite.id != everyone_id:
            allow |= overwrite.allow
            deny |= overwrite.deny
    permissions = (permissions & ~deny) | allow
    member = by_id.get((MEMBER, member_id))
    if member is not None:
        permissions = (permissions & ~member.deny) | member.allow
    if not permissions & VIEW_CHANNEL:
        return 0
    sending = SEND_MESSAGES_IN_THREADS if in_thread else SEND_MESSAGES
    if not permissions & sending:
        permissions &= ~NEEDS_SEND
    return permissions
