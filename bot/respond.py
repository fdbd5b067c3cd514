"""The first answer to an interaction, without asking Discord for the message back (issue 12).

discord.py's ``InteractionResponse.send_message`` always adds ``with_response=1`` to the callback: Discord then
sends the whole message back (its embed, every button and menu option), and discord.py parses it into a
``Message`` — about a tenth of a command's work, for an object the bot never reads. Without the parameter
Discord answers ``204 No Content`` (its default). ``answer`` sends the very payload discord.py would send
(built by discord.py's own ``interaction_message_response_params``, through the same adapter, so rate limits,
retries and errors are discord.py's), without that parameter, and marks the response done as discord.py does.

Only for what it is sure of: a message without files, whose view is ``buttons.Components`` (nothing to
register for a press: those are answered from their custom_id) or none. Anything else, or a discord.py
without these parts, goes through ``send_message`` itself.
"""

from __future__ import annotations

from typing import Any

import discord

from .buttons import Components

try:  # discord.py's own parts of send_message (2.0 and later)
    from discord.http import Route
    from discord.webhook.async_ import async_context, interaction_message_response_params
except ImportError:  # pragma: no cover - a discord.py without them: send_message as it is
    Route = async_context = interaction_message_response_params = None  # type: ignore[assignment,misc]

CALLBACK = "/interactions/{webhook_id}/{webhook_token}/callback"
# discord.py's parts are there, and so is the attribute where it marks an interaction answered.
AVAILABLE = interaction_message_response_params is not None and hasattr(discord.InteractionResponse, "_response_type")


def _can_answer(kwargs: dict[str, Any]) -> bool:
    view = kwargs.get("view")
    return AVAILABLE and not kwargs.get("files") and (view is None or type(view) is Components)


async def answer(interaction: discord.Interaction, *, ephemeral: bool = False, **kwargs: Any) -> None:
    """``interaction.response.send_message(ephemeral=…, **kwargs)``, without the message sent back."""
    if not _can_answer(kwargs):
        await interaction.response.send_message(ephemeral=ephemeral, **kwargs)
        return
    response = interaction.response
    if response.is_done():
        raise discord.InteractionResponded(interaction)
    state = interaction._state
    params = interaction_message_response_params(
        type=discord.InteractionResponseType.channel_message.value,
        flags=discord.MessageFlags(ephemeral=True) if ephemeral else discord.utils.MISSING,
        previous_allowed_mentions=state.allowed_mentions,
        **{"content": None, **kwargs},  # send_message's own default: an explicit null content
    )
    route = Route("POST", CALLBACK, webhook_id=interaction.id, webhook_token=interaction.token)
    await async_context.get().request(route, session=interaction._session, proxy=state.http.proxy,
                                      proxy_auth=state.http.proxy_auth, payload=params.payload)
    response._response_type = discord.InteractionResponseType.channel_message
