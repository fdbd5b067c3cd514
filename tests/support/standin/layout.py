"""What Discord refuses in a Components V2 message (flag IS_COMPONENTS_V2, 1 << 15), checked as Discord checks it.

From Discord's documentation (developers/components/reference.mdx, developers/resources/message.mdx, "Create
Message" and "Edit Message"):
- with the flag, a message holds only `components`: `content`, `embeds`, `sticker_ids` or `poll` is a 400
  (``content[MESSAGE_CANNOT_USE_LEGACY_FIELDS_WITH_COMPONENTS_V2]``); an edit that sets the flag on a message
  that has content or embeds must clear them (`content: null`, `embeds: []`) in the same request;
- the flag cannot be removed: an edit of a V2 message is checked as V2 whether it repeats the flag or not,
  and one that sends `flags` without it is refused;
- at most 40 components in all, nested ones (a section's accessory too) counted; at most 4,000 characters of
  Text Display content in all (each Text Display 1 to 4,000);
- where each component may stand: at the top Action Row, Section, Text Display, Media Gallery, File, Separator,
  Container; in a Container the same but no Container; in a Section 1 to 3 Text Displays and one accessory,
  a Button or a Thumbnail (a Thumbnail stands nowhere else); an Action Row holds up to 5 buttons or one select;
  a Media Gallery 1 to 10 items; a File only ``attachment://`` media; alt texts up to 1,024 characters;
- ``attachment://name`` must name a file of the message: uploaded with it, or, after an edit, one of the
  attachments it keeps or adds;
- without the flag, only Action Rows stand at the top (at most 5, checked in .limits).

The error codes are Discord's where its documentation or its answers quoted in public reports name them
(MESSAGE_CANNOT_USE_LEGACY_FIELDS_WITH_COMPONENTS_V2, BASE_TYPE_*, UNION_TYPE_CHOICES); the others
(COMPONENTS_V2_FLAG_REMOVED, UNFURLED_MEDIA_ITEM_ATTACHMENT_NOT_FOUND) are this stand-in's names for refusals
Discord documents without a code. Custom ids unique in a message, labels and options: .limits.
"""

from __future__ import annotations

from collections.abc import Iterable
from typing import Any

from bot.standin.controls import walk

from .limits import Collector, Errors

IS_COMPONENTS_V2 = 1 << 15
V2_COMPONENTS_MAX = 40
TEXT_TOTAL_MAX = 4000
SECTION_TEXTS = (1, 3)
GALLERY_ITEMS = (1, 10)
ALT_TEXT_MAX = 1024
ACCENT_MAX = 0xFFFFFF

ACTION_ROW, BUTTON, SECTION, TEXT_DISPLAY, THUMBNAIL, MEDIA_GALLERY, FILE, SEPARATOR, CONTAINER = \
    1, 2, 9, 10, 11, 12, 13, 14, 17
SELECTS = (3, 5, 6, 7, 8)
TOP_LEVEL = (ACTION_ROW, SECTION, TEXT_DISPLAY, MEDIA_GALLERY, FILE, SEPARATOR, CONTAINER)
IN_CONTAINER = (ACTION_ROW, SECTION, TEXT_DISPLAY, MEDIA_GALLERY, FILE, SEPARATOR)
IN_SECTION = (TEXT_DISPLAY,)
ACCESSORIES = (BUTTON, THUMBNAIL)
IN_ROW = (BUTTON, *SELECTS)
LEGACY_FIELDS = {"content": None, "embeds": [], "sticker_ids": [], "poll": None}  # and what clears each
ATTACHMENT = "attachment://"


def is_v2(body: dict, before: dict | None = None) -> bool:
    """Whether a create (``before`` None) or an edit of the message ``before`` is checked as Components V2."""
    flags = int(body.get("flags") or 0) | int((before or {}).get("flags") or 0)
    return bool(flags & IS_COMPONENTS_V2)


def v2_errors(body: dict, *, prefix: tuple = (), before: dict | None = None,
              attachments: Iterable[str] = ()) -> Errors:
    """Discord's error tree for a message body (create, edit of ``before``, callback data) as Components V2
    sees it; ``attachments``: the file names the message will have. Empty: fine."""
    out = Collector()
    components = body.get("components") or []
    if not is_v2(body, before):
        for i, comp in enumerate(components):
            _type_in(out, prefix + ("components", i), comp, (ACTION_ROW,))
        return out.tree
    was_v2 = before is not None and int(before.get("flags") or 0) & IS_COMPONENTS_V2
    if was_v2 and "flags" in body and not int(body["flags"] or 0) & IS_COMPONENTS_V2:
        out.add(prefix + ("flags",), "COMPONENTS_V2_FLAG_REMOVED",
                "The IS_COMPONENTS_V2 flag cannot be removed from a message.")
    _legacy_fields(out, prefix, body, before if not was_v2 else None)
    if "components" not in body:
        return out.tree
    if _count(components) > V2_COMPONENTS_MAX:
        out.add(prefix + ("components",), "BASE_TYPE_MAX_LENGTH", f"Must be {V2_COMPONENTS_MAX} or fewer in length.")
    texts = [c for c in walk(components) if c.get("type") == TEXT_DISPLAY]
    if sum(len(str(c.get("content") or "")) for c in texts) > TEXT_TOTAL_MAX:
        out.add(prefix + ("components",), "BASE_TYPE_MAX_LENGTH",
                f"The total length of Text Display content must be {TEXT_TOTAL_MAX} or fewer.")
    names = set(attachments)
    for i, comp in enumerate(components):
        _component(out, prefix + ("components", i), comp, TOP_LEVEL, names)
    return out.tree


def _legacy_fields(out: Collector, prefix: tuple, body: dict, before: dict | None) -> None:
    """No content, embeds, stickers or poll with the flag; an edit that adds the flag clears the old ones."""
    for field, cleared in LEGACY_FIELDS.items():
        sent = body.get(field)
        if field in body and sent not in (None, "", []):
            out.add(prefix + (field,), "MESSAGE_CANNOT_USE_LEGACY_FIELDS_WITH_COMPONENTS_V2",
                    f"The '{field}' field cannot be used when using MessageFlags.IS_COMPONENTS_V2")
        elif before is not None and before.get(field) not in (None, "", []) and field not in body:
            out.add(prefix + (field,), "MESSAGE_CANNOT_USE_LEGACY_FIELDS_WITH_COMPONENTS_V2",
                    f"The '{field}' field must be reset to {cleared!r} when setting MessageFlags.IS_COMPONENTS_V2")


def _count(components: list) -> int:
    return sum(1 for _ in walk(components))


def _type_in(out: Collector, path: tuple, comp: Any, allowed: tuple[int, ...]) -> bool:
    if isinstance(comp, dict) and comp.get("type") in allowed:
        return True
    out.add(path + ("type",), "UNION_TYPE_CHOICES",
            f"Value of field \"type\" must be one of {tuple(sorted(allowed))}.")
    return False


def _component(out: Collector, path: tuple, comp: dict, allowed: tuple[int, ...], names: set[str]) -> None:
    if not _type_in(out, path, comp, allowed):
        return
    kind = comp["type"]
    if kind == CONTAINER:
        accent = comp.get("accent_color")
        if accent is not None and not (isinstance(accent, int) and 0 <= accent <= ACCENT_MAX):
            out.add(path + ("accent_color",), "NUMBER_TYPE_MAX", f"int value should be <= {ACCENT_MAX}.")
        children = comp.get("components") or []
        if not children:
            out.add(path + ("components",), "BASE_TYPE_REQUIRED", "This field is required")
        for j, child in enumerate(children):
            _component(out, path + ("components", j), child, IN_CONTAINER, names)
    elif kind == SECTION:
        children = comp.get("components") or []
        out.length_between(path + ("components",), children, *SECTION_TEXTS)
        for j, child in enumerate(children):
            _component(out, path + ("components", j), child, IN_SECTION, names)
        accessory = comp.get("accessory")
        if accessory is None:
            out.add(path + ("accessory",), "BASE_TYPE_REQUIRED", "This field is required")
        else:
            _component(out, path + ("accessory",), accessory, ACCESSORIES, names)
    elif kind == ACTION_ROW:
        for j, child in enumerate(comp.get("components") or []):
            _type_in(out, path + ("components", j), child, IN_ROW)  # counts and widths: .limits
    elif kind == TEXT_DISPLAY:
        out.length_between(path + ("content",), comp.get("content"), 1, TEXT_TOTAL_MAX)
    elif kind == THUMBNAIL:
        out.max_length(path + ("description",), comp.get("description"), ALT_TEXT_MAX)
        _media(out, path + ("media",), comp.get("media"), names, uploaded_only=False)
    elif kind == MEDIA_GALLERY:
        items = comp.get("items") or []
        out.length_between(path + ("items",), items, *GALLERY_ITEMS)
        for j, item in enumerate(items):
            out.max_length(path + ("items", j, "description"), item.get("description"), ALT_TEXT_MAX)
            _media(out, path + ("items", j, "media"), item.get("media"), names, uploaded_only=False)
    elif kind == FILE:
        _media(out, path + ("file",), comp.get("file"), names, uploaded_only=True)
    elif kind == SEPARATOR and comp.get("spacing", 1) not in (1, 2):
        out.add(path + ("spacing",), "BASE_TYPE_CHOICES", "Value must be one of {1, 2}.")


def _media(out: Collector, path: tuple, media: Any, names: set[str], *, uploaded_only: bool) -> None:
    """An unfurled media item: a link (http, https) or ``attachment://name`` naming a file of the message."""
    url = str((media or {}).get("url") or "") if isinstance(media, dict) else ""
    if not url:
        out.add(path + ("url",), "BASE_TYPE_REQUIRED", "This field is required")
    elif url.startswith(ATTACHMENT):
        if url[len(ATTACHMENT):] not in names:
            out.add(path + ("url",), "UNFURLED_MEDIA_ITEM_ATTACHMENT_NOT_FOUND",
                    f"No attachment named {url[len(ATTACHMENT):]!r} in the message.")
    elif uploaded_only or not url.startswith(("http://", "https://")):
        out.add(path + ("url",), "UNFURLED_MEDIA_ITEM_INVALID_URL",
                "Must be an attachment:// reference." if uploaded_only else "Scheme must be one of ('http', 'https').")


def attachment_names(body: dict, files: Iterable[str], before: dict | None = None) -> list[str]:
    """The names of the files a message has once ``body`` is taken: the files uploaded with it, and after an
    edit the old attachments it keeps (all of them when it does not list `attachments`)."""
    kept = list((before or {}).get("attachments") or [])
    if before is not None and "attachments" in body:
        listed = {str(a.get("id")) for a in body.get("attachments") or []}
        kept = [a for a in kept if str(a.get("id")) in listed]
    return [str(a.get("filename")) for a in kept] + list(files)
