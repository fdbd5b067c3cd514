"""A game as seed + options + ordered actions, with undo by replay (python-chess's push/pop).

``GameRecord`` works for any game that provides the ``Rules`` protocol. States are immutable from
the outside: ``rules.apply`` returns a new state and never touches the one it was given, so a
refused action leaves everything as it was. Snapshots every ``snapshot_every`` actions keep undo and
resume of long games fast: undo replays only from the nearest snapshot.

    >>> from engine.core import Action, RuleError
    >>> from engine.volfyirion import RULES
    >>> game = GameRecord(RULES, {"difficulty": "normal"}, seed=1)
    >>> start = game.state.to_json()
    >>> game.push(Action("play", card="Elite Trooper", city="Tylaris")).waiting.key
    'volfyirion.waiting.turn'
    >>> try:
    ...     game.push(Action("fly"))
    ... except RuleError as err:
    ...     print(err.key, game.ply)  # refused: nothing changed
    volfyirion.unknown_action 1
    >>> game.pop().type, game.state.to_json() == start  # undo
    ('play', True)
    >>> game.push(Action("play", card="Elite Trooper", city="Tylaris")).state is game.state
    True
    >>> again = GameRecord.replay(RULES, game.options, game.seed, game.actions)
    >>> again.state.to_json() == GameRecord.from_json(RULES, game.to_json()).state.to_json() == game.state.to_json()
    True
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping
from typing import Generic, Protocol

from .errors import RuleError
from .model import JSON, Action, Event, JSONObject, S, State, Step, Waiting

__all__ = ["RECORD_VERSION", "GameRecord", "Rules", "State"]

RECORD_VERSION = 1


class Rules(Protocol[S]):
    """A game's rules over its own state type ``S``: ``RULES.apply(state, action) -> Step[S]``."""

    game: str
    version: int

    @property
    def result_names(self) -> Mapping[str, str | None]:
        """The result's fields in the game's own words, for its export (None: left out)."""

    def normalize_options(self, options: Mapping[str, object]) -> JSONObject: ...
    def new_game(self, options: Mapping[str, object], seed: int) -> Step[S]: ...
    def apply(self, state: S, action: Action) -> Step[S]: ...
    def state_from_json(self, data: JSON) -> S: ...
    # What to put back on the table to undo ``step`` (``action`` applied to ``before``): the action's own
    # instructions reversed, as events of the game's own keys (none when nothing on the table changes).
    def reversal(self, before: S, action: Action, step: Step[S]) -> tuple[Event, ...]: ...


class GameRecord(Generic[S]):
    """The live game: its current state, its actions and a few snapshots."""

    def __init__(self, rules: Rules[S], options: Mapping[str, object], seed: int, *, snapshot_every: int = 50,
                 start: tuple[int, S] | None = None) -> None:
        """``start``: the ``(ply, state)`` of a stored snapshot to go on from instead of a new game (the caller
        gives the actions from that ply on: bot/resume.py), so no new game is built to be thrown away."""
        self.rules = rules
        self.options = rules.normalize_options(options)
        self.seed = int(seed)
        self.snapshot_every = snapshot_every
        self.actions: list[Action] = []
        self.last: Step[S]
        if start is None:
            ply, self.last = 0, rules.new_game(self.options, self.seed)
        else:
            ply, state = start
            self.last = Step(state, (), state.waiting)
        self._snapshots: dict[int, S] = {ply: self.last.state}

    # -- reading ---------------------------------------------------------------------------------
    @property
    def state(self) -> S:
        return self.last.state

    @property
    def waiting(self) -> Waiting:
        return self.last.waiting

    @property
    def ply(self) -> int:
        """How many actions have been applied."""
        return len(self.actions)

    # -- playing ---------------------------------------------------------------------------------
    def push(self, action: Action) -> Step[S]:
        """Apply one action; on ``RuleError`` nothing changes."""
        if self.state.finished and action.type not in self.waiting.legal:
            raise RuleError("game.finished")
        step = self.rules.apply(self.state, action)
        self.actions.append(action)
        self.last = step
        if self.ply % self.snapshot_every == 0:
            self._snapshots[self.ply] = step.state
        return step

    def pop(self) -> Action:
        """Undo the last action: replay everything before it from the nearest snapshot."""
        if not self.actions:
            raise RuleError("game.nothing_to_undo")
        action = self.actions.pop()
        self._snapshots = {n: s for n, s in self._snapshots.items() if n <= self.ply}
        self.last = self._replay_to(self.ply)
        return action

    def reversal(self, action: Action) -> tuple[Event, ...]:
        """What to put back on the table now that ``action`` (the last one, just popped) is undone. Its step is
        applied again to the state before it (the engine is deterministic): a record resumed from a snapshot may
        not hold that step's events."""
        return tuple(self.rules.reversal(self.state, action, self.rules.apply(self.state, action)))

    def _replay_to(self, n: int) -> Step[S]:
        base = max(k for k in self._snapshots if k <= n)
        if base == 0:
            step = self.rules.new_game(self.options, self.seed)
        else:
            state = self._snapshots[base]
            step = Step(state, (), state.waiting)
        for action in self.actions[base:n]:
            step = self.rules.apply(step.state, action)
        return step

    # -- snapshots (the store keeps them) --------------------------------------------------------
    def snapshots(self) -> dict[int, S]:
        return dict(self._snapshots)

    def add_snapshot(self, ply: int, state: S) -> None:
        self._snapshots[ply] = state

    @classmethod
    def replay(
        cls,
        rules: Rules[S],
        options: Mapping[str, object],
        seed: int,
        actions: Iterable[Action | JSON],
        *,
        snapshot: tuple[int, JSON] | None = None,
        snapshot_every: int = 50,
    ) -> GameRecord[S]:
        """Rebuild a game from its log, starting from a stored snapshot ``(ply, state_json)`` if given."""
        record = cls(rules, options, seed, snapshot_every=snapshot_every)
        record.actions = [a if isinstance(a, Action) else Action.from_json(a) for a in actions]
        if snapshot is not None:
            ply, state_json = snapshot
            record._snapshots[ply] = rules.state_from_json(state_json)
        record.last = record._replay_to(record.ply)
        if record.ply and record.ply % snapshot_every == 0:
            record._snapshots[record.ply] = record.state
        return record

    # -- JSON --------------------------------------------------------------------------------------
    def to_json(self) -> JSONObject:
        return {
            "version": RECORD_VERSION,
            "game": self.rules.game,
            "rules_version": self.rules.version,
            "options": dict(self.options),
            "seed": self.seed,
            "actions": [a.to_json() for a in self.actions],
            "state": self.state.to_json(),
        }

    @classmethod
    def from_json(cls, rules: Rules[S], data: JSON) -> GameRecord[S]:
        if data.get("version") != RECORD_VERSION:
            raise RuleError("game.record_version", version=data.get("version"))
        if data.get("game") != rules.game:
            raise RuleError("game.record_game", game=data.get("game"))
        return cls.replay(rules, data["options"], data["seed"], data["actions"])
