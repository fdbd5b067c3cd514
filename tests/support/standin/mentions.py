"""Whom a message would notify, computed the way Discord does from the body the bot sends (issue 35).

What pings: user (``<@id>``, ``<@!id>``), role (``<@&id>``) and ``@everyone``/``@here`` mentions in the
message's `content` and in its Text Display components (Components V2: "pingable mentions present in this
component will ping ... based on the value of the allowed mention object"). What never pings: embeds (Discord
renders their mentions and notifies no one), button labels, select options.

Which of them ping is the body's `allowed_mentions`:
- absent: every mention in the text pings (and a reply pings the author replied to);
- present: only the types its `parse` names (``users``, ``roles``, ``everyone``), plus the ids its `users` and
  `roles` list — each of them only if the text mentions it —, and the replied-to author only with
  ``replied_user: true``.

The result is a superset of what Discord would deliver: Discord also needs the Mention Everyone permission for
``@everyone``/``@here`` and a mentionable role (or that permission) for a role, and drops mentions inside
code. The stand-in ignores those, so "no pings" here means none whatever the server's roles and permissions.

`allowed_mentions_errors` refuses what Discord refuses: an unknown `parse` type, a type both parsed and listed
(``parse: ["users"]`` with ``users: [...]``), more than 100 ids in a list.
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from typing import Any

USER = re.compile(r"<@!?(\d+)>")
ROLE = re.compile(r"<@&(\d+)>")
EVERYONE = re.compile(r"@(?:everyone|here)\b")
TEXT_DISPLAY = 10
PARSE_TYPES = ("users", "roles", "everyone")
IDS_MAX = 100


@dataclass(frozen=True)
class Pings:
    """The notifications one message makes."""

    users: frozenset[int] = frozenset()
    roles: frozenset[int] = frozenset()
    everyone: bool = False  # @everyone or @here
    replied_user: bool = False  # the author of the message replied to

    def __bool__(self) -> bool:
        return bool(self.users or self.roles or self.everyone or self.replied_user)


def pinging_text(body: dict[str, Any]) -> list[str]:
    """The texts of a message body whose mentions can ping: its content and its Text Displays."""
    texts = [body["content"]] if isinstance(body.get("content"), str) else []
    texts += _text_displays(body.get("components") or [])
    return texts


def _text_displays(components: list[Any]) -> list[str]:
    found: list[str] = []
    for comp in components:
        if not isinstance(comp, dict):
            continue
        if comp.get("type") == TEXT_DISPLAY and isinstance(comp.get("content"), str):
            found.append(comp["content"])
        found += _text_displays(comp.get("components") or [])
        accessory = comp.get("accessory")
        if isinstance(accessory, dict):
            found += _text_displays([accessory])
    return found


def pings(body: dict[str, Any]) -> Pings:
    """Whom `body` (a message create or edit, a callback's `data`) would notify."""
    text = "\n".join(pinging_text(body))
    users = {int(i) for i in USER.findall(text)}
    roles = {int(i) for i in ROLE.findall(text)}
    everyone = bool(EVERYONE.search(text))
    reply = body.get("message_reference") is not None
    allowed = body.get("allowed_mentions")
    if allowed is None:  # Discord's default: everything the text mentions
        return Pings(frozenset(users), frozenset(roles), everyone, reply)
    parse = set(allowed.get("parse") or [])
    listed_users = {int(i) for i in allowed.get("users") or []}
    listed_roles = {int(i) for i in allowed.get("roles") or []}
    return Pings(
        frozenset(users if "users" in parse else users & listed_users),
        frozenset(roles if "roles" in parse else roles & listed_roles),
        everyone and "everyone" in parse,
        reply and bool(allowed.get("replied_user")),
    )


def allowed_mentions_errors(body: dict[str, Any], *, prefix: tuple[str, ...] = ()) -> dict[str, Any]:
    """Discord's nested error tree for a body's `allowed_mentions` (empty: fine)."""
    allowed = body.get("allowed_mentions")
    if allowed is None:
        return {}
    errors: dict[str, Any] = {}

    def add(key: str, code: str, message: str) -> None:
        errors.setdefault(key, {}).setdefault("_errors", []).append({"code": code, "message": message})

    parse = allowed.get("parse") or []
    for value in parse:
        if value not in PARSE_TYPES:
            add("parse", "BASE_TYPE_CHOICES", f"Value must be one of {set(PARSE_TYPES)}.")
    for kind in ("users", "roles"):
        listed = allowed.get(kind) or []
        if len(listed) > IDS_MAX:
            add(kind, "BASE_TYPE_MAX_LENGTH", f"Must be {IDS_MAX} or fewer in length.")
        if listed and kind in parse:
            add("parse", "SET_TYPE_ALREADY_CONTAINS_VALUE",
                f"parse:[\"{kind}\"] and {kind}: [ids...] are mutually exclusive.")
    if not errors:
        return {}
    tree: dict[str, Any] = {"allowed_mentions": errors}
    for key in reversed(prefix):
        tree = {key: tree}
    return tree
