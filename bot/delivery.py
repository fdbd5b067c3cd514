"""Interactions that arrive late, or twice: a change is committed only when its answer can still reach Discord.

Discord accepts the first answer to an interaction within 3 s of its creation (the time in its snowflake id)
and answers 10062 (unknown interaction) after that; a gateway RESUME can also deliver the same interaction
again. Two rules keep a late or repeated interaction from changing a game behind the player's back:

- **Acknowledge before committing when the answer may be late.** On arrival, and again under the channel's
  lock right before the store's transaction, the interaction's age is checked; past ``ACK_FIRST_AFTER`` the
  bot answers "thinking…" first and commits only if Discord took that acknowledgement. If it did not
  (10062: too late; 40060: already acknowledged — a second delivery), nothing is applied.
- **A bounded memory of the interaction ids this process has handled** (``Deliveries``): a second delivery
  of an id still in memory is dropped before it does anything. Ids are kept for ``horizon`` seconds (far
  longer than an interaction can be answered) and at most ``limit`` of them, so the memory stays flat.

Why both: the memory alone misses a redelivery after it forgot the id, and acknowledging first alone would
cost every command an extra round trip; together a repeat is dropped at once, and anything past the memory
is old enough that the acknowledgement comes first and fails. What stays possible (and is logged): a
commit that starts early, then waits longer than the deadline on a busy database, while the "thinking…"
sent meanwhile is refused — Discord refuses that acknowledgement at 1.2 s only if it never knew the
interaction.

``commit_state(interaction)`` says whether a change was attempted: the error handler tells the player
"nothing was changed" only when nothing was (``refuse.internal``), else that it may have been
(``refuse.internal_unknown``).
"""

from __future__ import annotations

import asyncio
import logging
import time
from collections import OrderedDict, deque
from typing import Any

import discord

log = logging.getLogger(__name__)

# Past this age (seconds since the interaction was created) a change is acknowledged before it is committed.
ACK_FIRST_AFTER = 1.2


class NotAcknowledged(Exception):
    """Discord refused the acknowledgement (too late, or already acknowledged): nothing may be applied."""

    def __init__(self, reason: str) -> None:
        super().__init__(reason)
        self.reason = reason


def interaction_age(interaction: discord.Interaction, started: float) -> float:
    """Seconds since the interaction was created: by Discord's clock (its id), or ours if that is behind."""
    local = time.monotonic() - started
    remote = (discord.utils.utcnow() - interaction.created_at).total_seconds()
    return max(local, min(remote, 10.0))


class Deliveries:
    """The ids of the interactions this process has taken on, for ``horizon`` seconds and at most ``limit``."""

    def __init__(self, *, horizon: float = 120.0, limit: int = 20_000, clock: Any = time.monotonic) -> None:
        self.horizon = horizon
        self.limit = limit
        self._clock = clock
        self._seen: OrderedDict[int, float] = OrderedDict()
        # The last interactions dropped (id, reason): what a log reader — or a test — looks at.
        self.dropped: deque[tuple[int, str]] = deque(maxlen=256)

    def __len__(self) -> int:
        return len(self._seen)

    def first(self, interaction_id: int) -> bool:
        """True the first time an id is seen (it is remembered); False for a repeat."""
        now = self._clock()
        while self._seen:
            oldest, when = next(iter(self._seen.items()))
            if when >= now - self.horizon and len(self._seen) < self.limit:
                break
            del self._seen[oldest]
        if interaction_id in self._seen:
            return False
        self._seen[interaction_id] = now
        return True

    def drop(self, interaction_id: int, reason: str) -> None:
        self.dropped.append((interaction_id, reason))


async def acknowledge(interaction: discord.Interaction, *, ephemeral: bool = False) -> None:
    """Answer "thinking…" now unless the interaction is answered already; NotAcknowledged if Discord refuses."""
    if interaction.response.is_done():
        return
    try:
        await interaction.response.defer(ephemeral=ephemeral, thinking=True)
    except discord.HTTPException as exc:
        raise NotAcknowledged(f"{exc.status}/{exc.code}") from None
    interaction.extras["thinking"] = "private" if ephemeral else "public"


class Gate:
    """One interaction's way to a commit: checked on arrival and, under the channel's lock, right before it.

    ``await gate.arrive()`` → False when the interaction came too late to be answered (nothing to do);
    ``await gate()`` (the sessions' ``before_commit``) raises NotAcknowledged instead of letting a change be
    committed that the player can no longer be told about."""

    def __init__(self, interaction: discord.Interaction, started: float | None = None, *,
                 ephemeral: bool = False) -> None:
        self.interaction = interaction
        self.started = time.monotonic() if started is None else started
        self.ephemeral = ephemeral  # the "thinking…" is private when the answer will be
        self.refused: str | None = None  # why Discord refused an acknowledgement, if it did
        # The watchdog (while the work waits) and the check before the commit may both want to acknowledge:
        # one at a time, or the second "thinking…" is Discord's 40060 and a good change would be dropped.
        self._acking = asyncio.Lock()

    async def _ack(self) -> None:
        async with self._acking:
            if self.refused is not None or self.interaction.response.is_done():
                return
            try:
                await acknowledge(self.interaction, ephemeral=self.ephemeral)
            except NotAcknowledged as exc:
                self.refused = exc.reason

    def age(self) -> float:
        return interaction_age(self.interaction, self.started)

    async def arrive(self) -> bool:
        if self.age() > ACK_FIRST_AFTER:
            await self._ack()
        return self.refused is None

    async def watchdog_ack(self) -> None:
        """The "thinking…" sent while the work is still under way; a refusal stops a commit not yet begun."""
        await self._ack()

    async def __call__(self) -> None:
        if not self.interaction.response.is_done() and self.age() > ACK_FIRST_AFTER:
            await self._ack()
        if self.refused is not None:
            raise NotAcknowledged(self.refused)
        self.interaction.extras["commit"] = "started"


def commit_state(interaction: discord.Interaction) -> str | None:
    """"started" once a change of this interaction went to the store (its outcome then unknown to the caller)."""
    return interaction.extras.get("commit")
