"""Discord's payload limits, checked the way Discord checks them.

Each check returns Discord's nested error tree (`{"embeds": {"0": {"title": {"_errors": [...]}}}}`), empty
when the payload is fine. The numbers are Discord's documented limits (message resource, embed limits,
component reference, interaction response reference).
"""

from __future__ import annotations

from typing import Any

CONTENT_MAX = 2000
EMBEDS_MAX = 10
EMBED_TOTAL_MAX = 6000
EMBED_LIMITS = {"title": 256, "description": 4096}
FIELDS_MAX = 25
FIELD_NAME_MAX = 256
FIELD_VALUE_MAX = 1024
FOOTER_MAX = 2048
AUTHOR_MAX = 256
ROWS_MAX = 5
ROW_BUTTONS_MAX = 5
CUSTOM_ID_MAX = 100
BUTTON_LABEL_MAX = 80
SELECT_OPTIONS_MAX = 25
SELECT_PLACEHOLDER_MAX = 150
SELECT_OPTION_MAX = 100
CHOICES_MAX = 25
CHOICE_NAME_MAX = 100
CHOICE_VALUE_MAX = 100
MODAL_TITLE_MAX = 45
MODAL_ROWS_MAX = 5
TEXT_INPUT_LABEL_MAX = 45
TEXT_INPUT_VALUE_MAX = 4000
TEXT_INPUT_PLACEHOLDER_MAX = 100
LABEL_DESCRIPTION_MAX = 100

GROUP_OPTIONS_MAX = 10  # a checkbox group's or a radio group's options

IS_COMPONENTS_V2 = 1 << 15
ACTION_ROW, BUTTON, TEXT_INPUT, TEXT_DISPLAY, LABEL = 1, 2, 4, 10, 18
STRING_SELECT, FILE_UPLOAD, RADIO_GROUP, CHECKBOX_GROUP, CHECKBOX = 3, 19, 21, 22, 23
# What a form's Label may hold (exactly one): a text input, a select, a file upload, a radio or checkbox group, a checkbox.
LABEL_CHILDREN = {TEXT_INPUT, 3, 5, 6, 7, 8, FILE_UPLOAD, RADIO_GROUP, CHECKBOX_GROUP, CHECKBOX}
SELECTS = {3, 5, 6, 7, 8}
LINK_STYLE, PREMIUM_STYLE = 5, 6

Errors = dict[str, Any]


class Collector:
    """Builds the nested `errors` tree Discord answers with."""

    def __init__(self) -> None:
        self.tree: Errors = {}

    def add(self, path: tuple, code: str, message: str) -> None:
        node = self.tree
        for key in path:
            node = node.setdefault(str(key), {})
        node.setdefault("_errors", []).append({"code": code, "message": message})

    def max_length(self, path: tuple, value: Any, limit: int) -> None:
        if value is not None and len(value) > limit:
            self.add(path, "BASE_TYPE_MAX_LENGTH", f"Must be {limit} or fewer in length.")

    def length_between(self, path: tuple, value: Any, low: int, high: int) -> None:
        if value is None or not low <= len(value) <= high:
            self.add(path, "BASE_TYPE_BAD_LENGTH", f"Must be between {low} and {high} in length.")


def message_errors(data: dict, *, prefix: tuple = (), v2: bool | None = None) -> Errors:
    """Limits of a message body (create, edit, followup, callback data of type 4 or 7); ``v2``: whether it is
    checked as Components V2 (default: its own flag; an edit of a V2 message is V2 without it). What V2 adds
    (its total count, nesting, text, media): .layout."""
    out = Collector()
    out.max_length(prefix + ("content",), data.get("content"), CONTENT_MAX)
    embeds = data.get("embeds") or []
    out.max_length(prefix + ("embeds",), embeds, EMBEDS_MAX)
    total = 0
    for i, embed in enumerate(embeds):
        total += _embed_errors(out, prefix + ("embeds", i), embed)
    if total > EMBED_TOTAL_MAX:
        out.add(prefix + ("embeds",), "MAX_EMBED_SIZE_EXCEEDED", f"Embed size exceeds maximum size of {EMBED_TOTAL_MAX}")
    _components_errors(out, prefix + ("components",), data.get("components") or [],
                       v2=bool((data.get("flags") or 0) & IS_COMPONENTS_V2) if v2 is None else v2)
    return out.tree


def _embed_errors(out: Collector, path: tuple, embed: dict) -> int:
    """Checks one embed and returns its size as Discord counts it towards the 6000."""
    size = 0
    for key, limit in EMBED_LIMITS.items():
        out.max_length(path + (key,), embed.get(key), limit)
        size += len(embed.get(key) or "")
    fields = embed.get("fields") or []
    out.max_length(path + ("fields",), fields, FIELDS_MAX)
    for j, fld in enumerate(fields):
        out.length_between(path + ("fields", j, "name"), fld.get("name"), 1, FIELD_NAME_MAX)
        out.length_between(path + ("fields", j, "value"), fld.get("value"), 1, FIELD_VALUE_MAX)
        size += len(fld.get("name") or "") + len(fld.get("value") or "")
    footer = (embed.get("footer") or {}).get("text")
    out.max_length(path + ("footer", "text"), footer, FOOTER_MAX)
    author = (embed.get("author") or {}).get("name")
    out.max_length(path + ("author", "name"), author, AUTHOR_MAX)
    return size + len(footer or "") + len(author or "")


def _components_errors(out: Collector, path: tuple, components: list, *, v2: bool) -> None:
    if not v2:  # a V2 message counts every component, nested ones too (.layout)
        out.max_length(path, components, ROWS_MAX)
    seen: set[str] = set()
    for i, comp in enumerate(components):
        _component_errors(out, path + (i,), comp, seen)


def _component_errors(out: Collector, path: tuple, comp: dict, seen: set[str]) -> None:
    kind = comp.get("type")
    custom_id = comp.get("custom_id")
    if custom_id is not None:
        out.length_between(path + ("custom_id",), custom_id, 1, CUSTOM_ID_MAX)
        if custom_id in seen:
            out.add(path + ("custom_id",), "COMPONENT_CUSTOM_ID_DUPLICATED", "Component custom id cannot be duplicated")
        seen.add(custom_id)
    if kind == ACTION_ROW:
        children = comp.get("components") or []
        if not children:
            out.add(path + ("components",), "BASE_TYPE_BAD_LENGTH", "Must be between 1 and 5 in length.")
        out.max_length(path + ("components",), children, ROW_BUTTONS_MAX)
        if any(c.get("type") in SELECTS for c in children) and len(children) > 1:
            out.add(path + ("components",), "COMPONENT_LAYOUT_WIDTH_EXCEEDED",
                    "The specified component exceeds the maximum width")
        for j, child in enumerate(children):
            _component_errors(out, path + ("components", j), child, seen)
    elif kind == BUTTON:
        out.max_length(path + ("label",), comp.get("label"), BUTTON_LABEL_MAX)
        style = comp.get("style")
        if style == LINK_STYLE and not comp.get("url"):
            out.add(path + ("url",), "BASE_TYPE_REQUIRED", "This field is required")
        if style not in (LINK_STYLE, PREMIUM_STYLE) and custom_id is None:
            out.add(path + ("custom_id",), "BASE_TYPE_REQUIRED", "This field is required")
    elif kind in SELECTS:
        out.max_length(path + ("placeholder",), comp.get("placeholder"), SELECT_PLACEHOLDER_MAX)
        options = comp.get("options")
        if kind == 3:
            out.length_between(path + ("options",), options or [], 1, SELECT_OPTIONS_MAX)
        _option_errors(out, path, options or [])
    else:
        for j, child in enumerate(comp.get("components") or []):
            _component_errors(out, path + ("components", j), child, seen)
        if isinstance(comp.get("accessory"), dict):
            _component_errors(out, path + ("accessory",), comp["accessory"], seen)


def _option_errors(out: Collector, path: tuple, options: list) -> None:
    """A select's (or a group's) options: each label and value 1–100 characters, a description up to 100, and no
    value twice (in a message's select as in a form's)."""
    values = set()
    for j, option in enumerate(options):
        for key in ("label", "value"):
            out.length_between(path + ("options", j, key), option.get(key), 1, SELECT_OPTION_MAX)
        out.max_length(path + ("options", j, "description"), option.get("description"), SELECT_OPTION_MAX)
        if option.get("value") in values:
            out.add(path + ("options", j, "value"), "SELECT_COMPONENT_OPTION_VALUE_DUPLICATED",
                    "Select component option values must be unique")
        values.add(option.get("value"))


def modal_errors(data: dict, *, prefix: tuple = ()) -> Errors:
    """Limits of a modal (callback type 9)."""
    out = Collector()
    out.length_between(prefix + ("title",), data.get("title"), 1, MODAL_TITLE_MAX)
    out.length_between(prefix + ("custom_id",), data.get("custom_id"), 1, CUSTOM_ID_MAX)
    rows = data.get("components") or []
    out.length_between(prefix + ("components",), rows, 1, MODAL_ROWS_MAX)
    seen: set[str] = set()
    for i, row in enumerate(rows):
        path = prefix + ("components", i)
        if row.get("type") == ACTION_ROW:
            inputs = row.get("components") or []
            out.length_between(path + ("components",), inputs, 1, 1)
            for j, comp in enumerate(inputs):
                _text_input_errors(out, path + ("components", j), comp, labelled=False)
                _unique(out, path + ("components", j), comp, seen)
        elif row.get("type") == LABEL:
            out.length_between(path + ("label",), row.get("label"), 1, TEXT_INPUT_LABEL_MAX)
            out.max_length(path + ("description",), row.get("description"), LABEL_DESCRIPTION_MAX)
            inner = row.get("component")
            if not isinstance(inner, dict) or inner.get("type") not in LABEL_CHILDREN:
                out.add(path + ("component",), "UNION_TYPE_CHOICES",
                        "Value of field \"type\" must be one of (4, 3, 5, 6, 7, 8, 19, 21, 22, 23).")
                continue
            _unique(out, path + ("component",), inner, seen)
            if inner["type"] == TEXT_INPUT:
                _text_input_errors(out, path + ("component",), inner, labelled=True)
            else:
                _form_choice_errors(out, path + ("component",), inner)
        elif row.get("type") != TEXT_DISPLAY:
            out.add(path + ("type",), "UNION_TYPE_CHOICES", "Value of field \"type\" must be one of (1, 10, 18).")
    return out.tree


def _unique(out: Collector, path: tuple, comp: dict, seen: set[str]) -> None:
    custom_id = comp.get("custom_id")
    if custom_id in seen:
        out.add(path + ("custom_id",), "COMPONENT_CUSTOM_ID_DUPLICATED", "Component custom id cannot be duplicated")
    if isinstance(custom_id, str):
        seen.add(custom_id)


def _form_choice_errors(out: Collector, path: tuple, comp: dict) -> None:
    """A select, checkbox, checkbox group, radio group or file upload in a form's Label (Discord's component
    reference): its custom_id, its options (1–25 for a string select, 1–10 for a checkbox group, 2–10 for a radio
    group) and min/max values within them."""
    kind = comp["type"]
    out.length_between(path + ("custom_id",), comp.get("custom_id"), 1, CUSTOM_ID_MAX)
    if kind == CHECKBOX:
        if not isinstance(comp.get("default", False), bool):
            out.add(path + ("default",), "BASE_TYPE_BOOLEAN", "Must be either true or false.")
        return
    options = comp.get("options") or []
    low_options, high_options = {STRING_SELECT: (1, SELECT_OPTIONS_MAX), CHECKBOX_GROUP: (1, GROUP_OPTIONS_MAX),
                                 RADIO_GROUP: (2, GROUP_OPTIONS_MAX)}.get(kind, (0, SELECT_OPTIONS_MAX))
    if kind in (STRING_SELECT, CHECKBOX_GROUP, RADIO_GROUP):
        out.length_between(path + ("options",), options, low_options, high_options)
    _option_errors(out, path, options)
    if kind == RADIO_GROUP:
        return
    low, high = comp.get("min_values", 1), comp.get("max_values", 1)
    most = len(options) if kind in (STRING_SELECT, CHECKBOX_GROUP) else SELECT_OPTIONS_MAX
    if not 0 <= low <= most:
        out.add(path + ("min_values",), "NUMBER_TYPE_MAX", f"int value should be <= {most}.")
    if not 1 <= high <= most:
        out.add(path + ("max_values",), "NUMBER_TYPE_MAX", f"int value should be <= {most}.")
    if low > high:
        out.add(path + ("min_values",), "BASE_TYPE_BAD_LENGTH", "min_values must be <= max_values.")
    chosen = sum(1 for o in options if o.get("default"))
    if chosen > high:
        out.add(path + ("options",), "BASE_TYPE_MAX_LENGTH", f"At most {high} options can be chosen by default.")


def _text_input_errors(out: Collector, path: tuple, comp: dict, *, labelled: bool) -> None:
    out.length_between(path + ("custom_id",), comp.get("custom_id"), 1, CUSTOM_ID_MAX)
    if comp.get("type") != TEXT_INPUT:
        return
    if not labelled:
        out.length_between(path + ("label",), comp.get("label"), 1, TEXT_INPUT_LABEL_MAX)
    if comp.get("style") not in (1, 2):
        out.add(path + ("style",), "BASE_TYPE_CHOICES", "Value must be one of {1, 2}.")
    low, high = comp.get("min_length"), comp.get("max_length")
    if low is not None and not 0 <= low <= TEXT_INPUT_VALUE_MAX:
        out.add(path + ("min_length",), "NUMBER_TYPE_MAX", f"int value should be <= {TEXT_INPUT_VALUE_MAX}.")
    if high is not None and not 1 <= high <= TEXT_INPUT_VALUE_MAX:
        out.add(path + ("max_length",), "NUMBER_TYPE_MAX", f"int value should be <= {TEXT_INPUT_VALUE_MAX}.")
    if low is not None and high is not None and low > high:
        out.add(path + ("min_length",), "BASE_TYPE_BAD_LENGTH", "min_length must be <= max_length.")
    out.max_length(path + ("value",), comp.get("value"), high or TEXT_INPUT_VALUE_MAX)
    out.max_length(path + ("placeholder",), comp.get("placeholder"), TEXT_INPUT_PLACEHOLDER_MAX)


def choices_errors(data: dict, *, prefix: tuple = ()) -> Errors:
    """Limits of autocomplete choices (callback type 8)."""
    out = Collector()
    choices = data.get("choices") or []
    out.max_length(prefix + ("choices",), choices, CHOICES_MAX)
    for i, choice in enumerate(choices):
        out.length_between(prefix + ("choices", i, "name"), choice.get("name"), 1, CHOICE_NAME_MAX)
        value = choice.get("value")
        if isinstance(value, str):
            out.max_length(prefix + ("choices", i, "value"), value, CHOICE_VALUE_MAX)
    return out.tree


def is_empty_message(data: dict, files: int) -> bool:
    return not (data.get("content") or data.get("embeds") or data.get("components") or files
                or data.get("sticker_ids") or data.get("poll"))
