"""Seasons' words: card names with their number, die faces and dice, effects, the edges of its sentences."""

from __future__ import annotations

from functools import cache, lru_cache
from typing import Any

from ...i18n import _num, _sign, has, list_text, remembered, t
from ..plugin import Words

# Die faces (a face dict, a face text, or a list of them) become the face's symbols in the reader's language.
FACE_PARAMS = frozenset({"face", "first_face", "second_face", "dummbot_face", "closest_faces", "first_closest",
                         "second_closest"})
# Dice (numbers in the data), described by what a player sees on them.
DIE_PARAMS = frozenset({"first_die", "second_die"})
# Lists of card ids beside the shared ``cards``: what is known of Dummbot's hand (S-2.4).
CARD_LIST_PARAMS = frozenset({"known_cards", "missing_cards", "outside_cards"})


@lru_cache(maxsize=2048)  # the catalog never changes: each name is made once (issue 12)
def card_name(lang: str, card_id: str) -> str | None:
    from engine.seasons import CATALOG

    if card_id not in CATALOG:
        return None
    card = CATALOG[card_id]
    name = (card.name_ja if lang == "ja" else None) or card.name_en
    return f"{name} (#{card_id})" if lang == "en" else f"{name}（#{card_id}）"


def face_text(lang: str, face: dict[str, Any] | str) -> str:
    from engine.core import RuleError
    from engine.seasons import face_text as engine_face_text
    from engine.seasons import parse_face

    if not isinstance(face, str):
        return engine_face_text(face, lang=lang)
    try:
        return engine_face_text(parse_face(face), lang=lang)
    except RuleError:
        return face


def quoted_face(lang: str, face: Any) -> str:
    text = face_text(lang, face) if isinstance(face, (dict, str)) else str(face)
    return f"「{text}」" if lang == "ja" else text


def die_text(lang: str, season: str, die: Any) -> str:
    """A die of ``season`` as a player finds it in the box: by the face no other die of the season has."""
    mark = die_mark(season, die)
    if mark is None:
        return str(die)
    # A die of the box is said the same in every reply (a state's dice field names eight): said once a language.
    return remembered(lang, "word.die_with", (season, int(die)), lambda: t(lang, "word.die_with", face=mark))


def die_mark(season: str, die: Any) -> dict[str, Any] | None:
    """The shortest face that only this die of ``season`` has (None for no die of it). The same dict for the
    same die every time: not to be changed."""
    try:
        return _die_mark(season, int(die))
    except (KeyError, TypeError, ValueError):
        return None


@cache  # the box's dice never change; every reply with a die asks again
def _die_mark(season: str, number: int) -> dict[str, Any]:
    from engine.seasons.faces import dice_numbers, die_faces

    faces = die_faces(season, number)
    others = [f for d in dice_numbers(season) if d != number for f in die_faces(season, d)]
    unique = [f for f in faces if f not in others] or list(faces)
    return min(unique, key=lambda f: len(face_text("en", f)))


def render(lang: str, name: str, value: Any, params: dict[str, Any]) -> Any:
    """Faces, dice and effects, whatever the key (None for any other parameter)."""
    if name in FACE_PARAMS:
        if isinstance(value, (list, tuple)):
            return (" / " if lang == "en" else "、").join(quoted_face(lang, f) for f in value) or "—"
        if isinstance(value, (dict, str)):
            return face_text(lang, value)
    # A die belongs to the season its dice were rolled in, which a time move may have left (S-3.2).
    season = params.get("dice_season", params.get("season"))
    if name in DIE_PARAMS and _num(params, name) is not None and isinstance(season, str):
        return die_text(lang, season, value)
    if name == "dice_season" and isinstance(value, str) and has(f"word.{value}"):
        return t(lang, f"word.{value}")
    if name in CARD_LIST_PARAMS and isinstance(value, (list, tuple)):
        return list_text(lang, (card_name(lang, str(c)) or str(c) for c in value)) or "—"
    if name == "prestige" and isinstance(value, int) and value < 0:  # a card's printed −5: a real minus sign
        return f"−{-value}"
    if name == "effect" and isinstance(value, str) and has(f"seasons.effect.{value}"):
        return t(lang, f"seasons.effect.{value}")
    if name == "effects" and isinstance(value, str):
        return list_text(lang, (t(lang, f"seasons.effect.{v.strip()}") if has(f"seasons.effect.{v.strip()}")
                                else v.strip() for v in value.split(",")))
    return None


# Engine parameter → template placeholder (``cards`` → ``card_count``: the final score counts cards;
# ``kind`` → ``effect``: a ``kind`` would be swallowed by callers' own ``kind`` argument).
PARAM_NAMES = {
    "seasons.event.game_end": {"cards": "card_count"},
    "seasons.bad_effect": {"kind": "effect", "kinds": "effects"},
    "seasons.effect_needs_card": {"kind": "effect"},
    "action.seasons.effect": {"kind": "effect"},
    "action.seasons.take": {"index": "die_index"},
}

def _round_variant(params: dict[str, Any]) -> str | None:
    """Table dice: the round's two dice named (S-1.4; games of older editions have none), and, once the turn is
    under way, no new roll."""
    named = _num(params, "first_die") is not None
    if params.get("in_turn"):
        return "in_turn_named" if named else "in_turn"
    return "named" if named else None


def _fit_variant(params: dict[str, Any]) -> str | None:
    """A reveal that does not fit Dummbot's hand (S-2.4): all of it known, all of it drawn, or neither."""
    if _num(params, "unknown") == 0:
        return "none"
    return "all" if params.get("count") == params.get("hand_size") else None


def _known_hand_variant(params: dict[str, Any]) -> str | None:
    if not params.get("cards"):
        return "none"
    return None if _num(params, "unknown") else "all"


VARIANTS = {
    "seasons.waiting.die": _round_variant,
    "seasons.reveal_not_in_hand": _fit_variant,
    "field.seasons.hand_known_value": _known_hand_variant,
    "seasons.event.prelude": lambda p: "tell" if p.get("can_tell") else None,
    "seasons.event.prelude_told": lambda p: "more" if _num(p, "unknown") else None,
    "seasons.event.dice_chosen": lambda p: "table" if p.get("dice") == "table" else None,
    "seasons.event.token_moved": lambda p: _sign(p, "steps"),
    "action.seasons.time": lambda p: _sign(p, "steps"),
    "seasons.time_before_start": lambda p: _sign(p, "steps"),
    "action.seasons.crystals": lambda p: _sign(p, "change"),
    # The die taken, by its face when the line knows the state it was taken in (GamePlugin.action_params).
    "action.seasons.take": lambda p: "face" if p.get("face") else None,
    "seasons.event.crystals_lost": lambda p: "none" if _num(p, "n") == 0 else None,
    "seasons.event.crystals_corrected": lambda p: "none" if _num(p, "change") == 0 else (
        "clamped" if _num(p, "asked") not in (None, _num(p, "change")) else _sign(p, "change")),
    "seasons.event.tie_broken": lambda p: None if p.get("highest", True) else "lowest",
    # "I could not pay": its sorcerer token moves down, or stays (nothing left to take, or the crystal had been passed
    # straight on to the player and comes back: the README's ruling).
    "seasons.event.payment_corrected": lambda p: ("funded" if p.get("funded") else "none") if _num(p, "n") == 0
    else None,
    # The undo of a reveal from Dummbot's hand: the cards put back into it are named when the player had told them.
    "seasons.undo.returned_to_drawn": lambda p: None if p.get("cards") else "unnamed",
    "seasons.undo.reveal_again": lambda p: "discard" if p.get("reason_card") else (
        "new_year" if _num(p, "year") is not None else None),
    # Naria's own line already tells the player to put one of the two cards onto Dummbot's hand.
    "seasons.event.draw_to_hand": lambda p: "naria" if p.get("reason") == "naria" else None,
    "seasons.event.draw_from_hand": lambda p: "all" if p.get("count") == p.get("hand_size") else None,
    "seasons.event.game_lost": lambda p: "tie" if p.get("player_score") == p.get("dummbot_score") else None,
    "result.seasons_scores": lambda p: "tie" if p.get("player") == p.get("dummbot") else None,
    "seasons.too_many_copies": lambda p: "none" if _num(p, "available") == 0 else None,
    # Titus: the crystal paid the player's own Titus, which stays (Figrim: it paid crystals to the player).
    "seasons.event.both_sides_order": lambda p: "titus" if p.get("card") == "39" else None,
    # Sid's payment follows the crystals the player told: nothing assumed, no "I could not pay".
    "seasons.event.crystals_from_player": lambda p: "told" if p.get("assumed") is False else None,
    # Every drawn card is discarded: no "put the rest back".
    "seasons.event.draw_to_discard": lambda p: "all" if p.get("count") == p.get("discard") else None,
    "seasons.waiting.reveal_discard": lambda p: "all" if p.get("count") == p.get("drawn") else None,
    # Summoned at the end: its lasting effect is said only as far as it still applies.
    **{f"seasons.event.dummbot_{name}": (lambda p: "last" if p.get("last") else None)
       for name in ("figrim", "leech", "titus", "fairies")},
}

# The token's last move, at the end of year 3, is said as the end of the game rather than as a month.
EVENT_KEYS = {("seasons.event.token_moved", "seasons.event.year_three_over"): "seasons.event.token_moved_last"}

# Its own parameters that carry card ids and closed words (``word.<value>``).
CARD_PARAMS = frozenset({"reason_card", "tied_cards"})
WORD_PARAMS = frozenset({"season", "dice", "element", "new_season", "old_season", "from_season", "to_season"})

WORDS = Words(card_name=card_name, render=render, card_params=CARD_PARAMS, word_params=WORD_PARAMS,
              variants=VARIANTS, param_names=PARAM_NAMES, event_keys=EVENT_KEYS)
