"""The fuzzing arena: the real bot on the stand-in with games in several states, and the loop that throws
generated payloads at it and checks every invariant after each one.

Channels: `#table` holds a Seasons game (bot dice, owned by `player`), the `session` thread a Volfyirion
game (owned by `haruka`), `#lobby` an abandoned Seasons game and nothing active. Users: the two owners, a
server manager (`admin`) and a stranger (`mallory`). Whenever an accepted input ends or abandons a game,
the channel gets a fresh one, so the fuzz keeps hitting live games.
"""

from __future__ import annotations

import asyncio
import contextlib
import json
from collections import Counter
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from fuzz_oracle import internal_error_text, lang_for, text_problems
from fuzz_payloads import Case, PayloadFuzzer, Pools

from bot.app import create_bot
from bot.commands.game import export_record
from bot.config import Config
from bot.standin.driver import Driver, Reply, pressable
from bot.store import GameNotFound, StoreError
from tests.support.standin import AUTOCOMPLETE, AUTOCOMPLETE_RESULT, MODAL, NoReply, StandIn, World

OWNERS = {
    "table": ("player", "seasons start", {"difficulty": "wizard", "dice": "bot"}),
    "session": ("haruka", "volfyrion start", {"difficulty": "normal"}),
}
KEEP_MESSAGES = 40  # the newest messages with buttons kept in the pool


def fuzz_world() -> World:
    world = World.default()
    world.add_user("mallory", locale="fr")
    return world


@dataclass
class Outcome:
    case: Case
    kind: str  # refused, public, accepted, opened_form, choices, dropped, internal, failed
    problems: list[str] = field(default_factory=list)


@dataclass
class Summary:
    cases: int = 0
    outcomes: Counter = field(default_factory=Counter)
    labels: Counter = field(default_factory=Counter)
    dropped: Counter = field(default_factory=Counter)  # label -> count of no-answer, no-change payloads
    internal: Counter = field(default_factory=Counter)  # label -> "something went wrong" answers
    failures: list[Outcome] = field(default_factory=list)

    def add(self, outcome: Outcome) -> None:
        self.cases += 1
        self.outcomes[outcome.kind] += 1
        root = ".".join(outcome.case.label.split(".")[:2])
        self.labels[root] += 1
        if outcome.kind == "dropped":
            self.dropped[outcome.case.label] += 1
        if outcome.kind == "internal":
            self.internal[outcome.case.label] += 1
        if outcome.problems:
            self.failures.append(outcome)

    def report(self) -> str:
        lines = [
            f"fuzzed {self.cases} interactions",
            "outcomes: " + ", ".join(f"{k}={v}" for k, v in sorted(self.outcomes.items())),
            "kinds: " + ", ".join(f"{k}={v}" for k, v in sorted(self.labels.items())),
        ]
        if self.dropped:
            lines.append(
                "dropped (no answer, nothing changed): "
                + ", ".join(f"{k}={v}" for k, v in self.dropped.most_common(12))
            )
        if self.internal:
            lines.append(
                "answered 'something went wrong' (payloads Discord never sends): "
                + ", ".join(f"{k}={v}" for k, v in self.internal.most_common(12))
            )
        lines.append(f"failures: {len(self.failures)}")
        for failure in self.failures[:15]:
            lines.append(
                f"  {failure.case.describe()}\n    -> {failure.kind}: {'; '.join(failure.problems)[:600]}"
            )
        return "\n".join(lines)


class Arena:
    def __init__(self, standin: StandIn, driver: Driver) -> None:
        self.standin, self.driver = standin, driver
        self.bot: Any = driver.bot
        self._games: dict[int, tuple[str, int]] = {}
        self._owners: dict[int, int] = {}  # every game seen, kept after /game forget deletes it

    # -- the world -------------------------------------------------------------------------------------------

    async def setup(self) -> None:
        lobby = await self.driver.slash(
            "seasons start", {"difficulty": "apprentice", "dice": "table"}, user="player", channel="lobby"
        )
        assert not lobby.ephemeral, lobby.text
        confirm = await self.driver.slash("game abandon", {}, user="player", channel="lobby")
        done = await self.driver.press(confirm.buttons[0]["custom_id"], user="player")
        assert not done.ephemeral, done.text
        await self.ensure_games()
        table = await self.driver.slash("game status", {}, user="player", channel="table")
        rolled = await self.driver.press(
            next(b["custom_id"] for b in table.buttons if ":roll" in b["custom_id"]), user="player"
        )
        assert not rolled.ephemeral, rolled.text

    async def ensure_games(self) -> None:
        for channel, (owner, command, options) in OWNERS.items():
            if await self.bot.store.active_game(self.standin.world.channel(channel).id) is None:
                reply = await self.driver.slash(command, options, user=owner, channel=channel)
                assert not reply.ephemeral, reply.text

    def pools(self) -> Pools:
        world = self.standin.world
        with_buttons = [m for m in self.standin.messages.values() if pressable(m.payload)][-KEEP_MESSAGES:]
        names = {c.id: c.name for g in world.guilds for c in g.channels}
        return Pools(
            schema=self.driver.schema,
            users=[u.name for u in world.users],
            channels=list(names.values()),
            games=dict(self._games),
            messages=with_buttons,
            message_channels={m.id: names.get(m.channel_id, "table") for m in with_buttons},
        )

    async def snapshot(self) -> dict[int, str]:
        """Every game's export (status, ply, actions, state, result), as JSON text, by game id."""
        games: dict[int, str] = {}
        self._games: dict[int, tuple[str, int]] = {}
        game_id, misses = 0, 0
        while misses < 20:  # ids are sequential; /game forget leaves holes
            game_id += 1
            try:
                row = await self.bot.store.game(game_id)
            except StoreError:
                misses += 1
                continue
            misses = 0
            self._owners[game_id] = row.owner_id
            record = await self.bot.service.full_record(row)
            data = export_record(row, record)
            data.pop("updated_at", None)
            games[game_id] = json.dumps(data, sort_keys=True, default=str)
            self._games[game_id] = (row.status, row.ply)
        return games

    def alive(self) -> bool:
        task = self.driver._task
        return not self.bot.is_closed() and task is not None and not task.done()

    # -- one case --------------------------------------------------------------------------------------------

    async def play(self, case: Case) -> Outcome:
        before = await self.snapshot()
        seen_violations = len(self.standin.violations)
        if case.message is not None and case.message.id not in self.standin.messages:
            self.standin.messages[case.message.id] = case.message
        timeout = 0.3 if case.malformed else 8.0  # the bot answers in milliseconds
        try:
            reply: Reply | None = await self.driver._run(
                case.type, case.data, case.user, case.channel, case.locale, case.message, 0.01, timeout
            )
        except NoReply:
            reply = None
        await asyncio.sleep(0)
        after = await self.snapshot()
        changed = [g for g in set(before) | set(after) if before.get(g) != after.get(g)]
        outcome = self._judge(case, reply, changed)
        outcome.problems += await self._strangers(case, changed)
        if not self.alive():
            outcome.problems.append("the bot stopped running")
        violations = self.standin.violations[seen_violations:]
        if violations:
            outcome.problems += [
                f"stand-in violation {v.kind}: {v.message} {v.errors or ''}"[:300] for v in violations
            ]
        if outcome.kind == "accepted":
            await self.ensure_games()
            await self.snapshot()
        if outcome.problems and outcome.kind not in ("failed",):
            outcome.kind = "failed"
        return outcome

    async def _strangers(self, case: Case, changed: list[int]) -> list[str]:
        """Only a game's owner changes it (a server manager may abandon it)."""
        user = self.standin.world.user(case.user)
        problems = []
        for game_id in changed:
            try:
                row = await self.bot.store.game(game_id)
            except GameNotFound:  # deleted by /game forget: only its owner may do that
                if self._owners.get(game_id) != user.id:
                    problems.append(f"{case.user} deleted game {game_id}, which belongs to someone else")
                continue
            if row.owner_id != user.id and not (user.manager and row.status == "abandoned"):
                problems.append(f"{case.user} changed game {game_id}, which belongs to someone else")
        return problems

    def _judge(self, case: Case, reply: Reply | None, changed: list[int]) -> Outcome:
        if reply is None or not reply.answered:
            if case.malformed and not changed:
                return Outcome(case, "dropped")
            problems = ["no answer"] + ([f"games {changed} changed without an answer"] if changed else [])
            return Outcome(case, "failed", problems)
        if case.type == AUTOCOMPLETE:
            return self._judge_choices(case, reply, changed)
        if reply.response_type == MODAL:
            problems = [f"opening a form changed games {changed}"] if changed else []
            return Outcome(case, "opened_form", problems)
        text = reply.text
        refused = reply.ephemeral
        problems = text_problems(text, case.locale, case.typed, refused=refused)
        if refused and changed and ":forget:" in str((case.data or {}).get("custom_id", "")) \
                and self._forgot(case, changed):
            # /game forget's confirmation answers privately by design: the caller's own games are gone.
            return Outcome(case, "accepted", problems)
        if refused and changed:
            problems.append(f"a refused input changed games {changed}")
        if refused and text.strip() == internal_error_text(lang_for(case.locale)).strip():
            if case.discord_valid:
                problems.append("a payload Discord can send was answered 'something went wrong'")
            return Outcome(case, "internal", problems)
        if changed and not refused:
            return Outcome(case, "accepted", problems)
        return Outcome(case, "refused" if refused else "public", problems)

    def _forgot(self, case: Case, changed: list[int]) -> bool:
        """The press confirmed /game forget: every changed game was the presser's and is now deleted."""
        user = self.standin.world.user(case.user)
        return all(self._owners.get(g) == user.id and g not in self._games for g in changed)

    def _judge_choices(self, case: Case, reply: Reply, changed: list[int]) -> Outcome:
        problems = [f"autocomplete changed games {changed}"] if changed else []
        if reply.response_type != AUTOCOMPLETE_RESULT:
            problems.append(
                f"autocomplete answered with response type {reply.response_type}: {reply.text[:200]!r}"
            )
            return Outcome(case, "failed", problems)
        for choice in reply.choices or []:
            problems += text_problems(
                str(choice.get("name", "")), case.locale, case.typed, refused=False, language=False
            )
        return Outcome(case, "choices", problems)

    async def run(self, seed: int, count: int, *, known: Any = None) -> Summary:
        fuzzer = PayloadFuzzer(seed)
        summary = Summary()
        await self.snapshot()
        for number in range(count):
            case = fuzzer.case(number, self.pools())
            outcome = await self.play(case)
            if known is not None and outcome.problems and (bug := known(outcome)):
                outcome.kind = f"known:{bug}"
                outcome.problems = []
            summary.add(outcome)
            if not self.alive():
                break
        return summary


@contextlib.asynccontextmanager
async def arena(db_path: Path, *, seed: int = 7):
    """An `Arena` ready to fuzz: stand-in, bot, games set up."""
    async with StandIn(fuzz_world()) as standin:
        bot = create_bot(Config(db_path=db_path), seed=lambda: seed)
        async with standin.connect(bot) as driver:
            place = Arena(standin, driver)
            await place.setup()
            yield place
