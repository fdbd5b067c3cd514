"""At the table: what a player types, presses and sees in a whole game (issue 35, point 6's first half).

    python -m bench --only table [--quick]
    python -m bench.bench_table [--quick] [--lang ja]

Plays one whole game of each — Seasons with table dice, Seasons with bot dice, Volfyirion — through the local
console (``bot.console.Console`` on the stand-in, in-process, as tests/bot/console_session.py drives it) and
counts what the player did after the start line: lines typed and their characters, characters typed into forms
and choices made in them, button presses, selects, forms submitted; what the bot did: messages posted in the
channel (and private ones); and the most channel messages with live controls at any moment, looked at once the
reply to each line settled. A message is live while the stand-in holds it with an enabled button or select
anywhere in its components (action rows, containers, sections' accessories: this bench's own walk, kept apart
from the stand-in's and the driver's): the bot refuses a press on an older one as stale, yet it looks live.

What the player does comes from the engine's seeded autoplay (``engine.<game>.autoplay.play_game``, with the
bot's game seeded alike so its dice and cards are the autoplay's): which die to take, which cards to reveal.
How the player does it is decided from the controls of the latest reply that had any (those the console's
``press N`` numbers) alone:

- press a button whose ``op`` is the step's action (``fx`` for ``effect``) and whose ``arg``, when it has one,
  is one of the step's values or its label is (the die's index, ``reshuffled``, ``battle``, a city's name);
- else choose in a select whose options name the step's values by value or label — a card, a card and its city,
  a Seasons die face in the words the die shows (either language, any order of its symbols, after a "Die 4:"
  prefix or not) — unless its custom id names another of the game's actions;
- a form either opens is read generically: its text inputs (in action rows or Labels) get typed what no chooser
  offers (those characters counted apart from typed lines); its selects, radio groups and checkbox groups in
  Labels get the step's values chosen from their options (a card offered by two selects chosen once), a
  checkbox the step's flag; it goes in as ``form id=value …`` (a select's values comma-joined, a checkbox
  ``true``/``false``);
- a control that only opened more controls for the same step (a picker) is followed, until the bot's controls
  belong to the next action (the ``ply`` of their custom ids);
- else type the step's command (``/seasons die face:…``, ``/volfyrion play card:…``), and that line counts.

So the controls issue 35 brings are used the day the bot offers them, with no change here, and when replies
supersede each other by editing the older one's controls away, the live count falls.

The figures are reproducible: the seeds below fix the games, the choices and the bot's own draws. The game is
checked at the end against the engine's (``/game export``, not counted), so a control that did something else
than the step fails the bench instead of skewing it (a list holding the engine's items in another order is named
under the table instead). ``--quick`` plays the first 30 steps of each game, unchecked.
"""

from __future__ import annotations

import argparse
import asyncio
import contextlib
import dataclasses
import io
import json
import re
import sys
import tempfile
from collections import Counter
from collections.abc import AsyncIterator, Callable, Sequence
from collections.abc import Set as AbstractSet
from pathlib import Path
from typing import Any

from bench.common import print_machine, print_table
from bot.console import LOCALES, Console
from bot.render.embeds import COLOURS
from bot.sessions import summary_json
from bot.standin import StandIn
from engine.core import Action, RuleError
from engine.seasons import face_text
from engine.seasons.autoplay import play_game as seasons_game
from engine.seasons.faces import canonical, parse_face
from engine.volfyirion.autoplay import play_game as volfyirion_game

# bench/ runs from the checkout: the player's typed lines are the tests' own (tests/support).
ROOT = str(Path(__file__).resolve().parents[1])
if ROOT not in sys.path:
    sys.path.insert(0, ROOT)

from tests.support.console import console_at  # noqa: E402
from tests.support.seasons_typed import seasons_console_line  # noqa: E402
from tests.support.volfyirion_typed import volfyirion_command  # noqa: E402

LANG = "en"
# Seasons 21: the game the console tests play whole (tests/bot/test_bot_console_games.py), 16-19 rounds. Volfyirion
# 12: a lost game of 35 steps with every card command the issue wants offered as a select (play, acquire, remove,
# redeploy), where the console tests' seed 4 has neither remove nor redeploy.
SEASONS_SEED, VOLFYIRION_SEED = 21, 12
QUICK_STEPS = 30
EPHEMERAL = 64
# A button's op that is not the action's name.
OP_ACTION = {"fx": "effect"}


@dataclasses.dataclass
class Game:
    name: str
    start: str
    actions: list[Action]
    state: dict[str, Any]  # the engine's final summary, as /game export writes it
    seed: int
    lang: str = LANG  # the player's language: the replies', the typed lines', the console's


@dataclasses.dataclass
class Tally:
    lines: int = 0
    line_chars: int = 0
    form_chars: int = 0
    form_choices: int = 0  # options chosen (and checkboxes ticked) inside forms
    presses: int = 0
    selects: int = 0
    forms: int = 0
    posted: int = 0
    private: int = 0
    most_live: int = 0
    typed: Counter[str] = dataclasses.field(default_factory=Counter)  # typed lines by command
    # Lists of the final state whose items are the engine's in another order (a form of selects grouped by kind
    # gives the cards revealed in its own order): shown under the table, not a failure.
    order_only: list[str] = dataclasses.field(default_factory=list)
    filled: Counter[str] = dataclasses.field(default_factory=Counter)  # forms submitted by the step they did
    filled_chars: Counter[str] = dataclasses.field(default_factory=Counter)


def games(quick: bool, lang: str = LANG) -> list[Game]:
    found = []
    for dice in ("table", "bot"):
        actions, steps = seasons_game("apprentice", dice, SEASONS_SEED, extras=False)
        found.append(Game(f"Seasons, {dice} dice", f"/seasons start difficulty:apprentice dice:{dice}", actions,
                          summary_json(steps[-1].state.summary()), SEASONS_SEED, lang))
    record = volfyirion_game(VOLFYIRION_SEED, max_actions=400)
    found.append(Game("Volfyirion", "/volfyrion start difficulty:normal", list(record.actions),
                      summary_json(record.state.summary()), VOLFYIRION_SEED, lang))
    if quick:
        for game in found:
            game.actions = game.actions[:QUICK_STEPS]
    return found


# -- what the step is, in words a control can hold ---------------------------------------------------------------


def values_of(action: Action) -> set[str]:
    """The step's values as a control could name them (casefolded): args, list items, a face in both languages."""
    return set(_ordered_values(action))


def typed_line(game: Game, action: Action) -> str:
    if game.name.startswith("Seasons"):
        return seasons_console_line(action, game.lang)
    name, options = volfyirion_command(action)
    parts = [f"/{name}"]
    for key, value in options.items():
        text = str(value)
        parts.append(f'{key}:"{text}"' if " " in text and key != "cards" else f"{key}:{text}")
    return " ".join(parts)


# Discord's form components: a text input, a string select, a radio group, a checkbox group, a checkbox; a Label
# (18) wraps one of them, an action row (1) the older text inputs.
TEXT_INPUT, STRING_SELECT, RADIO_GROUP, CHECKBOX_GROUP, CHECKBOX, LABEL = 4, 3, 21, 22, 23, 18
CHOOSERS = {STRING_SELECT, RADIO_GROUP, CHECKBOX_GROUP}
TRUE_WORDS = {"true", "yes", "1", "on", "はい"}
FALSE_WORDS = {"false", "no", "0", "off", "いいえ"}


@dataclasses.dataclass
class Filled:
    """A form filled for a step: the ``form`` line's fields, the characters typed, the choices made."""

    fields: dict[str, str]
    typed: int = 0
    choices: int = 0

    def line(self) -> str:
        return "form " + " ".join(f"{k}={json.dumps(v, ensure_ascii=False)}" for k, v in self.fields.items())


def form_inputs(modal: dict[str, Any]) -> list[dict[str, Any]]:
    """A form's inputs in order, each unwrapped from its action row or Label."""
    found = []
    for row in modal.get("components") or []:
        if row.get("type") == LABEL:
            found.append(row.get("component") or {})
        else:
            found += row.get("components") or []
    return [c for c in found if c.get("custom_id")]


def fill_form(modal: dict[str, Any], action: Action, lang: str = LANG) -> Filled:
    """The step's options put into a form: chosen from the options of its selects, radio and checkbox groups
    (each of the step's values taken once, whichever chooser offers it), ticked into its checkboxes, and what no
    chooser offered typed into its text inputs (field ids are the command's option names)."""
    inputs = form_inputs(modal)
    wanted = {k: _listed(v, lang) for k, v in action.args.items() if v is not None and not isinstance(v, bool)}
    flags = {k: v for k, v in action.args.items() if isinstance(v, bool)}
    filled = Filled({})
    for comp in (c for c in inputs if c.get("type") in CHOOSERS):
        chosen = _choose(comp, wanted, flags)
        if not chosen and comp.get("type") == RADIO_GROUP and comp.get("required", True):
            # a yes/no the step has no flag for: the player confirms what they are doing
            chosen = [str(o["value"]) for o in comp.get("options") or [] if str(o["value"]).casefold() in TRUE_WORDS][:1]
        if chosen:
            filled.fields[comp["custom_id"]] = ",".join(chosen)
            filled.choices += len(chosen)
    for comp in (c for c in inputs if c.get("type") == CHECKBOX):
        ticked = flags.get(comp["custom_id"], False)
        filled.fields[comp["custom_id"]] = "true" if ticked else "false"
        filled.choices += int(ticked)
    texts = [c for c in inputs if c.get("type") == TEXT_INPUT]
    for comp in texts:
        key = comp["custom_id"]
        left = wanted.pop(key, None) or ([str(flags[key])] if key in flags else None)
        if left is None and comp.get("required", True) and len(texts) == 1 and wanted:  # the one box takes all
            left = [v for values in wanted.values() for v in values]
            wanted.clear()
        if left:
            filled.fields[key] = ", ".join(left)
            filled.typed += len(filled.fields[key])
    return filled


def _listed(value: Any, lang: str) -> list[str]:
    if isinstance(value, dict):  # a Seasons die face, in the words the die shows
        return [face_text(value, lang)]
    return [str(v) for v in value] if isinstance(value, list) else [str(value)]


def _choose(comp: dict[str, Any], wanted: dict[str, list[str]], flags: dict[str, bool]) -> list[str]:
    """The options of one chooser that say the step's values (taken out of ``wanted``: a card offered by two
    selects is chosen once), or a yes/no radio's answer for the step's flag of its id."""
    options = comp.get("options") or []
    key = comp["custom_id"]
    if key in flags:  # a yes/no question asked as a radio group
        words = TRUE_WORDS if flags[key] else FALSE_WORDS
        return [str(o["value"]) for o in options if str(o.get("value", "")).casefold() in words][:1]
    keys = [key] if key in wanted else list(wanted)
    chosen: list[str] = []
    most = comp.get("max_values", 1 if comp.get("type") != CHECKBOX_GROUP else len(options)) or 1
    for name in keys:
        for value in list(wanted[name]):
            fits = [(_says(o, value.casefold()), -i) for i, o in enumerate(options) if str(o["value"]) not in chosen]
            best = max(fits, default=(0, 0))
            if not best[0] or len(chosen) >= most:
                continue
            chosen.append(str(options[-best[1]]["value"]))
            wanted[name].remove(value)
        if not wanted[name]:
            del wanted[name]
    return chosen


def button_fits(comp: dict[str, Any], action: Action) -> bool:
    op, arg = _op_arg(comp)
    if OP_ACTION.get(op, op) != action.type:
        return False
    flags = {k for k, v in action.args.items() if v is True}
    if arg is None:  # the plain button: not for a step that sets a flag another button carries
        return not flags
    named = {arg.casefold(), str(comp.get("label", "")).casefold()}  # a city's button: its index, its name
    return bool(named & values_of(action)) or arg in flags


def select_choice(comp: dict[str, Any], action: Action, done: AbstractSet[str] = frozenset()) -> list[str] | None:
    """The options of a select that say the step's values (by value or label, either language), or None;
    ``done``: values a control earlier in the step already gave (a picker's first menu).

    A select of one choice takes an option that names the step's first value left (its card, the troop) and
    of those the one naming most of the rest, an exact name before a mention ("War Academy (Alantar)" for a
    card and its city, "Guard" before "Guard Tower"); a select of several takes every option naming one of
    the step's values, in its order."""
    wanted = [w for w in _ordered_values(action) if w not in done]
    if not wanted:
        return None
    faces = [canonical(v) for v in action.args.values() if isinstance(v, dict)]
    single = comp.get("max_values", 1) <= 1
    scored = []
    for option in comp.get("options") or []:
        if any(_reads_as(str(option.get(k, "")).casefold(), faces) for k in ("value", "label")):
            scored.append(((len(wanted), len(wanted)), str(option["value"])))
            continue
        says = [_says(option, w) for w in wanted]
        if single and not says[0]:  # one choice: it must be the step's first value's (a city alone is not)
            continue
        held, exact = sum(1 for x in says if x), sum(1 for x in says if x == 2)
        if held:
            scored.append(((held, exact), str(option["value"])))
    if not scored:
        return None
    if not single:
        want = max(1, sum(len(v) if isinstance(v, list) else 1 for v in action.args.values()
                          if v is not None and not isinstance(v, bool)))
        return [value for _, value in scored][:want]
    return [max(scored, key=lambda pair: pair[0])[1]]  # max keeps the first of equals


def held_values(comp: dict[str, Any], chosen: list[str], action: Action) -> set[str]:
    """The step's values the chosen options of a select name (done for the rest of the step)."""
    options = [o for o in comp.get("options") or [] if str(o.get("value")) in chosen]
    return {w for w in _ordered_values(action) for o in options if _says(o, w)}


def _ordered_values(action: Action) -> list[str]:
    """The step's values in the order of its options (casefolded, a die face in both languages)."""
    found: list[str] = []
    for value in action.args.values():
        if isinstance(value, dict):
            found += [face_text(value, lang) for lang in LOCALES]
        elif isinstance(value, list):
            found += [str(v) for v in value]
        elif value is not None and not isinstance(value, bool):
            found.append(str(value))
    return list(dict.fromkeys(v.casefold() for v in found))


def select_fits(comp: dict[str, Any], action: Action, kinds: set[str]) -> bool:
    """Whether a select may be for the step: not when its custom id names another of the game's actions (a
    menu of cards to remove, for a step that plays one), whether as its op or as its op's argument (``pick:…``)."""
    op, arg = _op_arg(comp)
    named = {OP_ACTION.get(x, x) for x in (op, arg) if x} & kinds
    return not named or action.type in named


def _says(option: dict[str, Any], want: str) -> int:
    """How an option names the (casefolded) value ``want``: 2 by its value or label, or a label that ends with
    it after a prefix ("Die 4: …") or starts with it as a card's number ("3 — Amulet of Air", "#3"); 1 by a
    mention of a name in its label ("War Academy (Alantar)"); 0 not at all."""
    label, own = str(option.get("label", "")).casefold(), str(option.get("value", "")).casefold()
    if want in (label, own) or label.endswith((f" {want}", f":{want}", f"：{want}")):
        return 2
    if want.isdecimal():
        return 2 if re.match(rf"#?{re.escape(want)}(?!\d)\W", label) else 0
    return 1 if re.search(rf"(?<!\w){re.escape(want)}(?!\w)", label) else 0


def _reads_as(text: str, faces: list[dict[str, Any]]) -> bool:
    """Whether an option's value or label (or what follows its "Die 4:" prefix) reads as one of ``faces``,
    in whatever order or language the bot writes its symbols."""
    if not faces:
        return False
    for part in {text, re.split(r"[:：]", text)[-1]}:
        try:
            if parse_face(part.strip()) in faces:
                return True
        except RuleError:
            continue
    return False


def _op_arg(comp: dict[str, Any]) -> tuple[str, str | None]:
    parts = str(comp.get("custom_id", "")).split(":")
    return (parts[3], parts[4] if len(parts) > 4 else None) if len(parts) >= 4 else ("", None)


# -- the console in-process ---------------------------------------------------------------------------------------


class Table:
    """One console on a fresh stand-in and database; each line's JSON items read back."""

    def __init__(self, console: Console, out: io.StringIO, standin: StandIn) -> None:
        self.console, self.out, self.standin = console, out, standin
        self.lang = console.printer.lang
        self._read = 0
        self.items: list[dict[str, Any]] = []
        self.transcript: list[str] = []  # every line given to the console, in order
        self.most_live = 0  # the most channel messages with live controls once a line's reply settled
        self.watch: Callable[[Table], None] | None = None  # told after each line (the tests count beside)

    async def type(self, line: str) -> list[dict[str, Any]]:
        self.transcript.append(line)
        await self.console.line(line)
        self.most_live = max(self.most_live, self.live())
        if self.watch is not None:
            self.watch(self)
        text = self.out.getvalue()
        self.items = [json.loads(x) for x in text[self._read:].splitlines() if x.strip()]
        self._read = len(text)
        refused = [i["error"] for i in self.items if "error" in i] + [i for i in self.items if _refusal(i)]
        if refused:  # a step the bot refused would leave the game behind the engine's
            raise AssertionError(f"{line!r} was refused: {refused}")
        return self.items

    def controls(self) -> list[dict[str, Any]]:
        """The enabled controls of the latest reply that had controls: those ``press N`` numbers."""
        return [c for c in self.console.last_buttons if not c.get("disabled") and c.get("custom_id")]

    def number(self, comp: dict[str, Any]) -> int:
        """The console's number for a control (`press N`)."""
        ids = [c.get("custom_id") for c in self.console.last_buttons]
        return ids.index(comp["custom_id"]) + 1

    def channel_messages(self) -> list[Any]:
        channel = self.standin.world.channel("table")
        return [m for m in self.standin.messages.values() if m.channel_id == channel.id]

    def live(self) -> int:
        """The channel's messages (private ones aside) that hold live controls now."""
        return sum(1 for m in self.channel_messages() if not m.payload.get("flags", 0) & EPHEMERAL
                   and has_live_controls(m.payload.get("components") or []))


# Buttons and the select menus (string, user, role, mentionable, channel).
CONTROLS = {2, 3, 5, 6, 7, 8}


def has_live_controls(components: list[Any]) -> bool:
    """Whether components hold an enabled button or select that can be used (a link button cannot be stale),
    anywhere inside: action rows, containers, a section's accessory."""
    for comp in components:
        if not isinstance(comp, dict):
            continue
        if comp.get("type") in CONTROLS and comp.get("custom_id") and not comp.get("disabled"):
            return True
        inner = list(comp.get("components") or []) + [comp[k] for k in ("accessory", "component") if k in comp]
        if has_live_controls(inner):
            return True
    return False


def _refusal(item: dict[str, Any]) -> bool:
    """A private reply in the error colour (an embed's, or a V2 container's accent)."""
    if not item.get("flags", 0) & EPHEMERAL:
        return False
    colours = [e.get("color") for e in item.get("embeds") or []]
    colours += [c.get("accent_color") for c in item.get("components") or []]
    return COLOURS["error"] in colours


@contextlib.asynccontextmanager
async def table(db_path: Path, seed: int, lang: str = LANG) -> AsyncIterator[Table]:
    async with console_at(db_path, lang=lang, seed=seed) as (console, out, standin):
        yield Table(console, out, standin)


# A control that opens a picker (a menu of cards, then one of cities) leaves the step half done: the bench goes on
# choosing in what it opened, up to this many controls in one step.
MOST_CONTROLS_A_STEP = 4


async def step(at: Table, game: Game, action: Action, tally: Tally) -> None:
    """One step of the game, by the controls of the latest reply while they do it, else typed.

    The step is done when the reply's controls belong to a later action than the ones used (the ``ply`` of
    their custom ids), or when a reply brings no new controls; while a control only opened more controls for
    the same action (a picker), the step goes on in those."""
    kinds = {a.type for a in game.actions}
    done: set[str] = set()  # the step's values the controls used so far gave
    for _ in range(MOST_CONTROLS_A_STEP):
        before, ply = at.console.last_buttons, ply_of(at.controls())
        if not await use_control(at, action, tally, kinds, done):
            break
        after = at.controls()
        if at.console.last_buttons is before or ply is None or ply_of(after) != ply:
            return
    line = typed_line(game, action)
    await at.type(line)
    tally.lines += 1
    tally.line_chars += len(line)
    tally.typed[line.split(":")[0].rsplit(" ", 1)[0] if ":" in line else line] += 1


async def use_control(at: Table, action: Action, tally: Tally, kinds: set[str], done: set[str]) -> bool:
    """A button of the latest controls that does the step pressed, else a select that offers its value
    chosen, and the form either opened filled and submitted; False when none fits. ``kinds``: the game's
    action names (a select made for another action is not chosen in for this one, whatever its options say);
    ``done`` gathers the step's values the control gave."""
    controls = at.controls()
    for comp in controls:
        if comp.get("type") == 2 and button_fits(comp, action):
            done |= {str(x).casefold() for x in (_op_arg(comp)[1], comp.get("label"))} & values_of(action)
            items = await at.type(f"press {at.number(comp)}")
            tally.presses += 1
            await answer_form(at, items, action, tally)
            return True
    for comp in controls:
        fits = comp.get("type") == 3 and select_fits(comp, action, kinds)
        chosen = select_choice(comp, action, done) if fits else None
        if chosen:
            done |= held_values(comp, chosen, action)
            items = await at.type(f"select {at.number(comp)} {','.join(chosen)}")
            tally.selects += 1
            await answer_form(at, items, action, tally)
            return True
    return False


def ply_of(controls: list[dict[str, Any]]) -> int | None:
    """The action number the bot's controls were made for (``solo:game:ply:op…``), None when they say none."""
    plies = {int(p[2]) for p in (str(c.get("custom_id", "")).split(":") for c in controls)
             if len(p) >= 4 and p[0] == "solo" and p[2].isdecimal()}
    return max(plies) if plies else None


async def answer_form(at: Table, items: list[dict[str, Any]], action: Action, tally: Tally) -> None:
    """The form a control opened, if it opened one, filled with the step's options and submitted."""
    modal = next((i["modal"] for i in items if "modal" in i), None)
    if modal is None:
        return
    filled = fill_form(modal, action, at.lang)
    tally.form_chars += filled.typed
    tally.form_choices += filled.choices
    tally.forms += 1
    tally.filled[action.type] += 1
    tally.filled_chars[action.type] += filled.typed
    await at.type(filled.line())


async def play(game: Game, quick: bool, watch: Callable[[Table], None] | None = None) -> Tally:
    """The game played whole (``quick``: the steps given, unchecked); ``watch`` sees the table after each line
    the console is given (the tests count beside the bench with it)."""
    tally = Tally()
    with tempfile.TemporaryDirectory() as folder:
        async with table(Path(folder) / "games.sqlite3", game.seed, game.lang) as at:
            at.watch = watch
            await at.type(game.start)
            for action in game.actions:
                await step(at, game, action, tally)
            at.watch = None
            tally.most_live = at.most_live
            for m in at.channel_messages():  # the start's reply included
                if m.payload.get("flags", 0) & EPHEMERAL:
                    tally.private += 1
                else:
                    tally.posted += 1
            if not quick:  # the bot's game is the engine's: every step did what it was meant to
                items = await at.type("/game export")
                files = [f for i in items for f in i.get("files", []) if f["filename"].endswith(".json")]
                state = json.loads(files[-1]["text"])["state"]
                apart = differences(state, game.state)
                assert not apart["value"], f"{game.name}: the bot's game is not the engine's at {apart['value']}"
                tally.order_only = apart["order"]
    return tally


def differences(bot: Any, engine: Any, path: str = "state") -> dict[str, list[str]]:
    """Where the bot's final state differs from the engine's: ``value`` (a real difference) and ``order`` (a
    list holding the same items in another order)."""
    found: dict[str, list[str]] = {"value": [], "order": []}
    if isinstance(bot, dict) and isinstance(engine, dict):
        for key in sorted(set(bot) | set(engine), key=str):
            for kind, paths in differences(bot.get(key), engine.get(key), f"{path}.{key}").items():
                found[kind] += paths
    elif bot != engine:
        same_items = isinstance(bot, list) and isinstance(engine, list) and \
            sorted(map(json.dumps, bot)) == sorted(map(json.dumps, engine))
        found["order" if same_items else "value"].append(path)
    return found


ROWS: Sequence[tuple[str, str]] = (
    ("lines typed after the start", "lines"), ("characters in those lines", "line_chars"),
    ("characters typed into forms", "form_chars"), ("choices made in forms", "form_choices"),
    ("buttons pressed", "presses"), ("selects chosen", "selects"),
    ("forms submitted", "forms"), ("messages posted in the channel", "posted"),
    ("private (ephemeral) replies", "private"), ("most messages with live controls", "most_live"),
)


def main(quick: bool = False, lang: str = LANG) -> None:
    print_machine()
    played = [(game, asyncio.run(play(game, quick))) for game in games(quick, lang)]
    headers = ["figure"] + [f"{g.name} ({len(g.actions)} steps)" for g, _ in played]
    rows = [[label] + [getattr(t, key) for _, t in played] for label, key in ROWS]
    notes = []
    for g, t in played:
        forms = ", ".join(f"{k} ×{n} ({t.filled_chars[k]} characters)" for k, n in t.filled.most_common())
        notes.append(f"{g.name}, typed: " + (", ".join(f"{k} ×{n}" for k, n in t.typed.most_common()) or "nothing")
                     + f"; forms: {forms or 'none'}")
        if t.order_only:
            notes.append(f"{g.name}: the bot's game is the engine's but for the order of {', '.join(t.order_only)}")
    notes.append(f"seeds: Seasons {SEASONS_SEED}, Volfyirion {VOLFYIRION_SEED}; replies in {lang}; a step is done "
                 "by a control of the latest reply when one offers it, else typed")
    print_table("At the table: what a player types (one whole game of each, after the start line)", headers, rows,
                notes)


if __name__ == "__main__":
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--quick", action="store_true", help=f"the first {QUICK_STEPS} steps of each game, unchecked")
    parser.add_argument("--lang", choices=sorted(LOCALES), default=LANG, help="the player's language (default en)")
    args = parser.parse_args()
    main(args.quick, args.lang)
