"""Seasons' card forms (issue 35, point 4): the reveal (the cards Dummbot drew at a change of season or a new year,
or summoned) and the prelude hand, as selects of the cards that can be there, with a text field to type them.

A form holds at most 5 fields and a select at most 25 options, so the cards are grouped: the cards known to be in
Dummbot's hand first (a select of their own, each copy once), then every base-game card with a copy not known
elsewhere by number, 25 to a select (50 cards: two selects), then "or type them" for what no select can say (a
second copy of a card, an expansion card). Every card a reveal can name is in one select or another.

The form's answer is one list of cards, as typed: the selects' values (card ids, a known second copy as
``12~2``) and the typed text, joined (:func:`told_cards`) and read as ``/seasons reveal cards:`` reads its text."""

from __future__ import annotations

from engine.core import RuleError
from engine.seasons.rules import PRELUDE_HAND
from engine.seasons.summary import SeasonsSummary

from ....buttons import FORM_ITEMS, MENU_OPTIONS, SELECT, FieldSpec
from ....i18n import card_name, t

KIND = "seasons"
KNOWN = "known"  # the select of the cards known to be in Dummbot's hand
TYPED = "cards"  # the text field, named as the typed form's single field was (a refusal's kept values)
RANGE = "cards_"  # the selects of the other cards: ``cards_1``, ``cards_26``… by their first card's number
CANDIDATES = 200  # more than the base game's cards and any hand: every candidate


def card_fields(lg: str, summary: SeasonsSummary, count: int | None, *, label: str,
                chosen: list[str] | None = None) -> list[FieldSpec]:
    """The fields that tell ``count`` cards (None: unknown); ``chosen``: values already picked (a message
    select's), marked in the selects that hold them."""
    default = ", ".join(chosen) if chosen else None
    fields: list[FieldSpec] = []
    seen: dict[str, int] = {}
    known: list[tuple[str, str, str | None]] = []
    rest: list[tuple[str, str, str | None]] = []
    for card_id, is_known in summary.reveal_candidates(CANDIDATES):
        if is_known:
            seen[card_id] = seen.get(card_id, 0) + 1
            value = card_id if seen[card_id] == 1 else f"{card_id}~{seen[card_id]}"  # a second known copy
            known.append((card_name(lg, KIND, card_id), value, t(lg, "pick.reveal.known")))
        else:
            rest.append((card_name(lg, KIND, card_id), card_id, None))
    many = count if count else PRELUDE_HAND
    if known:
        fields.append(_select(lg, KNOWN, t(lg, "form.cards.known"), t(lg, "form.cards.known_description"),
                              known[:MENU_OPTIONS], many, default))
    # Every candidate in a select first: the text field only where a place is left (50 cards take two).
    for i in range(0, len(rest), MENU_OPTIONS):
        group = rest[i:i + MENU_OPTIONS]
        first, last = group[0][1], group[-1][1]
        fields.append(_select(lg, f"{RANGE}{first}", t(lg, "form.cards.range", first=first, last=last),
                              t(lg, "form.cards.range_description"), group, many, default))
    if len(fields) < FORM_ITEMS:
        fields.append(FieldSpec(TYPED, t(lg, "form.cards.typed"), t(lg, "form.reveal.placeholder"), required=False,
                                long=True, description=label[:100]))
    return fields[:FORM_ITEMS]


def _select(lg: str, name: str, label: str, description: str, options: list[tuple[str, str, str | None]],
            count: int, default: str | None) -> FieldSpec:
    """A select of some of the cards: none to ``count`` of them (the others may be in another select, or typed)."""
    return FieldSpec(name, label, t(lg, "form.cards.placeholder", count=count), required=False, kind=SELECT,
                     description=description, options=tuple(options), min_values=0,
                     max_values=min(count, len(options)), default=default)


def told_cards(values: dict[str, str]) -> str:
    """Everything the form told, as one typed list: the selects' cards (known copies as their card) then the
    typed text. Refused as the typed form's missing field when nothing was told."""
    parts = [v.split("~", 1)[0].strip() for name, text in values.items() if name == KNOWN or name.startswith(RANGE)
             for v in text.split(",") if v.strip()]
    typed = values.get(TYPED, "").strip()
    if typed:
        parts.append(typed)
    if not parts:
        raise RuleError("form.missing", field=TYPED)
    return ", ".join(parts)

