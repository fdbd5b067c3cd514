"""What docs/running.md and the Dockerfile promise for running the bot as a service (issue 11, point 6)."""

from __future__ import annotations

import json
import re
from pathlib import Path

import discord

ROOT = Path(__file__).resolve().parents[1]
# What the bot asks for when invited (scopes `bot applications.commands`), named as discord.Permissions names
# them; the README's permission integer is their sum.
INVITE_PERMISSIONS = ("view_channel", "send_messages", "send_messages_in_threads", "attach_files",
                      "create_public_threads")  # the last for `start … thread:true` (issue 36); no Embed Links: all V2
INVITE_SCOPES = ("bot", "applications.commands")


def test_the_invite_permission_integer_is_the_named_permissions() -> None:
    readme = (ROOT / "docs" / "running.md").read_text(encoding="utf-8")
    value = discord.Permissions(**dict.fromkeys(INVITE_PERMISSIONS, True)).value
    assert f"permissions={value}" in readme and f"**{value}**" in readme
    assert f"scope={'+'.join(INVITE_SCOPES)}" in readme and "`bot applications.commands`" in readme
    for name in INVITE_PERMISSIONS:  # each one is named, with its own value
        flag = discord.Permissions(**{name: True}).value
        assert f"({flag})" in readme, name


def test_the_readme_runs_docker_with_a_volume_for_the_database() -> None:
    readme = (ROOT / "docs" / "running.md").read_text(encoding="utf-8")
    assert re.search(r"docker run .*\n?.*-v solo-bot-data:/data", readme)
    assert "/data/bot.sqlite3" in readme


def test_the_dockerfile_runs_the_bot_as_pid_1_with_a_healthcheck() -> None:
    lines = [line.strip() for line in (ROOT / "Dockerfile").read_text(encoding="utf-8").splitlines()
             if line.strip() and not line.lstrip().startswith("#")]
    entry = [line for line in lines if line.startswith("ENTRYPOINT")]
    assert len(entry) == 1 and json.loads(entry[0].removeprefix("ENTRYPOINT")) == ["python", "-m", "bot"]
    health = [line for line in lines if line.startswith("HEALTHCHECK")]
    assert len(health) == 1 and health[0].endswith('CMD ["python", "-m", "bot", "health"]')
    assert any("SOLO_BOT_DB=/data/bot.sqlite3" in line for line in lines)
    # No VOLUME: it would leave an anonymous volume behind every container run without -v (issue 27).
    assert not any(line.startswith("VOLUME") for line in lines)
    # Exec form only: a shell form would make /bin/sh PID 1, and it does not pass SIGTERM on.
    assert not any(line.startswith(("CMD ", "ENTRYPOINT ")) and not line.split(" ", 1)[1].startswith("[")
                   for line in lines)
