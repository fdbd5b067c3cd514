"""The bot's Prometheus metrics, one registry per bot (tests run several bots in one process).

Hooks are small: ``Metrics.command(name)`` times a command, a button press or a form (an async context);
``Metrics.watch_store(store)`` wraps the store's write methods of that one instance (whatever the store:
SQLite or PostgreSQL), timing them and counting the stale-version refusals. Cached games and the shards'
latency are read when Prometheus scrapes, from the bot itself. Process basics (CPU, memory, open files, GC)
come from prometheus-client's own collectors.
"""

from __future__ import annotations

import contextlib
import functools
import time
from collections.abc import AsyncIterator, Iterator
from typing import Any

from prometheus_client import (
    CONTENT_TYPE_LATEST,
    CollectorRegistry,
    Counter,
    GCCollector,
    Histogram,
    PlatformCollector,
    ProcessCollector,
    generate_latest,
)
from prometheus_client.core import GaugeMetricFamily

from .store import StaleVersion

# The store's writes: each one transaction.
WRITES = ("create_game", "append_action", "undo_action", "abandon", "add_result_post", "take_result_posts",
          "put_setting", "forget_user")
COMMAND_BUCKETS = (0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1.0, 2.5, 5.0, 10.0)
WRITE_BUCKETS = (0.0005, 0.001, 0.0025, 0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1.0, 5.0)


class _BotCollector:
    """Read at scrape time: cached games, this process's shards (latency, connected)."""

    def __init__(self, bot: Any) -> None:
        self.bot = bot

    def collect(self) -> Iterator[GaugeMetricFamily]:
        cached = GaugeMetricFamily("solo_bot_cached_games", "Live game records kept in memory")
        service = getattr(self.bot, "service", None)
        cached.add_metric([], float(service.cached_games() if service is not None else 0))
        yield cached
        latency = GaugeMetricFamily("solo_bot_shard_latency_seconds",
                                    "Gateway heartbeat latency of each of this process's shards", labels=["shard"])
        connected = GaugeMetricFamily("solo_bot_shard_connected",
                                      "1 when the shard's gateway connection is open", labels=["shard"])
        for shard_id, shard in shards_of(self.bot).items():
            value = shard.latency
            if value == value and value != float("inf"):  # NaN or inf before the first heartbeat
                latency.add_metric([str(shard_id)], value)
            metrics = getattr(self.bot, "metrics", None)
            up = metrics.shard_is_up(shard_id, shard) if metrics is not None else not shard.is_closed()
            connected.add_metric([str(shard_id)], 1.0 if up else 0.0)
        yield latency
        yield connected


def shards_of(bot: Any) -> dict[int, Any]:
    """This process's shards (ShardInfo by id); empty before the client connects."""
    try:
        return dict(bot.shards)
    except (AttributeError, TypeError):
        return {}


class Metrics:
    def __init__(self, bot: Any = None) -> None:
        self.registry = CollectorRegistry()
        for collector in (ProcessCollector, PlatformCollector, GCCollector):
            collector(registry=self.registry)
        self.commands = Counter("solo_bot_commands", "Commands, button presses and forms handled, by name",
                                ["command"], registry=self.registry)
        self.command_seconds = Histogram("solo_bot_command_seconds", "Time to handle a command, by name",
                                         ["command"], buckets=COMMAND_BUCKETS, registry=self.registry)
        self.command_errors = Counter("solo_bot_command_errors", "Commands that ended in an unexpected error",
                                      ["command"], registry=self.registry)
        self.store_write_seconds = Histogram("solo_bot_store_write_seconds", "Time of one store write (a transaction)",
                                             ["op"], buckets=WRITE_BUCKETS, registry=self.registry)
        self.store_write_errors = Counter("solo_bot_store_write_errors", "Store writes that raised, by error",
                                          ["op", "error"], registry=self.registry)
        self.stale_versions = Counter("solo_bot_stale_version_refusals",
                                      "Writes refused because the game's version moved on (another writer)",
                                      ["op"], registry=self.registry)
        # Shards whose connection dropped and has not resumed or identified again (a reconnected socket whose
        # RESUME is not answered yet receives no events: still down).
        self.shards_down: set[int] = set()
        if bot is not None:
            self.registry.register(_BotCollector(bot))
            if hasattr(bot, "add_listener"):
                bot.add_listener(self._shard_down, "on_shard_disconnect")
                bot.add_listener(self._shard_up, "on_shard_connect")
                bot.add_listener(self._shard_up, "on_shard_resumed")

    async def _shard_down(self, shard_id: int) -> None:
        self.shards_down.add(shard_id)

    async def _shard_up(self, shard_id: int) -> None:
        self.shards_down.discard(shard_id)

    def shard_is_up(self, shard_id: int, shard: Any) -> bool:
        return shard_id not in self.shards_down and not shard.is_closed()

    @contextlib.asynccontextmanager
    async def command(self, name: str) -> AsyncIterator[None]:
        began = time.perf_counter()
        failed = True
        try:
            yield
            failed = False
        finally:
            self.observe(name, began, failed=failed)

    def observe(self, name: str, began: float, *, failed: bool = False) -> None:
        """One command, button press or form handled, since ``began`` (time.perf_counter); ``failed``: it ended
        in an unexpected error."""
        if failed:
            self.command_errors.labels(name).inc()
        self.commands.labels(name).inc()
        self.command_seconds.labels(name).observe(time.perf_counter() - began)

    def watch_store(self, store: Any) -> Any:
        """Time ``store``'s writes and count its stale-version refusals (the instance's methods are wrapped;
        the store's type and other methods stay as they are). Returns the store."""
        for op in WRITES:
            method = getattr(store, op, None)
            if method is not None and not getattr(method, "_solo_timed", False):
                setattr(store, op, self._timed(op, method))
        return store

    def _timed(self, op: str, method: Any) -> Any:
        seconds = self.store_write_seconds.labels(op)

        @functools.wraps(method)
        async def timed(*args: Any, **kwargs: Any) -> Any:
            began = time.perf_counter()
            try:
                return await method(*args, **kwargs)
            except StaleVersion:
                self.stale_versions.labels(op).inc()
                raise
            except Exception as exc:
                self.store_write_errors.labels(op, type(exc).__name__).inc()
                raise
            finally:
                seconds.observe(time.perf_counter() - began)

        timed._solo_timed = True  # type: ignore[attr-defined]
        return timed

    def render(self) -> tuple[bytes, str]:
        return generate_latest(self.registry), CONTENT_TYPE_LATEST


def command_name(data: dict[str, Any] | None) -> str:
    """A slash command's full name from its interaction data, e.g. ``game status``."""
    data = data or {}
    parts = [str(data.get("name", "?"))]
    options = data.get("options") or []
    while options and isinstance(options[0], dict) and options[0].get("type") in (1, 2):
        parts.append(str(options[0].get("name", "?")))
        options = options[0].get("options") or []
    return " ".join(parts)
