"""What the bot may post where it was asked: `interaction.app_permissions` (and, for a channel post, its
permissions in that channel).

Without Attach Files there is no picture or file, and the text says so; without Embed Links every embed
becomes plain text (the whole reply, cut into messages of 2,000 characters where it is long). A game's reply is
a Components V2 message (bot/render/layout.py): its text displays need no Embed Links, so it goes as it is; only
its picture needs Attach Files (the upload its gallery shows), and without it the reply says so instead. `fit`
turns one message's keyword arguments into the messages that may be sent.
"""

from __future__ import annotations

from typing import Any

import discord

from .i18n import lang_of, t
from .render.embeds import embed_text, text_chunks

PICTURE_SUFFIXES = (".png", ".jpg", ".jpeg", ".gif", ".webp")


def fit(permissions: discord.Permissions, lang: str, kwargs: dict[str, Any]) -> list[dict[str, Any]]:
    """The messages to send in place of one (``content``, ``embed``/``embeds``, ``files``, ``view``): the
    same one when the permissions allow it all, else with files dropped (and a line saying so) and embeds
    turned into text. The view goes with the last message."""
    kwargs = dict(kwargs)
    files: list[discord.File] = list(kwargs.get("files") or [])
    if isinstance(kwargs.get("view"), discord.ui.LayoutView):
        # A Components V2 message has no embeds and no content: it needs no Embed Links, and its caller lays it
        # out without the media it may not attach (and says so in its text, bot/render/layout.py's notice).
        if files and not permissions.attach_files:
            kwargs.pop("files", None)
        return [kwargs]
    embeds: list[discord.Embed] = list(kwargs.get("embeds") or ([kwargs["embed"]] if kwargs.get("embed") else []))
    missing_files = bool(files) and not permissions.attach_files
    missing_embeds = bool(embeds) and not permissions.embed_links
    if not missing_files and not missing_embeds:
        return [kwargs]
    note = ""
    if missing_files:
        kwargs.pop("files", None)
        pictures = [f for f in files if (f.filename or "").lower().endswith(PICTURE_SUFFIXES)]
        others = [f.filename or "?" for f in files if f not in pictures]
        lines = []
        if pictures:
            lines.append(t(lang, "perm.no_picture"))
        if others:
            lines.append(t(lang, "perm.no_file", files=", ".join(others)))
        note = "\n".join(lines)
        for embed in embeds:
            if embed.image and str(embed.image.url or "").startswith("attachment://"):
                embed.set_image(url=None)
    if not missing_embeds:
        if note and embeds:
            first = embeds[0]
            first.description = f"{first.description}\n\n{note}" if first.description else note
        elif note:
            kwargs["content"] = f"{kwargs.get('content') or ''}\n{note}".strip()
        return [kwargs]
    kwargs.pop("embed", None)
    kwargs.pop("embeds", None)
    parts = [kwargs.get("content") or ""] + [embed_text(e) for e in embeds] + [note]
    chunks = text_chunks("\n\n".join(p for p in parts if p))
    view = kwargs.pop("view", None)
    messages = [dict(kwargs, content=chunks[0])] + [{"content": c} for c in chunks[1:]]
    if view is not None:
        messages[-1]["view"] = view
    return messages


def fit_interaction(interaction: discord.Interaction, kwargs: dict[str, Any]) -> list[dict[str, Any]]:
    """`fit` for an answer to ``interaction``, by its `app_permissions` (all allowed outside a server)."""
    if interaction.guild_id is None:
        return [kwargs]
    return fit(interaction.app_permissions, lang_of(interaction.locale), kwargs)
