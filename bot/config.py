"""Configuration from the environment. Nothing here is ever logged with the token in it."""

from __future__ import annotations

import os
import re
from dataclasses import dataclass, field
from pathlib import Path
from urllib.parse import urlsplit

DEFAULT_DB = Path("data") / "bot.sqlite3"



class ConfigError(ValueError):
    """A malformed environment variable: the message says which and what is expected."""


@dataclass(frozen=True)
class Shards:
    """This process's shards: ``ids`` of ``count`` (SOLO_BOT_SHARDS=0-3/8); both None: Discord recommends."""

    count: int | None = None
    ids: tuple[int, ...] | None = None

    @property
    def holds_first(self) -> bool:
        """Whether this process holds shard 0 (the one that syncs commands); true when Discord decides."""
        return self.ids is None or 0 in self.ids

    @classmethod
    def parse(cls, text: str | None) -> Shards:
        """``""`` → Discord's recommendation; ``8`` → all 8 shards; ``0-3/8``, ``4,5/8``, ``0-1,6/8`` → those
        shards of 8. Anything else raises ConfigError naming the variable and the expected form."""
        text = (text or "").strip()
        if not text:
            return cls()
        expected = (f"SOLO_BOT_SHARDS={text!r} is not a shard range: write COUNT (all shards, e.g. 8) or "
                    "IDS/COUNT with IDS a range or a comma list of shard numbers below COUNT (e.g. 0-3/8, 4,6/8)")
        ids_text, slash, count_text = text.rpartition("/")
        if not slash:
            ids_text, count_text = "", text
        if not count_text.isdigit() or int(count_text) < 1:
            raise ConfigError(expected)
        count = int(count_text)
        if not ids_text:
            if slash:
                raise ConfigError(expected)
            return cls(count, tuple(range(count)))
        ids: list[int] = []
        for part in ids_text.split(","):
            low, dash, high = part.strip().partition("-")
            if not low.isdigit() or (dash and not high.isdigit()):
                raise ConfigError(expected)
            first, last = int(low), int(high) if dash else int(low)
            if first > last or last >= count:
                raise ConfigError(expected)
            ids += [i for i in range(first, last + 1) if i not in ids]
        return cls(count, tuple(sorted(ids)))


def _guild(text: str | None) -> int | None:
    text = (text or "").strip()
    if not text:
        return None
    if not text.isdigit():
        raise ConfigError(f"SOLO_BOT_GUILD={text!r} is not a server id: copy the number from Discord "
                          "(Developer Mode, right-click the server, Copy Server ID), or leave it unset")
    return int(text)


def _sync(text: str | None) -> bool:
    text = (text or "auto").strip().lower()
    if text in ("auto", "on", "1", "yes", "true"):
        return True
    if text in ("off", "0", "no", "false"):
        return False
    raise ConfigError(f"SOLO_BOT_SYNC={text!r}: write auto (the default: sync when the commands changed) or off")


def _port(text: str | None) -> int | None:
    text = (text or "").strip()
    if not text or text.lower() == "off":
        return None
    if not text.isdigit() or int(text) > 65535:
        raise ConfigError(f"SOLO_BOT_HTTP_PORT={text!r} is not a port: write a number from 1 to 65535 "
                          "(0: any free port), or leave it unset for no HTTP endpoint")
    return int(text)


def _postgres_url(text: str) -> str:
    """A PostgreSQL URL whose parts read back as written: a password (or user) holding ``@ : / # %`` must be
    percent-encoded, else the URL names another host, port or database — say so at start, not as a
    connection error later."""
    parts = urlsplit(text)
    bad = "#" in text or parts.netloc.count("@") > 1 or re.search(r"%(?![0-9A-Fa-f]{2})", text)
    try:
        parts.port  # noqa: B018 - raises on a port that is not a number (a ':' from the password)
    except ValueError:
        bad = True
    if bad or not (parts.hostname or "host=" in parts.query):  # ?host=/run/postgresql: a Unix socket
        raise ConfigError(
            "SOLO_BOT_DB is not a PostgreSQL URL that reads back as written (postgresql://USER:PASSWORD@HOST:PORT/DB):"
            " percent-encode @ / # % in the password (python3 -c 'import sys, urllib.parse; "
            "print(urllib.parse.quote(sys.argv[1], safe=\"\"))' 'PASSWORD'), or leave the password out of the URL "
            "and set PGPASSWORD")
    return text


@dataclass(frozen=True)
class Config:
    token: str | None = field(default=None, repr=False)
    db_path: Path = DEFAULT_DB
    # SOLO_BOT_DB=postgresql://…: the PostgreSQL database instead of the SQLite file (db_path then unused).
    db_url: str | None = field(default=None, repr=False)
    log_level: str = "INFO"
    # Where the bot talks to Discord: None for discord.com; the stand-in's URL for the console and tests.
    api_base: str | None = None
    # Seconds a channel's game stays cached in memory after its last command.
    cache_seconds: float = 600.0
    # Seconds discord.py keeps a form it opened (a form closed without submitting leaves memory after this).
    form_seconds: float = 900.0
    # A fixed seed for every new game (SOLO_BOT_SEED): reproducible sessions for demos and tests.
    seed: int | None = None
    # Sharding: the shard count and this process's shards (SOLO_BOT_SHARDS); default: Discord's recommendation.
    shards: Shards = Shards()
    # A development server (SOLO_BOT_GUILD): commands are synced there (instantly) instead of globally.
    dev_guild: int | None = None
    # Sync the commands at start-up when their payload changed (SOLO_BOT_SYNC=auto, the default from the
    # environment; off for none). Only the process holding shard 0 syncs. Tests build Config() without it.
    auto_sync: bool = False
    # The file the running bot touches every few seconds for `python -m bot health` (SOLO_BOT_HEARTBEAT);
    # by default next to the database.
    heartbeat: Path | None = None
    # /metrics, /healthz and /readyz (bot/http.py) on this port (SOLO_BOT_HTTP_PORT; 0: a free one); None: off.
    http_port: int | None = None
    http_host: str = "0.0.0.0"  # noqa: S104 - a container's port is reached from outside it (SOLO_BOT_HTTP_HOST narrows it)
    # Where Discord's gateway is when ``api_base`` points elsewhere (SOLO_BOT_DISCORD_API / _GATEWAY: the
    # stand-in in the several-process tests, a proxy). None: discord.com's.
    gateway_url: str | None = None

    @property
    def db_target(self) -> str | Path:
        """What the store opens: the PostgreSQL URL when one is set, else the SQLite file."""
        return self.db_url or self.db_path

    @property
    def heartbeat_path(self) -> Path:
        return self.heartbeat if self.heartbeat is not None else self.db_path.with_name(self.db_path.name + ".heartbeat")

    @classmethod
    def from_env(cls, environ: dict[str, str] | None = None) -> Config:
        env = os.environ if environ is None else environ
        db = (env.get("SOLO_BOT_DB") or "").strip()
        db_url = _postgres_url(db) if db.startswith(("postgresql://", "postgres://")) else None
        return cls(
            token=env.get("DISCORD_TOKEN") or None,
            db_path=Path(db) if db and db_url is None else DEFAULT_DB,
            db_url=db_url,
            log_level=env.get("SOLO_BOT_LOG_LEVEL", "INFO").upper(),
            heartbeat=Path(env["SOLO_BOT_HEARTBEAT"]) if env.get("SOLO_BOT_HEARTBEAT") else None,
            seed=int(env["SOLO_BOT_SEED"]) if env.get("SOLO_BOT_SEED", "").strip().lstrip("-").isdigit() else None,
            shards=Shards.parse(env.get("SOLO_BOT_SHARDS")),
            dev_guild=_guild(env.get("SOLO_BOT_GUILD")),
            # Without a token there is no Discord to sync with (the local console runs on the stand-in).
            auto_sync=_sync(env.get("SOLO_BOT_SYNC")) and bool(env.get("DISCORD_TOKEN")),
            http_port=_port(env.get("SOLO_BOT_HTTP_PORT")),
            http_host=(env.get("SOLO_BOT_HTTP_HOST") or "0.0.0.0").strip(),  # noqa: S104 - as above
            api_base=env.get("SOLO_BOT_DISCORD_API") or None,
            gateway_url=env.get("SOLO_BOT_DISCORD_GATEWAY") or None,
        )
