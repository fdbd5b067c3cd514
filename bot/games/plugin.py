"""A game as the bot sees it: a ``GamePlugin`` subclass per game (``bot/games/<game>/``), its buttons, menus and
forms a ``GameUI`` subclass. What a game may leave out has its default here; a game imports its heavy parts (its
engine, its command group, its pictures) inside its methods, so that the registry loads none of them.

This interface depends on the engine and on the small protocols below, never on a module of the bot: the bot's
own classes (its controller, sessions, buttons and store rows) reach a game through its front end (its
``front/commands.py``), which names them."""

from __future__ import annotations

import json
from collections.abc import Awaitable, Callable, Mapping, Sequence
from dataclasses import dataclass, field
from functools import cached_property
from importlib import resources
from typing import TYPE_CHECKING, Any, Generic, Protocol, TypeAlias

from typing_extensions import TypeVar  # a default for S (PEP 696): ``GamePlugin[Summary]`` is a whole type

from engine.core import Action, GameRecord, State

if TYPE_CHECKING:
    import discord
    from discord import app_commands
    from PIL import ImageDraw

    from engine.core import Action, Result, Rules, Step

Summary = TypeVar("Summary")  # what the game's state says of itself (``state.summary()``)
# The game's own state class (what its ``Rules[S]`` steps to); a game that names only its summary reads ``State``.
S = TypeVar("S", bound=State, default=State)
Fields = list[tuple[str, str, bool]]  # embed fields: (name, value, inline)
Lines = list[tuple[str, str]]  # (name, value)
# A statement of a store's schema step: SQL, or a coroutine function given the step's connection (which must not
# commit: the step is one transaction).
StoreStep = str | Callable[[Any], Awaitable[None]]
# An action, or how to make it from the live record (the controller builds it under the channel's lock).
Builder: TypeAlias = Action | Callable[[GameRecord[S]], Action]


class Ordering(Protocol):
    """How a leaderboard orders a game's results (the store's ``Ranking``)."""

    @property
    def order(self) -> tuple[tuple[str, str], ...]: ...
    @property
    def outcomes(self) -> tuple[str, ...]: ...


class Spec(Protocol):
    """A button or menu a reply offers (bot/buttons.py's ``ButtonSpec`` and ``SelectSpec``)."""

    @property
    def op(self) -> str: ...


class FormField(Protocol):
    """A field of a form (bot/buttons.py's ``FieldSpec``): a text input, a select, a checkbox or a radio group, each
    in a Label. Whatever its kind, its answer reaches ``GameUI.form_action`` as a string."""

    @property
    def name(self) -> str: ...
    @property
    def label(self) -> str: ...


class Row(Protocol):
    """A stored game, as its buttons read it (bot/store's ``GameRow``)."""

    @property
    def id(self) -> int: ...
    @property
    def ply(self) -> int: ...
    @property
    def seed(self) -> int: ...


# What a game's front end (its front/commands.py) reads with the bot's own classes, which the interface leaves
# open: a change and its reply (bot/sessions.py's ``Played``), a result row (bot/store), the controller and the
# session service a command group is made with, how a game's cards are typed (bot/commands/cards.py).
Change: TypeAlias = Any
ResultRow: TypeAlias = Any
Front: TypeAlias = Any
CardTyping: TypeAlias = Any
CommandGroup: TypeAlias = "app_commands.Group"  # its slash command group, made by its front end


@dataclass(frozen=True)
class Words:
    """What a game adds to the bot's sentences (bot.i18n merges every game's). ``render``: the game's own
    parameters, None for any other (asked whatever the key's game: a parameter keeps its words in shared keys
    too); ``variants``: key → a function of the engine's params naming the variant (``<key>.<variant>``) to use."""

    card_name: Callable[[str, str], str | None] = lambda lang, card_id: None  # None: no card of the game
    split_cards: bool = False  # a comma-separated text in a card parameter is a list of cards
    render: Callable[[str, str, Any, dict[str, Any]], Any] | None = None
    card_params: frozenset[str] = frozenset()  # its own parameters that carry card ids
    word_params: frozenset[str] = frozenset()  # those said through a ``word.<value>`` label
    variants: Mapping[str, Callable[[dict[str, Any]], str | None]] = field(default_factory=dict)
    param_names: Mapping[str, Mapping[str, str]] = field(default_factory=dict)  # key → {engine name: placeholder}
    event_keys: Mapping[tuple[str, str], str] = field(default_factory=dict)  # (event, next event) → key to say it


class GameUI(Generic[Summary, S]):
    """One game's buttons, select menus and forms, as the controller asks for them."""

    def buttons(self, step: Step[S], row: Row, lang: str, summary: Summary) -> Sequence[Spec]:
        """The buttons of a reply in the state ``step`` left (``summary``: made once for the whole reply)."""
        return []

    def board(self, summary: Summary, lang: str = "en") -> bytes:  # the picture of the state (PNG)
        raise NotImplementedError

    def button_action(self, op: str, arg: str | None, record: GameRecord[S]) -> Builder[S] | None:
        return None

    def select_action(self, op: str, arg: str | None, values: list[str], record: GameRecord[S],
                      lang: str) -> Builder[S] | tuple[str, str, Sequence[FormField]] | None:
        """A pick from a menu: the action, or (form op, title, fields) to finish typing in a form."""
        return None

    def form(self, op: str, lang: str, record: GameRecord[S]) -> tuple[str, Sequence[FormField]] | None:
        return None

    def form_action(self, op: str, values: dict[str, str], record: GameRecord[S]) -> Builder[S] | None:
        """The action a filled-in form asks for (None: no form of the game's, refused as an unknown button). ``values``
        are strings by field name: a text as typed, a select's values comma-joined, a checkbox "true" or "false"."""
        return None

    def refusal_buttons(self, key: str, lang: str) -> Sequence[Spec]:
        """Buttons the game offers on one of its refusals (a confirmation its rules ask for)."""
        return []

    def extra_fields(self, step: Step[S], lang: str) -> Lines:
        """Fields the game adds to a reply whatever its size."""
        return []

    def result_parts(self, record: GameRecord[S]) -> dict[str, Any]:
        """The breakdown of a finished game's result (its own rules), for the result card."""
        return {}

    def wants_picture(self, played: Change) -> bool:  # a change's reply shows the full state and the picture
        return bool(played.finished_now)

    async def extra_button(self, ctl: Front, interaction: discord.Interaction, row: Row, op: str,
                           arg: str | None) -> bool:
        """A button of the game's own that is no action (a forecast, a meter): True when it was answered."""
        return False


class GamePlugin(Generic[Summary, S]):
    """One game: its names, its engine, its command group and UI, its replies, results and words."""

    kind: str  # the stored name: games.kind, locale keys (``word.<kind>``, ``result.title.<kind>.won``, …)
    name: str  # the English name of its choice in /game leaderboard and /game help (``word.<kind>`` in Japanese)
    command: str  # the name of its slash command group
    colour: int  # the embed colour of its replies
    ranking: Ordering  # how its leaderboard orders results
    help_keys: tuple[str, ...] = ()  # locale keys of its /game help rows (each with a ``.name`` key)

    def action_params(self, before: S, action: Action) -> dict[str, Any]:
        """What an action's line in the history or an undo note reads from the state it was played in (Seasons
        names the die taken by its face): nothing by default."""
        return {}

    @property
    def difficulties(self) -> tuple[str, ...]:
        """The values of its ``difficulty`` option, as its engine lists them (``word.<value>`` names each)."""
        return ()

    def rules(self) -> Rules[S]:
        raise NotImplementedError

    def commands(self, controller: Front, service: Front) -> app_commands.Group:
        """Its slash command group, made for one bot (given what its commands need)."""
        raise NotImplementedError

    def ui(self) -> GameUI[Summary, S]:
        """Its buttons, menus and forms, made for one bot."""
        raise NotImplementedError

    def leaderboard_row(self, lang: str, row: ResultRow) -> str:
        """A result on the leaderboard and in /game stats."""
        raise NotImplementedError

    def state_fields(self, lang: str, summary: Summary) -> Fields:
        return []

    def state_colour(self, summary: Summary) -> int | None:  # a colour of the state's (None: the game's own)
        return None

    def result_lines(self, lang: str, result: Result, parts: dict[str, Any]) -> Lines:
        """The result card's lines (``parts``: the UI's ``result_parts``, empty for an older game)."""
        return []

    def result_picture(self, draw: ImageDraw.ImageDraw, lang: str, result: Result, parts: dict[str, Any],
                       won: bool) -> None:
        """Draw the game's part of the result picture, below its title."""

    def progress(self, lang: str, summary: Summary) -> str:  # where a game in progress is (the console's banner)
        return ""

    def help_params(self, key: str) -> dict[str, Any]:  # what its help row ``key`` reads from the engine
        return {}

    def card_option(self) -> CardTyping | None:
        """How its cards are typed, for /game card (None: it has no cards to look up)."""
        return None

    def card_fields(self, lang: str, card_id: str, summary: Summary | None) -> Lines:
        """/game card: the card's facts, and where its copies are in ``summary``'s game."""
        return []

    def store_steps(self, engine: str) -> Mapping[int, Sequence[StoreStep]]:
        """What the game adds to the store's schema steps (``engine``: "sqlite" or "postgresql"), by the version
        the step brings a database to; run after that step's shared statements, in its transaction. Steps that
        shipped never change: a game appends its own at a new version with the store's next step."""
        return {}

    @cached_property
    def words(self) -> Words:
        return self.make_words()

    def make_words(self) -> Words:
        return Words()

    def texts(self) -> dict[str, dict[str, str]]:
        """Its sentences, by language: every ``*.<lang>.json`` of the ``locales`` folder beside its module."""
        texts: dict[str, dict[str, str]] = {}
        folder = resources.files(type(self).__module__).joinpath("locales")
        if not folder.is_dir():
            return texts
        for entry in sorted(folder.iterdir(), key=lambda e: e.name):
            parts = entry.name.split(".")
            if len(parts) >= 2 and parts[-1] == "json":
                texts.setdefault(parts[-2], {}).update(json.loads(entry.read_text(encoding="utf-8")))
        return texts


# The registry's view of a game: each game reads only its own state and summary, which the shared bot passes
# back to it untouched (Python has no existential types; these aliases are the one place the bot leaves them open).
AnyGame: TypeAlias = "GamePlugin[Any, Any]"
AnyUI: TypeAlias = "GameUI[Any, Any]"
