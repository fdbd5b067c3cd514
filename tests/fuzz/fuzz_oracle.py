"""What every answer to bad input must look like: private, localized, readable, and from the locale files.

The checks return a list of problems (empty when the answer is fine) so the harness can count and report
them rather than stop at the first one.
"""

from __future__ import annotations

import re
import string
from functools import cache

from bot.i18n import catalog_texts, t

# A Python error that reached a user: a traceback, a file/line, an exception class, a repr.
TRACEBACK = re.compile(
    r"Traceback \(most recent|File \"|\b[A-Z]\w*(Error|Exception)\b|<class '|object at 0x|"
    r"\bNoneType\b"
)
RAW_KEY_LINE = re.compile(r"^[a-z_]+(\.[a-z_]+)+$")
KEY_TOKEN = re.compile(r"(?<![\w./])[a-z_]+(?:\.[a-z_]+){1,4}(?![\w/])")
KEY_PREFIXED = re.compile(
    r"(?<![\w./])(?:seasons|volfyirion|refuse|form|word|store|action|reply|button|console)"
    r"(?:\.[a-z_]+)+(?![\w/])"
)
PLACEHOLDER = re.compile(r"\{[A-Za-z_][\w.\[\]!:]*\}")
JAPANESE = re.compile(r"[\u3040-\u30ff\u3400-\u9fff\uff66-\uff9f]")


@cache
def _known_keys() -> frozenset[str]:
    return frozenset(k for texts in catalog_texts().values() for k in texts)


@cache
def _template_chunks(lang: str) -> tuple[tuple[str, ...], ...]:
    """Each template's literal text between its placeholders (the parts that show whatever is filled in)."""
    found = []
    for template in catalog_texts()[lang].values():
        try:
            parts = [literal for literal, *_ in string.Formatter().parse(template)]
        except ValueError:
            parts = [template]
        chunks = tuple(p.strip() for p in parts if len(p.strip()) >= 4)
        if chunks:
            found.append(chunks)
    return tuple(found)


def _is_refusal_key(key: str) -> bool:
    head, _, rest = key.partition(".")
    if head in ("refuse", "store") or key in ("form.missing", "form.not_a_number"):
        return True
    return head in ("seasons", "volfyirion") and rest != "" and "." not in rest


@cache
def _refusal_chunks(lang: str) -> tuple[tuple[str, tuple[str, ...]], ...]:
    found = []
    for key, template in catalog_texts()[lang].items():
        if not _is_refusal_key(key):
            continue
        parts = [literal for literal, *_ in string.Formatter().parse(template)]
        chunks = tuple(p.strip() for p in parts if len(p.strip()) >= 4)
        if chunks and sum(map(len, chunks)) >= 15:
            found.append((key, chunks))
    return tuple(found)


def refusal_key(text: str, lang: str) -> str | None:
    """The refusal template (refuse.*, store.*, an engine error) that `text` shows, if any."""
    for key, chunks in _refusal_chunks(lang):
        pos = 0
        for chunk in chunks:
            pos = text.find(chunk, pos)
            if pos < 0:
                break
            pos += len(chunk)
        else:
            return key
    return None


def from_locale(text: str, lang: str) -> bool:
    """True when some template of `lang` shows in `text` (all its literal parts, in order)."""
    for chunks in _template_chunks(lang):
        pos = 0
        for chunk in chunks:
            pos = text.find(chunk, pos)
            if pos < 0:
                break
            pos += len(chunk)
        else:
            return True
    return False


def lang_for(locale: str) -> str:
    return "ja" if locale.lower().startswith("ja") else "en"


def internal_error_text(lang: str) -> str:
    return t(lang, "refuse.internal")


def text_problems(
    text: str, locale: str, typed: list[str], *, refused: bool, language: bool = True
) -> list[str]:
    """Problems in an answer's visible text. `typed` holds the strings the user sent (echoing them back is
    fine, so a brace or a dotted word that came from the user is not counted). `refused`: the answer is a
    refusal, so it must be one of the locale's templates. `language`: a Japanese user's answer must hold
    Japanese (not for autocomplete choices, which may be card names that have no Japanese form)."""
    problems = []
    echoed = "\n".join(typed)
    if not text.strip():
        problems.append("empty answer")
    for match in TRACEBACK.finditer(text):
        if match[0] not in echoed:
            problems.append(f"python error shown: {match[0]!r}")
    for line in text.splitlines():
        if RAW_KEY_LINE.fullmatch(line.strip()) and line.strip() not in echoed:
            problems.append(f"raw message key shown: {line.strip()!r}")
    for match in [*KEY_TOKEN.finditer(text), *KEY_PREFIXED.finditer(text)]:
        if (match[0] in _known_keys() or KEY_PREFIXED.fullmatch(match[0])) and match[0] not in echoed:
            problems.append(f"raw message key shown: {match[0]!r}")
    for match in PLACEHOLDER.finditer(text):
        if match[0] not in echoed:
            problems.append(f"unfilled placeholder: {match[0]!r}")
    lang = lang_for(locale)
    # A value far past Discord's length limits, echoed back, may crowd the sentence out of the clipped
    # answer (the bot trusts Discord's max_length): the language checks only judge answers it left room for.
    crowded = any(len(s) > 1000 and s[:40] in text for s in typed)
    if not refused and (key := refusal_key(text, lang)):
        problems.append(f"a refusal ({key}) shown publicly")
    if language and not crowded and lang == "ja" and text.strip() and not JAPANESE.search(text):
        problems.append(f"Japanese user answered without Japanese: {text[:120]!r}")
    if refused and not crowded and not from_locale(text, lang):
        problems.append(f"refusal not from the {lang} locale files: {text[:120]!r}")
    return problems


def strings_in(value: object) -> list[str]:
    """Every string inside a payload value (what the user typed, for `text_problems`)."""
    if isinstance(value, str):
        return [value]
    if isinstance(value, dict):
        return [s for k, v in value.items() for s in strings_in(k) + strings_in(v)]
    if isinstance(value, list | tuple):
        return [s for v in value for s in strings_in(v)]
    if value is None or isinstance(value, bool):
        return []
    return [str(value)]
