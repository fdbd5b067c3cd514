"""Forgiving text matching: names typed in any case, full- or half-width, with or without spaces."""

from __future__ import annotations

import difflib
import unicodedata
from functools import lru_cache

# Apostrophes, hyphens, dots and middle dots players type (or leave out) inside card names.
_IGNORED = set(" \t\u3000'’‘`´-‐‑‒–—―ー・.,、。:;!?！？()（）「」[]")


@lru_cache(maxsize=4096)  # a pure function of the text: names typed again are folded once (issue 12)
def fold(text: str) -> str:
    """The comparison form of a name: NFKC (全角→半角), case-folded, hiragana as katakana (「けあん」 is
    「ケアン」, as an input method left it unconverted), accents and separators dropped.

    The long vowel mark ー is kept when it sits between kana (it is part of the word), only
    dropped when it stands for a hyphen, so ``ダムボット`` and ``ヴォルフィーリオン`` stay intact.

    >>> fold("Ｅｌｉｔｅ  Trooper"), fold("Élite-Trooper"), fold("ヴォルフィーリオン"), fold("けあん")
    ('elitetrooper', 'elitetrooper', 'ヴォルフィーリオン', 'ケアン')
    """
    text = unicodedata.normalize("NFKC", text).casefold().translate(_HIRAGANA_TO_KATAKANA)
    text = "".join(_strip_accent(c) for c in text)
    out = []
    for i, c in enumerate(text):
        if (c == "ー" and i > 0 and _is_kana(text[i - 1])) or c not in _IGNORED:
            out.append(c)
    return "".join(out)


# ぁ (U+3041) … ゖ (U+3096) and ゝゞ sit 0x60 below their katakana.
_HIRAGANA_TO_KATAKANA = {c: c + 0x60 for c in (*range(0x3041, 0x3097), 0x309D, 0x309E)}


def _strip_accent(c: str) -> str:
    """é → e for Latin letters only: decomposing kana would drop their voicing marks (ヴ → ウ)."""
    if ord(c) >= 0x250:
        return c
    return "".join(d for d in unicodedata.normalize("NFKD", c) if not unicodedata.combining(d))


def _is_kana(c: str) -> bool:
    return "\u3040" <= c <= "\u30ff"


def closest(query: str, candidates: dict[str, str], n: int = 3, cutoff: float = 0.5) -> list[str]:
    """Up to ``n`` values of ``candidates`` (folded name → value) whose names are near ``query``.

    Values are returned once each, best first.

    >>> closest("kairm", {"kairn": "16", "naria": "1", "syllas": "10"})
    ['16']
    """
    key = fold(query)
    if not key:
        return []
    names = difflib.get_close_matches(key, list(candidates), n=n * 4, cutoff=cutoff)
    # A typed prefix or fragment ("amulet", "ケアン") is a near miss too.
    names += [name for name in candidates if key in name and name not in names]
    seen: list[str] = []
    for name in names:
        value = candidates[name]
        if value not in seen:
            seen.append(value)
        if len(seen) == n:
            break
    return seen


def one_edit(a: str, b: str) -> bool:
    """True when ``a`` and ``b`` differ by exactly one letter added, dropped, changed or two neighbours swapped.

    >>> one_edit("elitetroper", "elitetrooper"), one_edit("wizrad", "wizard"), one_edit("hard", "hard")
    (True, True, False)
    """
    if a == b or abs(len(a) - len(b)) > 1:
        return False
    if len(a) == len(b):
        diff = [i for i in range(len(a)) if a[i] != b[i]]
        if len(diff) == 1:
            return True
        return len(diff) == 2 and diff[1] == diff[0] + 1 and a[diff[0]] == b[diff[1]] and a[diff[1]] == b[diff[0]]
    short, long = (a, b) if len(a) < len(b) else (b, a)
    i = 0
    while i < len(short) and short[i] == long[i]:
        i += 1
    return short[i:] == long[i + 1:]
