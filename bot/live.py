"""One live message per game: in a channel only the newest public reply of a game carries controls.

When a new public reply of a game is sent, the one before it (``Posted``) is laid out again without its
controls — it keeps its words and its picture — by the cheapest way Discord still takes: a press on it is
answered by editing it (``UPDATE_MESSAGE``, the controller's doing, before the new reply goes as a followup);
otherwise through the interaction webhook it was sent with while that token is valid (15 minutes), else through
the channel. Private replies never count. A failed edit (the message deleted, the channel gone or closed to the
bot) is logged, never raised: the older message's controls are refused as stale anyway.

Held in memory, bounded (``LiveMessages.size`` games, the oldest first out), and kept across a clean restart: the
bot's stop writes each game's live reply (where it is, its words, whether it shows its picture) to the store's
settings (``saved``), and the next start reads them back (``restore``), so the first new reply of a game after a
restart still takes the older one's controls away, through the channel. A press on the live reply needs none of
this (its own message is edited from what the press carries). What stays possible: after a crash, or for a game
whose entry was pushed out, the last reply keeps its controls until a press on it: refused as stale if the game
moved on, and that press takes them away (the controller's ``_retire_stale``). The picture that follows a reply (bot/pictures.py) reads the entry too,
so a picture arriving after its reply was superseded adds the gallery without bringing the controls back.
"""

from __future__ import annotations

import dataclasses
import json
import logging
import time
from collections import OrderedDict
from collections.abc import Awaitable, Callable
from typing import Any

import discord

from .buttons import GameButton
from .render.layout import Card, Controls, layout

log = logging.getLogger(__name__)

TOKEN_SECONDS = 14 * 60  # an interaction's webhook takes edits for 15 minutes: a minute kept in hand
UNKNOWN_WEBHOOK = 10015  # Discord's code for a webhook (an interaction's token) it no longer knows
Webhooks = Callable[[int, str], discord.Webhook]  # an interaction's webhook, by application id and token


@dataclasses.dataclass
class Posted:
    """A game reply that was sent: its words and controls, what it shows, and how to edit it."""

    game_id: int
    card: Card
    controls: Controls
    undo: GameButton | None
    picture: bool  # its board picture is shown (the gallery, its file uploaded)
    channel_id: int | None = None
    message_id: int | None = None
    webhook: tuple[int, str] | None = None  # (application id, token) of the interaction that sent it
    sent_at: float = dataclasses.field(default_factory=time.monotonic)
    live: bool = True

    def view(self, *, picture: bool | None = None) -> discord.ui.LayoutView:
        """The message as it must read now: its controls only while it is live."""
        shown = self.picture if picture is None else picture
        if not self.live:
            return layout(self.card, picture=shown)
        return layout(self.card, self.controls, undo=self.undo, picture=shown)

    def to_json(self) -> dict[str, Any]:
        return {"game": self.game_id, "channel": self.channel_id, "message": self.message_id,
                "picture": self.picture, "card": dataclasses.asdict(self.card)}

    @classmethod
    def from_json(cls, data: dict[str, Any]) -> Posted:
        """A reply a stopped process sent: its words and where it is (its controls are not needed: it is laid out
        again only to take them away)."""
        return cls(int(data["game"]), Card(**data["card"]), (), None, bool(data["picture"]),
                   channel_id=int(data["channel"]), message_id=int(data["message"]))


class LiveMessages:
    """The live public reply of each game, by game id (bounded; see the module's doc)."""

    def __init__(self, channels: Callable[[int], Awaitable[Any]], webhooks: Webhooks, size: int = 2048) -> None:
        self.size = size
        self._channel = channels  # a channel by id (the bot's get_channel, else fetch_channel)
        # Only the id and token are kept, not the interaction (a reply is held here for as long as it is live).
        self._webhook = webhooks
        self._live: OrderedDict[int, Posted] = OrderedDict()
        self.retired = 0  # older replies whose controls were taken away
        self.failed = 0  # … and those whose edit Discord refused (logged)

    def __len__(self) -> int:
        return len(self._live)

    def get(self, game_id: int) -> Posted | None:
        return self._live.get(game_id)

    def is_live(self, game_id: int, message_id: int | None) -> bool:
        posted = self._live.get(game_id)
        return posted is not None and message_id is not None and posted.message_id == message_id

    def replace(self, posted: Posted) -> Posted | None:
        """``posted`` is now its game's live reply; the one it supersedes (no longer live), if any."""
        older = self._live.pop(posted.game_id, None)
        self._live[posted.game_id] = posted
        while len(self._live) > self.size:
            self._live.popitem(last=False)
        if older is None or older.message_id == posted.message_id:
            return None
        older.live = False
        return older

    def forget(self, game_id: int) -> Posted | None:
        """The game's live reply, no longer live (the game ended or was abandoned); None if it had none."""
        posted = self._live.pop(game_id, None)
        if posted is not None:
            posted.live = False
        return posted

    def saved(self, before: str | None = None) -> str:
        """The live replies as JSON for the store (``before``: what the store holds, e.g. another process's, kept
        for the games this process does not hold), newest last, at most ``size``."""
        entries = {int(e["game"]): e for e in _entries(before)}
        for posted in self._live.values():
            if posted.channel_id is not None and posted.message_id is not None:
                entries.pop(posted.game_id, None)
                entries[posted.game_id] = posted.to_json()
        return json.dumps(list(entries.values())[-self.size:], ensure_ascii=False)

    def restore(self, text: str | None) -> int:
        """The live replies a stopped process saved, under those this process holds already; how many."""
        restored = 0
        for entry in _entries(text):
            try:
                posted = Posted.from_json(entry)
            except (KeyError, TypeError, ValueError):
                continue  # an entry of another version: its message keeps its controls (refused when stale)
            if posted.game_id not in self._live:
                self._live[posted.game_id] = posted
                self._live.move_to_end(posted.game_id, last=False)
                restored += 1
        while len(self._live) > self.size:
            self._live.popitem(last=False)
        return restored

    async def retire(self, older: Posted) -> None:
        """Lay ``older`` out without its controls: through its webhook while the token is valid, else the
        channel. Logged, never raised, when Discord refuses."""
        view = older.view()
        if older.message_id is None:
            return
        try:
            if older.webhook is not None and time.monotonic() - older.sent_at < TOKEN_SECONDS:
                try:
                    await self._webhook(*older.webhook).edit_message(older.message_id, view=view)
                    self.retired += 1
                    return
                except discord.NotFound as exc:  # the token is no longer valid: the channel, as after 15 minutes
                    if exc.code != UNKNOWN_WEBHOOK:
                        raise
            if older.channel_id is None:
                return
            channel = await self._channel(older.channel_id)
            await channel.get_partial_message(older.message_id).edit(view=view)
            self.retired += 1
        except (discord.HTTPException, AttributeError) as exc:
            self.failed += 1
            log.warning("could not take the controls off message %s of game %s: %s", older.message_id,
                        older.game_id, exc)


def _entries(text: str | None) -> list[dict[str, Any]]:
    try:
        found = json.loads(text) if text else []
    except ValueError:
        return []
    return [e for e in found if isinstance(e, dict) and "game" in e] if isinstance(found, list) else []
