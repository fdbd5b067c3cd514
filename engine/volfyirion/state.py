"""The state of a solo Volfyirion game: what the bot knows about the table (V-6).

The bot never sees the cards. It knows the cities and what stands in them, the player's Wonders,
the Rage Pile's size and its known top card, where the dragon token is, and every card it was told
about (in play, acquired, put aside, removed). ``apply`` clones a state before changing it, so a
state handed out is never touched again.
"""

from __future__ import annotations

from collections import Counter
from dataclasses import dataclass, field
from typing import Any, NotRequired, TypedDict, cast

from engine.core import JSON, RuleError, Waiting, fold
from engine.core.model import JSONObject
from engine.core.result import Result

from .cards import SOLO_ASSET_DECK
from .summary import (
    BonusReading,
    CityEnding,
    CitySummary,
    Difficulty,
    Ending,
    How,
    Outcome,
    Phase,
    RagePileSummary,
    Token,
    VolfyirionSummary,
    WonderSummary,
    troop_defence,
)

STATE_VERSION = 1

# Phases and the waiting key each one shows.
TURN, REVEAL, CHOOSE_TROOP, CHOOSE_BUILDING, FINISHED = "turn", "reveal", "choose_troop", "choose_building", "finished"
TURN_ACTIONS = ("play", "remove", "redeploy", "acquire", "reshuffle", "putaside", "refill", "end", "win")


# V-3.5: the solo Asset Deck (62 cards, V-1.2) less the Asset Row's 5 at setup (V-1.4).
ASSET_ROW = 5


class HouseCount(TypedDict):
    """The player's House Deck as far as the bot knows it (``house.py``): the cards of its cycle and those left to
    draw (None: not known), and why the count was lost."""

    cards: int | None
    draw: int | None
    why: NotRequired[str]
    fresh: NotRequired[list[str]]  # edition 3: acquired since the last reshuffle (in the discard pile)
    last: NotRequired[int | None]  # edition 3: the turn of the last reshuffle (None: none yet)
    quiet: NotRequired[bool]  # edition 3: the player acted in this turn (its prompt was read)


@dataclass(eq=True, slots=True)
class VolfState:
    options: JSON
    turn: int = 0
    # Each city: {"name", "defence" (printed), "destroyed", "troop", "building"} in defence order.
    cities: list[dict[str, Any]] = field(default_factory=list)
    rage_size: int = 0
    rage_top: str | None = None  # the known (face-up) top card, only after an attack (V-3.3)
    token: str = "lair"  # "lair" | "rage_pile"
    wonders: list[dict[str, Any]] = field(default_factory=list)  # {"name", "cost", "sealed"}, play order
    owned: list[str] = field(default_factory=list)  # acquired, not (yet) known to be in play
    put_aside: list[str] = field(default_factory=list)  # known put-aside cards (V-2.4)
    put_aside_unknown: int = 0  # cards put aside unseen
    removed: list[str] = field(default_factory=list)  # known removed cards (back in the box)
    phase: str = TURN
    # The attack being resolved: {"revealed": [...], "troops": n, "buildings": n} still to remove.
    pending: JSON | None = None
    outcome: JSON | None = None
    added: int = 0  # cards ever added to the Rage Pile
    taken: int = 0  # cards ever taken out of it
    # V-3.5: the cards left in the Asset Deck by the bot's count (its cards less those drawn from it that the
    # bot knows of: the Asset Row's 5, every Rage card, a replacement for every acquisition reported). An
    # upper bound: Row replacements are not reported. None in games of edition 1, which did not count.
    deck: int | None = None
    # The player's House Deck as far as the bot knows it (``house.py``); None in a game saved before the bot
    # counted it.
    house: HouseCount | None = None

    # -- copying -----------------------------------------------------------------------------------
    def clone(self) -> VolfState:
        return VolfState(
            options=self.options,  # never changed after normalize_options
            turn=self.turn,
            cities=[dict(c) for c in self.cities],
            rage_size=self.rage_size,
            rage_top=self.rage_top,
            token=self.token,
            wonders=[dict(w) for w in self.wonders],
            owned=list(self.owned),
            put_aside=list(self.put_aside),
            put_aside_unknown=self.put_aside_unknown,
            removed=list(self.removed),
            phase=self.phase,
            pending=None if self.pending is None else {**self.pending, "revealed": list(self.pending["revealed"])},
            outcome=None if self.outcome is None else dict(self.outcome),
            added=self.added,
            taken=self.taken,
            deck=self.deck,
            house=None if self.house is None else _copy_house(self.house),
        )

    # -- reading -----------------------------------------------------------------------------------
    @property
    def finished(self) -> bool:
        return self.phase == FINISHED

    @property
    def k(self) -> int:
        return Difficulty(self.options["difficulty"]).bonus  # Volfyirion's extra attack (V-5.3)

    @property
    def unknown_in_pile(self) -> int:
        """Rage cards nobody has seen: the pile minus its known top card."""
        return self.rage_size - (1 if self.rage_top else 0)

    def standing(self) -> list[dict[str, Any]]:
        return [c for c in self.cities if not c["destroyed"]]

    def in_play(self) -> Counter[str]:
        """Troops, Buildings and Wonders the player has in play."""
        found: Counter[str] = Counter()
        for city in self.cities:
            for slot in ("troop", "building"):
                if city[slot]:
                    found[city[slot]] += 1
        for wonder in self.wonders:
            found[wonder["name"]] += 1
        return found

    def known_elsewhere(self, *, count_owned: bool = True) -> Counter[str]:
        """Copies known to be out of the Asset Deck and the pile's unknown part (V-6)."""
        known = self.in_play()  # counted in place: every count here is positive, as ``+`` would keep them
        known.update(self.put_aside)
        known.update(self.removed)
        if count_owned:
            known.update(self.owned)
        if self.rage_top:
            known[self.rage_top] += 1
        return known

    def supply(self) -> int:
        """How many cards of the solo Asset Deck (62, V-1.2) can still be in the Asset Deck or among the
        pile's unseen cards: all of them less every copy known to be elsewhere, the unseen put-aside
        cards included."""
        return sum(self.unseen_deck().values()) - self.put_aside_unknown

    def deck_left(self) -> int:
        """At most this many cards are left in the Asset Deck; 0 (or less) means it is known to be empty."""
        return self.supply() - self.unknown_in_pile

    def deck_empty(self) -> bool:
        """The Asset Deck can hold no card: by what is known to be elsewhere (V-1.2) or by the count (V-3.5)."""
        return self.deck_left() <= 0 or (self.deck is not None and self.deck <= 0)

    def unseen_deck(self) -> Counter[str]:
        """The solo Asset Deck minus every copy known elsewhere: what an unknown Rage card can be."""
        known = self.known_elsewhere()
        return Counter({name: left for name, n in SOLO_ASSET_DECK.items() if (left := n - known[name]) > 0})

    @property
    def brief_turn(self) -> bool:
        """The turn prompt's short form: the long "draw your new hand first…" is said at the start of turn 1 and of
        the turn after a reshuffle, until the player acts (edition 3, which notes the turn of the last reshuffle;
        earlier games say it every time)."""
        house = self.house
        if house is None or "last" not in house:
            return False
        return bool(house.get("quiet")) or (self.turn > 1 and house["last"] != self.turn - 1)

    @property
    def waiting(self) -> Waiting:
        if self.phase == TURN:
            legal = TURN_ACTIONS + (("unseal",) if self.options.get("unseal") else ())
            params: dict[str, Any] = {"turn": self.turn, "rage_size": self.rage_size, "token": self.token}
            if self.brief_turn:
                params["brief"] = True
            return Waiting("volfyirion.waiting.turn", params, legal)
        if self.phase == REVEAL:
            return Waiting("volfyirion.waiting.reveal", {"count": self.unknown_in_pile}, ("reveal",))
        if self.phase in (CHOOSE_TROOP, CHOOSE_BUILDING):
            assert self.pending is not None  # an attack is being resolved in these phases
            slot = "troop" if self.phase == CHOOSE_TROOP else "building"
            cities = [c["name"] for c in self.standing() if c[slot]]
            key = "volfyirion.waiting.choose_troop" if slot == "troop" else "volfyirion.waiting.choose_building"
            params = {"remaining": self.pending[slot + "s"], "cities": cities}
            return Waiting(key, params, ("choose",))
        return Waiting("volfyirion.waiting.finished", {"turn": self.turn}, ())

    def summary(self) -> VolfyirionSummary:
        return VolfyirionSummary(
            turn=self.turn,
            difficulty=Difficulty(self.options["difficulty"]),
            bonus=BonusReading.read(self.options.get("bonus")),
            cities=tuple(CitySummary(c["name"], c["defence"], c["destroyed"], c["troop"], c["building"],
                                     troop_defence(c["troop"])) for c in self.cities),
            rage_pile=RagePileSummary(self.rage_size, self.rage_top),
            token=Token(self.token),
            wonders=tuple(WonderSummary(w["name"], w["cost"], w["sealed"]) for w in self.wonders),
            put_aside=tuple(self.put_aside),
            put_aside_unknown=self.put_aside_unknown,
            removed=tuple(self.removed),
            acquired=tuple(self.owned),
            phase=Phase(self.phase),
            cities_left=len(self.standing()),
        )

    def result(self) -> Result | None:
        """The stored outcome (``{"outcome", "turn", "how", "cities_left"}``) as the engine's ``Result``, with
        the result card's breakdown (each city standing or fallen)."""
        if self.outcome is None:
            return None
        o = self.outcome
        ending = Ending(Outcome(o["outcome"]), how=How(o["how"]) if o.get("how") else None, turn=o.get("turn"),
                        cities_left=o.get("cities_left"),
                        cities=tuple(CityEnding(c["name"], bool(c["destroyed"])) for c in self.cities))
        return Result(o["outcome"], length=o.get("turn"), how=o.get("how"),
                      details={"cities_left": o.get("cities_left")}, breakdown=ending)

    # -- JSON --------------------------------------------------------------------------------------
    def to_json(self) -> JSONObject:
        return {
            "version": STATE_VERSION,
            "options": dict(self.options),
            "turn": self.turn,
            "cities": [dict(c) for c in self.cities],
            "rage_size": self.rage_size,
            "rage_top": self.rage_top,
            "token": self.token,
            "wonders": [dict(w) for w in self.wonders],
            "owned": list(self.owned),
            "put_aside": list(self.put_aside),
            "put_aside_unknown": self.put_aside_unknown,
            "removed": list(self.removed),
            "phase": self.phase,
            "pending": None if self.pending is None else {**self.pending, "revealed": list(self.pending["revealed"])},
            "outcome": None if self.outcome is None else dict(self.outcome),
            "added": self.added,
            "taken": self.taken,
            "deck": self.deck,
            # Written only when counted, so that a state saved before the count writes back the same JSON (a
            # HouseCount holds JSON values; mypy takes no TypedDict for a dict of them).
            **({} if self.house is None else {"house": cast(JSONObject, dict(self.house))}),
        }

    @classmethod
    def from_json(cls, data: JSON) -> VolfState:
        if not isinstance(data, dict) or data.get("version") != STATE_VERSION:
            raise RuleError("volfyirion.state_version", version=str(data.get("version") if isinstance(data, dict) else None))
        fields = {k: v for k, v in data.items() if k != "version"}
        if isinstance(fields.get("options"), dict) and "edition" not in fields["options"]:
            # Saved before V-3.5 counted the Asset Deck (no ``deck`` either): a game of the rules' edition 1.
            fields["options"] = {**fields["options"], "edition": 1}
        try:
            return cls(**fields)
        except TypeError:  # a field missing or unknown: not a state this version wrote
            raise RuleError("volfyirion.state_version", version=str(data.get("version"))) from None


def _copy_house(house: HouseCount) -> HouseCount:
    copy = house.copy()
    if "fresh" in house:
        copy["fresh"] = list(house["fresh"])
    return copy


def city_named(cities: list[dict[str, Any]], query: Any) -> dict[str, Any] | None:
    """The city of ``cities`` a player means: its name (forgiving), its printed defence ("8"), or the beginning
    of one name only ("akao" for Akao Uket, "ty" for Tylaris); None otherwise."""
    key = fold(str(query))
    exact = [c for c in cities if fold(c["name"]) == key or str(c["defence"]) == key]
    if exact:
        return exact[0]
    begun = [c for c in cities if key and fold(c["name"]).startswith(key)]
    return begun[0] if len(begun) == 1 else None
