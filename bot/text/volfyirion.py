"""Volfyirion's words: card names (its ids are its names), its command's spelling, the edges of its sentences."""

from __future__ import annotations

from functools import lru_cache

from ..i18n import TextHooks, _num

KIND = "volfyirion"


@lru_cache(maxsize=2048)  # the catalog never changes: each name is read once (issue 12)
def card_name(lang: str, card_id: str) -> str | None:
    from engine.volfyirion.cards import CATALOG

    found = CATALOG.resolve(card_id)
    return None if found is None else found[0].name


VARIANTS = {
    "volfyirion.too_many_copies": lambda p: "none" if _num(p, "available") == 0 else None,
    "volfyirion.event.knowledge": lambda p: "none" if _num(p, "wonders") == 0 else None,
    "action.volfyirion.play": lambda p: "no_city" if p.get("city") in (None, "") else None,
    "action.volfyirion.remove": lambda p: "no_city" if p.get("city") in (None, "") else None,
    "action.volfyirion.putaside": lambda p: "card" if p.get("card") not in (None, "") else None,
}

# The command keeps the spelling players type; a comma-separated text in a card parameter is a list of names.
HOOKS = TextHooks(command="volfyrion", card_name=card_name, split_cards=True, variants=VARIANTS)
