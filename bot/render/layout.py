"""A game's reply as one Components V2 message (``discord.ui.LayoutView``): one ``Container`` accented by the
state's colour (the season, the dragon) holding the events, "what to do now", the state when it is shown in
full, the board picture (a ``MediaGallery`` of ``attachment://board.png``), the controls and a small footer.

``Card`` is the reply's words, composed once (``game_card``); ``layout`` lays a card out with or without its
controls and its picture, so the picture's later edit and the retiring of an older live reply (bot/live.py) show
the same words. Discord's limits for such a message are checked here, before anything is sent (``fit``): at
most ``MAX_COMPONENTS`` components counted with everything they hold, at most ``MAX_TEXT`` characters of text
in all; the events are clipped with "…" to make room, never refused by Discord.
"""

from __future__ import annotations

import dataclasses
from collections.abc import Iterator, Sequence
from typing import Any

import discord

from engine.core import Event, Waiting

from ..buttons import GameButton, GameSelect
from ..i18n import event_lines, remembered, t
from .embeds import Shown, state_colour

MAX_COMPONENTS = 40  # every component of the message, those inside containers, sections and rows included
MAX_TEXT = 4000  # the characters of all the message's text displays together
PICTURE = "attachment://board.png"

Controls = Sequence[Sequence[GameButton | GameSelect]]


@dataclasses.dataclass(frozen=True)
class Card:
    """A game reply's words and colour, before they are laid out."""

    accent: int
    title: str
    events: str  # what happened (and what the reply understood), a line each; may be clipped by ``fit``
    now: str  # "what to do now", with its heading ("" when nothing waits)
    state: str  # the state's fields, shown in full ("" in a compact reply)
    footer: str  # the small line: game #, action #, undo
    notice: str = ""  # what the reply could not carry (no picture: the permission it needs)

    def texts(self) -> list[str]:
        return [text for text in (self.head, self.now, self.state, self.notice, self.small_footer) if text]

    @property
    def head(self) -> str:
        return f"## {self.title}\n{self.events}" if self.events else f"## {self.title}"

    @property
    def small_footer(self) -> str:
        return f"-# {self.footer}"


def field_text(name: str, value: str) -> str:
    """A state field: its name in bold, then its value on the same line, or below it when it has several lines or a
    colon of its own (one colon a line at most: docs/japanese.md's "one glance on a phone")."""
    value = value or "—"
    own_line = "\n" in value or ":" in value or "：" in value
    return f"**{name}**\n{value}" if own_line else f"**{name}**: {value}"


def game_card(lang: str, *, game: Shown, game_id: int, ply: int, summary: object,
              events: Sequence[Event], waiting: Waiting | None, state: bool,
              extra: Sequence[tuple[str, str]] = (), note: str | None = None) -> Card:
    """The words of a game's reply: the same as its embed's (``embeds.game_embed``), in the same order."""
    lines = "\n".join(f"• {line}" for line in event_lines(lang, events))
    if note:
        lines = f"{note}\n{lines}" if lines else note
    now = ""
    if waiting is not None and waiting.legal:
        now = f"**{t(lang, 'reply.now')}**\n{t(lang, waiting.key, **waiting.params)}"
    fields = [field_text(name, value) for name, value, _ in game.state_fields(lang, summary)] if state else []
    fields += [field_text(name, value) for name, value in extra]
    title = remembered(lang, "reply.title", game.kind, lambda: t(lang, "reply.title", game=game.kind))
    return Card(accent=state_colour(game, summary), title=title, events=lines,
                now=now, state="\n".join(fields), footer=t(lang, "reply.footer", game_id=game_id, ply=ply))


def clip(text: str, limit: int) -> str:
    if len(text) <= limit:
        return text
    return text[: max(0, limit - 1)].rstrip() + "…" if limit > 0 else ""


def fit(card: Card) -> Card:
    """``card`` within ``MAX_TEXT`` characters of text: the events give way first (their oldest lines are kept,
    the rest is "…"), then the state, then "what to do now"."""
    over = sum(map(len, card.texts())) - MAX_TEXT
    for name in ("events", "state", "now"):
        if over <= 0:
            break
        text: str = getattr(card, name)
        kept = clip(text, len(text) - over)
        over -= len(text) - len(kept)
        card = dataclasses.replace(card, **{name: kept})  # type: ignore[arg-type]  # a str field, by name
    return card


def components(texts: int, controls: Controls, *, undo: GameButton | None, picture: bool) -> int:
    """How many components ``layout`` makes of a card's ``texts`` and these (Discord counts each, nested ones
    included)."""
    count = 1 + texts  # the container, a text display each
    count += 1 if picture else 0  # the gallery (its items are not components)
    count += 2 if undo is not None else 0  # the footer's section and its button (the footer's text is counted)
    return count + sum(1 + len(row) for row in controls)


def layout(card: Card, controls: Controls = (), *, undo: GameButton | None = None,
           picture: bool = False) -> discord.ui.LayoutView:
    """``card`` as a Components V2 message: its text, the picture, the controls in rows, the footer with the
    undo button beside it. Without controls (an older reply no longer live, a private look) it keeps its words.

    Over Discord's limits it is made to fit, never refused: the text by ``fit``, the controls' rows from the
    last when there are more components than ``MAX_COMPONENTS`` (no game offers that many: tests/bot/
    test_bot_layout.py builds each game's largest reply)."""
    texts = card.texts()
    if sum(map(len, texts)) > MAX_TEXT:
        card = fit(card)
        texts = card.texts()
    rows = list(controls)
    while rows and components(len(texts), rows, undo=undo, picture=picture) > MAX_COMPONENTS:
        rows.pop()
    # The container's items in order, given to it at once (a container made with its children adds each as
    # add_item does).
    items: list[discord.ui.Item[Any]] = [discord.ui.TextDisplay(text) for text in texts[:-1]]
    if picture:
        items.append(discord.ui.MediaGallery(discord.MediaGalleryItem(PICTURE)))
    items += [discord.ui.ActionRow(*row) for row in rows]
    footer: discord.ui.TextDisplay[Any] = discord.ui.TextDisplay(texts[-1])  # below the picture and controls
    items.append(discord.ui.Section(footer, accessory=undo) if undo is not None else footer)
    view = discord.ui.LayoutView(timeout=None)
    view.add_item(discord.ui.Container(*items, accent_colour=card.accent))
    return view


def custom_ids(components: Any) -> Iterator[str]:
    """The custom_ids of a message's buttons and selects (a link button has none), in its rows and nested in a
    Components V2 message's container, rows and sections' accessories."""
    for item in components:
        custom_id = getattr(item, "custom_id", None)
        if custom_id is not None:
            yield custom_id
        accessory = getattr(item, "accessory", None)
        if accessory is not None:
            yield from custom_ids([accessory])
        yield from custom_ids(getattr(item, "children", None) or [])


def without_controls(message: discord.Message) -> discord.ui.LayoutView:
    """A V2 message the bot sent, laid out again without its controls (its rows left out, each section's text
    kept without its button): for a reply this process did not compose, one sent before a restart."""
    view = discord.ui.LayoutView(timeout=None)
    for top in discord.ui.LayoutView.from_message(message, timeout=None).children:
        if isinstance(top, discord.ui.Container):
            kept: discord.ui.Container[Any] = discord.ui.Container(accent_colour=top.accent_colour)
            for item in _bare(top.children):
                kept.add_item(item)
            view.add_item(kept)
        else:
            for item in _bare([top]):
                view.add_item(item)
    return view


def _bare(items: Sequence[discord.ui.Item[Any]]) -> list[discord.ui.Item[Any]]:
    """``items`` without controls: rows dropped, sections turned into their text, the rest as they are."""
    bare: list[discord.ui.Item[Any]] = []
    for item in items:
        if isinstance(item, discord.ui.ActionRow):
            continue
        if isinstance(item, discord.ui.Section):
            bare += [discord.ui.TextDisplay(text.content) for text in item.children
                     if isinstance(text, discord.ui.TextDisplay)]
        elif isinstance(item, discord.ui.TextDisplay):
            bare.append(discord.ui.TextDisplay(item.content))
        elif isinstance(item, discord.ui.MediaGallery):
            bare.append(discord.ui.MediaGallery(*item.items))
        elif isinstance(item, discord.ui.Separator):
            bare.append(discord.ui.Separator(visible=item.visible, spacing=item.spacing))
    return bare


def text_of(view: discord.ui.LayoutView) -> str:
    """Every text display of ``view``, in order (what a reader sees of it, without the controls)."""
    return "\n".join(item.content for item in view.walk_children() if isinstance(item, discord.ui.TextDisplay))
