"""The cyclic garbage collector, set for a long-running bot (issue 12).

Reference counting frees almost everything a command makes; the collector is only there for cycles. With
CPython's defaults it still runs a young collection every 700 new container objects (a command makes thousands,
so several per command), promotes whatever a command still holds at that moment, and then runs a full
collection whenever the survivors have grown by a quarter: a walk over every object the process holds
(discord.py's caches, the card tables, the fonts, each active game's record) during which no channel's command
moves. The bench measured pauses of 175 ms at 200 channels.

- ``tune()``, before the bot is made: young collections every ``YOUNG`` allocations, so that they happen a few
  times a second under load instead of several times a command, and what a command holds for a moment is not
  promoted as if it lived long. A young collection walks every young object still alive, and at 200 channels
  the commands in flight alone are tens of thousands of them (their coroutines, futures, payloads): at 20,000
  a collection came every few dozen commands and cost about 0.35 ms of CPU per command, 35 ms each; at
  100,000 it costs about 0.12 ms per command, and the bot answered 18–28 % more commands per second (both
  played in turn in one process, bench/bench_bot.py's load). What it lets wait is garbage in cycles, mostly
  discord.py's own (each interaction and its ``InteractionResponse`` point at each other): the peak memory of
  that run did not change (190 MiB against 189).
- ``settle()``, once the bot is ready: what starting made (modules, caches, tables, fonts) is collected once
  and then frozen (``gc.freeze``): it is never walked again, and a full collection walks only what came since.

``python -m bot`` does both (``bot/__main__.py``); the tests do not, and the bench does what the process does.
"""

from __future__ import annotations

import gc

YOUNG = 100_000  # allocations between two young collections (CPython's default: 700)


def tune() -> None:
    _, middle, old = gc.get_threshold()
    gc.set_threshold(YOUNG, middle, old)


def settle() -> None:
    gc.collect()
    gc.freeze()
