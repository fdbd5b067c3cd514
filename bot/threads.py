"""A thread made for the game (issue 36, point 4), and a game's thread that Discord archived.

``/seasons start thread:true`` (and Volfyirion's) opens a public thread off the channel, named for the game and
the player, and plays there. Discord needs Create Public Threads for that, and Send Messages in Threads to play
there; a DM, a group DM or a thread holds no thread. Where the bot cannot make one, the start says why and plays
in the channel. The thread archives itself after a week without a message (the longest Discord offers), so a
game picked up days later is the usual case.

A thread Discord auto-archived takes interactions still: the payload's channel says ``thread_metadata.archived``.
When the game's owner comes back to it, the bot unarchives it (Discord lets anyone who may send messages in the
thread unarchive it, unless it is locked) and answers as usual. A locked thread was closed by a moderator: it keeps
the refusal, and so does an archived thread whose game is someone else's or the bot may not reopen.
"""

from __future__ import annotations

import logging
from typing import Any, Literal

import discord

from .i18n import has, t

log = logging.getLogger(__name__)

ARCHIVE_MINUTES: Literal[10080] = 10080  # a week without a message: Discord's longest auto-archive
SEND_IN_THREADS = 1 << 38  # Send Messages in Threads: also what unarchiving an unlocked thread needs
CREATE_PUBLIC_THREADS = 1 << 35
THREAD_TYPES = (10, 11, 12)


def cannot_open(interaction: discord.Interaction) -> str | None:
    """Why no thread can be made for a game here (a message key), or None when one can."""
    channel = interaction.channel
    if interaction.guild_id is None or isinstance(channel, discord.DMChannel | discord.GroupChannel):
        return "thread.not_in_dm"
    if isinstance(channel, discord.Thread):
        return "thread.in_thread"
    if not isinstance(channel, discord.TextChannel):
        return "thread.not_here"
    granted = interaction.app_permissions
    if not (granted.create_public_threads and granted.send_messages_in_threads):
        return "thread.no_permission"
    return None


def thread_name(lang: str, kind: str, player: str, game_id: int | None = None) -> str:
    """"Seasons #12 — name" in the player's language (without the number before the game exists)."""
    key = "thread.name" if game_id is not None else "thread.name_new"
    short = t(lang, f"word.{kind}_short") if has(f"word.{kind}_short") else t(lang, f"word.{kind}")
    return t(lang, key, short=short, game_id=game_id, player=player)[:100]


async def open_thread(interaction: discord.Interaction, lang: str, kind: str) -> discord.Thread | None:
    """A public thread off the interaction's channel (``cannot_open`` said it may), or None when Discord refused."""
    channel = interaction.channel
    if not isinstance(channel, discord.TextChannel):
        return None
    try:
        return await channel.create_thread(name=thread_name(lang, kind, interaction.user.display_name),
                                           type=discord.ChannelType.public_thread,
                                           auto_archive_duration=ARCHIVE_MINUTES)
    except discord.HTTPException as exc:
        log.warning("could not open a thread in channel %s: %s", channel.id, exc)
        return None


async def name_for_game(thread: discord.Thread, lang: str, kind: str, player: str, game_id: int) -> None:
    """The thread takes the game's number once the game exists (the bot made it: it may rename it)."""
    try:
        await thread.edit(name=thread_name(lang, kind, player, game_id))
    except discord.HTTPException as exc:  # the name is a nicety: the game is there all the same
        log.info("could not rename thread %s: %s", thread.id, exc)


def may_reopen(data: dict[str, Any]) -> int | None:
    """The id of the thread an interaction comes from when Discord archived it (not locked) and the bot may
    unarchive it (Send Messages in Threads there), else None."""
    channel = data.get("channel") or {}
    meta = channel.get("thread_metadata") or {}
    if channel.get("type") not in THREAD_TYPES or not meta.get("archived") or meta.get("locked"):
        return None
    try:
        granted = int(data.get("app_permissions") or 0)
        return int(channel["id"]) if granted & SEND_IN_THREADS else None
    except (KeyError, TypeError, ValueError):
        return None


def user_of(data: dict[str, Any]) -> int | None:
    """Who sent the interaction (a member in a server, a user elsewhere)."""
    user = (data.get("member") or {}).get("user") or data.get("user") or {}
    try:
        return int(user["id"])
    except (KeyError, TypeError, ValueError):
        return None


async def reopen(client: discord.Client, thread_id: int) -> bool:
    """Unarchive the thread: True when Discord did."""
    try:
        thread = client.get_channel(thread_id) or await client.fetch_channel(thread_id)
        if not isinstance(thread, discord.Thread):
            return False
        await thread.edit(archived=False)
        return True
    except discord.HTTPException as exc:
        log.info("could not unarchive thread %s: %s", thread_id, exc)
        return False
