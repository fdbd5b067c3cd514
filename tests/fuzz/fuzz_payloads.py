"""A seeded generator of bad interaction payloads: commands, button presses, form submits, autocomplete.

Everything comes from one `random.Random(seed)`, so a case number and a seed name one payload exactly.
Payloads are built by hand (not through the Driver, which refuses what Discord's client would refuse):
the point is what reaches the bot when the payload is wrong.

`Case.malformed` marks a payload whose *shape* Discord never sends (an option without a value, a
snowflake option holding text, a non-list `options`, a component without a type...): discord.py may drop
those before the bot sees them, so no answer is allowed for them — but nothing may change.
"""

from __future__ import annotations

import copy
import random
from dataclasses import dataclass, field
from typing import Any

from tests.support.standin import (
    APPLICATION_COMMAND,
    AUTOCOMPLETE,
    MESSAGE_COMPONENT,
    MODAL_SUBMIT,
    StoredMessage,
)

STRING, INTEGER, BOOLEAN, USER, CHANNEL, ROLE, MENTIONABLE, NUMBER, ATTACHMENT = 3, 4, 5, 6, 7, 8, 9, 10, 11
SNOWFLAKE_TYPES = {USER, CHANNEL, ROLE, MENTIONABLE, ATTACHMENT}
LOCALES = ["en-US", "en-GB", "ja", "ja", "fr", "de", "zh-CN", "ko", "es-ES"]
OPS = [
    "roll",
    "take",
    "reveal",
    "answer",
    "score",
    "cannot_pay",
    "forecast",
    "undo",
    "abandon",
    "end_turn",
    "danger",
    "reshuffle",
    "putaside",
    "form_reveal",
    "form_score",
    "form_answer",
    "form_",
    "nonsense",
]

# Strings a user (or a broken client) may send: empty, huge, emoji, right-to-left, NUL, full-width, format
# fields, message keys, mentions, markdown, SQL, numbers that overflow.
NASTY = [
    "",
    " ",
    "\t\n",
    "x" * 10_000,
    "🎲" * 600,
    "👨‍👩‍👧‍👦🏳️‍🌈" * 50,
    "\u202eevil\u202c",
    "مرحبا بالعالم",
    "שלום",
    "a\x00b",
    "\x00",
    "\x1b[31mred",
    "２　水、３　クリスタル、１点",
    "ＡＢＣ１２３",
    "水水水水",
    "クリスタル" * 300,
    "{0}",
    "{face}",
    "{__class__}",
    "{value!r}",
    "{",
    "}",
    "%s %d",
    "refuse.no_game",
    "seasons.error.bad_face",
    "<@123456789>",
    "@everyone",
    "```py\nprint(1)\n```",
    "||spoiler||",
    "\\",
    "'; DROP TABLE games; --",
    "9" * 40,
    "-1",
    "0",
    "1e309",
    "NaN",
    "-0",
    "null",
    "true",
    "Z̷̢̛a̶l̸g̷o̵" * 20,
    "\n" * 50,
    "\ud800",
    "2 water, 3 crystals, 1 dot",
    "7 fire, 1 dot",
    "banana",
    "Kairn the Destroyer",
    "1, 2, 3, 4, 5, 6, 7, 8",
    ",,,,",
    "、、、",
    "1" * 101,
    " ".join(["water"] * 400),
    "Lair",
    "Amber",
    "12",
]
ALPHABET = "aZ09 ,、:=\"'{}%.\\/-_#@<>|`~!?水火風土クリスタル星点🎲\u202e\u200b\x00\x7f\t"


@dataclass
class Case:
    number: int
    label: str
    type: int
    data: dict
    user: str
    channel: str
    locale: str
    message: StoredMessage | None = None
    malformed: bool = False
    typed: list[str] = field(default_factory=list)  # the strings the user sent, allowed to be echoed
    forged_message: bool = False  # `message` was made up to carry a forged button
    discord_valid: bool = (
        False  # Discord itself could send this (schema respected): "something went wrong" is a bug
    )

    def describe(self) -> str:
        data = repr(self.data)
        return (
            f"#{self.number} {self.label} user={self.user} channel={self.channel} locale={self.locale} "
            f"data={data[:300]}{'…' if len(data) > 300 else ''}"
        )


@dataclass
class Pools:
    """What the world holds right now: the commands, users, channels, games and the bot's messages."""

    schema: list[dict]
    users: list[str]
    channels: list[str]
    games: dict[int, tuple[str, int]]  # game id -> (status, ply)
    messages: list[StoredMessage]  # the bot's messages that carry buttons
    message_channels: dict[int, str] = field(default_factory=dict)  # message id -> channel name


class PayloadFuzzer:
    def __init__(self, seed: int) -> None:
        self.rng = random.Random(seed)

    # -- values ----------------------------------------------------------------------------------------------

    def text(self) -> str:
        rng = self.rng
        if rng.random() < 0.6:
            return rng.choice(NASTY)
        return "".join(rng.choice(ALPHABET) for _ in range(rng.choice([1, 5, 40, 120, 1200])))

    def wrong_value(self) -> Any:
        rng = self.rng
        return rng.choice(
            [
                lambda: rng.randint(-(10**30), 10**30),
                lambda: rng.choice([0, -1, 1, 2**63, -(2**63) - 1, 10**9]),
                lambda: rng.uniform(-1e6, 1e6),
                lambda: rng.choice([True, False]),
                lambda: None,
                lambda: [self.text(), 1, None],
                lambda: {"a": {"b": [1, {"c": self.text()}]}},
                list,
                dict,
                self.text,
            ]
        )()

    def value_for(self, schema: dict) -> tuple[Any, bool]:
        """(a value for the option, whether it has the right JSON type for the option's declared type)."""
        rng = self.rng
        kind = schema.get("type")
        roll = rng.random()
        if roll < 0.3 and schema.get("choices"):
            return rng.choice(schema["choices"])["value"], True
        if roll < 0.6:
            return self.wrong_value(), False
        if kind == STRING:
            return self.text(), True
        if kind in (INTEGER, NUMBER):
            low = schema.get("min_value", -10)
            high = schema.get("max_value", 10)
            return rng.choice(
                [low, high, low - 1, high + 1, rng.randint(low - 5, high + 5), 10**20, -(10**20)]
            ), True
        if kind == BOOLEAN:
            return rng.choice([True, False]), True
        if kind in SNOWFLAKE_TYPES:
            return rng.choice(["0", "1", str(2**64), "123456789012345678"]), True
        return self.wrong_value(), False

    # -- application commands and autocomplete ---------------------------------------------------------------

    def _leaf(self, pools: Pools, *, autocompleted: bool = False) -> tuple[list[str], list[dict]]:
        """A random runnable command: (path of names, its option schemas); with `autocompleted`, one of the
        commands that have an autocomplete option."""
        leaves = []

        def walk(path: list[str], node: dict) -> None:
            subs = [o for o in node.get("options") or [] if o.get("type") in (1, 2)]
            if not subs:
                leaves.append((path, node.get("options") or []))
            for sub in subs:
                walk(path + [sub["name"]], sub)

        for command in pools.schema:
            if command.get("type", 1) == 1:
                walk([command["name"]], command)
        if autocompleted:
            leaves = [leaf for leaf in leaves if any(o.get("autocomplete") for o in leaf[1])] or leaves
        return self.rng.choice(leaves)

    def command(self, number: int, pools: Pools, *, autocomplete: bool = False) -> Case:
        rng = self.rng
        path, schemas = self._leaf(pools, autocompleted=autocomplete and rng.random() < 0.85)
        label = "autocomplete" if autocomplete else "command"
        malformed = False
        valid = True
        options: list[dict] = []
        typed: list[str] = []
        for schema in schemas:
            if schema.get("required") and rng.random() < 0.15:
                label += ".missing"
                valid = False
                continue
            if not schema.get("required") and rng.random() < 0.5:
                continue
            value, right_type = self.value_for(schema)
            kind = schema.get("type")
            if rng.random() < 0.1:  # the option claims another type than the schema's
                kind = rng.choice([STRING, INTEGER, BOOLEAN, NUMBER, USER, 99])
                label += ".retyped"
            option = {"name": schema["name"], "type": kind, "value": value}
            if not right_type:
                label += ".wrong_type"
            valid = valid and kind == schema.get("type") and _fits(schema, value)
            options.append(option)
            typed += [str(value)] + list(_strings(value))
        if rng.random() < 0.15:
            name = rng.choice(["zzz", "face", "difficulty", "x" * 200, "", "名前", "__class__"])
            value = self.wrong_value()
            options.append({"name": name, "type": rng.choice([STRING, INTEGER, 1]), "value": value})
            typed += [name, str(value)] + _strings(value)
            label += ".unknown_option"
            valid = False
        if autocomplete:
            completed = {o["name"] for o in schemas if o.get("autocomplete")}
            candidates = [o for o in options if o.get("name") in completed and rng.random() < 0.9] or options
            if candidates and rng.random() < 0.9:
                focused = rng.choice(candidates)
                focused["focused"] = True
                if not next((o.get("autocomplete") for o in schemas if o["name"] == focused["name"]), False):
                    label += ".not_autocompleted"
                    malformed = True  # Discord asks only for options that have autocomplete
                if rng.random() < 0.7:
                    focused["value"] = self.text()
                    typed.append(focused["value"])
                if not isinstance(focused["value"], str) or focused.get("type") != STRING:
                    label += ".non_text_focus"
                    malformed = True  # Discord sends what is being typed: always text
            else:
                label += ".no_focus"
                valid, malformed = False, True
        if rng.random() < 0.08:
            path = list(path)
            path[rng.randrange(len(path))] = rng.choice(
                ["nope", "SEASONS", "seasons ", "", "x" * 100, "ゲーム"]
            )
            label += ".unknown_name"
            valid = False
        for option in options:
            malformed |= _malformed_option(option, autocomplete)
        if rng.random() < 0.04:
            shape = rng.choice(["no_value", "no_name", "options_not_list", "sub_without_options", "no_type"])
            label += f".shape_{shape}"
            malformed, valid = True, False
            if shape == "no_value" and options:
                options[0].pop("value", None)
            elif shape == "no_name" and options:
                options[0].pop("name", None)
            elif shape == "no_type" and options:
                options[0].pop("type", None)
            elif shape == "options_not_list":
                options = {"not": "a list"}  # type: ignore[assignment]
        nested: Any = options
        for depth, word in enumerate(reversed(path[1:])):
            nested = [{"name": word, "type": 1 if depth == 0 else 2, "options": nested}]
        data: dict[str, Any] = {"id": "1", "name": path[0], "type": 1, "options": nested}
        if "shape_sub_without_options" in label and isinstance(nested, list) and nested and len(path) > 1:
            nested[0].pop("options", None)
        channel = rng.choice(pools.channels)
        kind = AUTOCOMPLETE if autocomplete else APPLICATION_COMMAND
        return Case(
            number,
            label,
            kind,
            data,
            rng.choice(pools.users),
            channel,
            rng.choice(LOCALES),
            malformed=malformed,
            typed=typed + path,
            discord_valid=valid and not malformed,
        )

    # -- buttons ---------------------------------------------------------------------------------------------

    def forged_id(self, pools: Pools) -> str:
        rng = self.rng
        games = list(pools.games) or [1]
        game = rng.choice(games + [0, 99999, 9223372036854775807])
        if rng.random() < 0.03:
            game = 9999999999999999999  # fits the custom_id pattern (19 digits), not SQLite's INTEGER
        _status, ply = pools.games.get(game, ("active", 0))
        ply = rng.choice([ply, ply, max(ply - 1, 0), ply + 1, 0, 999999999])
        op = rng.choice(OPS + ["".join(rng.choice("abcxyz_") for _ in range(rng.randint(1, 20)))])
        arg = rng.choice([None, None, "0", "1", "2", "-1", "9", "x", "a.b-c", "w" * 40])
        return f"solo:{game}:{ply}:{op}" + ("" if arg is None else f":{arg}")

    def custom_id(self, pools: Pools, on_message: list[str]) -> tuple[str, str]:
        rng = self.rng
        real = [
            c.get("custom_id", "")
            for m in pools.messages
            for c in _pressable(m.payload)
            if c.get("custom_id")
        ]
        pick = rng.random()
        if pick < 0.3 and on_message:
            return rng.choice(on_message), "real"
        if pick < 0.45 and real:
            return rng.choice(real), "other_message"
        if pick < 0.75:
            return self.forged_id(pools), "forged"
        if pick < 0.85 and real:
            full = rng.choice(real)
            return full[: rng.randrange(len(full))], "truncated"
        if pick < 0.92:
            return rng.choice(real or ["solo:1:0:roll"]) + ":" + "z" * rng.choice(
                [10, 100, 5000]
            ), "oversized"
        return self.text(), "garbage"

    def press(self, number: int, pools: Pools) -> Case:
        rng = self.rng
        message = rng.choice(pools.messages) if pools.messages else None
        on_message = (
            [c["custom_id"] for c in _pressable(message.payload) if c.get("custom_id")] if message else []
        )
        custom_id, how = self.custom_id(pools, on_message)
        label = f"press.{how}"
        forged_message = False
        if message is not None and how not in ("real",) and rng.random() < 0.5:
            # A message that really carries the forged id, as if the bot had drawn that button: the bot's
            # "is it on the message?" check passes and the id reaches the controller.
            message = message_with_button(message, custom_id, rng.randrange(10**15, 10**16))
            forged_message = True
            label += ".on_message"
        elif rng.random() < 0.05:
            message = None
            label += ".no_message"
        data: dict[str, Any] = {"custom_id": custom_id, "component_type": 2}
        drawn = next((c for c in _pressable(message.payload) if c.get("custom_id") == custom_id), None) \
            if message is not None and how == "real" else None
        if drawn is not None and drawn.get("type", 2) != 2 and drawn.get("options"):
            # A select the bot drew (issue 35's menus): Discord sends its type and the option picked, never a
            # button's press (no rng drawn here: the cases after it stay those of the seed).
            data = {"custom_id": custom_id, "component_type": drawn["type"],
                    "values": [drawn["options"][0]["value"]]}
        picked = data["component_type"] != 2  # a real pick from a select, as Discord sends it
        malformed = False
        roll = rng.random()
        if roll < 0.06:
            data["component_type"] = 3
            data["values"] = [self.text() for _ in range(rng.randint(0, 3))]
            label += ".as_select"
            malformed = True  # the bot's messages carry buttons only: Discord never sends a select for them
        elif roll < 0.08:
            # discord.py's gateway parser raises on these two (TypeError in the DynamicItem pattern, KeyError
            # 'component_type'); the bot guards the parser so they are dropped instead of ending the gateway.
            data["custom_id"] = self.wrong_value()
            label += ".custom_id_type"
            malformed = not isinstance(data["custom_id"], str)
        elif roll < 0.1:
            data.pop("component_type")
            label += ".no_component_type"
            malformed = True
        channel = (
            pools.message_channels.get(message.id, rng.choice(pools.channels))
            if message
            else rng.choice(pools.channels)
        )
        if rng.random() < 0.1:
            channel = rng.choice(pools.channels)
            label += ".elsewhere"
        return Case(
            number,
            label,
            MESSAGE_COMPONENT,
            data,
            rng.choice(pools.users),
            channel,
            rng.choice(LOCALES),
            message=message,
            malformed=malformed,
            typed=[str(data.get("custom_id"))] + data.get("values", []),
            forged_message=forged_message,
            discord_valid=isinstance(data.get("custom_id"), str)
            and len(data["custom_id"]) <= 100
            and (data.get("component_type") == 2 or (picked and not malformed))
            and message is not None,
        )

    # -- forms -----------------------------------------------------------------------------------------------

    def submit(self, number: int, pools: Pools) -> Case:
        rng = self.rng
        games = list(pools.games) or [1]
        game = rng.choice(games)
        _status, ply = pools.games.get(game, ("active", 0))
        op = rng.choice(
            ["form_reveal", "form_score", "form_answer", "form_nonsense", "form_", "reveal", "roll"]
        )
        custom_id = (
            "solo:9999999999999999999:0:form_reveal"
            if rng.random() < 0.02
            else rng.choice(
                [
                    f"solo:{game}:{ply}:{op}",
                    f"solo:{game}:{ply}:{op}",
                    f"solo:{game}:{max(ply - 1, 0)}:{op}",
                    f"solo:{rng.choice([0, 424242, 9223372036854775807])}:{ply}:{op}",
                    self.text(),
                ]
            )
        )
        names = ["cards", "crystals", "prestige", "bonuses", "hand", "extra", "zzz", "", "x" * 100]
        fields = {}
        for name in rng.sample(names, rng.randint(0, 5)):
            fields[name] = rng.choice(
                [self.text(), str(rng.randint(-(10**6), 10**6)), "3", "0", "-0", "１２", "1,2"]
            )
        style = rng.random()
        malformed = False
        if style < 0.7:
            components: Any = [
                {"type": 1, "components": [{"type": 4, "custom_id": k, "value": v}]}
                for k, v in fields.items()
            ]
            label = "form.rows"
        elif style < 0.85:
            components = [
                {"type": 18, "id": i, "component": {"type": 4, "custom_id": k, "value": v}}
                for i, (k, v) in enumerate(fields.items())
            ]
            label = "form.labels"
        elif style < 0.93:
            components = [
                {"type": 1, "components": [{"type": 4, "custom_id": k, "value": self.wrong_value()}]}
                for k in fields
            ]
            label = "form.wrong_value_types"
        else:
            components = rng.choice(["not a list", [1, 2, 3], [{"type": 1, "components": "x"}], None, [[[]]]])
            label = "form.garbage_shape"
            malformed = True
        data = {"custom_id": custom_id, "components": components}
        channel = rng.choice(pools.channels)
        valid = (
            label in ("form.rows", "form.labels")
            and len(custom_id) <= 100
            and all(0 < len(k) <= 100 and len(v) <= 4000 for k, v in fields.items())
        )
        return Case(
            number,
            label,
            MODAL_SUBMIT,
            data,
            rng.choice(pools.users),
            channel,
            rng.choice(LOCALES),
            malformed=malformed,
            typed=[custom_id, *fields, *fields.values(), *_strings(components)],
            discord_valid=valid,
        )

    # -- one case --------------------------------------------------------------------------------------------

    def case(self, number: int, pools: Pools) -> Case:
        roll = self.rng.random()
        if roll < 0.35:
            return self.command(number, pools)
        if roll < 0.7:
            return self.press(number, pools)
        if roll < 0.85:
            return self.submit(number, pools)
        return self.command(number, pools, autocomplete=True)


def _strings(value: Any) -> list[str]:
    if isinstance(value, str):
        return [value]
    if isinstance(value, dict):
        return [s for k, v in value.items() for s in [str(k), *_strings(v)]]
    if isinstance(value, list | tuple):
        return [s for v in value for s in _strings(v)]
    return [] if value is None else [str(value)]


def _fits(schema: dict, value: Any) -> bool:
    """Would Discord's client accept `value` for this option (type, choices, range, length)?"""
    kind = schema.get("type")
    if schema.get("choices"):
        return any(value == c["value"] and type(value) is type(c["value"]) for c in schema["choices"])
    if kind == STRING:
        return isinstance(value, str) and schema.get("min_length", 0) <= len(value) <= schema.get(
            "max_length", 6000
        )
    if kind in (INTEGER, NUMBER):
        wanted = (int,) if kind == INTEGER else (int, float)
        if isinstance(value, bool) or not isinstance(value, wanted) or abs(value) > 2**53:
            return False
        return schema.get("min_value", -(2**53)) <= value <= schema.get("max_value", 2**53)
    if kind == BOOLEAN:
        return isinstance(value, bool)
    return False


def _malformed_option(option: dict, autocomplete: bool) -> bool:
    """Would discord.py's Namespace itself fail on this option (a shape Discord never sends)?"""
    kind, value = option.get("type"), option.get("value")
    if "value" not in option or "name" not in option or "type" not in option:
        return True
    if kind == NUMBER and not option.get("focused"):
        try:
            float(value)  # type: ignore[arg-type]
        except (TypeError, ValueError, OverflowError):
            return True
    if kind in SNOWFLAKE_TYPES:
        try:
            int(value)  # type: ignore[arg-type]
        except (TypeError, ValueError):
            return True
    return False


def _pressable(payload: dict) -> list[dict]:
    from bot.standin.driver import pressable

    return pressable(payload)


def message_with_button(message: StoredMessage, custom_id: Any, new_id: int) -> StoredMessage:
    payload = copy.deepcopy(message.payload)
    payload["id"] = str(new_id)
    payload["components"] = [
        {"type": 1, "components": [{"type": 2, "style": 2, "label": "forged", "custom_id": str(custom_id)}]}
    ]
    return StoredMessage(payload, dict(payload))
