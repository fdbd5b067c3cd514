"""Components as Discord stores them, and which messages carry live controls.

`stored_components` turns the components the bot sent into the message's own (what Discord answers and sends
in events): every component numbered (`id` 1, 2, … in reading order, skipping ids the bot chose), the
response fields Components V2 adds (a container's `accent_color` and `spoiler`, a separator's `spacing` and
`divider`…), and each media item resolved — ``attachment://board.png`` becomes the message's attachment, with
its `attachment_id` — as Discord's component reference describes.

`LiveControls` counts, per channel and per game, the non-ephemeral messages that carry enabled buttons or
selects (issue 35: "in a channel only the newest reply of a game carries live controls"), and the most there
were at any moment. A game is read from the custom_ids the bot gives its controls, ``solo:<game>:<ply>:…``
(bot/buttons.py); a control of no game counts for its channel only.
"""

from __future__ import annotations

import copy
import itertools
import re
from collections.abc import Iterator
from typing import Any, Protocol

JSON = dict[str, Any]

BUTTON, SECTION, THUMBNAIL, MEDIA_GALLERY, FILE_COMPONENT, SEPARATOR, CONTAINER = 2, 9, 11, 12, 13, 14, 17
CONTROLS = {2, 3, 5, 6, 7, 8}  # buttons and select menus
LINK, PREMIUM = 5, 6  # button styles that send the bot no interaction
EPHEMERAL = 1 << 6
ATTACHMENT = "attachment://"
GAME = re.compile(r"solo:(\d{1,18}):")


class Ids(Protocol):
    def next(self) -> int: ...


def walk(components: list[JSON]) -> Iterator[JSON]:
    """Every component, nested ones and a section's accessory included, in reading order."""
    for comp in components:
        if not isinstance(comp, dict):  # a malformed body: the stand-in's checks say so, reading skips it
            continue
        yield comp
        yield from walk(comp.get("components") or [])
        if isinstance(comp.get("accessory"), dict):
            yield from walk([comp["accessory"]])


def stored_components(components: list[JSON], attachments: list[JSON], ids: Ids) -> list[JSON]:
    """A copy of ``components`` as Discord stores them (see the module docstring)."""
    stored = copy.deepcopy(components)
    taken = {c["id"] for c in walk(stored) if isinstance(c.get("id"), int) and c["id"]}
    free = (n for n in itertools.count(1) if n not in taken)
    by_name = {a.get("filename"): a for a in attachments}
    for comp in walk(stored):
        if not comp.get("id"):
            comp["id"] = next(free)
        kind = comp.get("type")
        if kind == CONTAINER:
            comp.setdefault("accent_color", None)
            comp.setdefault("spoiler", False)
        elif kind == SEPARATOR:
            comp.setdefault("spacing", 1)
            comp.setdefault("divider", True)
        elif kind == THUMBNAIL:
            comp.setdefault("description", None)
            comp.setdefault("spoiler", False)
            comp["media"] = _media(comp.get("media") or {}, by_name, ids)
        elif kind == MEDIA_GALLERY:
            comp["items"] = [{"description": None, "spoiler": False} | item
                             | {"media": _media(item.get("media") or {}, by_name, ids)}
                             for item in comp.get("items") or []]
        elif kind == FILE_COMPONENT:
            attachment = by_name.get(_name(str((comp.get("file") or {}).get("url") or "")))
            comp["file"] = _media(comp.get("file") or {}, by_name, ids)
            comp |= {"name": attachment.get("filename") if attachment else None,
                     "size": attachment.get("size") if attachment else None}
            comp.setdefault("spoiler", False)
    return stored


def _name(url: str) -> str | None:
    return url[len(ATTACHMENT):] if url.startswith(ATTACHMENT) else None


def _media(media: JSON, by_name: dict[Any, JSON], ids: Ids) -> JSON:
    """An unfurled media item as Discord answers it: an attachment's url for ``attachment://``, else the link."""
    url = str(media.get("url") or "")
    attachment = by_name.get(_name(url))
    resolved: JSON = {"id": str(ids.next()), "url": url, "proxy_url": url, "width": None, "height": None,
                      "content_type": None}
    if attachment is not None:
        resolved |= {"url": attachment["url"], "proxy_url": attachment["proxy_url"],
                     "content_type": attachment.get("content_type"), "attachment_id": attachment["id"]}
    return resolved


def live_games(payload: JSON) -> frozenset[int | None] | None:
    """The games whose enabled controls a message carries (None in the set: a control of no game), or None
    when it carries none: an ephemeral message, disabled controls and link buttons are not live."""
    if int(payload.get("flags") or 0) & EPHEMERAL:
        return None
    games: set[int | None] = set()
    for comp in walk(payload.get("components") or []):
        if comp.get("type") not in CONTROLS or comp.get("disabled"):
            continue
        if comp.get("type") == BUTTON and comp.get("style") in (LINK, PREMIUM):
            continue
        match = GAME.match(str(comp.get("custom_id") or ""))
        games.add(int(match[1]) if match else None)
    return frozenset(games) if games else None


class Message(Protocol):
    payload: JSON

    @property
    def id(self) -> int: ...
    @property
    def channel_id(self) -> int: ...


class LiveControls:
    """Which messages carry live controls now, per channel, and the most at any moment (per channel, per game)."""

    def __init__(self) -> None:
        self._live: dict[int, dict[int, frozenset[int | None]]] = {}  # channel -> message -> its games
        self._most: dict[tuple[int, int | None], int] = {}

    def changed(self, message: Message) -> None:
        """A message was created or edited: its controls are live or not now."""
        games = live_games(message.payload)
        channel = self._live.setdefault(message.channel_id, {})
        if games is None:
            channel.pop(message.id, None)
        else:
            channel[message.id] = games
        self._update(message.channel_id, games or frozenset())

    def deleted(self, message: Message) -> None:
        self._live.get(message.channel_id, {}).pop(message.id, None)

    def now(self, channel_id: int, game: int | None = None) -> int:
        live = self._live.get(channel_id, {})
        return len(live) if game is None else sum(1 for games in live.values() if game in games)

    def most(self, channel_id: int, game: int | None = None) -> int:
        return self._most.get((channel_id, game), 0)

    def _update(self, channel_id: int, games: frozenset[int | None]) -> None:
        """The running maxima a change can raise: its channel's, and each game its message carries."""
        for key in [None, *(g for g in games if g is not None)]:
            count = self.now(channel_id, key)
            if count > self._most.get((channel_id, key), 0):
                self._most[(channel_id, key)] = count
