"""What every game's commands share: starting a game, card autocomplete, the reveal form."""

from __future__ import annotations

import re
from collections.abc import Callable, Iterable
from typing import TYPE_CHECKING, Any, TypeVar, cast

import discord
from discord import app_commands

from engine.core import Catalog, GameRecord, RuleError, State, split_list

from .. import understood
from ..buttons import FieldSpec
from ..i18n import L, card_name, has, lang_of, t
from ..sessions import Refusal
from ..store import ChannelBusy, GameRow, StoreError

if TYPE_CHECKING:
    from ..controller import Controller
    from ..sessions import GameService

S = TypeVar("S", bound=State)


class GameGroup(app_commands.Group):
    """A game's slash command group, given what its commands need when it is built: the controller (every
    change and its reply) and the session service (read-only looks)."""

    def __init__(self, controller: Controller, service: GameService, **kwargs: Any) -> None:
        super().__init__(**kwargs)
        self.controller = controller
        self.service = service
        from .suggest import asked_starts

        self.asked = asked_starts(controller, self.begin)  # its button answers from the bot's first moment

    async def start_game(self, interaction: discord.Interaction, kind: str, options: dict[str, Any], *,
                         thread: bool = False) -> None:
        """Start ``kind`` with ``options``; without a difficulty, ask for one first with a suggestion from the
        player's history (commands/suggest.py); ``thread``: in a thread made for the game (bot/threads.py)."""
        from .suggest import ask_difficulty

        if options.get("difficulty") is None:
            busy = None if thread else await self.service.active(interaction.channel_id)
            if busy is not None:  # refused now, as the start would be, rather than after a tap
                raise ChannelBusy(channel_id=interaction.channel_id, game_id=busy.id)
            await ask_difficulty(self.controller, self.asked, interaction, kind, options, thread)
            return
        await self.begin(interaction, kind, options, thread)

    async def begin(self, interaction: discord.Interaction, kind: str, options: dict[str, Any],
                    thread: bool) -> None:
        """The start itself, from the command or from the difficulty tapped."""
        from ..threads import cannot_open, open_thread

        channel = interaction.channel
        parent_id = getattr(channel, "parent_id", None) if isinstance(channel, discord.Thread) else None
        note = None
        if thread:
            GameRecord(self.service.rules_for(kind), options, 0)  # options the rules refuse open no thread
            why = cannot_open(interaction)
            made = None if why is not None else await open_thread(interaction, lang_of(interaction.locale), kind)
            if made is not None:
                await self.controller.start(interaction, kind, options, None, thread=made)
                return
            note = t(lang_of(interaction.locale), why or "thread.refused")
        await self.controller.start(interaction, kind, options, parent_id, note=note)


def group_of(interaction: discord.Interaction) -> GameGroup:
    """The group of the command being typed: a transformer's autocomplete is given only the interaction, and a
    game's commands are its group's own (`Command.parent`, documented; `binding` is not)."""
    command = interaction.command
    group = command.parent if isinstance(command, app_commands.Command) else None
    if not isinstance(group, GameGroup):
        raise TypeError(f"{interaction.command!r} is not a game's command")
    return group


def word_choices(*values: str) -> list[app_commands.Choice[str]]:
    """Choices named by their ``word.<value>`` translation (in English, the value itself)."""
    return [app_commands.Choice(name=L(v, f"word.{v}"), value=v) for v in values]


def own_record(record: GameRecord[State], state: type[S]) -> GameRecord[S]:
    """The record as its game reads it: a row of the game's kind holds a state of the game's own class."""
    if not isinstance(record.state, state):
        raise TypeError(f"a {type(record.state).__name__} where a {state.__name__} was expected")
    return cast("GameRecord[S]", record)


async def current_record(service: GameService, channel_id: int | None, kind: str,
                         state: type[S]) -> GameRecord[S] | None:
    """The channel's game of ``kind`` (its state a ``state``), for autocomplete: read-only, no lock, None when
    there is none."""
    try:
        row = await service.active(channel_id)
        if row is None or row.kind != kind:
            return None
        return own_record(await service.record(row), state)
    except StoreError:
        return None


async def record_to_look_at(service: GameService, channel_id: int | None, kind: str, state: type[S],
                            game_id: int | None) -> tuple[GameRow, GameRecord[S]]:
    """The channel's game for a read-only look (forecast, danger meter): anyone may look. A refusal reaches
    the user through the error handler."""
    row = await service.require(channel_id, kind=kind)
    if game_id is not None and row.id != game_id:
        raise Refusal("refuse.stale_game")
    return row, own_record(await service.record(row), state)


def card_choices(
    lg: str, game: str, catalog: Catalog[Any], current: str, *, keep: Callable[[Any], bool] | None = None,
    multiple: bool = False, first: Iterable[str] = (),
) -> list[app_commands.Choice[str]]:
    """Autocomplete for card names in both languages. With ``multiple``, completes the last item of a
    comma-separated list and keeps what was typed before it. The cards of ``first`` that fit what is typed
    come before the others (once each)."""
    head, last = "", current
    if multiple:
        parts = current.replace("、", ",").split(",")
        head = ", ".join(p.strip() for p in parts[:-1] if p.strip())
        last = parts[-1].strip()
        head = head + ", " if head else ""
    found = catalog.search(last, limit=200 if first else 50)
    fitting = [c for c in dict.fromkeys(first) if not last or c in found]
    choices = []
    for card_id in fitting + [c for c in found if c not in fitting]:
        if keep is not None and not keep(catalog[card_id]):
            continue
        name = card_name(lg, game, card_id)
        value = head + card_id
        if len(value) > 100:
            continue
        choices.append(app_commands.Choice(name=(head + name)[:100], value=value))
        if len(choices) == 25:
            break
    return choices


class PickError(RuleError):
    """A refused input that names candidates: each ``(card id, op, arg)`` is a button that completes the
    command as if that card had been typed (Pick, don't retype)."""

    def __init__(self, err: RuleError, choices: list[tuple[str, str, str]]) -> None:
        super().__init__(err.key, **err.params)
        self.choices = choices


MAX_ARG = 40  # what a button's custom_id carries after the game, the version and the op


def candidates_of(err: RuleError) -> list[str]:
    """The cards a refusal suggests (every engine names them ``suggestions``)."""
    found = err.params.get("suggestions")
    return [str(c) for c in found] if isinstance(found, (list, tuple)) else []


def ids_or_pick(resolve: Callable[[str | Iterable[str]], list[str]], text: str | Iterable[str], op: str,
                encode: Callable[[list[str]], str | None], *, limit: int = 5) -> list[str]:
    """``resolve(text)`` (card ids for what was typed); when one typed name is unknown or ambiguous and the
    error names candidates, a ``PickError`` whose buttons carry the whole command with that name replaced
    (``encode`` turns the ids into a button argument, or None when it cannot)."""
    try:
        return resolve(text)
    except RuleError as err:
        candidates = candidates_of(err)
        query = str(err.params.get("query", ""))
        parts = split_list(text) if isinstance(text, str) else [str(p) for p in text]
        if not candidates or query not in parts:
            raise
        miss = parts.index(query)
        try:
            others = [resolve([p])[0] if i != miss else "" for i, p in enumerate(parts)]
        except RuleError:
            raise err from None  # more than one name to fix: typing it again is clearer
        choices = []
        for card in candidates[:limit]:
            arg = encode([card if i == miss else c for i, c in enumerate(others)])
            if arg is not None and len(arg) <= MAX_ARG and re.fullmatch(r"[\w.-]*", arg):
                choices.append((card, op, arg))
        if not choices:
            raise
        raise PickError(err, choices) from None


def ids_of(catalog: Catalog[Any], text: str | Iterable[str], *, miss: Callable[[str], Any] | None = None) -> list[str]:
    """Card ids for a typed list; a miss raises ``miss(part)``'s RuleError (the game's own, with suggestions;
    by default the catalog's). A card read from part of its name or a typo is noted, and the reply says which
    card was understood."""
    parts = split_list(text) if isinstance(text, str) else [str(p) for p in text]
    ids, misses = [], []
    for part in parts:
        resolved = catalog.resolve(part)
        if resolved is None:
            try:
                (miss or catalog.lookup)(part)  # raises the miss with its suggestions
            except RuleError as err:
                misses.append(hopeless(err, catalog.game))
            continue
        card, exact = resolved
        ids.append(card_id_of(card))
        if not exact:
            understood.note(catalog.game, part, ids[-1])
    if len(misses) == 1:
        raise misses[0]
    if misses:  # every bad name at once, not one per try
        raise RuleError("card.unknown_several", game=catalog.game, queries=[m.params.get("query") for m in misses])
    return ids


UNKNOWN_CARD = frozenset({"card.unknown", "seasons.card_unknown", "volfyirion.unknown_card"})


def hopeless(err: RuleError, game: str) -> RuleError:
    """An unknown name with nothing near it says so and how cards are named in ``game`` (never "Did you mean:
    —"); any other refusal as it is."""
    if err.key not in UNKNOWN_CARD or err.params.get("suggestions"):
        return err
    key = f"card.unknown_none.{game}" if has(f"card.unknown_none.{game}") else "card.unknown_none"
    return RuleError(key, game=game, query=str(err.params.get("query", "")))


def card_id_of(card: Any) -> str:
    for attr in ("id", "name"):
        value = getattr(card, attr, None) if not isinstance(card, dict) else card.get(attr)
        if value is not None:
            return str(value)
    raise TypeError(card)


def require_text(values: dict[str, str], name: str) -> str:
    text = values.get(name, "").strip()
    if not text:
        raise RuleError("form.missing", field=name)
    return text


def int_field(values: dict[str, str], name: str, *, default: int | None = None) -> int:
    text = values.get(name, "").strip().translate(str.maketrans("０１２３４５６７８９－", "0123456789-"))
    if not text and default is not None:
        return default
    try:
        return int(text)
    except ValueError:
        raise RuleError("form.not_a_number", field=name, value=text[:40]) from None


def reveal_form(lg: str, count: int | None) -> tuple[str, list[FieldSpec]]:
    placeholder = t(lg, "form.reveal.placeholder")
    label = t(lg, "form.reveal.label", count=count if count is not None else "?")
    return t(lg, "form.reveal.title"), [FieldSpec("cards", label, placeholder, long=True)]
