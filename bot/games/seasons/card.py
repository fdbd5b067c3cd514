"""``/game card`` for Seasons: a card's facts, where its copies are, and how Dummbot treats it (S-8)."""

from __future__ import annotations

from collections.abc import Callable

from engine.seasons.summary import SeasonsSummary

from ...i18n import t

# Where a copy can be known to be, as the state summary keeps it: (field key, the cards the summary has there).
PLACES: tuple[tuple[str, Callable[[SeasonsSummary], tuple[str, ...]]], ...] = (
    ("dummbot_area", lambda s: s.dummbot.summoned),
    ("dummbot_hand", lambda s: s.dummbot.hand_known),
    ("discard", lambda s: s.discards),
    ("player_area", lambda s: s.player_area),
)


def card_fields(lang: str, card_id: str, summary: SeasonsSummary | None) -> list[tuple[str, str]]:
    """The lookup's fields (name, value): names, facts, the copies in the channel's game, the automaton's rule."""
    from engine.seasons import CATALOG, S8_CARDS

    card = CATALOG[card_id]
    names = t(lang, "card.seasons.names_value", ja=card.name_ja or "—", en=card.name_en, fr=card.name_fr or "—")
    # The number is in the title (the card's name says it, as every reply does).
    facts = t(lang, "card.seasons.facts_value", type=t(lang, f"word.{card.type}"), prestige=card.prestige,
              copies=card.copies)
    fields = [(t(lang, "card.names"), names), (t(lang, "card.facts"), facts)]
    if summary is not None:
        fields.append((t(lang, "card.where"), _where(lang, card_id, card.copies, summary)))
    rule = (t(lang, "card.seasons.s8_value", player=t(lang, f"card.seasons.s8.{card_id}.player"),
              dummbot=t(lang, f"card.seasons.s8.{card_id}.dummbot"))
            if card_id in S8_CARDS else t(lang, "card.seasons.s8_none"))
    fields.append((t(lang, "card.seasons.s8"), rule))
    return fields


def _where(lang: str, card_id: str, copies: int, summary: SeasonsSummary) -> str:
    """Each place holding copies, and how many the bot has not seen (the deck, your hand, the box)."""
    lines, seen = [], 0
    for place, read in PLACES:
        count = read(summary).count(card_id)
        if count:
            seen += count
            lines.append(t(lang, f"card.seasons.where.{place}", count=count))
    lines.append(t(lang, "card.where.unseen", count=max(copies - seen, 0)))
    return "\n".join(lines)
