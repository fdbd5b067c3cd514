"""Volfyirion's cards: the catalog, the solo Asset Deck (V-1.2) and the city cards (V-1.1)."""

from __future__ import annotations

from dataclasses import dataclass
from functools import lru_cache

from engine import data
from engine.core import Catalog, Entry, RuleError, is_cjk

ASSET_TYPES = ("command", "troop", "building")


@dataclass(frozen=True)
class Card:
    name: str
    type: str  # starting | command | building | troop | wonder | city
    colour: str | None
    cost: int | None
    qty: int
    cp: int | None
    bp: int | None
    kp: int | None
    defence: int | None
    secondary: str | None
    solo: bool

    @property
    def in_asset_deck(self) -> bool:
        """In the solo Asset Deck, so it can reach the Rage Pile (V-1.2, V-6)."""
        return self.solo and self.type in ASSET_TYPES

    @property
    def moves_volfyirion(self) -> bool:
        """Its secondary ability moves Volfyirion: taken out of the box for the solo game (V-1.2)."""
        return (self.secondary or "").endswith("MOVE_VOLF")


def _load() -> list[Card]:
    return [Card(**row) for row in data.load("volfyirion_cards")]


CARDS: tuple[Card, ...] = tuple(_load())
CATALOG: Catalog[Card] = Catalog((Entry(c.name, (), c) for c in CARDS), game="volfyirion")
# The cities alone, so that the beginning of a city's name ("akao") finds it among three-word names.
CITY_CATALOG: Catalog[Card] = Catalog((Entry(c.name, (), c) for c in CARDS if c.type == "city"), game="volfyirion")

# The solo Asset Deck: card name -> copies (62 cards: 35 Command, 15 Troop, 12 Building).
SOLO_ASSET_DECK: dict[str, int] = {c.name: c.qty for c in CARDS if c.in_asset_deck}
# The cards V-1.2 takes out of the box for the solo game.
SOLO_REMOVED: tuple[str, ...] = tuple(c.name for c in CARDS if not c.solo)
CITIES: dict[str, int] = {c.name: c.defence or 0 for c in CARDS if c.type == "city"}
DEFAULT_CITIES: tuple[str, str, str] = ("Tylaris", "Vahylea", "Alantar")
# The player's starting House Deck (V-1.5).
HOUSE_DECK: dict[str, int] = {"Prospector": 8, "Captain": 1, "Diviner": 1}


def card_by_id(card: object) -> Card:
    """The card of a catalog id (its English name, as the bot resolved it from what was typed with
    :func:`card_named`); anything else is ``volfyirion.unknown_card`` with suggestions, never a guess."""
    if isinstance(card, str) and card in CATALOG:
        return CATALOG[card]
    raise RuleError("volfyirion.unknown_card", query=str(card), suggestions=CATALOG.suggest(str(card)))


@lru_cache(maxsize=4096)
def find(query: str) -> Card | None:
    """Exact ids first (what buttons and the autoplayer send), then the catalog's forgiving fold, then the one
    card a part of a name or a single typo fits ("Elite Troper")."""
    if query in CATALOG:
        return CATALOG[query]
    found = CATALOG.resolve(query)
    return None if found is None else found[0]


def card_named(query: object) -> Card:
    """The card a player means by what they typed (any spelling; for the bot, before ``apply``); a miss is
    ``volfyirion.unknown_card`` (or ``ambiguous_card``, ``english_names``) with suggestions."""
    found = find(str(query)) if query is not None else None
    if found is None:
        several = CATALOG.ambiguous(str(query or ""))
        if several:
            raise RuleError("volfyirion.ambiguous_card", query=str(query), suggestions=several)
        if is_cjk(str(query or "")):  # the box names its cards in English only: say so, not "did you mean: —"
            raise RuleError("volfyirion.english_names", query=str(query))
        raise RuleError("volfyirion.unknown_card", query=str(query), suggestions=CATALOG.suggest(str(query or "")))
    return found


def city_named_card(query: object) -> Card:
    """The city card a player means by what they typed (forgiving: "akao" for Akao Uket), for the bot."""
    resolved = CITY_CATALOG.resolve(str(query)) if query is not None else None
    if resolved is None:
        raise _unknown_city(query)
    return resolved[0]


def city_by_id(city: object) -> Card:
    """The city card of a catalog id (its name); anything else is ``volfyirion.unknown_city``."""
    if isinstance(city, str) and city in CITY_CATALOG:
        return CITY_CATALOG[city]
    raise _unknown_city(city)


def _unknown_city(query: object) -> RuleError:
    near = CITY_CATALOG.suggest(str(query or ""), n=6)
    return RuleError("volfyirion.unknown_city", query=str(query), cities=list(near or CITIES))
