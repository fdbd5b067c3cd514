"""The Seasons card catalog (base game, Enchanted Kingdom, Path of Destiny, promos) and card facts."""

from __future__ import annotations

from dataclasses import dataclass

from engine import data
from engine.core import Catalog, Entry, RuleError


@dataclass(frozen=True)
class Card:
    id: str
    set: str
    number: int | None
    name_en: str
    name_ja: str | None
    name_fr: str | None
    type: str  # "magic_item" | "familiar"
    prestige: int
    copies: int


def _build() -> Catalog[Card]:
    entries = []
    for row in data.load("seasons_cards"):
        card = Card(row["id"], row["set"], row.get("number"), row["name_en"], row.get("name_ja"),
                    row.get("name_fr"), row["type"], int(row["prestige"]), int(row["copies"]))
        names = tuple(n for n in (card.name_en, card.name_ja, card.name_fr) if n)
        if card.set == "base":
            names += (f"#{card.number}",)
        entries.append(Entry(card.id, names, card))
    # The expansions' cards are named in full (S-8.5); a fragment, a typo or a suggestion offers the base game's
    # first.
    return Catalog(entries, game="seasons", secondary=[e.id for e in entries if e.card.set != "base"])


CATALOG: Catalog[Card] = _build()
PRESTIGE: dict[str, int] = {c.id: c.prestige for c in CATALOG}
COPIES: dict[str, int] = {c.id: c.copies for c in CATALOG}
IS_ITEM: dict[str, bool] = {c.id: c.type == "magic_item" for c in CATALOG}
BASE_IDS: tuple[str, ...] = tuple(c.id for c in CATALOG if c.set == "base")

# The cards of the S-8 table, by id.
SYLLAS, FIGRIM, NARIA, KAIRN, AMSUG, LEWIS = "10", "11", "12", "16", "17", "21"
LEECH, ARGOS, TITUS, AIR_ELEMENTAL, FAIRIES, SID, ONYS = "33", "38", "39", "40", "41", "49", "50"
# Every card with a row in the S-8 table, in its order: the only cards whose effects cross to the other side.
S8_CARDS: tuple[str, ...] = (SYLLAS, FIGRIM, NARIA, KAIRN, AMSUG, LEWIS, LEECH, ARGOS, TITUS, AIR_ELEMENTAL, FAIRIES,
                             SID, ONYS)


def card_by_id(card: object) -> str:
    """``card`` when it is a card id as the catalog stores it (what the bot resolved from what was typed, with
    ``CATALOG.resolve``); anything else is ``seasons.card_unknown`` with suggestions, never a guess."""
    if isinstance(card, str) and card in CATALOG:
        return card
    raise RuleError("seasons.card_unknown", query=str(card), suggestions=CATALOG.suggest(str(card)))
