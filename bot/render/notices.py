"""Everything the bot says that is not a game's reply — refusals, notices, confirmations, the result card,
leaderboard, stats, record, help, history, a card, the danger meter — as one Components V2 message, read the
same way as a game's reply (bot/render/layout.py): one ``Container`` in the notice's colour holding its title as
a heading, its text, its fields as ``**name**: value`` lines, its picture (a ``MediaGallery``) or files, its
controls in rows, and a small footer.

``Notice`` is the words; ``view`` lays them out within Discord's limits (``MAX_COMPONENTS`` components,
``MAX_TEXT`` characters of text: the text is clipped with "…", never refused). A notice's picture or file is
shown only when the message uploads it (bot/permissions.py's ``notice_message`` leaves it out, and says so,
without Attach Files).
"""

from __future__ import annotations

import dataclasses
from collections.abc import Sequence
from typing import Any

import discord

from ..buttons import GameButton, GameSelect
from ..i18n import t
from .embeds import colour_of
from .layout import MAX_COMPONENTS, MAX_TEXT, clip, field_text

Controls = Sequence[Sequence[GameButton | GameSelect]]


@dataclasses.dataclass
class Notice:
    """A notice's words and colour, before they are laid out; built up by its caller (a field added, a line
    appended to its text)."""

    accent: int
    description: str = ""
    title: str = ""
    fields: list[tuple[str, str]] = dataclasses.field(default_factory=list)
    footer: str = ""
    picture: str | None = None  # the file name of its picture (``attachment://…`` in a gallery)
    files: list[str] = dataclasses.field(default_factory=list)  # other files it shows (an export)
    note: str = ""  # what it could not carry (no picture: the permission it needs)

    def add_field(self, name: str, value: str) -> Notice:
        self.fields.append((name, value))
        return self

    def append(self, text: str, *, gap: str = "\n") -> Notice:
        """``text`` after its text (``gap`` between them when it has some)."""
        self.description = f"{self.description}{gap}{text}" if self.description else text
        return self

    def texts(self) -> list[str]:
        """Its text displays, in order: heading and text, fields, the note, the footer (small)."""
        head = "\n".join(part for part in (f"## {self.title}" if self.title else "", self.description) if part)
        fields = "\n".join(field_text(name, value) for name, value in self.fields)
        footer = f"-# {self.footer}" if self.footer else ""
        return [text for text in (head, fields, self.note, footer) if text]

    def text(self) -> str:
        """What a reader sees of it, without controls or picture (for a log, a test)."""
        return "\n".join(self.texts())


def notice(lang: str, key: str, *, kind: str = "error", params: dict[str, Any] | None = None,
           **more: Any) -> Notice:
    """A notice of one message ``key`` in ``kind``'s colour (``embeds.colour_of``). ``params`` passes a
    message's parameters whatever their names (an engine error's ``kind`` is not the colour)."""
    return Notice(accent=colour_of(kind), description=t(lang, key, **{**(params or {}), **more}))


def view(notice: Notice, rows: Controls = ()) -> discord.ui.LayoutView:
    """``notice`` as a Components V2 message: its text, its picture and files, its controls, its footer last.
    Over Discord's limits it is made to fit: the text clipped (its longest parts first), the rows from the last."""
    texts = _fitted(notice.texts())
    media = (1 if notice.picture else 0) + len(notice.files)
    rows = list(rows)
    while rows and 1 + len(texts) + media + sum(1 + len(row) for row in rows) > MAX_COMPONENTS:
        rows.pop()
    footer = texts.pop() if notice.footer and texts else None
    container: discord.ui.Container[Any] = discord.ui.Container(accent_colour=notice.accent)
    for text in texts:
        container.add_item(discord.ui.TextDisplay(text))
    if notice.picture:
        container.add_item(discord.ui.MediaGallery(discord.MediaGalleryItem(f"attachment://{notice.picture}")))
    for name in notice.files:
        container.add_item(discord.ui.File(f"attachment://{name}"))
    for row in rows:
        container.add_item(discord.ui.ActionRow(*row))
    if footer is not None:
        container.add_item(discord.ui.TextDisplay(footer))
    layout = discord.ui.LayoutView(timeout=None)
    layout.add_item(container)
    return layout


def _fitted(texts: list[str]) -> list[str]:
    """``texts`` within ``MAX_TEXT`` characters in all: the longest clipped first, with "…"."""
    texts = list(texts)
    while (over := sum(map(len, texts)) - MAX_TEXT) > 0:
        longest = max(range(len(texts)), key=lambda i: len(texts[i]))
        texts[longest] = clip(texts[longest], len(texts[longest]) - over)
    return texts
