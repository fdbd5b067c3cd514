"""Registering the slash commands with Discord without a manual step, and without doing it for nothing.

At start-up the process holding shard 0 (see `Shards.holds_first`; `SOLO_BOT_SYNC=off` turns it off) computes
the command payload exactly as `CommandTree.sync` sends it (translations included), hashes it together with
where it goes, and syncs only when that differs from the hash kept in the store (`settings`, key
`commands.synced`). Where it goes: globally, or — with `SOLO_BOT_GUILD` — into one development server, where
commands appear at once. The other set is cleared when the target changes, so the same commands are never
registered twice (a server would show each command twice: its own copy and the global one).

`python -m bot sync [--guild ID]` does the same by hand, whatever the hash says.
"""

from __future__ import annotations

import hashlib
import json
import logging
from dataclasses import dataclass
from typing import Any, Protocol

import aiohttp
import discord
from discord import app_commands

from .config import Config
from .store import Store


class SoloBot(Protocol):
    """What syncing reads of the bot (bot/app.py): its command tree, store, configuration and application id."""

    @property
    def tree(self) -> app_commands.CommandTree[Any]: ...
    @property
    def store(self) -> Store: ...
    @property
    def config(self) -> Config: ...
    @property
    def application_id(self) -> int | None: ...


log = logging.getLogger(__name__)

SETTING = "commands.synced"
GLOBAL = "global"


@dataclass(frozen=True)
class SyncOutcome:
    synced: bool  # False: the payload was already there
    scope: str  # "global" or the guild id
    commands: int
    cleared: str | None = None  # the other scopes emptied to avoid duplicates ("global", guild ids)


async def command_payload(bot: SoloBot, guild: discord.abc.Snowflake | None) -> list[dict[str, Any]]:
    """What `tree.sync(guild=guild)` would PUT."""
    tree = bot.tree
    commands = tree.get_commands(guild=guild, type=None)
    if tree.translator:
        return [await c.get_translated_payload(tree, tree.translator) for c in commands]
    return [c.to_dict(tree) for c in commands]


def payload_hash(scope: str, payload: list[dict[str, Any]]) -> str:
    text = json.dumps({"scope": scope, "commands": payload}, sort_keys=True, ensure_ascii=False)
    return hashlib.sha256(text.encode()).hexdigest()


async def sync_commands(bot: SoloBot, guild_id: int | None = None, *, force: bool = False) -> SyncOutcome:
    """Sync the commands globally (``guild_id`` None) or into one guild, when they changed (or ``force``)."""
    store = bot.store
    guild = None if guild_id is None else discord.Object(id=guild_id)
    scope = GLOBAL if guild is None else str(guild_id)
    if guild is not None:
        bot.tree.copy_global_to(guild=guild)
    payload = await command_payload(bot, guild)
    digest = payload_hash(scope, payload)
    previous = _read(await store.get_setting(SETTING))
    if not force and previous.get("hash") == digest:
        log.info("commands unchanged since the last sync (%s): not syncing", scope)
        return SyncOutcome(False, scope, len(payload))
    synced = await bot.tree.sync(guild=guild)
    cleared = await _clear_other(bot, scope, previous.get("scope"))
    await store.put_setting(SETTING, json.dumps({"hash": digest, "scope": scope}))
    log.info("synced %d commands (%s)%s", len(synced), scope, f"; cleared {cleared}" if cleared else "")
    return SyncOutcome(True, scope, len(synced), cleared)


async def _clear_other(bot: SoloBot, scope: str, previous_scope: str | None) -> str | None:
    """Empty the sets the commands are no longer in: the global one when they go to a development guild (it may
    hold an earlier global sync), and the previous development guild's when they move elsewhere."""
    cleared = []
    if scope != GLOBAL and await bot.tree.fetch_commands():
        await _sync_empty(bot.tree, None)
        cleared.append(GLOBAL)
    if previous_scope and previous_scope not in (GLOBAL, scope):
        try:
            await _sync_empty(bot.tree, discord.Object(id=int(previous_scope)))
            cleared.append(previous_scope)
        except discord.HTTPException as exc:  # the bot may have left that server
            log.warning("could not clear the commands of guild %s: %s", previous_scope, exc)
    return ", ".join(cleared) or None


async def _sync_empty(tree: app_commands.CommandTree[Any], guild: discord.abc.Snowflake | None) -> None:
    """PUT an empty set into one scope through discord.py's public API: `tree.sync` sends the tree's commands of
    that scope, so the tree's are set aside, the scope synced empty, and they are put back — whatever the sync
    answers. The global commands stay answerable meanwhile through the guild's copies (`copy_global_to`); the
    previous guild's scope holds none of the tree's."""
    kept = tree.get_commands(guild=guild, type=None)
    tree.clear_commands(guild=guild, type=None)
    try:
        await tree.sync(guild=guild)
    finally:
        for command in kept:
            tree.add_command(command, guild=guild, override=True)


def _read(text: str | None) -> dict[str, Any]:
    try:
        value = json.loads(text or "{}")
    except ValueError:
        return {}
    return value if isinstance(value, dict) else {}


async def sync_at_start(bot: SoloBot) -> SyncOutcome | None:
    """The start-up sync: only when asked (`Config.auto_sync`) and only in the process holding shard 0; an
    error is logged, never fatal (the bot runs with the commands Discord has)."""
    config = bot.config
    if not config.auto_sync:
        return None
    if not config.shards.holds_first:
        log.info("not syncing commands: shard 0 is another process's (SOLO_BOT_SHARDS=%s)", config.shards.ids)
        return None
    try:
        return await sync_commands(bot, config.dev_guild)
    except discord.HTTPException as exc:
        hint = " (is the bot in that server, invited with the applications.commands scope?)" \
            if config.dev_guild and exc.code == 50001 else ""
        log.error("could not sync the commands: %s%s", exc, hint)
        return None
    except (OSError, aiohttp.ClientError) as exc:  # Discord went away just after the login
        log.error("could not sync the commands (Discord cannot be reached: %s); the next start tries again", exc)
        return None
