"""Load and concurrency through the stand-in: many channels at once, bursts of one button, racing commands.

Every channel plays its own seeded game (Seasons with table or bot dice, Volfyirion) while all the others
play theirs. Halfway, one button is pressed many times at once (exactly one press may count); at the end
the next action races another command. Then each game's `/game export` must equal a sequential replay of
the commands the bot acknowledged: nothing lost, nothing doubled, never half an action.
"""

from __future__ import annotations

import asyncio
import random
import sys
from pathlib import Path

import pytest

from bot.app import create_bot
from bot.config import Config
from bot.standin.driver import NoReply
from engine.core import Action
from tests.support.standin import StandIn

sys.path.insert(0, str(Path(__file__).resolve().parent))
from load_helpers import (
    PATIENT,
    ChannelGame,
    Tally,
    burst,
    check_after_miss,
    check_race,
    check_record,
    crowded_world,
    export,
    game_seeds,
    plan,
    race,
    refused,
    start,
    step,
)


async def play_channel(driver, game: ChannelGame, tally: Tally, *, commands: int, burst_k: int,
                       rng: random.Random, think: tuple[float, float] = (0.0, 0.0)) -> int:
    """One channel's whole run; returns how many presses were refused in its burst (0 without one).
    A command left unanswered past Discord's deadline stops the channel (counted in `tally.missed`), after
    checking that what the store holds is still whole."""
    try:
        return await _play_channel(driver, game, tally, commands=commands, burst_k=burst_k, rng=rng, think=think)
    except NoReply:
        await check_after_miss(driver, game, tally)
        return 0


async def _play_channel(driver, game: ChannelGame, tally: Tally, *, commands: int, burst_k: int,
                        rng: random.Random, think: tuple[float, float]) -> int:
    if game.seed is None:
        await start(driver, game, tally, length=commands + 2)
    burst_at = commands // 2
    stale = 0
    for n in range(commands):
        if think[1]:
            await asyncio.sleep(rng.uniform(*think))  # a player reading the reply
        if game.pos >= len(game.script) - 1:
            break  # keep one action for the race
        if n == burst_at and burst_k > 1:
            _, replies = await burst(driver, game, tally, burst_k)
            stale = sum(refused(r) for r in replies)
            continue
        await step(driver, game, tally, by_button=rng.random() < 0.4)
    check_record(game, await export(driver, game, tally))
    # The race, last: afterwards the game no longer follows its script.
    ops, replies = await race(driver, game, tally, rng.randrange(2))
    record = await export(driver, game, tally)
    check_race(game, ops, replies, record["actions"], tally)
    check_record(game, record, [Action.from_json(a) for a in record["actions"]])
    return stale


async def run_load(tmp_path: Path, *, channels: int, commands: int, burst_k: int, bound: int,
                   seed: int, ramp: float = 0.0, think: tuple[float, float] = (0.0, 0.0),
                   ) -> tuple[Tally, list[ChannelGame], list[int]]:
    """Every channel's game at once (at most `bound` at a time); `ramp` seconds between channels' starts,
    `think` seconds (a range) between a reply and the player's next command."""
    world, places = crowded_world(channels)
    games = [plan(i, channel, user) for i, (channel, user) in enumerate(places)]
    tally = Tally()
    rng = random.Random(seed)
    rngs = [random.Random(rng.getrandbits(32)) for _ in games]
    limit = asyncio.Semaphore(bound)

    async with StandIn(world, deadline=PATIENT) as standin:
        bot = create_bot(Config(db_path=tmp_path / "load.sqlite3"), seed=game_seeds(seed * 1000))
        async with standin.connect(bot, timeout=30.0) as driver:
            async def one(game: ChannelGame, r: random.Random) -> int:
                await asyncio.sleep(game.index * ramp)
                async with limit:
                    return await play_channel(driver, game, tally, commands=commands, burst_k=burst_k, rng=r,
                                              think=think)

            # The games start one after another, so each channel's seed — hence its script and every count
            # below — is the same on every run, however the machine schedules the concurrent play.
            for game in games:
                await start(driver, game, tally, length=commands + 2)
            stale = await asyncio.gather(*(one(g, r) for g, r in zip(games, rngs, strict=True)))
        tally.violations = [v.kind for v in standin.violations]
        assert standin.unknown_routes == []
    return tally, games, stale


async def test_forty_channels_at_once_lose_and_double_nothing(tmp_path, figures):
    tally, games, stale = await run_load(tmp_path, channels=40, commands=15, burst_k=10, bound=40, seed=1)
    figures(f"load (short): {tally.summary(len(games))} bursts={sum(n > 0 for n in stale)}")
    assert tally.missed == {} and tally.violations == []
    assert {g.kind for g in games} == {"seasons", "volfyirion"}
    assert {g.options.get("dice") for g in games if g.kind == "seasons"} == {"table", "bot"}
    assert sum(len(g.log) for g in games) >= 40 * 8
    # Every burst had 9 of its 10 presses refused (checked in `burst`); every channel whose script is long
    # enough got to its burst — a count fixed by the seeds, not by the machine's speed.
    reach = sum(len(g.script) - 1 > 15 // 2 for g in games)
    assert sum(n == 9 for n in stale) == reach and reach >= 30
    assert tally.refused >= sum(stale)
    assert sum(tally.races.values()) == 40 and tally.races.get("none", 0) == 0


async def test_a_burst_of_presses_applies_exactly_one(tmp_path):
    world, places = crowded_world(2)
    async with StandIn(world, deadline=PATIENT) as standin:
        bot = create_bot(Config(db_path=tmp_path / "burst.sqlite3"), seed=game_seeds(77))
        async with standin.connect(bot, timeout=30.0) as driver:
            tally = Tally()
            # Seasons with bot dice: the roll button, a die's button, then "My turn is over", each pressed 25
            # times at once.
            game = plan(1, *places[0])
            assert game.options["dice"] == "bot"
            await start(driver, game, tally, length=10)
            for _ in range(3):
                op, replies = await burst(driver, game, tally, 25)
                assert op == "action" and len(replies) == 25
            assert [a.type for a in game.log] == ["roll", "take", "end"]
            # Undo pressed 25 times at once takes back one action, not more.
            del game.script[3:]  # nothing scripted left to press: the burst presses undo
            op, _ = await burst(driver, game, tally, 25)
            assert op == "undo" and [a.type for a in game.log] == ["roll", "take"]
            check_record(game, await export(driver, game))
        assert standin.violations == []


@pytest.mark.parametrize("partner", [0, 1])
async def test_two_commands_racing_in_one_channel_are_serialised(tmp_path, partner):
    world, places = crowded_world(6)
    async with StandIn(world, deadline=PATIENT) as standin:
        bot = create_bot(Config(db_path=tmp_path / "race.sqlite3"), seed=game_seeds(300))
        async with standin.connect(bot, timeout=30.0) as driver:
            tally = Tally()
            games = [plan(i, *places[i]) for i in range(3)]  # table dice, bot dice, Volfyirion
            for game in games:
                await start(driver, game, tally, length=12)
                for _ in range(6):
                    await step(driver, game, tally, by_button=False)
                for _ in range(5):  # each pair races again from where the last race left it
                    ops, replies = await race(driver, game, tally, partner)
                    record = await export(driver, game)
                    check_race(game, ops, replies, record["actions"], tally)
                    game.log = [Action.from_json(a) for a in record["actions"]]
                    check_record(game, record)
                    game.reply = await driver.slash("game status", {}, settle=False, **game.who)
                    if game.pos >= len(game.script) or game.script[:game.pos] != game.log:
                        break  # off script (a correction landed): the race is checked, stop here
        assert standin.violations == []


@pytest.mark.soak
async def test_soak_two_hundred_games_thousands_of_commands(tmp_path, figures):
    tally, games, stale = await run_load(tmp_path, channels=240, commands=25, burst_k=10, bound=240, seed=2,
                                         ramp=0.1, think=(4.0, 12.0))
    by_kind = {k: tally.violations.count(k) for k in set(tally.violations)}
    figures(f"load (soak): {tally.summary(len(games))} bursts={sum(n > 0 for n in stale)} "
            f"violations by kind={by_kind}")
    # What held: every channel was checked against a replay (aborted ones from the store, above).
    assert len(games) >= 200 and tally.commands >= 5000
    assert sum(n == 9 for n in stale) >= 200 - tally.aborted
    # Discord's 3 s: every interaction answered in time.
    assert tally.missed == {} and tally.violations == []
