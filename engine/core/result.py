"""How a game ended, the same type for every game: ``Result``.

``outcome`` is from the player's side (won, lost, abandoned); ``player_score`` and ``opponent_score`` are the
two scores where the game has scores; ``length`` is how long the game went (turns, rounds); ``how`` names the
way it ended where a game has several; ``details`` holds what only one game knows (JSON values).

The JSON form is flat, without the empty parts::

    >>> from engine.core.result import Result
    >>> Result("won", length=3, how="attack", details={"cities_left": 2}).to_json()
    {'outcome': 'won', 'length': 3, 'how': 'attack', 'cities_left': 2}
    >>> Result.from_json({"outcome": "lost", "player_score": 80, "dummbot_score": 86}).opponent_score
    86

``from_json`` also reads what the bot stored before this type existed: ``dummbot_score`` is the opponent's
score and ``turn`` the length.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, field
from typing import Any

from .values import JSONObject, JSONValue

OUTCOMES = ("won", "lost", "abandoned")
_CORE = ("outcome", "player_score", "opponent_score", "length", "how")
# Names older records used for the core fields.
_OLD_NAMES = {"dummbot_score": "opponent_score", "turn": "length"}


@dataclass(frozen=True)
class Result:
    outcome: str
    player_score: int | None = None
    opponent_score: int | None = None
    length: int | None = None
    how: str | None = None
    details: Mapping[str, JSONValue] = field(default_factory=dict)
    # What a result card shows beyond these, typed by its game (Volfyirion's ``Ending``); never stored, never
    # compared: a result read back from the store has none.
    breakdown: object | None = field(default=None, compare=False, repr=False)

    def __post_init__(self) -> None:
        if self.outcome not in OUTCOMES:
            raise ValueError(f"unknown outcome {self.outcome!r}")
        clash = set(self.details) & (set(_CORE) | set(_OLD_NAMES))
        if clash:
            raise ValueError(f"details may not use the names of the fields: {sorted(clash)}")
        object.__setattr__(self, "details", dict(self.details))

    @property
    def won(self) -> bool:
        return self.outcome == "won"

    @property
    def margin(self) -> int | None:
        """The player's score minus the opponent's, where both have one."""
        if self.player_score is None or self.opponent_score is None:
            return None
        return self.player_score - self.opponent_score

    def to_json(self, names: Mapping[str, str | None] | None = None) -> JSONObject:
        """The JSON form; ``names`` renames fields to the game's own words (a Seasons export says
        ``dummbot_score``, a Volfyirion one ``turn``: the export of docs/playing.md; None leaves a field out), which
        ``from_json`` reads back."""
        names = names or {}
        out: JSONObject = {}
        for name in _CORE:
            key, value = names.get(name, name), getattr(self, name)
            if key is not None and value is not None:
                out[key] = value
        out.update(self.details)
        return out

    @classmethod
    def from_json(cls, data: Mapping[str, Any]) -> Result:
        core: dict[str, Any] = {}
        details: dict[str, Any] = {}
        for key, value in data.items():
            name = _OLD_NAMES.get(key, key)
            if name in _CORE:
                if name not in core or key == name:  # the current name wins over an old one
                    core[name] = value
            elif key != "details":
                details[key] = value
        details.update(data.get("details") or {})
        return cls(**core, details=details)

    @classmethod
    def abandoned(cls) -> Result:
        return cls("abandoned")
