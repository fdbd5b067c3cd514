"""Plain value types shared by every game: actions, events, what the engine waits for.

All of them have a stable JSON form. Parameters named ``card`` hold one card id and ``cards`` a
list of card ids; the bot renders those as localized card names.

``Step`` is generic over the game's state (``Step[SeasonsState]``, what a game's ``Rules[S]`` returns), so whoever
holds one reads a typed state; what every state offers is the ``State`` protocol.
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping
from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Any, Generic, NoReturn, Protocol, TypeVar, cast

if TYPE_CHECKING:
    from .result import Result

from .values import JSON as JSON
from .values import JSONObject as JSONObject
from .values import JSONValue as JSONValue


def freeze(value: Any) -> Any:
    """A JSON value made immutable and hashable: lists become ``FrozenList`` and objects ``Params``, all the way down."""
    if isinstance(value, Params):
        return value
    if isinstance(value, Mapping):
        return Params(value)
    if isinstance(value, (list, tuple)):
        return FrozenList(freeze(v) for v in value)
    return value


class FrozenList(list[Any]):
    """A JSON list, frozen: a list that refuses every change and hashes, so whatever reads a payload's list as a
    list (``isinstance``, ``==``, JSON) still does."""

    __slots__ = ()

    def _read_only(self, *args: Any, **kwargs: Any) -> NoReturn:
        raise TypeError("this list is read-only (an action's, event's or wait's values never change)")

    __setitem__ = __delitem__ = __iadd__ = __imul__ = _read_only
    append = extend = insert = remove = pop = clear = sort = reverse = _read_only

    def __hash__(self) -> int:  # type: ignore[override]
        return hash(tuple(self))

    def __reduce__(self) -> tuple[type[FrozenList], tuple[list[Any]]]:
        return FrozenList, (list(self),)

    def __copy__(self) -> FrozenList:
        return self

    def __deepcopy__(self, memo: dict[int, Any]) -> FrozenList:
        return self


def thaw(value: Any) -> JSONValue:
    """The JSON form of a frozen value: tuples as lists and ``Params`` as dicts, all the way down."""
    if isinstance(value, Mapping):
        return {str(k): thaw(v) for k, v in value.items()}
    if isinstance(value, (list, tuple)):
        return [thaw(v) for v in value]
    return cast(JSONValue, value)


class Params(dict[str, Any]):
    """The named values of an action, an event or a wait: read-only and hashable, so an ``Action`` is a value.

    A dict that refuses every change (so whatever reads a payload as a dict, JSON included, still does), with
    lists kept as ``FrozenList`` and objects as ``Params``; ``to_json`` gives plain JSON back. The typed readers
    (``text``, ``number``, ``texts``, ``flag``) are what the bot reads a payload with.

    >>> p = Params(card="10", cards=["1", "2"], face={"dots": 2})
    >>> p["cards"], p["face"]["dots"], p.texts("cards"), p.number("count", 1)
    (['1', '2'], 2, ('1', '2'), 1)
    >>> p["cards"] == ["1", "2"] == p["cards"], p == {"card": "10", "cards": ["1", "2"], "face": {"dots": 2}}
    (True, True)
    >>> hash(p) == hash(Params(p.to_json())), p.to_json()
    (True, {'card': '10', 'cards': ['1', '2'], 'face': {'dots': 2}})
    """

    __slots__ = ()

    def __init__(self, values: Mapping[str, Any] | None = None, /, **kwargs: Any) -> None:
        super().__init__((str(k), freeze(v)) for k, v in {**(values or {}), **kwargs}.items())

    def _read_only(self, *args: Any, **kwargs: Any) -> NoReturn:
        raise TypeError("Params are read-only: make a new one (Params(old, name=value) or old | {...})")

    __setitem__ = __delitem__ = __ior__ = _read_only
    clear = pop = popitem = setdefault = update = _read_only

    def __hash__(self) -> int:  # type: ignore[override]
        return hash(frozenset(self.items()))

    def __or__(self, other: Mapping[str, Any]) -> Params:  # type: ignore[override]
        """A copy with ``other``'s values over these (as ``dict | dict``)."""
        return Params({**self, **other})

    def __reduce__(self) -> tuple[type[Params], tuple[JSONObject]]:
        return Params, (self.to_json(),)

    def __copy__(self) -> Params:
        return self

    def __deepcopy__(self, memo: dict[int, Any]) -> Params:
        return self

    def to_json(self) -> JSONObject:
        return {k: thaw(v) for k, v in self.items()}

    def text(self, name: str, default: str = "") -> str:
        """A string value (a card id, a city, a code); ``default`` when it is absent or empty."""
        value = self.get(name)
        return default if value in (None, "") else str(value)

    def number(self, name: str, default: int = 0) -> int:
        """A whole number (a count, a score); ``default`` when it is absent or empty."""
        value = self.get(name)
        return default if value in (None, "") else int(value)

    def texts(self, name: str) -> tuple[str, ...]:
        """A list of strings (card ids, cities); empty when absent."""
        value = self.get(name)
        return () if value in (None, "") else tuple(str(v) for v in value)

    def flag(self, name: str, default: bool = False) -> bool:
        """A yes/no value; ``default`` when it is absent."""
        return bool(self.get(name, default))

    def entries(self, name: str) -> tuple[Params, ...]:
        """A list of objects (the dice rolled, each with its face); empty when absent."""
        value = self.get(name)
        return tuple(v for v in value or () if isinstance(v, Params))

    def count(self, name: str) -> int | None:
        """A whole number when one is there (a reveal's count), else None."""
        value = self.get(name)
        return None if value in (None, "") else int(value)


@dataclass(frozen=True)
class Action:
    """Something the player (or the bot on the player's behalf) does: ``Action("die", face=...)``.

    An action is a value: equal actions hash alike, and its ``args`` cannot be changed.

    >>> action = Action("played", card="10")
    >>> action.to_json()
    {'type': 'played', 'card': '10'}
    >>> Action.from_json(action.to_json()) == action, hash(action) == hash(Action("played", {"card": "10"}))
    (True, True)
    """

    type: str
    args: Params = field(default_factory=Params)

    def __init__(self, type: str, args: Mapping[str, Any] | None = None, /, **kwargs: Any) -> None:
        object.__setattr__(self, "type", type)
        object.__setattr__(self, "args", Params({**(args or {}), **kwargs}))

    def get(self, name: str, default: Any = None) -> Any:
        return self.args.get(name, default)

    def to_json(self) -> JSONObject:
        return {"type": self.type, **self.args.to_json()}

    @classmethod
    def from_json(cls, data: JSON) -> Action:
        data = dict(data)
        return cls(data.pop("type"), data)


@dataclass(frozen=True)
class Event:
    """Something that happened, in order, for the bot to show: ``Event("seasons.crystals_gained", n=3)``."""

    key: str
    params: Params = field(default_factory=Params)

    def __init__(self, key: str, params: Mapping[str, Any] | None = None, /, **kwargs: Any) -> None:
        object.__setattr__(self, "key", key)
        object.__setattr__(self, "params", Params({**(params or {}), **kwargs}))

    def to_json(self) -> JSONObject:
        return {"key": self.key, "params": self.params.to_json()}

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
    params: Params = field(default_factory=Params)
    legal: tuple[str, ...] = ()

    def __init__(self, key: str, params: Mapping[str, Any] | None = None, legal: Iterable[str] = ()) -> None:
        object.__setattr__(self, "key", key)
        object.__setattr__(self, "params", Params(params))
        object.__setattr__(self, "legal", tuple(legal))

    def to_json(self) -> JSONObject:
        return {"key": self.key, "params": self.params.to_json(), "legal": list(self.legal)}

    @classmethod
    def from_json(cls, data: JSON) -> Waiting:
        return cls(data["key"], data.get("params", {}), data.get("legal", ()))


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
