"""The world a test shapes beyond the console's default one: roles, channel overwrites, forums, DMs."""

from __future__ import annotations

from bot.standin.permissions import MEMBER, ROLE, Overwrite, Role
from bot.standin.world import GUILD_FORUM, GUILD_MEDIA, Channel, Guild, User, World, stable_id


def deny(channel: Channel, target: Role | User, bits: int, *, allow: int = 0) -> Channel:
    """Add to ``channel`` an overwrite denying `bits` (and allowing `allow`) to a role or a member."""
    kind = ROLE if isinstance(target, Role) else MEMBER
    channel.overwrites.append(Overwrite(target.id, kind, allow=allow, deny=bits))
    return channel


def add_role(guild: Guild, name: str, permissions: int) -> Role:
    role = Role(stable_id(f"role:{guild.name}:{name}"), name, permissions, len(guild.roles))
    guild.roles.append(role)
    return role


def add_forum(guild: Guild, name: str, *, media: bool = False) -> Channel:
    """A forum (15) or media (16) channel: it holds posts (threads) and takes no messages itself."""
    return guild.add_channel(name, kind=GUILD_MEDIA if media else GUILD_FORUM)


def dm(world: World, user: User | str) -> Channel:
    """The DM channel between `user` and the bot (interactions there have context 1)."""
    return world.dm(user)


def group_dm(world: World, name: str, users: list[User | str]) -> Channel:
    """A group DM of users (the bot is not in it: a user-installed app's context 2)."""
    return world.group_dm(name, users)
