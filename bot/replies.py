"""Answering an interaction: the reader's language, "thinking…" for slow work, and the reply itself (the initial
response while it is open, else a followup or the edit of a deferred response)."""

from __future__ import annotations

from typing import Any

import discord

from .i18n import lang_of
from .permissions import fit_interaction, notice_answer
from .places import followup_allowed
from .render.notices import Controls, Notice


def lang(interaction: discord.Interaction) -> str:
    return lang_of(interaction.locale)


async def think(interaction: discord.Interaction, *, ephemeral: bool = False) -> None:
    """Answer "thinking…" now, for work that may take longer than Discord's 3 s (forecasts, exports)."""
    if not interaction.response.is_done():
        await interaction.response.defer(ephemeral=ephemeral, thinking=True)
        interaction.extras["thinking"] = "private" if ephemeral else "public"


async def send(interaction: discord.Interaction, *, notice: Notice | None = None, rows: Controls = (),
               view: discord.ui.View | discord.ui.LayoutView | None = None, files: list[discord.File] | None = None,
               ephemeral: bool = False) -> Any:
    """Answer the interaction: the initial response if it is still open, else a followup (or the edit of a
    deferred "thinking…" response). A ``notice`` goes as a Components V2 message with its ``rows`` of controls and
    the ``files`` it shows (bot/render/notices.py); else ``view`` is the message. Returns the followup message, or
    None when the answer is the original (its id then in ``interaction.extras["message_id"]``, for the one live
    message of a game: bot/live.py)."""
    kwargs: dict[str, Any]
    if notice is not None:
        kwargs = notice_answer(interaction, notice, rows, files or ())
    else:
        kwargs = fit_interaction(interaction, {"view": view, "files": files} if files else {"view": view})
    return await _send_one(interaction, kwargs, ephemeral)


async def _send_one(interaction: discord.Interaction, kwargs: dict[str, Any], ephemeral: bool) -> Any:
    if not interaction.response.is_done():
        answered = await interaction.response.send_message(ephemeral=ephemeral, **kwargs)
        interaction.extras["message_id"] = getattr(answered, "message_id", None)
    elif interaction.extras.get("thinking") == "public" and ephemeral:
        # A public "thinking…" cannot turn private: remove it and answer privately instead.
        interaction.extras.pop("thinking")
        await interaction.delete_original_response()
        followup_allowed(interaction)  # counted: the first of the interaction's followups
        return await interaction.followup.send(ephemeral=True, wait=True, **kwargs)
    elif interaction.extras.pop("thinking", False):
        if "files" in kwargs:
            kwargs["attachments"] = kwargs.pop("files")
        edited = await interaction.edit_original_response(**kwargs)
        interaction.extras["message_id"] = edited.id
    elif followup_allowed(interaction):
        return await interaction.followup.send(ephemeral=ephemeral, wait=True, **kwargs)
    return None
