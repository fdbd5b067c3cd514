"""Volfyirion's reports by taps (issue 35, point 4): `play`, `remove`, `redeploy` and `acquire` as selects of the
turn's reply where the bot can narrow the card (the cards you acquired and have not played, your cards in play,
the Wonders not yet known elsewhere), and the Rage Pile's reveal as a form of selects, one per type of Asset card.

Each pick builds the action its typed command builds (card names, city names), so replay, export and undo cannot
tell them apart. A select's value carries catalog and city indexes: `3.1` is card 3 in city 1 (`3` a Wonder)."""

from __future__ import annotations

from typing import TYPE_CHECKING

from engine.core import Action, Catalog, RuleError

from ....buttons import FORM_ITEMS, MENU_OPTIONS, SELECT, FieldSpec, SelectSpec
from ....i18n import card_name, t

if TYPE_CHECKING:
    from engine.volfyirion.cards import Card
    from engine.volfyirion.state import VolfState

KIND = "volfyirion"
PICKS = ("play", "remove", "redeploy", "acquire")
RAGE_TYPES = ("command", "troop", "building")  # the Asset Deck's types (20, 9 and 9 cards: each fits a select)
TYPED = "cards"  # the text field, named as the typed form's single field was
RAGE = "rage_"  # the selects: ``rage_command``…


def _catalog() -> Catalog[Card]:
    from engine.volfyirion import CATALOG

    return CATALOG


def _option(lg: str, name: str, value: str, city: str | None = None) -> tuple[str, str, str | None]:
    label = card_name(lg, KIND, name) or name
    return (t(lg, "pick.volfyirion.in_city", card=label, city=city) if city else label), value, None


def turn_pickers(state: VolfState, lg: str) -> list[SelectSpec]:
    """The turn's selects, most needed first; one with no candidate is left out (the command's autocomplete)."""
    ids = _catalog().ids()
    standing = [(i, c) for i, c in enumerate(state.cities) if not c["destroyed"]]
    specs: list[SelectSpec] = []
    play = []
    for name in dict.fromkeys(state.owned):
        card = _catalog()[name]
        if card.type == "wonder":
            play.append(_option(lg, name, str(ids.index(name))))
        elif card.type in ("troop", "building"):
            play += [_option(lg, name, f"{ids.index(name)}.{i}", c["name"]) for i, c in standing]
    remove = [_option(lg, c[slot], f"{ids.index(c[slot])}.{i}", c["name"])
              for i, c in standing for slot in ("troop", "building") if c[slot]]
    remove += [_option(lg, w["name"], str(ids.index(w["name"]))) for w in state.wonders]
    redeploy = [_option(lg, c["troop"], f"{ids.index(c['troop'])}.{j}", to["name"])
                for i, c in standing if c["troop"] for j, to in standing if j != i]
    known = state.known_elsewhere()
    acquire = [_option(lg, name, str(ids.index(name))) for name in ids
               if _catalog()[name].type == "wonder" and _catalog()[name].solo and _catalog()[name].qty > known[name]]
    for kind, offered in (("play", play), ("acquire", acquire), ("remove", remove), ("redeploy", redeploy)):
        # Two copies of a card in the same place are one choice (Discord refuses a select's repeated values).
        options = list({value: (label, value, description) for label, value, description in offered}.values())
        if options:
            specs.append(SelectSpec("pick", t(lg, f"pick.volfyirion.{kind}"), tuple(options[:MENU_OPTIONS]),
                                    arg=kind))
    return specs


def picked_action(kind: str | None, value: str, state: VolfState) -> Action | None:
    """The action a pick stands for, as its typed command makes it; None for a value no reply offered."""
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
