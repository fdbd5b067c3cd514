"""Issue 11, point 8: weeks of uptime keep memory flat.

Many channels play at once, round after round (Volfyirion: reshuffle, end of turn, the attack's reveal form
opened and closed without submitting, two undos — so each game lives on indefinitely), and after every
round what the bot keeps in memory is counted: channel locks (none once the commands are done), cached
games (never more than the cap), forms discord.py keeps open (they leave after their timeout), the memory of
interaction ids (never more than its limit). The counts are asserted, round by round, not a time.
`make test` runs the short form (over four hundred commands); `make soak` the long one. The traced memory is
compared too: it must not grow by half a MiB once the first rounds have filled the caches. Two things keep
that comparison deterministic: every bounded cache is full at the baseline (the test lowers the caps, and
asserts they are reached), and only what the bot holds is counted — an allocation made by the harness (the
stand-in, its aiohttp server, pytest and the log records it captures, this file) is left out by the file it
was made in.
"""

from __future__ import annotations

import asyncio
import dataclasses
import gc
import sys
import tracemalloc
from pathlib import Path

import pytest

from bot import pictures
from bot.app import create_bot
from bot.config import Config
from bot.standin.driver import pressable
from tests.support.standin import StandIn

sys.path.insert(0, str(Path(__file__).resolve().parent))
from load_helpers import PATIENT, crowded_world

CHANNELS = 20  # more channels than cached games, so the cache is full and games are loaded again every round
CACHE_CAP = 12
IDS_KEPT = 160  # interaction ids: the start and 4 a round a channel (not the press that opens a form): full in round 1
SHOWN = 30  # messages whose last picture the bot remembers: each round adds two a channel, full in round 0
WARM = 1  # the last round before memory is compared: every cache is full after it (asserted)
# Allocations made in these files are the harness's: the stand-in (its server, its gateway), the aiohttp server
# under it (the bot only uses aiohttp's client), pytest, the log records pytest keeps, this test. By the
# allocating line alone: a deeper traceback slows every allocation enough to miss Discord's deadlines.
HARNESS = ("*/bot/standin/*", "*/aiohttp/web*", "*/_pytest/*", "*/logging/*", str(Path(__file__).parent / "*"),
           tracemalloc.__file__)


def _button(reply, op: str) -> str:
    found = [b["custom_id"] for b in reply.buttons if b.get("custom_id", "").split(":")[3:4] == [op]]
    assert found, f"no {op} button in: {reply.text[:300]} (response {reply.response_type}, rejections {reply.rejections}, {len(reply.activities)} activities: {[a.kind for a in reply.activities]})"
    return found[0]


async def _cycle(driver, channel, user, peaks: dict[str, int]) -> int:
    """One channel's round: 5 interactions; the form the reveal button opens is never submitted."""
    who = {"channel": channel, "user": user}
    await driver.slash("volfyrion reshuffle", {}, settle=False, **who)
    attack = await driver.slash("volfyrion end", {}, settle=False, **who)
    assert not attack.ephemeral, attack.text
    opened = await driver.press(_button(attack, "reveal"), message=attack.original, user=user, settle=False)
    assert opened.modal is not None, f"{opened.text[:300]} ({opened.response_type}, {opened.rejections})"
    peaks["forms"] = max(peaks["forms"], _modals(driver.bot))
    for _ in range(2):
        undone = await driver.slash("game undo", {}, settle=False, **who)
        assert not undone.ephemeral, undone.text
    return 5


def _forget_the_harness(standin, driver) -> None:
    """The stand-in keeps every message and interaction for the tests to read (and its gateway the last
    dispatches, for a RESUME), and the driver every form it saw: drop them between rounds, so the traced memory
    is the bot's (and discord.py's) alone."""
    # Each game's newest reply stays live (issue 35: the next reply takes its controls away, through the webhook of
    # the interaction that sent it): Discord still holds it and that token, so the stand-in keeps those two.
    live = {m_id: m for m_id, m in standin.messages.items() if pressable(m.payload)}
    tokens = {r.token: r for r in standin.interactions.values() if r.original_id in live}
    for kept in (standin.messages, standin.interactions, standin._by_token, driver._modals):
        kept.clear()
    standin.messages.update(live)
    standin._by_token.update(tokens)
    standin.interactions.update({r.id: r for r in tokens.values()})
    standin.requests.clear()
    for session in standin._sessions.values():  # the last 1,000 dispatches each keeps for a RESUME
        session.sent.clear()


def _bots_own() -> int:
    """The bytes still held that the bot (with discord.py, aiohttp's client, aiosqlite) allocated — not the
    harness's, whatever it happened to log or keep this run."""
    gc.collect()
    snapshot = tracemalloc.take_snapshot().filter_traces(
        [tracemalloc.Filter(False, pattern) for pattern in HARNESS])
    return sum(stat.size for stat in snapshot.statistics("filename"))


def _caches_full(bot) -> None:
    """At the baseline every bounded memory is at its cap, so the rounds after it can only replace entries."""
    assert bot.service.cached_games() == CACHE_CAP
    assert len(bot.controller.deliveries) == IDS_KEPT
    assert len(bot.controller.pictures._shown) == SHOWN


async def _bounded(limit: asyncio.Semaphore, work) -> int:
    async with limit:
        return await work


def _modals(bot) -> int:
    return len(bot._connection._view_store._modals)


async def _until(condition, limit: float = 60.0) -> None:
    loop = asyncio.get_running_loop()
    give_up = loop.time() + limit
    while not condition():
        assert loop.time() < give_up, "the awaited event never came"
        await asyncio.sleep(0.02)


async def _run(tmp_path: Path, *, channels: int, rounds: int, figures, monkeypatch) -> None:
    world, places = crowded_world(channels)
    config = dataclasses.replace(Config(db_path=tmp_path / "bot.sqlite3"), form_seconds=0.2)
    bot = create_bot(config, seed=lambda: 4242)
    bot.service.max_cached = CACHE_CAP
    bot.controller.deliveries.limit = IDS_KEPT
    monkeypatch.setattr(pictures, "SHOWN", SHOWN)
    limit = asyncio.Semaphore(40)  # many channels, at most 40 of them busy at once (as in the load test)
    commands = 0
    peaks = {"locks": 0, "cached": 0, "forms": 0, "ids": 0}
    try:
        async with StandIn(world, deadline=PATIENT) as standin, standin.connect(bot, timeout=60.0) as driver:
            for channel, user in places:
                started = await driver.slash("volfyrion start", {"difficulty": "normal"}, settle=False, channel=channel,
                                             user=user)
                assert not started.ephemeral, started.text
                commands += 1
            # Traced from the first round on: what the starts left in the bounded memories is gone by the
            # baseline (asserted full of the rounds' entries), and what the bot holds for good is in neither count.
            tracemalloc.start()
            sizes = []
            for n in range(rounds):
                done = await asyncio.gather(*(_bounded(limit, _cycle(driver, c, u, peaks)) for c, u in places))
                commands += sum(done)
                service = bot.service
                # Nothing is under way now: no channel lock is left, whatever the number of channels (the
                # service keeps a lock only for a channel with a change under way).
                assert len(service._locks) == 0, len(service._locks)
                assert service.cached_games() <= CACHE_CAP
                assert len(bot.controller.deliveries) <= IDS_KEPT
                peaks["locks"] = max(peaks["locks"], len(service._locks))
                peaks["cached"] = max(peaks["cached"], service.cached_games())
                peaks["ids"] = max(peaks["ids"], len(bot.controller.deliveries))
                assert _modals(bot) <= channels  # at most this round's, never the rounds before
                await _until(lambda: _modals(bot) == 0)  # closed forms leave after their timeout
                await bot.controller.pictures.idle()  # the pictures following this round's replies (issue 12)
                assert bot.controller.pictures.pending == bot.controller.pictures.failed == 0
                _forget_the_harness(standin, driver)
                assert len(bot.controller.pictures._shown) <= SHOWN
                if n == WARM:
                    _caches_full(bot)
                if n in (WARM, rounds - 1):
                    sizes.append(_bots_own())
            assert standin.violations == []
    finally:
        tracemalloc.stop()
    assert commands == channels * (1 + 5 * rounds)
    # Bytes, not a time: after the first rounds warm the caches, the process holds what it held.
    assert sizes[-1] - sizes[0] < 512 * 1024, f"memory grew by {(sizes[-1] - sizes[0]) // 1024} KiB"
    assert peaks["forms"] > 0  # forms were open: they did leave, they were not never there
    grown = sizes[-1] - sizes[0]
    figures(f"memory ({'soak' if rounds > 10 else 'short'}): channels={channels} rounds={rounds} "
            f"commands={commands} peak locks after a round={peaks['locks']} cached games<={peaks['cached']} "
            f"(cap {CACHE_CAP}) open forms<={peaks['forms']} (0 after timeout) ids kept<={peaks['ids']} "
            f"(limit {IDS_KEPT}) pictures remembered<={SHOWN} the bot's traced memory round {WARM + 1} -> last: {sizes[0] // 1024} KiB -> "
            f"{sizes[-1] // 1024} KiB ({grown / 1024:+.0f} KiB)")


async def test_memory_stays_flat_across_many_channels_and_hundreds_of_commands(tmp_path, figures, monkeypatch):
    await _run(tmp_path, channels=CHANNELS, rounds=4, figures=figures, monkeypatch=monkeypatch)


@pytest.mark.soak
async def test_soak_memory_stays_flat_over_thousands_of_commands(tmp_path, figures, monkeypatch):
    await _run(tmp_path, channels=120, rounds=30, figures=figures, monkeypatch=monkeypatch)
