"""What the bot may post where it was asked: `interaction.app_permissions` (and, for a channel post, its
permissions in that channel).

Everything the bot sends is a Components V2 message (a game's reply: bot/render/layout.py; anything else:
bot/render/notices.py). Its text displays need no Embed Links — the permission embeds needed, whose plain-text
fallback is gone with them — so a message goes as it is wherever the bot may send. Only its media need a
permission: the picture (a gallery of ``attachment://…``) and files are uploads, which need Attach Files;
without it they are left out and the text says so instead (``perm.no_picture`` / ``perm.no_file``).
"""

from __future__ import annotations

import dataclasses
from collections.abc import Sequence
from typing import Any

import discord

from .i18n import lang_of, t
from .render.notices import Controls, Notice, view

PICTURE_SUFFIXES = (".png", ".jpg", ".jpeg", ".gif", ".webp")


def fit(permissions: discord.Permissions, kwargs: dict[str, Any]) -> dict[str, Any]:
    """A V2 message's keyword arguments as they may be sent: its files dropped without Attach Files (its caller
    laid it out without the media it may not attach, and said so in its text)."""
    if kwargs.get("files") and not permissions.attach_files:
        return {key: value for key, value in kwargs.items() if key != "files"}
    return kwargs


def notice_message(permissions: discord.Permissions, lang: str, notice: Notice, rows: Controls = (),
                   files: Sequence[discord.File] = ()) -> dict[str, Any]:
    """The keyword arguments sending ``notice`` (with its controls and the files it shows): without Attach Files,
    no picture or file, and a line saying which."""
    if files and not permissions.attach_files:
        pictures = [f for f in files if (f.filename or "").lower().endswith(PICTURE_SUFFIXES)]
        others = [f.filename or "?" for f in files if f not in pictures]
        lines = ([t(lang, "perm.no_picture")] if pictures else []) + (
            [t(lang, "perm.no_file", files=", ".join(others))] if others else [])
        notice = dataclasses.replace(notice, picture=None, files=[], note="\n".join(filter(None, [notice.note, *lines])))
        files = ()
    kwargs: dict[str, Any] = {"view": view(notice, rows)}
    if files:
        kwargs["files"] = list(files)
    return kwargs


def permissions_of(interaction: discord.Interaction) -> discord.Permissions:
    """What an answer to ``interaction`` may do: its `app_permissions` (everything outside a server)."""
    return discord.Permissions.all() if interaction.guild_id is None else interaction.app_permissions


def fit_interaction(interaction: discord.Interaction, kwargs: dict[str, Any]) -> dict[str, Any]:
    """`fit` for an answer to ``interaction``."""
    return fit(permissions_of(interaction), kwargs)


def notice_answer(interaction: discord.Interaction, notice: Notice, rows: Controls = (),
                  files: Sequence[discord.File] = ()) -> dict[str, Any]:
    """`notice_message` for an answer to ``interaction``, in its reader's language."""
    return notice_message(permissions_of(interaction), lang_of(interaction.locale), notice, rows, files)
