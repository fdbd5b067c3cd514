"""Volfyirion's words: card names (its ids are its names), its command's spelling, the edges of its sentences."""

from __future__ import annotations

from ...i18n import _num
from ..plugin import Words


def card_name(lang: str, card_id: str) -> str | None:
    from engine.volfyirion.cards import find  # remembered there: each name is read once (issue 12)

    found = find(card_id)
    return None if found is None else found.name


VARIANTS = {
    "volfyirion.too_many_copies": lambda p: "none" if _num(p, "available") == 0 else None,
    "volfyirion.event.knowledge": lambda p: ("none" if _num(p, "wonders") == 0 else "no_kp" if _num(p, "kp") == 0
                                             else "no_seal" if _num(p, "sealing") == 0 else None),
    "volfyirion.event.no_rage_card": lambda p: "empty" if _num(p, "size") == 0 else None,
    "volfyirion.refill_confirm": lambda p: "none" if _num(p, "put_aside") == 0 else None,
    "volfyirion.waiting.turn": lambda p: "away" if p.get("token") == "rage_pile" else None,
    "action.volfyirion.end": lambda p: "reshuffled" if p.get("reshuffled") is True else None,
    # No Troop in the city: its defence is the printed one alone (no "+ Troop 0").
    "volfyirion.event.city_destroyed": lambda p: "no_troop" if _num(p, "troop_defence") == 0 else None,
    "action.volfyirion.play": lambda p: "no_city" if p.get("city") in (None, "") else None,
    "action.volfyirion.remove": lambda p: "no_city" if p.get("city") in (None, "") else None,
    "action.volfyirion.putaside": lambda p: "card" if p.get("card") not in (None, "") else None,
    # A Command card with no Knowledge points adds nothing to sealing: it does not "seal with 0" (ja-style, turn 4).
    "card.volfyirion.solo.command": lambda p: "no_kp" if _num(p, "kp") == 0 else None,
}

# A comma-separated text in a card parameter is a list of names. Its own parameters that carry card ids
# and closed words (``word.<value>``).
WORDS = Words(card_name=card_name, split_cards=True, card_params=frozenset({"troop", "new_card", "tied_cards"}),
              word_params=frozenset({"how", "paid", "token", "bonus", "type", "slot"}), variants=VARIANTS)
