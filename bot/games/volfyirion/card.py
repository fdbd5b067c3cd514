"""``/game card`` for Volfyirion: a card's facts, where its copies are, and how the solo mode treats it."""

from __future__ import annotations

import re

from engine.volfyirion.summary import VolfyirionSummary

from ...i18n import list_text, t

COLOURS = {"P": "purple", "R": "red", "T": "turquoise"}
GAINS = re.compile(r"\+(\d+)(CP|BP|KP)")


def card_fields(lang: str, name: str, summary: VolfyirionSummary | None) -> list[tuple[str, str]]:
    """The lookup's fields (name, value): names, facts, the copies in the channel's game, the solo mode's rule."""
    from engine.volfyirion.cards import CATALOG
    from engine.volfyirion.summary import solo_role

    card = CATALOG[name]
    facts = [t(lang, "card.volfyirion.type_value", type=t(lang, f"word.{card.type}"), copies=card.qty)]
    if card.cost is not None:
        facts.append(t(lang, "card.volfyirion.cost_value", cost=card.cost))
    if any((card.cp, card.bp, card.kp)):
        facts.append(t(lang, "card.volfyirion.points_value", cp=card.cp or 0, bp=card.bp or 0, kp=card.kp or 0))
    if card.defence is not None:
        facts.append(t(lang, "card.volfyirion.defence_value", defence=card.defence))
    if card.secondary:
        facts.append(t(lang, "card.volfyirion.secondary_value", ability=secondary_text(lang, card.secondary)))
    fields = [(t(lang, "card.names"), t(lang, "card.volfyirion.names_value", en=card.name)),
              (t(lang, "card.facts"), "\n".join(facts))]
    if summary is not None:
        fields.append((t(lang, "card.where"), _where(lang, name, card.qty, summary)))
    fields.append((t(lang, "card.volfyirion.solo"), t(lang, f"card.volfyirion.solo.{solo_role(card)}",
                                                     cost=card.cost or 0, kp=card.kp or 0)))
    return fields


def secondary_text(lang: str, code: str) -> str:
    """``SYN[T+P]>+2BP+3KP`` → "Synergy (turquoise + purple): +2 Battle, +3 Knowledge"; ``REMOVE>…`` for a
    card removed from play to use it."""
    condition, _, effect = code.partition(">")
    if condition.startswith("SYN["):
        colours = [t(lang, f"word.colour_{COLOURS.get(c, c)}") for c in condition[4:-1].split("+")]
        head = t(lang, "card.volfyirion.synergy", colours=("・" if lang == "ja" else " + ").join(colours))
    else:
        head = t(lang, "card.volfyirion.remove_self")
    gains = GAINS.findall(effect)
    what = (list_text(lang, (t(lang, f"card.volfyirion.gain_{kind.lower()}", n=n) for n, kind in gains)) if gains
            else t(lang, f"card.volfyirion.effect.{effect.lower()}"))
    # Japanese: an arrow, not a second colon after the field's own (docs/japanese.md: one colon a line).
    return f"{head}→{what}" if lang == "ja" else f"{head}: {what}"


def _where(lang: str, name: str, copies: int, summary: VolfyirionSummary) -> str:
    """Each place the bot knows a copy to be, and how many it has not seen (decks, hands, discard piles)."""
    found = summary.whereabouts(name, copies)
    lines = [t(lang, f"card.volfyirion.where.{place}", count=count, **({} if city is None else {"city": city}))
             for place, count, city in found.places]
    lines.append(t(lang, "card.where.unseen", count=found.unseen))
    return "\n".join(lines)
