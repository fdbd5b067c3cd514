"""Volfyirion's reports by taps (issue 35, point 4): `play`, `acquire`, `remove` and `redeploy` as three selects of
the turn's reply where the bot can narrow the card (the cards you can have in hand, the Wonders not yet known
elsewhere, your cards in play or in your House Deck — removing and moving share a select: a reply has five rows
and its buttons take two), and the Rage Pile's reveal as a form of selects, one per type of Asset card.

Each pick builds the action its typed command builds (card names, city names), so replay, export and undo cannot
tell them apart. A select's value carries catalog and city indexes: `3.1` is card 3 in city 1 (`3` a Wonder), and
in the shared select the command first (`remove:3.1`, `redeploy:3.2`)"""

from __future__ import annotations

from collections.abc import Collection
from typing import TYPE_CHECKING

from engine.core import Action, Catalog, RuleError
from engine.volfyirion.cards import HOUSE_DECK

from ....buttons import FORM_ITEMS, MENU_OPTIONS, SELECT, FieldSpec, SelectSpec
from ....i18n import card_name, t

if TYPE_CHECKING:
    from engine.volfyirion.cards import Card
    from engine.volfyirion.state import VolfState

KIND = "volfyirion"
PICKS = ("play", "remove", "redeploy", "acquire")
YOURS = "yours"  # one select for removing one of your cards and moving a Troop: a reply has room for three selects
RAGE_TYPES = ("command", "troop", "building")  # the Asset Deck's types (20, 9 and 9 cards: each fits a select)
TYPED = "cards"  # the text field, named as the typed form's single field was
RAGE = "rage_"  # the selects: ``rage_command``…


def _catalog() -> Catalog[Card]:
    from engine.volfyirion import CATALOG

    return CATALOG


def _option(lg: str, name: str, value: str, city: str | None = None) -> tuple[str, str, str | None]:
    label = card_name(lg, KIND, name) or name
    return (t(lg, "pick.volfyirion.in_city", card=label, city=city) if city else label), value, None


def _said(lg: str, key: str, name: str, value: str, city: str | None = None) -> tuple[str, str, str | None]:
    """An option of the ``yours`` select: what was done, in words (``pick.volfyirion.removed``…)."""
    label = card_name(lg, KIND, name) or name
    return t(lg, key + (".city" if city and key.endswith("removed") else ""), card=label, city=city), value, None


def turn_pickers(state: VolfState, lg: str, legal: Collection[str] = PICKS) -> list[SelectSpec]:
    """The turn's selects, most needed first, for the reports ``legal`` allows; one with no candidate is left out
    (the command's autocomplete). Each lists its most likely cards first and keeps 25."""
    offered = {"play": _play(state, lg) if "play" in legal else [],
               "acquire": _acquire(state, lg) if "acquire" in legal else [],
               YOURS: _yours(state, lg, legal)}
    specs = []
    for kind, options in offered.items():
        # Two copies of a card in the same place are one choice (Discord refuses a select's repeated values).
        unique = list({value: (label, value, description) for label, value, description in options}.values())
        if unique:
            specs.append(SelectSpec("pick", t(lg, f"pick.volfyirion.{kind}"), tuple(unique[:MENU_OPTIONS]), arg=kind))
    return specs


def _play(state: VolfState, lg: str) -> list[tuple[str, str, str | None]]:
    """What the player can have in hand to play (V-3.1b), as far as the bot knows, most likely first: the cards
    reported acquired before the last reshuffle (a Troop or Building in each standing city, an empty slot first),
    the Wonders not known elsewhere — acquired from the Lair unreported, which the bot takes once a reshuffle can
    have brought them to hand (engine/volfyirion/house.py) — then the cards acquired since the last reshuffle
    (still in the discard pile: the bot takes them, questioned). A Command card or a card of the House Deck played
    is not reported (it does not stay in play: ``volfyirion.command_not_recorded``), and an unreported Troop or
    Building is one of 18 cards in any city: both left to the command's autocomplete."""
    house = state.house
    fresh = house.get("fresh", []) if house else []
    owned = list(dict.fromkeys(state.owned))
    in_hand = [name for name in owned if state.owned.count(name) > fresh.count(name)]
    play = [option for name in in_hand for option in _played(state, lg, name)]
    if not (house and "fresh" in house and house.get("last") is None):  # before any reshuffle: starting cards only
        play += _wonders_left(state, lg)
    return play + [option for name in owned if name not in in_hand for option in _played(state, lg, name)]


def _played(state: VolfState, lg: str, name: str) -> list[tuple[str, str, str | None]]:
    """An owned card's plays: a Wonder alone, a Troop or Building in each standing city (an empty slot first)."""
    card, index = _catalog()[name], _catalog().ids().index(name)
    if card.type == "wonder":
        return [_option(lg, name, str(index))]
    if card.type not in ("troop", "building"):
        return []
    standing = sorted(((i, c) for i, c in enumerate(state.cities) if not c["destroyed"]),
                      key=lambda pair: bool(pair[1][card.type]))
    return [_option(lg, name, f"{index}.{i}", c["name"]) for i, c in standing]


def _acquire(state: VolfState, lg: str) -> list[tuple[str, str, str | None]]:
    """The Wonders that can be in the Lair: every solo Wonder with a copy not known elsewhere (an Asset Row card
    is never seen by the bot: the command's autocomplete)."""
    return _wonders_left(state, lg)


def _wonders_left(state: VolfState, lg: str) -> list[tuple[str, str, str | None]]:
    ids, known = _catalog().ids(), state.known_elsewhere()
    return [_option(lg, name, str(ids.index(name))) for name in ids
            if _catalog()[name].type == "wonder" and _catalog()[name].solo and _catalog()[name].qty > known[name]]


def _yours(state: VolfState, lg: str, legal: Collection[str]) -> list[tuple[str, str, str | None]]:
    """Your cards a report can take: removed from a city, moved to another city, then a Wonder in play, a Command
    card reported acquired and a card of the House Deck (V-1.5) removed from the game — the last two change the
    count of the House Deck that says when the next attack comes (V-3.4). A value is ``remove:3.1`` or
    ``redeploy:3.2``."""
    ids = _catalog().ids()
    standing = [(i, c) for i, c in enumerate(state.cities) if not c["destroyed"]]
    found = []
    if "remove" in legal:
        found += [_said(lg, "pick.volfyirion.removed", c[slot], f"remove:{ids.index(c[slot])}.{i}", c["name"])
                  for i, c in standing for slot in ("troop", "building") if c[slot]]
    if "redeploy" in legal:
        found += [_said(lg, "pick.volfyirion.moved", c["troop"], f"redeploy:{ids.index(c['troop'])}.{j}", to["name"])
                  for i, c in standing if c["troop"] for j, to in standing if j != i and not to["troop"]]
    if "remove" in legal:
        owned = [name for name in dict.fromkeys(state.owned) if _catalog()[name].type == "command"]
        starting = [name for name, qty in HOUSE_DECK.items() if qty > state.removed.count(name)]
        found += [_said(lg, "pick.volfyirion.removed", name, f"remove:{ids.index(name)}")
                  for name in [*(w["name"] for w in state.wonders), *owned, *starting]]
    return found


def picked_action(kind: str | None, value: str, state: VolfState) -> Action | None:
    """The action a pick stands for, as its typed command makes it; None for a value no reply offered."""
    if kind == YOURS:
        kind, _, value = value.partition(":")
    ids = _catalog().ids()
    card_index, _, city_index = value.partition(".")
    try:
        name = ids[int(card_index)]
        city = state.cities[int(city_index)]["name"] if city_index else None
    except (ValueError, IndexError):
        return None
    if kind == "play":
        return Action("play", card=name, city=city)
    if kind == "remove":
        return Action("remove", card=name, city=city)
    if kind == "redeploy" and city:
        return Action("redeploy", troop=name, city=city)
    if kind == "acquire" and not city:
        return Action("acquire", card=name)
    return None


def rage_fields(lg: str, state: VolfState, count: int | None, typed: FieldSpec) -> list[FieldSpec]:
    """The Rage Pile's reveal: a select per type of the Asset cards an unknown Rage card can be (each fits 25),
    then ``typed``, the text field (a second copy of a card, typed by name)."""
    unseen = state.unseen_deck()
    many = count or 1
    fields = []
    for kind in RAGE_TYPES:
        options = tuple(_option(lg, name, name) for name in _catalog().ids()
                        if unseen[name] and _catalog()[name].type == kind)[:MENU_OPTIONS]
        if options:
            fields.append(FieldSpec(f"{RAGE}{kind}", t(lg, f"form.rage.{kind}"), t(lg, "form.cards.placeholder", count=many),
                                    required=False, kind=SELECT, description=t(lg, "form.rage.description"),
                                    options=options, min_values=0, max_values=min(many, len(options))))
    fields.append(typed)
    return fields[:FORM_ITEMS]


def told_cards(values: dict[str, str]) -> str:
    """Everything the reveal's form told, as one typed list (the selects' cards, then the typed text)."""
    parts = [v.strip() for name, text in values.items() if name.startswith(RAGE) for v in text.split(",") if v.strip()]
    if values.get(TYPED, "").strip():
        parts.append(values[TYPED].strip())
    if not parts:
        raise RuleError("form.missing", field=TYPED)
    return ", ".join(parts)
