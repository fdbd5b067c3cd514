"""Many seeded games played at once through the stand-in, and the checks that nothing was lost or doubled.

A `ChannelGame` is one channel's game: its seeded script (the engines' random players), the log the
acknowledged commands make (`log`: what a sequential replay must reproduce) and the last reply (whose
buttons the next press uses). A command is *acknowledged* when the bot answered it publicly; a refusal is
ephemeral. Plain helpers (no fixtures) so the fault suites can use them too.
"""

from __future__ import annotations

import asyncio
import contextlib
import itertools
import json
import sqlite3
import statistics
import time
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from bot.sessions import summary_json
from bot.standin.driver import Driver, NoReply, Reply
from bot.standin.protocol import UPDATE_MESSAGE
from bot.standin.world import Channel, User
from engine.core import Action, GameRecord, RuleError
from engine.seasons import RULES as SEASONS
from engine.seasons.autoplay import play_game as seasons_game
from engine.volfyirion import RULES as VOLFYIRION
from engine.volfyirion.autoplay import play_game as volfyirion_game
from tests.support.standin import World
from tests.support.typed import slash_command

STALE = "The game has moved on since this message"
# A deadline no busy machine misses: these suites count what is lost or doubled, not how fast a burst of
# commands is answered (Discord's own 3 s deadline has its own tests: test_load_deadline.py).
PATIENT = 60.0
RULES = {"seasons": SEASONS, "volfyirion": VOLFYIRION}
# Buttons that stand for a scripted action: (game, action type) -> (op, the argument from the action).
BUTTON_FOR = {
    ("seasons", "roll"): ("roll", lambda a: None),
    ("seasons", "take"): ("take", lambda a: str(a.args["index"])),
    ("seasons", "end"): ("end", lambda a: None),
    ("volfyirion", "end"): ("end", lambda a: None),
    ("volfyirion", "reshuffle"): ("reshuffle", lambda a: None),
}


# -- the world ------------------------------------------------------------------------------------------
def crowded_world(channels: int) -> tuple[World, list[tuple[Channel, User]]]:
    """The default world plus `channels` places to play, every fourth a thread under the channel before
    it, each with its own player."""
    world = World.default()
    guild = world.guilds[0]
    places = []
    last_text: Channel | None = None
    for i in range(channels):
        if i % 4 == 3 and last_text is not None:
            channel = guild.add_channel(f"load-thread-{i}", parent=last_text)
        else:
            channel = last_text = guild.add_channel(f"load-{i}")
        places.append((channel, world.add_user(f"loader-{i}")))
    return world, places


def game_seeds(first: int = 1000):
    """The bot's seed function: a different seed for every game it starts."""
    counter = itertools.count(first)
    return lambda: next(counter)


def acknowledged(reply: Reply) -> bool:
    """The bot answered publicly: a public message of this reply is still there (a public "thinking…"
    the bot deleted to answer privately instead does not count)."""
    return any(not m.ephemeral for m in reply.messages)


def refused(reply: Reply) -> bool:
    """The bot answered, and only privately (a refusal, which changes nothing)."""
    messages = reply.messages
    return bool(messages) and all(m.ephemeral for m in messages)


# -- figures --------------------------------------------------------------------------------------------
@dataclass
class Tally:
    commands: int = 0
    acknowledged: int = 0
    refused: int = 0
    latencies: list[float] = field(default_factory=list)
    started: float = field(default_factory=time.monotonic)
    races: dict[str, int] = field(default_factory=dict)  # "both" / "one" / "none" applied -> count
    missed: dict[str, int] = field(default_factory=dict)  # what -> interactions with no answer in time
    aborted: int = 0  # channels that stopped at a missed answer (and were checked from the store)
    violations: list[str] = field(default_factory=list)  # kinds of the stand-in's refusals

    def count(self, reply: Reply, seconds: float) -> None:
        self.commands += 1
        self.latencies.append(seconds)
        if acknowledged(reply):
            self.acknowledged += 1
        elif refused(reply):
            self.refused += 1

    def percentile(self, p: float) -> float:
        if not self.latencies:
            return 0.0
        ordered = sorted(self.latencies)
        return ordered[min(len(ordered) - 1, int(p / 100 * len(ordered)))]

    def summary(self, games: int) -> str:
        elapsed = time.monotonic() - self.started
        p50 = statistics.median(self.latencies) if self.latencies else 0.0
        return (f"games={games} commands={self.commands} acknowledged={self.acknowledged} "
                f"refused={self.refused} elapsed={elapsed:.1f}s rate={self.commands / max(elapsed, 1e-9):.0f}/s "
                f"p50={p50 * 1000:.0f}ms p99={self.percentile(99) * 1000:.0f}ms "
                f"max={max(self.latencies, default=0) * 1000:.0f}ms races={self.races} missed={self.missed} "
                f"aborted={self.aborted} violations={len(self.violations)}")


# -- one channel's game ---------------------------------------------------------------------------------
@dataclass
class ChannelGame:
    index: int
    channel: Channel
    user: User
    kind: str
    options: dict[str, Any]
    seed: int | None = None
    script: list[Action] = field(default_factory=list)
    log: list[Action] = field(default_factory=list)  # what the acknowledged commands made of the game
    reply: Reply | None = None

    @property
    def who(self) -> dict[str, Any]:
        return {"user": self.user, "channel": self.channel}

    @property
    def pos(self) -> int:
        return len(self.log)

    def write_script(self, length: int) -> None:
        """The seeded random player's game for this seed (at least `length` actions when it lasts that long)."""
        assert self.seed is not None
        if self.kind == "seasons":
            actions, _ = seasons_game(self.options["difficulty"], self.options["dice"], self.seed)
        else:
            actions = volfyirion_game(self.seed, max_actions=max(length, 1), options=self.options).actions
        self.script = list(actions)

    def replay(self, actions: list[Action] | None = None) -> GameRecord:
        return GameRecord.replay(RULES[self.kind], self.options, self.seed, self.log if actions is None else actions)


def plan(i: int, channel: Channel, user: User) -> ChannelGame:
    """A mix: Seasons with table dice, Seasons with bot dice, Volfyirion, difficulties cycling."""
    kind = ("seasons", "seasons", "volfyirion")[i % 3]
    if kind == "seasons":
        options = {"difficulty": ("apprentice", "wizard", "archmage")[i // 3 % 3], "dice": ("table", "bot")[i % 2]}
    else:
        options = {"difficulty": ("easy", "normal", "hard")[i // 3 % 3]}
    return ChannelGame(i, channel, user, kind, options)


async def timed(tally: Tally, call, what: str = "command") -> Reply:
    began = time.monotonic()
    try:
        reply = await call
    except NoReply:
        tally.missed[what] = tally.missed.get(what, 0) + 1
        raise
    tally.count(reply, time.monotonic() - began)
    return reply


def buttons_message(reply: Reply) -> int | None:
    """The id of the reply's last message with buttons (where a press happens)."""
    for message in reversed(reply.messages):
        if message.buttons:
            return message.id
    return None


async def press(driver: Driver, custom_id: str, message: int | None, user: Any) -> Reply:
    """A press and its reply: the bot answers a press on the game's live reply by taking that message's controls
    away (UPDATE_MESSAGE, the answer), the new reply following it: waited for (by its arrival), as the player sees
    it next."""
    reply = await driver.press(custom_id, message=message, user=user)
    if reply.response_type == UPDATE_MESSAGE and not reply.rejections:
        await reply.until(lambda r: any(m.kind == "followup" for m in r.messages), PATIENT)
    return reply


def find_button(reply: Reply | None, op: str, arg: str | None = None) -> str | None:
    for b in reply.buttons if reply is not None else []:
        parts = b.get("custom_id", "").split(":")
        if len(parts) >= 4 and parts[3] == op and (arg is None or (len(parts) > 4 and parts[4] == arg)):
            return b["custom_id"]
    return None


def ply_of(custom_id: str) -> int:
    return int(custom_id.split(":")[2])


async def start(driver: Driver, game: ChannelGame, tally: Tally, *, length: int, db: str | Path | None = None) -> None:
    """Start the channel's game, learn its options from the export and its seed from the bot's database (the
    export withholds the seed while the game is played: ``db`` for a bot in another process), write its script."""
    name = "seasons start" if game.kind == "seasons" else "volfyrion start"
    reply = await timed(tally, driver.slash(name, dict(game.options), **game.who), "start")
    assert acknowledged(reply), f"start refused in {game.channel.name}: {reply.text}"
    game.reply = reply
    record = await export(driver, game, tally)
    assert record["seed"] is None, f"{game.channel.name}: the export of a game in progress gave its seed"
    game.seed = await stored_seed(driver, game.channel.id, db)
    game.options = record["options"]
    game.write_script(length)


async def stored_seed(driver: Driver, channel_id: int, db: str | Path | None) -> int:
    """The seed of the channel's game in progress: from the bot's own store when it runs in this process, else
    read from its database (an SQLite file or a postgresql:// DSN)."""
    sql = "SELECT seed FROM games WHERE channel_id = {} AND status = 'active'"
    if db is None:
        row = await driver.bot.service.active(channel_id)
        assert row is not None
        return row.seed
    if str(db).startswith("postgres"):
        import asyncpg

        conn = await asyncpg.connect(str(db))
        try:
            seed = await conn.fetchval(sql.format("$1"), channel_id)
        finally:
            await conn.close()
    else:
        with contextlib.closing(sqlite3.connect(f"{Path(db).resolve().as_uri()}?mode=ro", uri=True)) as conn:
            seed = conn.execute(sql.format("?"), (channel_id,)).fetchone()[0]
    return int(seed) & ((1 << 64) - 1)  # stored signed


def command_for(game: ChannelGame, action: Action) -> tuple[str, dict[str, Any]]:
    return slash_command(game.kind, action)


def send(driver: Driver, game: ChannelGame, action: Action, *, by_button: bool):
    """The interaction for `action`: a press of its button when asked for (or when it has no slash
    command, like taking a die), else its slash command."""
    op_arg = BUTTON_FOR.get((game.kind, action.type))
    custom_id = find_button(game.reply, op_arg[0], op_arg[1](action)) if op_arg else None
    if custom_id is not None and (by_button or action.type == "take"):
        return press(driver, custom_id, buttons_message(game.reply), game.user)
    name, options = command_for(game, action)
    return driver.slash(name, options, **game.who)


async def step(driver: Driver, game: ChannelGame, tally: Tally, *, by_button: bool) -> Reply:
    """Play the next scripted action; nobody else acts in the channel, so it must be acknowledged."""
    action = game.script[game.pos]
    reply = await timed(tally, send(driver, game, action, by_button=by_button), action.type)
    assert acknowledged(reply), f"{game.channel.name} {action.to_json()} refused: {reply.text}"
    game.log.append(action)
    game.reply = reply
    return reply


async def burst(driver: Driver, game: ChannelGame, tally: Tally, k: int) -> tuple[str, list[Reply]]:
    """Press the same button `k` times at once: the next action's button when it has one, else undo.
    Exactly one press may change the game; every other one is refused, ephemerally, as stale."""
    action = game.script[game.pos] if game.pos < len(game.script) else None
    op_arg = BUTTON_FOR.get((game.kind, action.type)) if action is not None else None
    custom_id = find_button(game.reply, op_arg[0], op_arg[1](action)) if op_arg else None
    op = "action" if custom_id else "undo"
    custom_id = custom_id or find_button(game.reply, "undo")
    assert custom_id is not None, f"no button to press in {game.channel.name}: {game.reply.buttons}"
    message = buttons_message(game.reply)
    replies = await asyncio.gather(*(
        timed(tally, press(driver, custom_id, message, game.user), "burst") for _ in range(k)))
    applied = [r for r in replies if acknowledged(r)]
    assert len(applied) == 1, f"{len(applied)} of {k} presses of {custom_id} applied in {game.channel.name}"
    for other in replies:
        if other is not applied[0]:
            assert refused(other) and STALE in other.text, other.text
    if op == "action":
        game.log.append(action)
    else:
        game.log.pop()
    game.reply = applied[0]
    return op, replies


# -- races: two different commands at once --------------------------------------------------------------
@dataclass(frozen=True)
class Op:
    """One racing command as the bot sees it: push `action` (None: undo), refused as stale unless the
    game is still at `ply` when it was a button."""

    action: Action | None
    ply: int | None = None


def serial_outcomes(game: ChannelGame, ops: list[Op]) -> list[tuple[list[bool], list[dict]]]:
    """For each order of `ops`: which were applied and the live log after them, as a sequential bot would."""
    outcomes = []
    for order in itertools.permutations(range(len(ops))):
        record = game.replay(list(game.log))
        applied = [False] * len(ops)
        for i in order:
            op = ops[i]
            if op.ply is not None and record.ply != op.ply:
                continue
            try:
                if op.action is None:
                    record.pop()
                else:
                    record.push(op.action)
            except (RuleError, IndexError, ValueError):
                continue
            applied[i] = True
        outcomes.append((applied, [a.to_json() for a in record.actions]))
    return outcomes


async def race(driver: Driver, game: ChannelGame, tally: Tally, rng_pick: int) -> tuple[list[Op], list[Reply]]:
    """The next scripted action and another command, at once. Afterwards the game must be what one of the
    two sequential orders gives: both or one applied, never half. Returns the ops and their replies."""
    action = game.script[game.pos]
    partners = [Op(None)]
    if game.kind == "seasons":
        partners.append(Op(Action("crystals", change=1)))
    else:
        partners.append(Op(Action("end")))
    partner = partners[rng_pick % len(partners)]
    first_id = None
    op_arg = BUTTON_FOR.get((game.kind, action.type))
    if action.type == "take":
        first_id = find_button(game.reply, op_arg[0], op_arg[1](action))
    first = Op(action, ply_of(first_id) if first_id else None)
    calls = [send(driver, game, action, by_button=action.type == "take")]
    if partner.action is None:
        calls.append(driver.slash("game undo", {}, **game.who))
    else:
        calls.append(driver.slash(*command_for(game, partner.action), **game.who))
    replies = list(await asyncio.gather(*(timed(tally, c, "race") for c in calls)))
    return [first, partner], replies


def check_race(game: ChannelGame, ops: list[Op], replies: list[Reply], exported: list[dict],
               tally: Tally | None = None) -> None:
    observed = [acknowledged(r) for r in replies]
    if tally is not None:
        key = {2: "both", 1: "one", 0: "none"}[sum(observed)]
        tally.races[key] = tally.races.get(key, 0) + 1
    possible = serial_outcomes(game, ops)
    assert (observed, exported) in possible, (
        f"{game.channel.name}: race of {[o.action.to_json() if o.action else 'undo' for o in ops]} "
        f"acknowledged {observed}, log tail {exported[len(game.log) - 2:]}, not any sequential order: "
        f"{[(a, log[len(game.log) - 2:]) for a, log in possible]}")


async def check_after_miss(driver: Driver, game: ChannelGame, tally: Tally) -> None:
    """A channel whose command got no answer in time: once the bot is quiet, the store holds every
    acknowledged action (an undo or up to two commands in flight may have landed too) and a state equal to
    the replay of its log. The channel's run stops there."""
    tally.aborted += 1
    for _ in range(5):
        await asyncio.sleep(3.0)
        try:
            record = await export(driver, game)
            break
        except NoReply:
            continue
    else:
        raise AssertionError(f"{game.channel.name}: no export answered in time after a missed answer")
    acked, stored = [a.to_json() for a in game.log], record["actions"]
    # Only an undo in flight may have taken back the last acknowledged action.
    assert stored[:len(acked) - 1] == acked[:-1], f"{game.channel.name}: an acknowledged action is lost"
    assert len(stored) <= len(acked) + 2, f"{game.channel.name}: more stored than was sent"
    check_record(game, record, [Action.from_json(a) for a in stored])


# -- checking -------------------------------------------------------------------------------------------
async def export(driver: Driver, game: ChannelGame, tally: Tally | None = None) -> dict[str, Any]:
    call = driver.slash("game export", {}, **game.who)
    reply = await (timed(tally, call, "export") if tally else call)
    files = [f for f in reply.files if f.filename.endswith(".json")]
    assert files, f"no export in {game.channel.name}: {reply.text}"
    return json.loads(files[0].data.decode("utf-8"))


def check_record(game: ChannelGame, record: dict[str, Any], log: list[Action] | None = None) -> None:
    """The bot's record equals a sequential replay of the acknowledged commands: the same log, the same
    state, the same result."""
    log = game.log if log is None else log
    replay = game.replay(log)
    assert record["actions"] == [a.to_json() for a in log], f"{game.channel.name}: the log differs"
    assert record["state"] == summary_json(replay.state.summary()), f"{game.channel.name}: the state differs from a replay"
    result = replay.state.result()
    names = getattr(replay.rules, "result_names", None)  # the export's words for the result's fields
    assert record["result"] == (None if result is None else result.to_json(names)), f"{game.channel.name}: the result differs"
