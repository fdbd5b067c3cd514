"""Where an interaction comes from, and what the bot may do there (issue 36).

Discord says it in each interaction: its `context` (0 a server, 1 the DM with the bot, 2 a group DM or a DM
between users) and its `authorizing_integration_owners` (whose install let it through: the server's, key 0,
or the user's, key 1). The bot is *present* where it may use its own token: a server that installed it, and
its own DM with the player. Elsewhere — a group DM, a server that did not add it, reached through a player's
user install — Discord takes only the interaction's own answers: no channel message (so no result card in a
thread's parent channel), no edit of an earlier game's message with the bot's token, and at most
``FOLLOWUP_LIMIT`` followups per interaction.
"""

from __future__ import annotations

import logging
from dataclasses import dataclass

import discord

log = logging.getLogger(__name__)

GUILD, BOT_DM, PRIVATE_CHANNEL = "guild", "bot_dm", "private_channel"
# Discord: "Apps are limited to 5 followup messages per interaction if it was initiated from a user-installed
# app and isn't installed in the server (meaning the authorizing integration owners object only contains
# USER_INSTALL)" (Receiving and Responding, Create Followup Message).
FOLLOWUP_LIMIT = 5


@dataclass(frozen=True)
class Place:
    kind: str  # GUILD, BOT_DM or PRIVATE_CHANNEL
    bot_present: bool  # the bot's own token reaches this channel (a channel message, an edit)

    @property
    def followups_limited(self) -> bool:
        """Discord may take at most 5 followups here: wherever only a user install let the interaction through —
        which includes the bot's DM of a player who added the app to their account (discord.py does not say
        publicly whether the server's install was among the owners there), so every DM keeps to it."""
        return not (self.kind == GUILD and self.bot_present)

    @property
    def stored(self) -> str:
        """The place as the store keeps it with a game and its result (the store's PLACES): a DM with the bot, a
        group DM, a server where only the player installed the app (a user install), or a server the bot is in."""
        if self.kind == PRIVATE_CHANNEL:
            return "group_dm"
        if self.kind == BOT_DM:
            return "dm"
        return "guild" if self.bot_present else "user_install"


def place_of(interaction: discord.Interaction) -> Place:
    """The place of ``interaction`` (an interaction without `context`, from before Discord sent it, is read from
    its guild: a server that has the bot, or else a DM)."""
    context = interaction.context
    if context.private_channel:
        return Place(PRIVATE_CHANNEL, bot_present=False)
    if context.dm_channel or (interaction.guild_id is None and not context.guild):
        return Place(BOT_DM, bot_present=True)
    # Only the user's install let it through: the app is not in this server. (Neither: Discord said nothing,
    # as before user installs; the server's own install is the one there was.)
    user_only = interaction.is_user_integration() and not interaction.is_guild_integration()
    return Place(GUILD, bot_present=not user_only)


def followup_allowed(interaction: discord.Interaction) -> bool:
    """Count one followup of ``interaction``; False (and logged once) when Discord would refuse it: the 6th of an
    interaction that only a user install let through."""
    if not place_of(interaction).followups_limited:
        return True
    sent = interaction.extras.get("followups", 0)
    if sent >= FOLLOWUP_LIMIT:
        if not interaction.extras.get("followups_dropped"):
            interaction.extras["followups_dropped"] = True
            log.info("interaction %s: a 6th followup was not sent (a user install's limit is %s)",
                     interaction.id, FOLLOWUP_LIMIT)
        return False
    interaction.extras["followups"] = sent + 1
    return True

