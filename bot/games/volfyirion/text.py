"""Volfyirion's words: card names (its ids are its names), its command's spelling, the edges of its sentences."""

from __future__ import annotations

from collections import Counter
from typing import Any

from ...i18n import _num
from ..plugin import Words


def card_name(lang: str, card_id: str) -> str | None:
    from engine.volfyirion.cards import find  # remembered there: each name is read once (issue 12)

    found = find(card_id)
    return None if found is None else found.name


def render(lang: str, name: str, value: Any, params: dict[str, Any]) -> str | None:
    """Its own parameters: the Wonders one attack passed over, each name once with its copies counted and its cost
    (V-4.6): "Void Fluid ×2 (cost 4), Primal Beast (cost 4)"."""
    if name != "wonders_passed" or not isinstance(value, (list, tuple)):
        return None
    from engine.volfyirion.cards import CATALOG

    ja = lang == "ja"
    said = []
    for card, n in Counter(value).items():
        cost = CATALOG[card].cost if card in CATALOG else None
        copies = "" if n == 1 else f"×{n}" if ja else f" ×{n}"
        price = "" if cost is None else f"（コスト{cost}）" if ja else f" (cost {cost})"
        said.append(f"{card}{copies}{price}")
    return ("、" if ja else ", ").join(said)


VARIANTS = {
    "volfyirion.too_many_copies": lambda p: "none" if _num(p, "available") == 0 else None,
    "volfyirion.event.knowledge": lambda p: (("none_no_kp" if _num(p, "kp") == 0 else "none") if _num(p, "wonders") == 0
                                             else "no_kp" if _num(p, "kp") == 0
                                             else "no_seal" if _num(p, "sealing") == 0 else None),
    "volfyirion.event.no_rage_card": lambda p: "empty" if _num(p, "size") == 0 else None,
    "volfyirion.refill_confirm": lambda p: "none" if _num(p, "put_aside") == 0 else None,
    # Token away: the short reminder that it attacks; on a turn with nothing new, the short prompt (edition 3).
    "volfyirion.waiting.turn": lambda p: ("away" if p.get("token") == "rage_pile" else "brief" if p.get("brief")
                                          else None),
    "volfyirion.event.wonders_passed_over": lambda p: "one" if _num(p, "count") == 1 else None,
    "volfyirion.event.house_corrected": lambda p: "uncounted" if p.get("draw") is None else None,
    # Nothing left to draw is said in words, not as "0 cards left" (ja-style, turn 4 rule 6).
    "volfyirion.next.known_now": lambda p: "empty" if _num(p, "draw") == 0 else None,
    # A city with no Troop: its printed defence alone, not "with its Troop".
    "field.volfyirion.city_value": lambda p: "no_troop" if p.get("troop") in (None, "—") else None,
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
              word_params=frozenset({"how", "paid", "token", "bonus", "type", "slot"}), variants=VARIANTS,
              render=render)
