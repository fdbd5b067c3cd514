"""Plain value types shared by every game: actions, events, what the engine waits for.

All of them have a stable JSON form. Parameters named ``card`` hold one card id and ``cards`` a
list of card ids; the bot renders those as localized card names.

``Step`` is generic over the game's state (``Step[SeasonsState]``, what a game's ``Rules[S]`` returns), so whoever
holds one reads a typed state; what every state offers is the ``State`` protocol.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Any, Generic, Protocol, TypeVar

if TYPE_CHECKING:
    from .result import Result

from .values import JSON as JSON
from .values import JSONObject as JSONObject
from .values import JSONValue as JSONValue


@dataclass(frozen=True)
class Action:
    """Something the player (or the bot on the player's behalf) does: ``Action("die", face=...)``.

    >>> action = Action("played", card="10")
    >>> action.to_json()
    {'type': 'played', 'card': '10'}
    >>> Action.from_json(action.to_json()) == action
    True
    """

    type: str
    args: JSON = field(default_factory=dict)

    def __init__(self, type: str, args: JSON | None = None, /, **kwargs: Any) -> None:  # noqa: A002
        object.__setattr__(self, "type", type)
        object.__setattr__(self, "args", {**(args or {}), **kwargs})

    def get(self, name: str, default: Any = None) -> Any:
        return self.args.get(name, default)

    def to_json(self) -> JSONObject:
        return {"type": self.type, **self.args}

    @classmethod
    def from_json(cls, data: JSON) -> Action:
        data = dict(data)
        return cls(data.pop("type"), data)


@dataclass(frozen=True)
class Event:
    """Something that happened, in order, for the bot to show: ``Event("seasons.crystals_gained", n=3)``."""

    key: str
    params: JSON = field(default_factory=dict)

    def __init__(self, key: str, params: JSON | None = None, /, **kwargs: Any) -> None:
        object.__setattr__(self, "key", key)
        object.__setattr__(self, "params", {**(params or {}), **kwargs})

    def to_json(self) -> JSONObject:
        return {"key": self.key, "params": dict(self.params)}

    @classmethod
    def from_json(cls, data: JSON) -> Event:
        return cls(data["key"], data.get("params", {}))


@dataclass(frozen=True)
class Waiting:
    """What the engine needs before play can go on, and which action types it accepts now.

    ``key`` names the request for the bot (``seasons.waiting.reveal_summon``), ``params`` carry what
    the prompt needs (how many cards, which dice were rolled), ``legal`` lists the action types
    accepted in this state. A finished game waits for nothing: ``legal`` is empty.
    """

    key: str
    params: JSON = field(default_factory=dict)
    legal: tuple[str, ...] = ()

    def to_json(self) -> JSONObject:
        return {"key": self.key, "params": dict(self.params), "legal": list(self.legal)}

    @classmethod
    def from_json(cls, data: JSON) -> Waiting:
        return cls(data["key"], dict(data.get("params", {})), tuple(data.get("legal", ())))


class State(Protocol):
    """What every game's state offers the record and the bot; each game's own state class adds the rest."""

    @property
    def waiting(self) -> Waiting: ...
    @property
    def finished(self) -> bool: ...
    def to_json(self) -> JSONObject: ...
    def summary(self) -> object: ...  # the game's own summary type (what its renderers read)
    def result(self) -> Result | None: ...


S = TypeVar("S", bound=State)
S_co = TypeVar("S_co", bound=State, covariant=True)


@dataclass(frozen=True)
class Step(Generic[S_co]):
    """The result of applying one action: the new state, what happened, what comes next."""

    state: S_co
    events: tuple[Event, ...]
    waiting: Waiting
