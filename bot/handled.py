"""When the bot has finished with an interaction: what the stand-in's driver and the console wait for.

discord.py answers an interaction in tasks it starts while it parses the INTERACTION_CREATE event (the command
tree's invoker, a button's item, the ``on_interaction`` listeners); once all of them have returned, everything
the bot sends for that interaction has been sent — the reply, its followups, a result posted in the parent
channel, a followup retried after a 429. ``Handled`` notes those tasks for the interactions someone waits on
(``await handled(interaction_id)``, asked before the interaction is sent) and completes the wait when the last
one ends: an event, not a quiet moment. Nothing is kept for an interaction nobody asked about, so a bot in
production pays one dict lookup per interaction.

discord.py has no public hook that runs when it parses an event, nor one that says when an interaction's
handlers are done: ``wrap_interaction_parser`` is the one place the bot reaches into its internals (the
connection state's parser table, ``Client._connection.parsers``); the README's "discord.py's internals" says so.
"""

from __future__ import annotations

import asyncio
from collections.abc import Callable
from typing import Any

import discord

Parser = Callable[[Any], None]


def wrap_interaction_parser(client: discord.Client, wrap: Callable[[Parser], Parser]) -> None:
    """Put ``wrap(parser)`` in place of discord.py's parser of INTERACTION_CREATE events."""
    parsers = client._connection.parsers
    parsers["INTERACTION_CREATE"] = wrap(parsers["INTERACTION_CREATE"])


class Handled:
    """``handled(interaction_id)``: a future done once the client has finished with that interaction."""

    def __init__(self) -> None:
        self._awaited: dict[int, asyncio.Future[None]] = {}

    def __call__(self, interaction_id: int) -> asyncio.Future[None]:
        waiter = self._awaited.get(interaction_id)
        if waiter is None:
            waiter = self._awaited[interaction_id] = asyncio.get_running_loop().create_future()
            waiter.add_done_callback(lambda _: self._awaited.pop(interaction_id, None))  # a cancelled wait too
        return waiter

    def around(self, parse: Parser) -> Parser:
        """``parse``, noting the tasks it starts for an interaction someone waits on."""
        def parsing(data: Any) -> None:
            key = _snowflake(data)
            waiter = None if key is None else self._awaited.pop(key, None)
            if waiter is None:
                parse(data)
                return
            before = asyncio.all_tasks()
            try:
                parse(data)
            finally:
                _when_all_done(asyncio.all_tasks() - before, waiter)
        return parsing


def _snowflake(data: Any) -> int | None:
    try:
        return int(data["id"])
    except (TypeError, KeyError, ValueError):
        return None


def _when_all_done(tasks: set[asyncio.Task[Any]], waiter: asyncio.Future[None]) -> None:
    """Complete ``waiter`` once every one of ``tasks`` has ended (at once when there are none)."""
    pending = set(tasks)

    def ended(task: asyncio.Task[Any] | None) -> None:
        pending.discard(task)
        if not pending and not waiter.done():
            waiter.set_result(None)

    if not pending:
        ended(None)
    for task in tasks:
        task.add_done_callback(ended)
