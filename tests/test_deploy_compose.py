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
