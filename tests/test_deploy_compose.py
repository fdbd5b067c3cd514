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
    assert re.search(r"^  postgres:\n    image: \$\{POSTGRES_IMAGE:-postgres:\d+\}", text, re.M)
    assert re.search(r"SOLO_BOT_DB: postgresql://\S+@postgres:5432/", text)
    assert "PGPASSWORD: ${POSTGRES_PASSWORD" in text  # the password outside the URL: any character works
    ranges = [Shards.parse(value) for value in re.findall(r"SOLO_BOT_SHARDS: (\S+)", text)]
    assert len(ranges) == 2
    assert {r.count for r in ranges} == {4}
    held = [i for r in ranges for i in r.ids]
    assert sorted(held) == list(range(4))  # every shard once, none twice
    assert sum(r.holds_first for r in ranges) == 1
    port = re.search(r'SOLO_BOT_HTTP_PORT: "(\d+)"', text)[1]
    assert Config.from_env({"SOLO_BOT_HTTP_PORT": port}).http_port == int(port)
    assert 'test: ["CMD", "python", "-m", "bot", "health"]' in text  # as /readyz judges the connection
    assert text.count("build:") == 1  # one image, built once, for both bots
    assert "condition: service_healthy" in text  # the bots wait for PostgreSQL


def test_the_readme_says_when_and_how_to_scale_out() -> None:
    running = (ROOT / "docs" / "running.md").read_text(encoding="utf-8")
    section = running.split("## Scaling out", 1)[1].split("\n## ", 1)[0]
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


def test_the_image_installs_every_dependency_pinned_by_the_lock() -> None:
    """The image installs deploy/requirements.lock (pinned and hashed, `make lock`), then the project without its
    dependencies: the lock must pin every runtime dependency of pyproject.toml (asyncpg and prometheus-client
    for the compose file's PostgreSQL and metrics among them). The build itself: deploy/check-image.sh."""
    dockerfile = (ROOT / "Dockerfile").read_text(encoding="utf-8")
    assert "pip install --no-deps --require-hashes -r /tmp/requirements.lock" in dockerfile
    assert re.search(r"pip install --no-deps [^\n]*\.$", dockerfile, re.M)
    lock = (ROOT / "deploy" / "requirements.lock").read_text(encoding="utf-8")
    # One requirement a line once its continuations are joined: `name==version --hash=sha256:… …`.
    requirements = [line for line in lock.replace("\\\n", " ").splitlines() if line.strip()
                    and not line.lstrip().startswith("#")]
    pinned = {re.split("==", line)[0].lower().replace("_", "-").replace(".", "-") for line in requirements}
    assert requirements and all(re.match(r"^[A-Za-z0-9_.-]+==\S+ ", line) for line in requirements), requirements
    assert all(re.search(r"--hash=sha256:[0-9a-f]{64}", line) for line in requirements), "a requirement has no hash"
    assert "setuptools" in pinned  # the build stage builds without downloading anything
    pyproject = (ROOT / "pyproject.toml").read_text(encoding="utf-8")
    deps = re.search(r"^dependencies = \[(.*?)^\]", pyproject, re.M | re.S)[1]
    for name in re.findall(r'"([A-Za-z0-9_.-]+)', deps):
        assert name.lower().replace("_", "-").replace(".", "-") in pinned, f"the lock does not pin {name}"
    assert {"asyncpg", "prometheus-client"} <= pinned
