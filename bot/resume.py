"""Resume a game from its latest snapshot and only the actions after it (issue 12).

A resumed ``GameRecord`` holds a ``TailLog`` as its ``actions``: the log's length is the game's ply, but
only the actions after the snapshot it was rebuilt from are in memory. Indexing, slicing from the
snapshot on, ``append`` and ``pop`` work as on a list; reaching into the part before the snapshot raises
``PrefixNotLoaded`` (the caller wanted the whole log: ``GameService.full_record`` reads it).

The snapshot is taken at ply ≤ ply − 1, so the tail always holds at least the last action: one undo (and
anything that looks at the last action) needs no further read. ``GameService.undo`` extends a record whose
tail has run out before popping again.
"""

from __future__ import annotations

from collections.abc import Iterator, Mapping, Sequence
from typing import Any, TypeVar, overload

from engine.core import Action, GameRecord, State
from engine.core.record import Rules

S = TypeVar("S", bound=State)


class PrefixNotLoaded(LookupError):
    """An action before the snapshot a record was resumed from was asked for."""


class TailLog:
    """The actions ``offset`` … ``offset + len(tail) − 1`` of a game, indexed as in the whole log."""

    __slots__ = ("offset", "tail")

    def __init__(self, offset: int, tail: list[Action]) -> None:
        self.offset = offset
        self.tail = tail

    def __len__(self) -> int:
        return self.offset + len(self.tail)

    def __bool__(self) -> bool:
        return len(self) > 0

    def _index(self, i: int) -> int:
        n = len(self)
        if i < 0:
            i += n
        if not 0 <= i < n:
            raise IndexError("action index out of range")
        if i < self.offset:
            raise PrefixNotLoaded(f"action {i} is before the snapshot at ply {self.offset}")
        return i - self.offset

    @overload
    def __getitem__(self, i: int) -> Action: ...
    @overload
    def __getitem__(self, i: slice) -> list[Action]: ...

    def __getitem__(self, i: int | slice) -> Action | list[Action]:
        if isinstance(i, slice):
            start, stop, step = i.indices(len(self))
            if step != 1:
                raise ValueError("only contiguous slices of a log")
            if start < self.offset and stop > start:
                raise PrefixNotLoaded(f"actions from {start} are before the snapshot at ply {self.offset}")
            return self.tail[start - self.offset:stop - self.offset] if stop > start else []
        return self.tail[self._index(i)]

    def __iter__(self) -> Iterator[Action]:
        if self.offset:
            raise PrefixNotLoaded(f"the log before ply {self.offset} was not read")
        return iter(self.tail)

    def append(self, action: Action) -> None:
        self.tail.append(action)

    def pop(self) -> Action:
        if not self.tail:
            if self.offset:
                raise PrefixNotLoaded(f"the action at ply {self.offset} was not read")
            raise IndexError("pop from an empty log")
        return self.tail.pop()

    def __repr__(self) -> str:
        return f"TailLog(offset={self.offset}, tail={len(self.tail)} actions)"


def loaded_from(record: GameRecord[State]) -> int:
    """The first ply whose action ``record`` holds (0: the whole log)."""
    actions = record.actions
    return actions.offset if isinstance(actions, TailLog) else 0


def resume(
    rules: Rules[S], options: Mapping[str, Any], seed: int, snapshot: tuple[int, Any] | None,
    tail: Sequence[Action | Any], *, snapshot_every: int,
) -> GameRecord[S]:
    """The record at ply ``snapshot ply + len(tail)``: the snapshot's state (or the new game when there is
    none) with ``tail`` applied. Same state, same last step and same snapshots ahead as a full replay."""
    actions = [a if isinstance(a, Action) else Action.from_json(a) for a in tail]
    start = (snapshot[0], rules.state_from_json(snapshot[1])) if snapshot is not None and snapshot[0] > 0 else None
    base = 0 if start is None else start[0]
    record = GameRecord(rules, options, seed, snapshot_every=snapshot_every, start=start)
    step = record.last
    for action in actions:
        step = rules.apply(step.state, action)
    # The record reads its log by len, [], append and pop only, which a TailLog serves (the engine names the
    # attribute a list: engine/core/record.py).
    record.actions = TailLog(base, actions) if base else actions  # type: ignore[assignment]
    record.last = step
    if record.ply and record.ply % snapshot_every == 0:
        record.add_snapshot(record.ply, step.state)
    return record
