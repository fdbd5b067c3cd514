"""Configuration from the environment. Nothing here is ever logged with the token in it."""

from __future__ import annotations

import os
from dataclasses import dataclass, field
from pathlib import Path

DEFAULT_DB = Path("data") / "bot.sqlite3"

# What the bot asks for when invited (scopes `bot applications.commands`), named as discord.Permissions names
# them; the README's permission integer is their sum (tests/test_service_docs.py checks it).
INVITE_PERMISSIONS = ("view_channel", "send_messages", "send_messages_in_threads", "embed_links", "attach_files")
INVITE_SCOPES = ("bot", "applications.commands")


@dataclass(frozen=True)
class Config:
    token: str | None = field(default=None, repr=False)
    db_path: Path = DEFAULT_DB
    log_level: str = "INFO"
    # Where the bot talks to Discord: None for discord.com; the stand-in's URL for the console and tests.
    api_base: str | None = None
    # Seconds a channel's game stays cached in memory after its last command.
    cache_seconds: float = 600.0
    # Seconds discord.py keeps a form it opened (a form closed without submitting leaves memory after this).
    form_seconds: float = 900.0
    # A fixed seed for every new game (SOLO_BOT_SEED): reproducible sessions for demos and tests.
    seed: int | None = None
    # The file the running bot touches every few seconds for `python -m bot health` (SOLO_BOT_HEARTBEAT);
    # by default next to the database.
    heartbeat: Path | None = None

    @property
    def heartbeat_path(self) -> Path:
        return self.heartbeat if self.heartbeat is not None else self.db_path.with_name(self.db_path.name + ".heartbeat")

    @classmethod
    def from_env(cls, environ: dict[str, str] | None = None) -> Config:
        env = os.environ if environ is None else environ
        return cls(
            token=env.get("DISCORD_TOKEN") or None,
            db_path=Path(env.get("SOLO_BOT_DB") or DEFAULT_DB),
            log_level=env.get("SOLO_BOT_LOG_LEVEL", "INFO").upper(),
            heartbeat=Path(env["SOLO_BOT_HEARTBEAT"]) if env.get("SOLO_BOT_HEARTBEAT") else None,
            seed=int(env["SOLO_BOT_SEED"]) if env.get("SOLO_BOT_SEED", "").strip().lstrip("-").isdigit() else None,
        )
