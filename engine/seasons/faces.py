"""Die faces: the canonical face dict, reading typed faces (English or Japanese), canonical texts, search.

A face is ``{"energy": {"water": 2}, "crystals": 3, "star": 0, "draw": 0, "transmute": False, "dots": 1}``,
the shape of a row of ``seasons_dice`` without season/die/face. The rules take only a face of the round's dice
(``check_face``); what a player types is read here for the bot (``parse_face``, ``resolve_face``: ``dots`` 0
means "not given", and the face is the one face of the season that matches the rest, if there is one).
"""

from __future__ import annotations

import re
import unicodedata
from collections.abc import Mapping
from functools import cache, lru_cache
from typing import Any

from engine import data
from engine.core import RuleError

SEASONS = ("winter", "spring", "summer", "autumn")
ELEMENTS = ("water", "earth", "fire", "air")
SEASON_JA = {"winter": "冬", "spring": "春", "summer": "夏", "autumn": "秋"}
ELEMENT_JA = {"water": "水", "earth": "土", "fire": "火", "air": "大気"}

# §9.2 crystals per energy, by the season in which the die was rolled (no transmutation circle).
RATES: dict[str, dict[str, int]] = {
    "winter": {"water": 1, "earth": 3, "fire": 2, "air": 1},
    "spring": {"water": 1, "earth": 1, "fire": 3, "air": 2},
    "summer": {"water": 2, "earth": 1, "fire": 1, "air": 3},
    "autumn": {"water": 3, "earth": 2, "fire": 1, "air": 1},
}

# Every word a player may type for a symbol (folded: NFKC, lower case).
_WORDS: dict[str, str] = {
    "water": "water", "waters": "water", "水": "water",
    "earth": "earth", "earths": "earth", "土": "earth",
    "fire": "fire", "fires": "fire", "火": "fire",
    "air": "air", "airs": "air", "大気": "air", "風": "air",
    "crystal": "crystals", "crystals": "crystals", "クリスタル": "crystals",
    "star": "star", "stars": "star", "星": "star", "召喚ゲージ": "star",
    "draw": "draw", "card": "draw", "cards": "draw", "カード": "draw", "ドロー": "draw",
    "カードのドロー": "draw",
    "transmute": "transmute", "transmutation": "transmute", "circle": "transmute", "変転": "transmute",
    "サークル": "transmute", "変転サークル": "transmute", "変換": "transmute", "変換サークル": "transmute",
    "変転のサークル": "transmute", "trans": "transmute", "convert": "transmute", "conversion": "transmute",
    "dot": "dots", "dots": "dots", "ドット": "dots", "点": "dots",  # 「ドット1」 as the bot writes it; 「1点」 as players type
}
# Words that carry no symbol ("2 water energy", "クリスタル3個").
_NOISE = {"energy", "energies", "魔力", "個", "and", "+", "x", "の", "と"}
_JA_WORDS = sorted((w for w in (*_WORDS, *_NOISE) if not w.isascii()), key=len, reverse=True)


def empty_face() -> dict[str, Any]:
    return {"energy": {}, "crystals": 0, "star": 0, "draw": 0, "transmute": False, "dots": 0}


def canonical(face: dict[str, Any]) -> dict[str, Any]:
    """A face dict in canonical shape and element order; raises ``seasons.face_unreadable`` if malformed."""
    if not isinstance(face, Mapping):  # a dict typed in, or an action's frozen Params
        raise RuleError("seasons.face_unreadable", word=str(face))
    try:
        energy = {e: int(n) for e, n in (face.get("energy") or {}).items() if int(n)}
        for e in energy:
            if e not in ELEMENTS:
                raise RuleError("seasons.face_unreadable", word=str(e))
        return {
            "energy": {e: energy[e] for e in ELEMENTS if e in energy},
            "crystals": int(face.get("crystals") or 0),
            "star": int(face.get("star") or 0),
            "draw": int(face.get("draw") or 0),
            "transmute": bool(face.get("transmute")),
            "dots": int(face.get("dots") or 0),
        }
    except (TypeError, ValueError, AttributeError):
        raise RuleError("seasons.face_unreadable", word=str(face)) from None


def _tokens(text: str) -> list[list[tuple[str, str, bool]]]:
    """Groups (split on commas) of tokens ``(kind, value, glued_to_previous)``; kind is num or word."""
    text = unicodedata.normalize("NFKC", text).casefold()
    groups: list[list[tuple[str, str, bool]]] = []
    for part in re.split(r"[,、，;；/]", text):
        group: list[tuple[str, str, bool]] = []
        i, glued = 0, False
        while i < len(part):
            c = part[i]
            if c.isspace():
                i, glued = i + 1, False
                continue
            m = re.match(r"\d+", part[i:]) or re.match(r"[a-z+]+", part[i:])
            if m:
                kind = "num" if m.group().isdigit() else "word"
                group.append((kind, m.group(), glued))
                i += len(m.group())
            else:
                word = next((w for w in _JA_WORDS if part.startswith(w, i)), None)
                if word is None:
                    rest = re.match(r"[^\sa-z\d]+", part[i:])
                    raise RuleError("seasons.face_unreadable", word=rest.group() if rest else c)
                group.append(("word", word, glued))
                i += len(word)
            glued = True
        if group:
            groups.append(group)
    return groups


def parse_face(text: str) -> dict[str, Any]:
    """Read a typed face: symbols in any order, English or Japanese, counts before or after the word."""
    return canonical(_parsed_face(str(text)))  # a fresh dict: the remembered one is never handed out


@lru_cache(maxsize=1024)  # the few faces players type, read once each (a refusal is not remembered)
def _parsed_face(text: str) -> dict[str, Any]:
    face = empty_face()
    seen_any = False
    for group in _tokens(str(text)):
        group = [t for t in group if not (t[0] == "word" and t[1] in _NOISE)]
        for kind, value, _ in group:
            if kind == "word" and value not in _WORDS:
                raise RuleError("seasons.face_unreadable", word=value)
        # A group that starts with a number puts counts before words ("2 water"), one that ends with a
        # number after them ("水 2"); otherwise a number glued to the word before it belongs to that word.
        suffix = bool(group) and group[-1][0] == "num" and group[0][0] != "num"
        pending: int | None = None
        last_word: str | None = None
        for idx, (kind, value, glued) in enumerate(group):
            if kind == "num":
                n = int(value)
                follows_word = idx > 0 and group[idx - 1][0] == "word"
                if follows_word and (suffix or glued or idx + 1 == len(group) or group[idx + 1][0] == "num"):
                    _add(face, last_word or "", n - 1)  # the word already counted once
                    last_word = None
                elif pending is not None:
                    raise RuleError("seasons.face_unreadable", word=value)
                else:
                    pending = n
                continue
            symbol = _WORDS[value]
            count = 1 if pending is None else pending
            _add(face, symbol, count)
            seen_any = True
            pending, last_word = None, symbol
        if pending is not None:
            raise RuleError("seasons.face_unreadable", word=str(pending))
    if not seen_any:
        raise RuleError("seasons.face_unreadable", word=str(text))
    return canonical(face)


def _add(face: dict[str, Any], symbol: str, n: int) -> None:
    if symbol in ELEMENTS:
        face["energy"][symbol] = face["energy"].get(symbol, 0) + n
    elif symbol == "transmute":
        face["transmute"] = True
    elif symbol:
        face[symbol] += n


def face_text(face: dict[str, Any], lang: str = "en") -> str:
    """The canonical text of a face; the English form parses back to the same face."""
    face = canonical(face)
    ja = lang == "ja"
    parts = [f"{ELEMENT_JA[e]}{n}" if ja else f"{n} {e}" for e, n in face["energy"].items()]
    if face["crystals"]:
        n = face["crystals"]
        parts.append(f"クリスタル{n}" if ja else f"{n} crystal{'s' if n > 1 else ''}")
    parts += ["星" if ja else "star"] * face["star"]
    parts += ["ドロー" if ja else "draw"] * face["draw"]
    if face["transmute"]:
        parts.append("変転" if ja else "transmute")
    if face["dots"]:
        n = face["dots"]
        parts.append(f"ドット{n}" if ja else f"{n} dot{'s' if n > 1 else ''}")  # dots are not points (ja-style)
    return ("、" if ja else ", ").join(parts)


@cache
def _dice_table() -> dict[str, dict[int, tuple[dict[str, Any], ...]]]:
    table: dict[str, dict[int, list[dict[str, Any]]]] = {s: {} for s in SEASONS}
    for row in data.load("seasons_dice"):
        table[row["season"]].setdefault(int(row["die"]), []).append(canonical(row))
    return {s: {d: tuple(fs) for d, fs in dice.items()} for s, dice in table.items()}


def die_faces(season: str, die: int) -> tuple[dict[str, Any], ...]:
    """The six faces of one die, in face order."""
    return _dice_table()[season][die]


def dice_numbers(season: str) -> list[int]:
    return sorted(_dice_table()[season])


def season_faces(state_or_season: Any, dice: list[int] | None = None) -> list[dict[str, Any]]:
    """Distinct faces of the round's season (S-3.2): its 2 chosen dice (S-1.4), or all 5 for a season named
    alone and for table-dice games of editions before the chosen dice."""
    if isinstance(state_or_season, str):
        season = state_or_season
    else:
        season = state_or_season.dice_season
        if dice is None:
            dice = state_or_season.round_dice
    return list(_distinct_faces(season, tuple(dice) if dice else None))


@cache
def _distinct_faces(season: str, dice: tuple[int, ...] | None) -> tuple[dict[str, Any], ...]:
    faces: list[dict[str, Any]] = []
    for die in dice or dice_numbers(season):
        for face in die_faces(season, die):
            if face not in faces:
                faces.append(face)
    return tuple(faces)


def same_but_dots(a: dict[str, Any], b: dict[str, Any]) -> bool:
    return all(a[k] == b[k] for k in ("energy", "crystals", "star", "draw", "transmute"))


def resolve_face(state_or_season: Any, face: dict[str, Any] | str) -> dict[str, Any]:
    """The season face a player means by ``face`` (typed text or a dict); dots may be left out when that is
    unambiguous. What the bot hands ``apply`` (which takes only :func:`check_face`'s exact faces).

    Raises ``seasons.face_unreadable``, ``seasons.face_ambiguous`` (with ``closest_faces``) or
    :func:`check_face`'s refusals.
    """
    face = parse_face(face) if isinstance(face, str) else canonical(face)
    if not face["dots"]:
        matches = [f for f in season_faces(state_or_season) if same_but_dots(f, face)]
        if len(matches) == 1:
            return matches[0]
        if matches:
            raise RuleError("seasons.face_ambiguous", face=face, closest_faces=[face_text(f) for f in matches])
    return check_face(state_or_season, face)


def check_face(state_or_season: Any, given: Any) -> dict[str, Any]:
    """``given`` when it is exactly one of the round's faces (a face dict, dots given), in canonical shape.

    Raises ``seasons.face_unreadable`` for anything but a face dict, ``seasons.face_not_on_dice`` (the round's
    two dice, S-1.4) or ``seasons.face_not_in_season``, each with the faces nearest to it.
    """
    face = canonical(given)
    faces = season_faces(state_or_season)
    if face in faces:
        return face
    season = state_or_season if isinstance(state_or_season, str) else state_or_season.dice_season
    ranked = sorted(faces, key=lambda f: _distance(f, face))
    dice = [] if isinstance(state_or_season, str) else state_or_season.round_dice
    if dice:  # S-1.4: name the round's two dice, each with its faces nearest to the one typed
        first, second = ([face_text(f) for f in sorted(die_faces(season, d), key=lambda f: _distance(f, face))[:2]]
                         for d in dice)
        raise RuleError("seasons.face_not_on_dice", face=face, season=season, first_die=dice[0],
                        second_die=dice[1], first_closest=first, second_closest=second,
                        closest_faces=[face_text(f) for f in ranked[:3]])
    raise RuleError("seasons.face_not_in_season", face=face, season=season,
                    closest_faces=[face_text(f) for f in ranked[:3]])


def _distance(a: dict[str, Any], b: dict[str, Any]) -> int:
    d: int = sum(abs(a["energy"].get(e, 0) - b["energy"].get(e, 0)) for e in ELEMENTS)
    d += abs(a["crystals"] - b["crystals"]) + abs(a["star"] - b["star"]) + abs(a["draw"] - b["draw"])
    d += int(a["transmute"] != b["transmute"]) + (abs(a["dots"] - b["dots"]) if b["dots"] else 0)
    return d


def search_faces(season: str, typed: str, lang: str = "en", limit: int = 25) -> list[dict[str, Any]]:
    """Autocomplete: the season's faces whose English or Japanese text holds every typed word."""
    wanted = _typed_face(typed)
    if wanted is not None:  # "water 2", "水2 ドット1": match the symbols, not the words
        return [f for f in season_faces(season) if _contains(f, wanted)][:limit]
    words = [w for w in re.split(r"[\s,、，]+", unicodedata.normalize("NFKC", typed).casefold()) if w]
    first: list[dict[str, Any]] = []
    second: list[dict[str, Any]] = []
    for face in season_faces(season):
        texts = [face_text(face, lang).casefold(), face_text(face, "ja" if lang == "en" else "en").casefold()]
        texts = [unicodedata.normalize("NFKC", t) for t in texts]
        if all(any(_word_in(w, t) for t in texts) for w in words):
            (first if all(_word_in(w, texts[0]) for w in words) else second).append(face)
    return (first + second)[:limit]


def _typed_face(typed: str) -> dict[str, Any] | None:
    """A face read from what was typed, only when it holds a number (a bare "crystal" is a word search)."""
    if not re.search(r"\d", unicodedata.normalize("NFKC", typed)):
        return None
    try:
        return parse_face(typed)
    except RuleError:
        return None


def _contains(face: dict[str, Any], wanted: dict[str, Any]) -> bool:
    if any(face["energy"].get(e) != n for e, n in wanted["energy"].items()):
        return False
    return ((not wanted["crystals"] or face["crystals"] == wanted["crystals"])
            and face["star"] >= wanted["star"] and face["draw"] >= wanted["draw"]
            and (face["transmute"] or not wanted["transmute"])
            and (not wanted["dots"] or face["dots"] == wanted["dots"]))


def _word_in(word: str, text: str) -> bool:
    if word in text:
        return True
    folded = _WORDS.get(word)  # "crystal" finds "3 crystals", "風" finds "大気"
    return folded is not None and (folded in text or ELEMENT_JA.get(folded, "\0") in text)
