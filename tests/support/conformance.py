"""Conformance checks: request bodies against Discord's OpenAPI description, and the documented command
rules the description lacks.

The spec is passed in (tests/openapi.py loads it from tests/data); nothing here reads files. The stand-in runs
these checks in the tests only (``add_validator`` and its twins): the console does not need them.
The schemas are checked by `jsonschema` (draft 2020-12, OpenAPI 3.1's dialect), with two hand rules the
description cannot say itself: `oneOf` is checked as "at least one branch" (`anyOf`) — Discord's description
marks plain unions as oneOf (and anyOf with `x-discord-union: oneOf`) whose branches overlap (e.g. a null
branch and a nullable object), so "exactly one" would reject valid bodies — and an `integer` is an int, never
a float such as 1.0 (Discord's snowflakes and flags are integers on the wire).
"""

from __future__ import annotations

import re
import unicodedata
from collections.abc import Callable, Iterable
from typing import Any

from jsonschema import Draft202012Validator, ValidationError, validators

API_PREFIX = "/api/v10"
MAX_PROBLEMS = 20
MESSAGE_MAX = 300  # a problem quotes its value: a 2001-character content is cut

_INTEGERS = Draft202012Validator.TYPE_CHECKER.redefine(
    "integer", lambda _, value: isinstance(value, int) and not isinstance(value, bool))
OpenAPIValidator = validators.extend(
    Draft202012Validator, {"oneOf": Draft202012Validator.VALIDATORS["anyOf"]}, type_checker=_INTEGERS)

# The sizes a problem states as numbers (the value itself may be long).
_SIZES = {"maxLength": ("length {n} > maxLength {limit}", len), "minLength": ("length {n} < minLength {limit}", len),
          "maxItems": ("{n} items > maxItems {limit}", len), "minItems": ("{n} items < minItems {limit}", len),
          "maxProperties": ("{n} properties > maxProperties {limit}", len)}


class SchemaValidator:
    """Checks a value against any schema of the description; `$ref`s resolve against the whole description."""

    def __init__(self, spec: dict) -> None:
        self.spec = spec
        self._root = OpenAPIValidator(spec)  # the description as the root: its `#/components/...` resolve

    def resolve(self, schema: dict) -> dict:
        while "$ref" in schema:
            node: Any = self.spec
            for part in schema["$ref"].lstrip("#/").split("/"):
                node = node[part]
            schema = node
        return schema

    def errors(self, schema: dict, value: Any, path: str = "$") -> list[str]:
        """Every way `value` breaks `schema` (empty when it conforms)."""
        # `evolve` keeps the root's resolver: the schema's `$ref`s resolve in the whole description.
        return [self._say(error, path) for error in self._root.evolve(schema=schema).iter_errors(value)]

    def _say(self, error: ValidationError, root: str) -> str:
        where = _where(root, error.absolute_path)
        keyword, limit = error.validator, error.validator_value
        if keyword == "type":
            allowed = limit if isinstance(limit, list) else [limit]
            return f"{where}: {_kind(error.instance)} is not {'/'.join(allowed)}"
        if keyword in ("anyOf", "oneOf"):
            closest = self._closest(error, root)
            return f"{where}: matches no branch of {keyword}; closest: {'; '.join(closest[:3])}"
        if keyword == "required":  # one error per missing name, the name quoted first in its message
            return f"{where}: missing required {error.message.removesuffix(' is a required property')}"
        if keyword == "additionalProperties" and limit is False:
            known = error.schema.get("properties", {}) if isinstance(error.schema, dict) else {}
            extra = ", ".join(repr(name) for name in error.instance if name not in known)
            return f"{where}: unexpected property {extra}"
        if keyword in _SIZES:
            template, size = _SIZES[str(keyword)]
            return f"{where}: " + template.format(n=size(error.instance), limit=limit)
        return f"{where}: {error.message[:MESSAGE_MAX]}"

    def _closest(self, error: ValidationError, root: str) -> list[str]:
        """The problems of the union branch closest to matching: right type first, then right `type` tag, then
        fewest problems."""
        branches: dict[Any, list[ValidationError]] = {}
        for sub in error.context or []:
            branches.setdefault(sub.relative_schema_path[0], []).append(sub)
        here = list(error.absolute_path)

        def rank(errors: list[ValidationError]) -> tuple[bool, bool, int]:
            type_bad = any(e.validator == "type" and list(e.absolute_path) == here for e in errors)
            tag_bad = any(list(e.absolute_path) == [*here, "type"] for e in errors)
            return (type_bad, tag_bad, len(errors))

        best = min(branches.values(), key=rank, default=[])
        return [self._say(e, root) for e in best]

    # -- requests --

    def request_schema(self, method: str, path: str) -> dict | None:
        """The JSON request body schema of the operation matching `path` (with or without /api/v10)."""
        if path.startswith(API_PREFIX):
            path = path[len(API_PREFIX):]
        best: tuple[int, dict] | None = None
        for template, item in self.spec["paths"].items():
            regex = "^" + re.sub(r"\\\{[^}]+\\\}", "[^/]+", re.escape(template)) + "$"
            operation = item.get(method.lower())
            if operation is None or re.match(regex, path) is None:
                continue
            content = (operation.get("requestBody") or {}).get("content", {})
            schema = (content.get("application/json") or {}).get("schema")
            literal = len(re.sub(r"\{[^}]+\}", "", template))  # prefer `@original` over `{message_id}`
            if schema is not None and (best is None or literal > best[0]):
                best = (literal, schema)
        return best[1] if best else None

    def request_errors(self, method: str, path: str, body: Any) -> list[str]:
        schema = self.request_schema(method, path)
        if schema is None:
            return [f"{method} {path}: no request body schema in the OpenAPI description"]
        return self.errors(schema, body)[:MAX_PROBLEMS]


def _where(root: str, path: Iterable[Any]) -> str:
    """``$.data.embeds[0].title`` for the path of keys and indexes ``path`` under ``root``."""
    return root + "".join(f"[{p}]" if isinstance(p, int) else f".{p}" for p in path)


def _kind(value: Any) -> str:
    return {type(None): "null", bool: "boolean", int: "integer", float: "number", str: "string",
            list: "array", dict: "object"}.get(type(value), type(value).__name__)


def openapi_validator(spec: dict) -> Callable[[str, str, str, Any], list[str]]:
    """A stand-in validator (`standin.add_validator(openapi_validator(spec))`): every JSON body the bot
    sends must conform to the OpenAPI description; a command sync must also pass `check_command_payload`."""
    validator = SchemaValidator(spec)

    def validate(kind: str, method: str, path: str, body: Any) -> list[str]:
        problems = validator.request_errors(method, path, _with_attachment_ids_as_strings(body))
        if kind == "commands" and isinstance(body, list):
            problems += check_command_payload(body)
        return problems

    return validate


def _with_attachment_ids_as_strings(body: Any) -> Any:
    """discord.py numbers new uploads `{"id": 0}` (the index of `files[0]`), as Discord's docs say to; the
    OpenAPI description types attachment ids as snowflake strings only. Read the index as its string."""
    if not isinstance(body, dict):
        return body
    data = body.get("data") if isinstance(body.get("data"), dict) else body
    attachments = data.get("attachments")
    if not isinstance(attachments, list):
        return body
    fixed = [a | {"id": str(a["id"])} if isinstance(a, dict) and isinstance(a.get("id"), int) else a
             for a in attachments]
    if data is body:
        return body | {"attachments": fixed}
    return body | {"data": data | {"attachments": fixed}}


# -- the documented command rules the OpenAPI description lacks ---------------------------------------------

COMMAND_CHARS_MAX = 8000
OPTIONS_MAX = 25
CHOICES_MAX = 25


def _name_char_ok(char: str) -> bool:
    """One character of `^[-_\\p{L}\\p{N}\\p{sc=Deva}\\p{sc=Thai}]` (scripts approximated by their blocks)."""
    if char in "-_":
        return True
    if unicodedata.category(char)[0] in "LN":
        return True
    code = ord(char)
    return 0x0900 <= code <= 0x097F or 0x0E00 <= code <= 0x0E7F or 0xA8E0 <= code <= 0xA8FF


def name_problems(name: Any, where: str) -> list[str]:
    if not isinstance(name, str) or not 1 <= len(name) <= 32 or not all(_name_char_ok(c) for c in name):
        return [f"{where}: name {name!r} does not match ^[-_\\p{{L}}\\p{{N}}\\p{{sc=Deva}}\\p{{sc=Thai}}]{{1,32}}$"]
    if name != name.lower():
        return [f"{where}: name {name!r} must be lowercase"]
    return []


def _localized(node: dict, key: str) -> list[str]:
    """The field and all its translations."""
    values = [node.get(key)]
    values += list((node.get(f"{key}_localizations") or {}).values())
    return [v for v in values if v is not None]


def _longest(node: dict, key: str) -> int:
    return max((len(str(v)) for v in _localized(node, key)), default=0)


def check_command_payload(commands: list[dict]) -> list[str]:
    """Discord's documented rules for a bulk command sync that the OpenAPI description does not carry:
    CHAT_INPUT command and option names match the naming regex and are lowercase (translations too),
    descriptions 1-100 characters, at most 25 options per level and 25 choices, choice names 1-100 and
    string values up to 100, unique names per level, and at most 8000 characters per command counting
    names, descriptions and choice names/values — each field counted at its longest locale."""
    problems: list[str] = []
    seen: set[tuple[int, str]] = set()
    for command in commands:
        kind = command.get("type", 1) or 1
        where = f"/{command.get('name')}"
        if (kind, command.get("name")) in seen:
            problems.append(f"{where}: duplicate command name")
        seen.add((kind, command.get("name")))
        if kind != 1:
            continue
        for name in _localized(command, "name"):
            problems += name_problems(name, where)
        problems += _description_problems(command, where)
        problems += _options_problems(command.get("options") or [], where)
        total = _characters(command)
        if total > COMMAND_CHARS_MAX:
            problems.append(f"{where}: {total} characters > {COMMAND_CHARS_MAX} per command")
    return problems


def _description_problems(node: dict, where: str) -> list[str]:
    return [f"{where}: description {d!r} must be 1-100 characters"
            for d in _localized(node, "description") or [None]
            if not isinstance(d, str) or not 1 <= len(d) <= 100]


def _options_problems(options: list[dict], where: str) -> list[str]:
    problems = []
    if len(options) > OPTIONS_MAX:
        problems.append(f"{where}: {len(options)} options > {OPTIONS_MAX}")
    names = [o.get("name") for o in options]
    if len(set(names)) < len(names):
        problems.append(f"{where}: option names are not unique")
    required_seen_optional = False
    for option in options:
        here = f"{where} {option.get('name')}"
        for name in _localized(option, "name"):
            problems += name_problems(name, here)
        problems += _description_problems(option, here)
        if option.get("type") in (1, 2):
            problems += _options_problems(option.get("options") or [], here)
            continue
        if option.get("required") and required_seen_optional:
            problems.append(f"{here}: a required option after an optional one")
        required_seen_optional |= not option.get("required")
        choices = option.get("choices") or []
        if len(choices) > CHOICES_MAX:
            problems.append(f"{here}: {len(choices)} choices > {CHOICES_MAX}")
        if choices and option.get("autocomplete"):
            problems.append(f"{here}: autocomplete with choices")
        for choice in choices:
            for name in _localized(choice, "name"):
                if not isinstance(name, str) or not 1 <= len(name) <= 100:
                    problems.append(f"{here}: choice name {name!r} must be 1-100 characters")
            value = choice.get("value")
            if isinstance(value, str) and len(value) > 100:
                problems.append(f"{here}: choice value {value[:20]!r}… longer than 100 characters")
    return problems


def _characters(node: dict) -> int:
    """Names, descriptions and choice names/values of a command and everything under it."""
    total = _longest(node, "name") + _longest(node, "description")
    for choice in node.get("choices") or []:
        total += _longest(choice, "name") + len(str(choice.get("value", "")))
    for option in node.get("options") or []:
        total += _characters(option)
    return total


# -- the stand-in's own answers: REST responses and gateway events ----------------------------------------------

def response_schema(validator: SchemaValidator, method: str, path: str, status: int) -> dict | None:
    """The JSON schema of the documented `status` response of the operation matching `path`."""
    if path.startswith(API_PREFIX):
        path = path[len(API_PREFIX):]
    best: tuple[int, dict] | None = None
    for template, item in validator.spec["paths"].items():
        regex = "^" + re.sub(r"\\\{[^}]+\\\}", "[^/]+", re.escape(template)) + "$"
        operation = item.get(method.lower())
        if operation is None or re.match(regex, path) is None:
            continue
        response = (operation.get("responses") or {}).get(str(status)) or {}
        response = validator.resolve(response) if "$ref" in response else response
        schema = ((response.get("content") or {}).get("application/json") or {}).get("schema")
        literal = len(re.sub(r"\{[^}]+\}", "", template))
        if schema is not None and (best is None or literal > best[0]):
            best = (literal, schema)
    return best[1] if best else None


def response_validator(spec: dict) -> Callable[[str, str, int, Any], list[str]]:
    """`standin.add_response_validator(response_validator(spec))`: every JSON body the stand-in answers
    must conform to the response the OpenAPI description documents for that route and status."""
    validator = SchemaValidator(spec)

    def validate(method: str, path: str, status: int, body: Any) -> list[str]:
        schema = response_schema(validator, method, path, status)
        if schema is None:
            return []
        return validator.errors(schema, _channel(body))[:MAX_PROBLEMS]

    return validate


# Gateway events are not in the OpenAPI description, but their parts are the REST objects it describes.
_GATEWAY_ONLY_GUILD = ("channels", "threads", "members", "voice_states", "presences", "stage_instances",
                       "guild_scheduled_events", "joined_at", "large", "member_count", "unavailable",
                       "soundboard_sounds", "embedded_activities")
_CHANNEL = {"oneOf": [{"$ref": "#/components/schemas/GuildChannelResponse"},
                      {"$ref": "#/components/schemas/PrivateChannelResponse"},
                      {"$ref": "#/components/schemas/PrivateGroupChannelResponse"},
                      {"$ref": "#/components/schemas/ThreadResponse"}]}


def _ref(name: str) -> dict:
    return {"$ref": f"#/components/schemas/{name}"}


GUILD_MEDIA, GUILD_FORUM = 16, 15


def _channel(channel: Any) -> Any:
    """Media channels (16) are missing from the description's channel type enum (it has forums, 15, which
    they share their shape with): check one as a forum."""
    if isinstance(channel, dict) and channel.get("type") == GUILD_MEDIA:
        return channel | {"type": GUILD_FORUM}
    return channel


def _member(member: dict) -> dict:
    """A gateway member carries `permissions` (in interactions) beyond the REST member object."""
    return {k: v for k, v in member.items() if k != "permissions"}


def event_parts(event: str, data: Any) -> list[tuple[str, dict, Any]]:
    """(where, schema, value) for each part of a gateway event that the OpenAPI description describes."""
    if not isinstance(data, dict):
        return []
    parts: list[tuple[str, dict, Any]] = []
    if event == "READY":
        parts.append(("user", _ref("UserPIIResponse"), data.get("user")))
    elif event == "GUILD_CREATE":
        parts.append(("guild", _ref("GuildResponse"),
                      {k: v for k, v in data.items() if k not in _GATEWAY_ONLY_GUILD}))
        parts += [(f"channels[{i}]", _CHANNEL, _channel(c)) for i, c in enumerate(data.get("channels") or [])]
        parts += [(f"threads[{i}]", _ref("ThreadResponse"), c) for i, c in enumerate(data.get("threads") or [])]
        parts += [(f"members[{i}]", _ref("GuildMemberResponse"), _member(m))
                  for i, m in enumerate(data.get("members") or [])]
    elif event in ("CHANNEL_UPDATE", "THREAD_UPDATE"):
        parts.append(("channel", _CHANNEL, _channel(data)))
    elif event == "GUILD_MEMBERS_CHUNK":
        parts += [(f"members[{i}]", _ref("GuildMemberResponse"), _member(m))
                  for i, m in enumerate(data.get("members") or [])]
    elif event == "INTERACTION_CREATE":
        if "channel" in data:
            parts.append(("channel", _CHANNEL, _channel(data["channel"])))
        if "member" in data:
            parts.append(("member", _ref("GuildMemberResponse"), _member(data["member"])))
        if "user" in data:
            parts.append(("user", _ref("UserResponse"), data["user"]))
        if "message" in data:
            parts.append(("message", _ref("MessageResponse"), data["message"]))
    return parts


def event_validator(spec: dict) -> Callable[[str, Any], list[str]]:
    """`standin.add_event_validator(event_validator(spec))`: the parts of every gateway event the stand-in
    sends (users, guilds, channels, threads, members, messages) conform to the description's objects."""
    validator = SchemaValidator(spec)

    def validate(event: str, data: Any) -> list[str]:
        problems: list[str] = []
        for where, schema, value in event_parts(event, data):
            problems += [f"{event} {where}{p[1:]}" for p in validator.errors(schema, value)]
        return problems[:MAX_PROBLEMS]

    return validate
