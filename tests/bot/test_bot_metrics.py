"""Issue 13, metrics and health: /metrics, /healthz and /readyz on SOLO_BOT_HTTP_PORT, end to end — a real
client on the stand-in, a real SQLite file, real HTTP requests to the bot's real port."""

from __future__ import annotations

import asyncio
import contextlib
import json

import aiohttp
import pytest
from prometheus_client.parser import text_string_to_metric_families

from bot.app import create_bot
from bot.config import Config, ConfigError
from bot.health import Heartbeat
from bot.store import StaleVersion


def samples(text: str) -> dict[tuple[str, tuple[tuple[str, str], ...]], float]:
    """Every sample of a /metrics page: (name, sorted labels) -> value."""
    found = {}
    for family in text_string_to_metric_families(text):
        for sample in family.samples:
            found[(sample.name, tuple(sorted(sample.labels.items())))] = sample.value
    return found


def value(page: dict, name: str, **labels: str) -> float:
    return page.get((name, tuple(sorted(labels.items()))), 0.0)


@contextlib.asynccontextmanager
async def bot_with_http(standin, db_path):
    bot = create_bot(Config(db_path=db_path, http_port=0, http_host="127.0.0.1"), seed=lambda: 7)
    async with standin.connect(bot) as driver, aiohttp.ClientSession() as http:
        base = f"http://127.0.0.1:{bot.http_server.port}"

        async def get(path: str) -> tuple[int, str]:
            async with http.get(base + path) as response:
                return response.status, await response.text()

        yield bot, driver, get


async def until_status(get, path: str, status: int, limit: float = 30.0) -> str:
    """Ask `path` until it answers `status` (the awaited event), at most `limit` seconds."""
    loop = asyncio.get_running_loop()
    give_up = loop.time() + limit
    while True:
        code, text = await get(path)
        if code == status:
            return text
        assert loop.time() < give_up, f"{path} still answers {code}: {text}"
        await asyncio.sleep(0.05)


async def test_metrics_count_commands_store_writes_and_stale_versions(standin, db_path):
    async with bot_with_http(standin, db_path) as (bot, driver, get):
        assert await get("/healthz") == (200, "ok\n")
        before = samples((await get("/metrics"))[1])
        start = await driver.slash("seasons start", {"difficulty": "apprentice", "dice": "bot"})
        assert not start.ephemeral
        roll = next(b["custom_id"] for b in start.buttons if b["custom_id"].split(":")[3] == "roll")
        pressed = await driver.press(roll, message=start.messages[-1].id)
        assert not pressed.ephemeral
        for _ in range(2):
            assert not (await driver.slash("seasons crystals", {"change": 1})).ephemeral
        await driver.slash("game status", {})
        code, text = await get("/metrics")
        assert code == 200
        after = samples(text)

        def grew(name: str, **labels: str) -> float:
            return value(after, name, **labels) - value(before, name, **labels)

        assert grew("solo_bot_commands_total", command="seasons start") == 1
        assert grew("solo_bot_commands_total", command="seasons crystals") == 2
        assert grew("solo_bot_commands_total", command="button roll") == 1
        assert grew("solo_bot_commands_total", command="game status") == 1
        assert grew("solo_bot_command_seconds_count", command="seasons crystals") == 2
        assert grew("solo_bot_store_write_seconds_count", op="create_game") == 1
        assert grew("solo_bot_store_write_seconds_count", op="append_action") == 3  # 2 crystals + the roll
        assert value(after, "solo_bot_cached_games") == 1
        assert ("solo_bot_shard_latency_seconds", (("shard", "0"),)) in after
        assert value(after, "solo_bot_shard_connected", shard="0") == 1
        assert value(after, "process_cpu_seconds_total") > 0  # process basics
        assert value(after, "solo_bot_stale_version_refusals_total", op="append_action") == 0

        # Another writer moved the game on: the bot's write on the old version is refused, and counted.
        row = await bot.store.active_game(standin.world.channel().id)
        with pytest.raises(StaleVersion):
            await bot.store.append_action(row.id, expected_ply=row.ply - 1, action={"type": "crystals", "change": 1},
                                          user_id=row.owner_id)
        page = samples((await get("/metrics"))[1])
        assert value(page, "solo_bot_stale_version_refusals_total", op="append_action") == 1
        assert value(page, "solo_bot_store_write_seconds_count", op="append_action") == \
            value(after, "solo_bot_store_write_seconds_count", op="append_action") + 1


async def test_readyz_follows_the_shards_and_the_database(standin, db_path):
    async with bot_with_http(standin, db_path) as (bot, driver, get):
        assert await get("/readyz") == (200, "ready\n")
        standin.resume_gate.clear()  # the shard reconnects, but its RESUME is held back
        await standin.drop_connection()
        said = await until_status(get, "/readyz", 503)
        assert "shard 0" in said
        assert (await get("/healthz"))[0] == 200  # the loop still answers: alive, not ready
        page = samples((await get("/metrics"))[1])
        assert value(page, "solo_bot_shard_connected", shard="0") == 0
        standin.resume_gate.set()
        await until_status(get, "/readyz", 200)
        assert not (await driver.slash("volfyrion start", {"difficulty": "normal"})).ephemeral
        await bot.store.close()  # the database is gone
        code, said = await get("/readyz")
        assert code == 503 and "database" in said, said
        assert (await get("/healthz"))[0] == 200


async def test_the_heartbeat_is_rewritten_as_soon_as_the_connection_drops_and_resumes(standin, db_path):
    """`python -m bot health` reads the heartbeat: a lost shard is written there on the event, not at the next
    beat (an hour away here, so only the connection's events can rewrite it)."""
    bot = create_bot(Config(db_path=db_path), seed=lambda: 7)
    heartbeat = Heartbeat(db_path.with_name("beat.json"), interval=3600.0)

    async def until_connected(connected: bool) -> dict:  # the rewritten file is the awaited event
        give_up = asyncio.get_running_loop().time() + 30.0
        while True:
            with contextlib.suppress(OSError, ValueError):
                beat = json.loads(heartbeat.path.read_text(encoding="utf-8"))
                if beat["connected"] is connected:
                    return beat
            assert asyncio.get_running_loop().time() < give_up, f"the heartbeat never said connected={connected}"
            await asyncio.sleep(0.02)

    async with standin.connect(bot):
        beating = asyncio.create_task(heartbeat.run(bot))
        try:
            await until_connected(True)
            standin.resume_gate.clear()  # the shard reconnects, but its RESUME is held back
            await standin.drop_connection()
            assert "shard 0 is disconnected" in (await until_connected(False))["problems"]
            standin.resume_gate.set()
            assert (await until_connected(True))["problems"] == []
        finally:
            beating.cancel()
            with contextlib.suppress(asyncio.CancelledError):
                await beating


async def test_the_http_endpoints_are_off_by_default_and_the_port_is_checked(standin, db_path):
    assert Config.from_env({}).http_port is None
    assert Config.from_env({"SOLO_BOT_HTTP_PORT": "9464"}).http_port == 9464
    assert Config.from_env({"SOLO_BOT_HTTP_PORT": "off"}).http_port is None
    for wrong in ("http", "70000", "-1"):
        with pytest.raises(ConfigError, match="SOLO_BOT_HTTP_PORT"):
            Config.from_env({"SOLO_BOT_HTTP_PORT": wrong})
    bot = create_bot(Config(db_path=db_path), seed=lambda: 7)
    async with standin.connect(bot) as driver:
        assert (await driver.slash("game help", {})).answered
        assert bot.http_server is None
