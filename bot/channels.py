"""Where the bot is asked to play: anywhere Discord lets its commands through (a server, its DM, a group DM:
bot.places says what it may do in each), never in an archived or locked thread; and where a result may be
posted besides the game's own channel.

`gate` reads the raw INTERACTION_CREATE before anything else sees it, so a refused interaction never reaches
a command, a button or a form: nothing is applied. `post_to_parent` posts a thread's result card in its parent
only when the parent takes messages (a forum or media channel does not) and the bot may post there.
"""

from __future__ import annotations

import logging
from collections.abc import Callable
from typing import Any, TypeGuard

import discord

from .permissions import notice_message
from .render.notices import Notice

log = logging.getLogger(__name__)

THREAD_TYPES = (10, 11, 12)  # announcement, public and private threads


def gate(data: dict[str, Any]) -> str | None:
    """The refusal key for an interaction the bot does not take here, or None: `refuse.thread_archived` /
    `refuse.thread_locked` for a thread that takes no messages now. (DMs and group DMs are played in since
    issue 36: the commands are registered for them.)"""
    channel = data.get("channel") or {}
    if channel.get("type") in THREAD_TYPES:
        meta = channel.get("thread_metadata") or {}
        if meta.get("locked"):
            return "refuse.thread_locked"
        if meta.get("archived"):
            return "refuse.thread_archived"
    return None


def takes_messages(channel: object) -> TypeGuard[discord.abc.Messageable]:
    """A channel the bot can send to: a text channel or thread, not a forum, media channel or category."""
    return isinstance(channel, discord.abc.Messageable) and not isinstance(
        channel, discord.ForumChannel | discord.CategoryChannel)


async def post_to_parent(client: discord.Client, parent_id: int, notice: Notice, lang: str, *,
                         files: Callable[[], list[discord.File]] | None = None) -> list[discord.Message]:
    """Post ``notice`` (and ``files()``, made afresh for this channel) in the parent channel of a thread's game
    when it can take it; the messages posted.

    A forum or media channel takes no messages (its posts are the threads): the result stays in the post.
    Without View Channel or Send Messages there, nothing is posted; without Attach Files it goes without its
    picture, and says so (a V2 message needs no Embed Links)."""
    parent = client.get_channel(parent_id)
    try:
        parent = parent or await client.fetch_channel(parent_id)
    except discord.HTTPException as exc:
        log.warning("could not find parent channel %s: %s", parent_id, exc)
        return []
    if not takes_messages(parent):
        return []
    permissions = discord.Permissions.all()
    if isinstance(parent, discord.abc.GuildChannel | discord.Thread) and parent.guild.me is not None:
        permissions = parent.permissions_for(parent.guild.me)
        if not (permissions.view_channel and permissions.send_messages):
            log.info("not allowed to post the result card in parent channel %s", parent_id)
            return []
    try:
        return [await parent.send(**notice_message(permissions, lang, notice, files=files() if files else ()))]
    except discord.HTTPException as exc:
        log.warning("could not post the result card in parent channel %s: %s", parent_id, exc)
        return []
