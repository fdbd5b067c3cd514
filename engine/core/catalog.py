"""Card catalogs: look a card up by id, number or any of its names, forgivingly, with suggestions."""

from __future__ import annotations

import re
import unicodedata
from collections.abc import Callable, Iterable, Iterator
from dataclasses import dataclass
from typing import Generic, TypeVar

from .errors import RuleError
from .text import closest, fold, one_edit

C = TypeVar("C")


@dataclass(frozen=True)
class Entry(Generic[C]):
    id: str
    names: tuple[str, ...]
    card: C


class Catalog(Generic[C]):
    """An ordered set of cards with every accepted spelling indexed.

    ``lookup`` raises ``RuleError("card.unknown", query=..., suggestions=[ids])`` for a miss;
    ``search`` serves autocomplete (prefix and substring matches on any name, in catalog order).

    ``secondary`` cards (a game's expansions) come second: a part of a name, a typo, a suggestion or an
    autocomplete offers one only when no other card fits (「Argos」 is the base game's Demon of Argos, never
    a list of expansion cards). A number is read as written (:func:`read_number`).

    >>> cards = Catalog([Entry("1", ("Naria the Prophetess", "女預言者ナリア"), "naria"),
    ...                  Entry("2", ("Kairn the Destroyer",), "kairn")], game="demo")
    >>> cards.resolve("1"), cards.resolve("ナリア"), cards.resolve("Kairn the Destroyr"), cards.resolve("Bob")
    (('naria', True), ('naria', False), ('kairn', False), None)
    >>> cards.lookup_many("2, naria the prophetess")
    ['kairn', 'naria']
    >>> cards.search("na")
    ['1']
    """

    def __init__(self, entries: Iterable[Entry[C]], *, game: str, secondary: Iterable[str] = ()) -> None:
        self.game = game
        self._entries: dict[str, Entry[C]] = {}
        self._index: dict[str, str] = {}
        for entry in entries:
            self._entries[entry.id] = entry
            for name in (entry.id, *entry.names):
                if name:
                    self._index.setdefault(fold(name), entry.id)
        self.secondary = frozenset(secondary)
        # The names offered first (every card's but the secondary ones), then the secondary cards' names.
        self._tiers = [{k: v for k, v in self._index.items() if (v in self.secondary) == later}
                       for later in (False, True)]

    def __iter__(self) -> Iterator[C]:
        return (e.card for e in self._entries.values())

    def __len__(self) -> int:
        return len(self._entries)

    def __contains__(self, card_id: object) -> bool:
        return card_id in self._entries

    def __getitem__(self, card_id: str) -> C:
        return self._entries[card_id].card

    def ids(self) -> list[str]:
        return list(self._entries)

    def names(self, card_id: str) -> tuple[str, ...]:
        return self._entries[card_id].names

    def find(self, query: str) -> C | None:
        card_id = self._index.get(fold(str(query)))
        return None if card_id is None else self._entries[card_id].card

    def resolve(self, query: str) -> tuple[C, bool] | None:
        """The card meant by ``query`` and whether it was named exactly.

        Beyond :meth:`find`, the one card left when exactly one fits: a part of one card's names
        (「ナリア」, "Figrim", "temporal boot"), the beginning of a name ("Sid"), a name with a single typo
        ("Amulet of Ari", "Elite Troper": one letter added, dropped, changed or two swapped) or the beginning
        of one with a typo ("Sylas" for Syllas the Faithful). Numbers are only ever exact.
        """
        number = read_number(str(query))
        if number is not None:
            digits, form = number
            card = self.find(digits) if form == WIDE else self.find(query) if form == PLAIN else None
            return None if card is None else (card, form == PLAIN)
        exact = self.find(query)
        if exact is not None:
            return exact, True
        key = fold(str(query))
        fits = self._fits(key) if len(key) > 1 or not is_cjk(key) else []  # one kanji: a hint, never a pick
        return (self._entries[fits[0]].card, False) if len(fits) == 1 else None

    def ambiguous(self, query: str) -> list[str]:
        """The cards a fragment fits when it fits more than one (「箱」, "amulet"), in catalog order; else []."""
        fits = self._fits(fold(str(query))) if self.find(query) is None else []
        return fits if len(fits) > 1 else []

    def _fits(self, key: str) -> list[str]:
        """The ids a folded, inexact query fits, by the first rule that finds any (see :meth:`resolve`); the
        secondary cards only when no other card fits."""
        if not key or key.lstrip("#").isdigit():
            return []
        return self._fits_in(key, self._tiers[0]) or self._fits_in(key, self._tiers[1])

    def _fits_in(self, key: str, index: dict[str, str]) -> list[str]:
        cjk = is_cjk(key)
        names = [(name, card_id) for name, card_id in index.items() if not name.lstrip("#").isdigit()]
        rules: list[Callable[[str], bool]] = []
        if cjk or len(key) >= 4:
            rules.append(lambda name: key in name)
        if not cjk and len(key) >= 3:
            rules.append(lambda name: name.startswith(key))
        if len(key) >= (3 if cjk else 5):
            rules.append(lambda name: one_edit(key, name))
        if not cjk and len(key) >= 5:
            rules.append(lambda name: any(one_edit(key, name[:len(key) + d]) for d in (-1, 0, 1)))
        for rule in rules:
            found = {card_id for name, card_id in names if rule(name)}
            if found:
                return [card_id for card_id in self._entries if card_id in found]
        return []

    def lookup(self, query: str) -> C:
        found = self.resolve(query)
        number = read_number(str(query))
        if found is None and number is not None and number[1] == ODD:
            # A sign, a superscript…: the number is not taken silently; the card it shows is offered.
            shown = self.find(number[0])
            if shown is None:
                raise RuleError("card.number_form_none", game=self.game, query=str(query), number=number[0])
            raise RuleError("card.number_form", game=self.game, query=str(query), number=number[0],
                            suggestions=[self.id_of(shown)])
        if found is None:
            several = self.ambiguous(query)
            if several:
                raise RuleError("card.ambiguous", game=self.game, query=str(query), suggestions=several)
            raise RuleError("card.unknown", game=self.game, query=str(query), suggestions=self.suggest(query))
        return found[0]

    def lookup_many(self, text: str | Iterable[str]) -> list[C]:
        """Cards from a comma-separated list (``"12, Kairn, 破壊者ケアン"``, ``"20 41 34 8"``) or a list of names."""
        parts = split_list(text) if isinstance(text, str) else [str(p) for p in text]
        return [self.lookup(p) for p in parts]

    def suggest(self, query: str, n: int = 3) -> list[str]:
        """Up to ``n`` cards whose names are near ``query``: the secondary ones only when no other is."""
        return closest(query, self._tiers[0], n=n) or closest(query, self._tiers[1], n=n)

    def id_of(self, card: C) -> str:
        return next(card_id for card_id, entry in self._entries.items() if entry.card is card)

    def search(self, typed: str, limit: int = 25) -> list[str]:
        """Ids whose names start with, then contain, what was typed; every card when nothing was typed."""
        key = fold(typed)
        if not key:
            return self.ids()[:limit]
        starts: list[str] = []
        contains: list[str] = []
        for folded, card_id in self._index.items():
            bucket = starts if folded.startswith(key) else contains if key in folded else None
            if bucket is not None and card_id not in starts and card_id not in contains:
                bucket.append(card_id)
        found = starts + contains
        if any(card_id not in self.secondary for card_id in found):  # the others only when nothing else fits
            found = [card_id for card_id in found if card_id not in self.secondary]
            starts = [card_id for card_id in starts if card_id not in self.secondary]
        if not found:
            found = self.suggest(typed, n=limit)
        order = {cid: i for i, cid in enumerate(self._entries)}
        return sorted(found[:limit], key=lambda cid: (cid not in starts, order[cid]))


def is_cjk(text: str) -> bool:
    """Whether ``text`` holds Japanese (kana or kanji): such names are matched from shorter fragments."""
    return any(ord(c) > 0x2E7F for c in text)


def split_list(text: str) -> list[str]:
    """Split a typed list on commas (ASCII or Japanese) and semicolons; blanks are dropped. Numbers may also
    be separated by spaces alone (``"20 41 34 8"``): a part made only of numbers is split on its spaces.

    >>> split_list("12, Kairn、破壊者ケアン; 3"), split_list("20 41 34 8")
    (['12', 'Kairn', '破壊者ケアン', '3'], ['20', '41', '34', '8'])
    """
    for sep in "、，；;":
        text = text.replace(sep, ",")
    items = []
    for part in (p.strip() for p in text.split(",")):
        words = part.split()
        if len(words) > 1 and all(_NUMBER.fullmatch(w) for w in words):
            items += words
        elif part:
            items.append(part)
    return items


_NUMBER = re.compile(r"#?[0-9０-９]+")


PLAIN, WIDE, ODD = "plain", "wide", "odd"
_SIGNED = re.compile(r"[-+−－＋ー‐–—]\s*[#＃]?[0-9]+")
_CIRCLED = re.compile("[\u2460-\u2473\u24ea\u24f5-\u24fe\u2776-\u2793\u3251-\u325f\u32b1-\u32bf]")


def read_number(text: str) -> tuple[str, str] | None:
    """How a number typed for a card reads: ``(digits, form)``, or None when ``text`` is not a number.

    ``PLAIN`` is ``5`` or ``#5``; ``WIDE`` a form an input method writes for a number (full-width ``５``, circled
    ``①``): surely that number, read and said; ``ODD`` anything else that shows digits (``-5``, ``²``, ``5.``,
    ``⑴``): never taken.

    >>> [read_number(typed) for typed in ("#12", "１２", "⑫", "-5", "²", "EK1")]
    [('12', 'plain'), ('12', 'wide'), ('12', 'wide'), ('5', 'odd'), ('2', 'odd'), None]
    """
    raw = text.strip()
    if re.fullmatch(r"#?[0-9]+", raw):
        return raw.lstrip("#"), PLAIN
    shown = unicodedata.normalize("NFKC", raw)
    digits = "".join(c for c in shown if c in "0123456789")
    if not digits:
        return None
    if re.fullmatch(r"[#＃]?[０-９]+", raw) or _CIRCLED.fullmatch(raw):
        return digits, WIDE
    if fold(raw).lstrip("#").isdigit() or _SIGNED.fullmatch(shown):
        return digits, ODD
    return None
