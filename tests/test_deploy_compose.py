"""What deploy/compose.yaml promises (issue 13): PostgreSQL and two bot processes whose shard ranges split one
shard count between them, exactly one holding shard 0 (it syncs the commands), each checked on /healthz at
the port it serves, each on PostgreSQL. Read as text: the test tools have no YAML parser."""

from __future__ import annotations

import re
from pathlib import Path

from bot.config import Config, Shards

ROOT = Path(__file__).resolve().parents[1]
COMPOSE = ROOT / "deploy" / "compose.yaml"


def test_the_compose_file_runs_two_bots_on_postgresql_with_disjoint_shard_ranges() -> None:
    text = COMPOSE.read_text(encoding="utf-8")
    assert re.search(r"^  postgres:\n    image: postgres:\d+", text, re.M)
    assert re.search(r"SOLO_BOT_DB: postgresql://\S+@postgres:5432/", text)
    ranges = [Shards.parse(value) for value in re.findall(r"SOLO_BOT_SHARDS: (\S+)", text)]
    assert len(ranges) == 2
    assert {r.count for r in ranges} == {4}
    held = [i for r in ranges for i in r.ids]
    assert sorted(held) == list(range(4))  # every shard once, none twice
    assert sum(r.holds_first for r in ranges) == 1
    port = re.search(r'SOLO_BOT_HTTP_PORT: "(\d+)"', text)[1]
    assert Config.from_env({"SOLO_BOT_HTTP_PORT": port}).http_port == int(port)
    assert f"http://127.0.0.1:{port}/healthz" in text
    assert "condition: service_healthy" in text  # the bots wait for PostgreSQL


def test_the_readme_says_when_and_how_to_scale_out() -> None:
    readme = (ROOT / "README.md").read_text(encoding="utf-8")
    section = readme.split("### Scaling out", 1)[1].split("\n## ", 1)[0]
    for needed in ("SOLO_BOT_HTTP_PORT", "/metrics", "/healthz", "/readyz", "SOLO_BOT_SHARDS=0-1/4",
                   "python -m bot migrate --to postgresql://", "deploy/compose.yaml", "SOLO_BOT_DB=postgresql://"):
        assert needed in section, needed


def _bot_environments(text: str) -> dict[str, dict[str, str]]:
    """Each bot service's environment as the container sees it: the shared ``&bot-env`` block merged with the
    service's own keys, ``${VAR:?…}`` filled in (a small reader for this file's shape, not YAML at large)."""
    def block(lines: list[str], start: int, indent: int) -> dict[str, str]:
        found: dict[str, str] = {}
        for line in lines[start:]:
            if line.strip() and len(line) - len(line.lstrip()) < indent:
                break
            match = re.match(rf"^ {{{indent}}}([A-Z_]+): (.*?)(\s+#.*)?$", line)
            if match:
                found[match[1]] = re.sub(r"\$\{(\w+)[^}]*\}", lambda m: f"<{m[1]}>", match[2].strip('"'))
        return found

    lines = text.splitlines()
    shared = block(lines, lines.index("  environment: &bot-env") + 1, 4)
    services: dict[str, dict[str, str]] = {}
    for i, line in enumerate(lines):
        if re.match(r"^  (bot-\w+):$", line):
            env_at = next(j for j in range(i + 1, len(lines)) if lines[j] == "    environment:")
            services[line.strip(" :")] = {**shared, **block(lines, env_at + 1, 6)}
    return services


def test_each_bot_of_the_compose_file_is_configured_as_its_shard_range_says() -> None:
    services = _bot_environments(COMPOSE.read_text(encoding="utf-8"))
    assert sorted(services) == ["bot-a", "bot-b"]
    configs = {name: Config.from_env(env) for name, env in services.items()}
    for name, config in configs.items():
        assert config.db_url is not None and config.db_url.startswith("postgresql://"), name  # PostgreSQL
        assert config.token == "<DISCORD_TOKEN>" and config.http_port == 9464, name
    held = sorted(i for config in configs.values() for i in config.shards.ids)
    assert held == list(range(4))  # every shard covered exactly once
    # Exactly one process syncs the commands at start-up: the one holding shard 0, with sync not turned off.
    syncing = [name for name, config in configs.items() if config.auto_sync and config.shards.holds_first]
    assert syncing == ["bot-a"]


def test_the_image_installs_the_postgresql_driver_the_compose_file_needs() -> None:
    """No Docker engine here, so no build: the Dockerfile installs the project, and the project's own
    dependencies (not an optional extra the image would leave out) carry asyncpg and prometheus-client."""
    dockerfile = (ROOT / "Dockerfile").read_text(encoding="utf-8")
    install = re.search(r"pip install [^\n]*?(\.(\[[\w,-]+\])?)\s", dockerfile)
    assert install, "the Dockerfile does not pip install the project"
    extras = set((install[2] or "[]").strip("[]").split(",")) - {""}
    pyproject = (ROOT / "pyproject.toml").read_text(encoding="utf-8")
    deps = re.search(r"^dependencies = \[(.*?)^\]", pyproject, re.M | re.S)[1]
    for extra in extras:
        deps += re.search(rf"^{extra} = \[(.*?)^\]", pyproject, re.M | re.S)[1]
    for needed in ("asyncpg", "prometheus-client"):
        assert re.search(rf'"{needed}[<>=~!]', deps), f"the image would not install {needed}"
