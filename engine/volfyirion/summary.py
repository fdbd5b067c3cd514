"""What the bot shows of a Volfyirion game: ``VolfState.summary()``, typed, and the closed sets it uses.

The summary is read by attribute: each reply, the board picture and the card lookup read these dataclasses, and
what they say that a rule decides (a city's defence now, which cities fell, where a card's copies are, the result
card's breakdown) is computed here, in the engine. ``to_json`` is the ``state`` of ``/game export`` (the same
fields as ever); ``from_json`` reads it back. The enums are ``StrEnum``s: their values are the words the JSON
and the locale keys have always used.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass
from enum import StrEnum
from typing import Any

from engine.core import JSON
from engine.core.result import Result

from .cards import CATALOG, Card


class Difficulty(StrEnum):
    """The game's difficulties and Volfyirion's extra attack at each (V-5.3, ``d``): the one list the options, the
    commands and the bot's words read (each value is also a ``word.<value>`` of the game's locale files)."""

    EASY = "easy", 0
    NORMAL = "normal", 1
    HARD = "hard", 2

    bonus: int

    # (``bonus``'s default only lets ``Difficulty("hard")``, a lookup by value, read as a call: Enum never makes a
    # member from it.)
    def __new__(cls, value: str, bonus: int = 0) -> Difficulty:
        member = str.__new__(cls, value)
        member._value_ = value
        member.bonus = bonus
        return member


# Games recorded before the readings were renamed said ``official`` for the per-city table: they
# replay unchanged as ``per_city``.
BONUS_ALIASES = {"official": "per_city"}


class BonusReading(StrEnum):
    """V-5.3: the rules text this bot follows (``flat``) or the English rulebook's table (``per_city``)."""

    FLAT = "flat"
    PER_CITY = "per_city"

    @classmethod
    def read(cls, value: object) -> BonusReading:
        """The reading of a game's options; games recorded before the readings were renamed said ``official``
        for the per-city table, and the oldest said nothing (the flat formula)."""
        return cls("flat" if value is None else BONUS_ALIASES.get(str(value), str(value)))


class Token(StrEnum):
    """Where the dragon token is: on its Lair, or on the Rage Pile (it attacks at the end of the turn)."""

    LAIR = "lair"
    RAGE_PILE = "rage_pile"


class Phase(StrEnum):
    TURN = "turn"
    REVEAL = "reveal"
    CHOOSE_TROOP = "choose_troop"
    CHOOSE_BUILDING = "choose_building"
    FINISHED = "finished"


class Slot(StrEnum):
    """What an attack still has the player remove (V-4.1): a Troop or a Building."""

    TROOP = "troop"
    BUILDING = "building"


class Outcome(StrEnum):
    """How a game ended for the player (``engine.core.Result.outcome``); ``abandoned`` is the bot's word for a
    game given up, never the engine's."""

    WON = "won"
    LOST = "lost"
    ABANDONED = "abandoned"


class How(StrEnum):
    """How a game ended: the player's win (V-5.1) or the last city falling (V-5.2)."""

    ATTACK = "attack"
    SUBJUGATE = "subjugate"
    CITIES_DESTROYED = "cities_destroyed"


class Place(StrEnum):
    """Where a copy of a card is known to be (the card lookup's lines, ``card.volfyirion.where.<place>``)."""

    YOUR_CITY = "your_city"
    CITY_DESTROYED = "city_destroyed"
    CITY = "city"  # a Troop or Building standing in one of the cities
    RAGE_TOP = "rage_top"
    WONDERS = "wonders"
    PUT_ASIDE = "put_aside"
    REMOVED = "removed"


@dataclass(frozen=True, slots=True)
class CitySummary:
    name: str
    defence: int  # printed
    destroyed: bool
    troop: str | None
    building: str | None
    # V-4.4: the defence the Troop adds (None without a Troop). Not in the JSON: the catalog says it.
    troop_defence: int | None = None

    @property
    def defence_now(self) -> int:
        """V-4.4: the printed defence plus the Troop stationed in the city."""
        return self.defence + (self.troop_defence or 0)

    def to_json(self) -> JSON:
        return {"name": self.name, "defence": self.defence, "destroyed": self.destroyed, "troop": self.troop,
                "building": self.building}

    @classmethod
    def from_json(cls, data: Mapping[str, Any]) -> CitySummary:
        troop = data.get("troop")
        return cls(name=data["name"], defence=int(data["defence"]), destroyed=bool(data["destroyed"]), troop=troop,
                   building=data.get("building"), troop_defence=troop_defence(troop))


def troop_defence(troop: str | None) -> int | None:
    """V-4.4: the defence a Troop adds to its city (``attack.city_defence``); None without a Troop or for a name
    the catalog does not know."""
    return None if troop is None or troop not in CATALOG else CATALOG[troop].defence or 0


@dataclass(frozen=True, slots=True)
class RagePileSummary:
    size: int
    top: str | None  # the known (face-up) top card, only after an attack (V-3.3)


@dataclass(frozen=True, slots=True)
class WonderSummary:
    name: str
    cost: int
    sealed: bool

    def to_json(self) -> JSON:
        return {"name": self.name, "cost": self.cost, "sealed": self.sealed}


@dataclass(frozen=True, slots=True)
class Whereabouts:
    """Where the copies of one card are known to be: ``(place, count, city or None)`` for each place holding
    any, in the lookup's order, and how many copies the bot has not seen (decks, hands, discard piles)."""

    places: tuple[tuple[Place, int, str | None], ...]
    unseen: int


@dataclass(frozen=True, slots=True)
class VolfyirionSummary:
    turn: int
    difficulty: Difficulty
    bonus: BonusReading
    cities: tuple[CitySummary, ...]  # in defence order
    rage_pile: RagePileSummary
    token: Token
    wonders: tuple[WonderSummary, ...]  # in the order played
    put_aside: tuple[str, ...]
    put_aside_unknown: int
    removed: tuple[str, ...]
    acquired: tuple[str, ...]
    phase: Phase
    cities_left: int

    # -- what the replies ask ------------------------------------------------------------------------
    @property
    def finished(self) -> bool:
        return self.phase is Phase.FINISHED

    @property
    def choosing(self) -> Slot | None:
        """What the attack waits for the player to remove (V-4.1), or None."""
        return {Phase.CHOOSE_TROOP: Slot.TROOP, Phase.CHOOSE_BUILDING: Slot.BUILDING}.get(self.phase)

    @property
    def standing(self) -> tuple[CitySummary, ...]:
        return tuple(c for c in self.cities if not c.destroyed)

    @property
    def fallen(self) -> tuple[CitySummary, ...]:
        return tuple(c for c in self.cities if c.destroyed)

    @property
    def draw_may_reshuffle(self) -> bool:
        """V-3.4: while the token is on its Lair a reshuffle sends it to the pile (and so attacks)."""
        return self.token is Token.LAIR

    def in_play(self, *, troops_only: bool = False) -> list[str]:
        """The player's cards in play, each place once: the Troops and Buildings in the order of the cities, then
        the Wonders; ``troops_only``: the Troops alone."""
        if troops_only:
            return [c.troop for c in self.cities if c.troop]
        return [name for c in self.cities for name in (c.troop, c.building) if name] + [w.name for w in self.wonders]

    def whereabouts(self, name: str, copies: int) -> Whereabouts:
        """Each place the bot knows a copy of ``name`` to be (V-6), of the ``copies`` in the box."""
        places: list[tuple[Place, int, str | None]] = []

        def found(place: Place, count: int, city: str | None = None) -> None:
            if count:
                places.append((place, count, city))

        for city in self.cities:
            if city.name == name:
                found(Place.CITY_DESTROYED if city.destroyed else Place.YOUR_CITY, 1)
            found(Place.CITY, [city.troop, city.building].count(name), city.name)
        found(Place.RAGE_TOP, int(self.rage_pile.top == name))
        found(Place.WONDERS, [w.name for w in self.wonders].count(name))
        found(Place.PUT_ASIDE, self.put_aside.count(name))
        found(Place.REMOVED, self.removed.count(name))
        return Whereabouts(tuple(places), max(copies - sum(n for _, n, _ in places), 0))

    # -- JSON (/game export's ``state``) ----------------------------------------------------------------
    def to_json(self) -> JSON:
        return {
            "turn": self.turn,
            "difficulty": str(self.difficulty),
            "bonus": str(self.bonus),
            "cities": [c.to_json() for c in self.cities],
            "rage_pile": {"size": self.rage_pile.size, "top": self.rage_pile.top},
            "token": str(self.token),
            "wonders": [w.to_json() for w in self.wonders],
            "put_aside": list(self.put_aside),
            "put_aside_unknown": self.put_aside_unknown,
            "removed": list(self.removed),
            "acquired": list(self.acquired),
            "phase": str(self.phase),
            "cities_left": self.cities_left,
        }

    @classmethod
    def from_json(cls, data: Mapping[str, Any]) -> VolfyirionSummary:
        pile = data["rage_pile"]
        return cls(
            turn=int(data["turn"]),
            difficulty=Difficulty(data["difficulty"]),
            bonus=BonusReading.read(data.get("bonus")),
            cities=tuple(CitySummary.from_json(c) for c in data["cities"]),
            rage_pile=RagePileSummary(int(pile["size"]), pile.get("top")),
            token=Token(data["token"]),
            wonders=tuple(WonderSummary(w["name"], int(w["cost"]), bool(w.get("sealed"))) for w in data["wonders"]),
            put_aside=tuple(data.get("put_aside", ())),
            put_aside_unknown=int(data.get("put_aside_unknown", 0)),
            removed=tuple(data.get("removed", ())),
            acquired=tuple(data.get("acquired", ())),
            phase=Phase(data["phase"]),
            cities_left=int(data.get("cities_left", sum(1 for c in data["cities"] if not c["destroyed"]))),
        )


@dataclass(frozen=True, slots=True)
class CityEnding:
    name: str
    destroyed: bool


@dataclass(frozen=True, slots=True)
class Ending:
    """The result card's breakdown (the engine's ``Result.breakdown``): the outcome, how and on which turn the
    game ended, how many cities stood, and each city standing or fallen — empty for a result read back from the
    store, which kept only the count."""

    outcome: Outcome
    how: How | None
    turn: int | None
    cities_left: int | None
    cities: tuple[CityEnding, ...] = ()

    @property
    def standing(self) -> tuple[str, ...]:
        return tuple(c.name for c in self.cities if not c.destroyed)

    @property
    def fallen(self) -> tuple[str, ...]:
        return tuple(c.name for c in self.cities if c.destroyed)

    @classmethod
    def of(cls, result: Result) -> Ending:
        """The breakdown a ``Result`` carries, or what its stored fields say (an older or stored result)."""
        if isinstance(result.breakdown, Ending):
            return result.breakdown
        left = result.details.get("cities_left")
        return cls(Outcome(result.outcome), how=None if result.how is None else How(result.how), turn=result.length,
                   cities_left=int(left) if isinstance(left, int | float | str) else None)


class SoloRole(StrEnum):
    """How the solo mode treats a card (the card lookup's ``card.volfyirion.solo.<role>``)."""

    REMOVED = "removed"  # its secondary ability moves Volfyirion: back in the box before the game (V-1.2)
    COMMAND = "command"  # can reach the Rage Pile; in an attack, its cost and Knowledge points (V-4.3, V-4.6)
    TROOP = "troop"  # can reach the Rage Pile; in an attack, removes a Troop (V-4.1)
    BUILDING = "building"  # can reach the Rage Pile; in an attack, removes a Building (V-4.2)
    STARTING = "starting"  # a House Deck card: never in the Rage Pile
    WONDER = "wonder"  # never in the Rage Pile; sealed by Knowledge points (V-4.6)
    CITY = "city"  # one of the six cities (V-1.1)


def solo_role(card: Card) -> SoloRole:
    """Which of the solo mode's rules ``card`` falls under: V-1.2 first, else its type."""
    return SoloRole.REMOVED if card.moves_volfyirion else SoloRole(card.type)
