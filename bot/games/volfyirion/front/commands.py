"""``/volfyrion`` — the dragon of Volfyirion's solo mode (the command keeps the spelling players type)."""

from __future__ import annotations

import asyncio
import dataclasses
from typing import TYPE_CHECKING, Any, TypeAlias

import discord
from discord import app_commands

from engine.core import Action, Catalog, GameRecord, Step

from .... import understood
from ....buttons import CHECKBOX, TRUE, ButtonSpec, FieldSpec, SelectSpec, fit, rows_of
from ....commands.cards import CardOption, CardTransformer, Typed
from ....commands.common import (
    GameGroup,
    current_record,
    group_of,
    record_to_look_at,
    reveal_form,
    word_choices,
)
from ....controller import Builder, Controller
from ....i18n import L, t
from ....replies import lang, send, think
from ....sessions import GameService, Played, Refusal
from ...plugin import GameUI, Row
from . import pickers
from .danger import danger_notice, next_attack_lines, removal_lines

if TYPE_CHECKING:  # the engine loads with the first game, not when the command group is built
    from engine.volfyirion.cards import Card
    from engine.volfyirion.state import VolfState
    from engine.volfyirion.summary import VolfyirionSummary

KIND = "volfyirion"
Interaction = discord.Interaction



def difficulty_choices() -> list[app_commands.Choice[str]]:
    """The engine's difficulties (``Difficulty``: what it plays is what is offered), each by its ``word.<value>``."""
    from engine.volfyirion.summary import Difficulty

    return word_choices(*(d.value for d in Difficulty))

# V-5.3: the formula of the rules text this bot follows (the default) or the English rulebook's table.
BONUS = [
    app_commands.Choice(name=L("flat: costs + 1 per destroyed city + difficulty (the rules text this bot follows)",
                               "word.bonus_flat"), value="flat"),
    app_commands.Choice(name=L("per_city: costs + difficulty per destroyed city (the English rulebook's table)",
                               "word.bonus_per_city"), value="per_city"),
]
PAID = [
    app_commands.Choice(name=L("6 Battle points", "word.paid_battle"), value="battle"),
    app_commands.Choice(name=L("6 Knowledge points", "word.paid_knowledge"), value="knowledge"),
]
HOW = [
    app_commands.Choice(name=L("attack (16 Battle points)", "word.how_attack"), value="attack"),
    app_commands.Choice(name=L("subjugate (16 Knowledge points)", "word.how_subjugate"), value="subjugate"),
]
IN_PLAY_TYPES = ("troop", "building", "wonder")
DANGER_DETAILS = "danger_details"  # the danger meter's button: the attack's distribution and formula


def _catalog() -> Catalog[Card]:
    from engine.volfyirion import CATALOG

    return CATALOG


def _miss(text: str) -> Any:
    """A name no card has: the rules' ``volfyirion.unknown_card``, with its suggestions."""
    from engine.volfyirion.cards import card_named

    return card_named(text)


# Cards are typed by name (Volfyirion's ids); a candidate button carries a card as its catalog index.
CARDS = CardOption(KIND, _catalog, miss=_miss, arg=lambda name: _index(name))
PlayedCard: TypeAlias = app_commands.Transform[
    Typed, CardTransformer(CARDS, keep=lambda c: c.type in IN_PLAY_TYPES and c.solo)]
InPlay: TypeAlias = app_commands.Transform[
    Typed, CardTransformer(CARDS, source=lambda i, typed: _in_play_choices(i, typed))]
InPlayTroop: TypeAlias = app_commands.Transform[
    Typed, CardTransformer(CARDS, source=lambda i, typed: _in_play_choices(i, typed, troops_only=True))]
AssetCard: TypeAlias = app_commands.Transform[Typed, CardTransformer(CARDS, keep=lambda c: c.in_asset_deck)]
# What a player acquires: an Asset card from the Asset Row or a Wonder from Volfyirion's Lair (V-2.1).
Acquired: TypeAlias = app_commands.Transform[
    Typed, CardTransformer(CARDS, keep=lambda c: c.solo and (c.in_asset_deck or c.type == "wonder"))]
AssetCards: TypeAlias = app_commands.Transform[
    Typed, CardTransformer(CARDS, max_length=1000, multiple=True, keep=lambda c: c.in_asset_deck)]
Wonder: TypeAlias = app_commands.Transform[Typed, CardTransformer(CARDS, keep=lambda c: c.type == "wonder")]


def _meant(action: Action | Builder[VolfState]) -> Builder[VolfState]:
    """The typed action as the rules take it (card ids, city names); each name read from a part of it or a typo
    is noted, for the reply to say."""
    def build(record: GameRecord[VolfState]) -> Action:
        typed = action(record) if callable(action) else action
        for text, card in _names_read(typed):
            understood.note(KIND, text, card)
        from engine.volfyirion import canonical_action

        return canonical_action(record.state, typed)

    return build


def _names_read(typed: Action) -> list[tuple[str, str]]:
    """Card names in a typed action that were not exact (a part of a name, a typo): (typed, card)."""
    from engine.core import split_list

    found = []
    for name in ("card", "cards", "troop"):
        value: Any = typed.args.get(name)
        texts = split_list(value) if isinstance(value, str) else list(value) if isinstance(value, (list, tuple)) else []
        for text in texts:
            if not isinstance(text, str) or text in _catalog():
                continue
            resolved = _catalog().resolve(text)
            if resolved is not None and not resolved[1]:
                found.append((text, resolved[0].name))
    return found


class VolfyirionCommands(GameGroup):
    def __init__(self, controller: Controller, service: GameService) -> None:
        super().__init__(controller, service, name="volfyrion",
                         description=L("Volfyirion: play the solo mode against the dragon", "cmd.volfyirion"))
        app_commands.choices(difficulty=difficulty_choices())(self.start)

    def _act(self, interaction: Interaction, action: Action | Builder[VolfState]) -> Any:
        """Apply what the player typed, stored as it was meant: card ids and city names resolved against the
        state it is applied to (built under the channel's lock)."""
        return self.controller.act(interaction, _meant(action), kind=KIND)

    @app_commands.command(name="start", description=L("Start a solo game against Volfyirion in this channel",
                                                      "cmd.volfyirion.start"))
    @app_commands.describe(
        difficulty=L("Volfyirion's difficulty (leave it out: the bot asks, suggesting one from your last games)",
                     "opt.volfyirion.difficulty"),
        bonus=L("Difficulty bonus: flat (default, the rules this bot follows) or per_city (English rulebook's table)",
                "opt.volfyirion.bonus"),
        cities=L("Your three city cards, e.g. Yrdesh, Akao Uket, Kyr", "opt.volfyirion.cities"),
        unseal=L("Allow unsealing Wonders Volfyirion sealed (off by default)", "opt.volfyirion.unseal"),
        thread=L("Play in a new thread made for this game", "opt.game.thread"),
    )
    @app_commands.choices(bonus=BONUS)  # the difficulties: when the group is made (``__init__``)
    async def start(self, interaction: Interaction, difficulty: str | None = None, bonus: str = "flat",
                    cities: app_commands.Range[str, 1, 100] | None = None, unseal: bool = False,
                    thread: bool = False) -> None:
        options: dict[str, Any] = {"difficulty": difficulty, "bonus": bonus, "unseal": unseal}
        if cities:  # read here, as the player meant them ("tyla, akao, kyr"): the rules take city names
            from engine.volfyirion import resolve_cities

            options["cities"] = resolve_cities(cities)
        await self.start_game(interaction, KIND, options, thread=thread)

    @app_commands.command(name="play", description=L("You played a Troop, Building or Wonder",
                                                     "cmd.volfyirion.play"))
    @app_commands.describe(card=L("The card", "opt.volfyirion.card"),
                           city=L("The city it goes to (Troops and Buildings)", "opt.volfyirion.city"))
    async def play(self, interaction: Interaction, card: PlayedCard,
                   city: app_commands.Range[str, 1, 100] | None = None) -> None:
        await self._act(interaction, _with_city("play", "card", card, city))

    @app_commands.command(name="remove", description=L("You removed one of your cards in play",
                                                       "cmd.volfyirion.remove"))
    @app_commands.describe(card=L("The card", "opt.volfyirion.card"),
                           city=L("Its city, when the same card stands in two", "opt.volfyirion.remove_city"))
    async def remove(self, interaction: Interaction, card: InPlay,
                     city: app_commands.Range[str, 1, 100] | None = None) -> None:
        await self._act(interaction, _with_city("remove", "card", card, city))

    @app_commands.command(name="redeploy", description=L("You moved a Troop to another city",
                                                         "cmd.volfyirion.redeploy"))
    @app_commands.describe(troop=L("The Troop", "opt.volfyirion.troop"),
                           city=L("The city it moves to", "opt.volfyirion.to_city"))
    async def redeploy(self, interaction: Interaction, troop: InPlayTroop,
                       city: app_commands.Range[str, 1, 100]) -> None:
        await self._act(interaction, _with_city("redeploy", "troop", troop, city))

    @app_commands.command(name="acquire", description=L(
        "You acquired an Asset card or a Wonder (it goes to your discard pile)", "cmd.volfyirion.acquire"))
    @app_commands.describe(card=L("The Asset card or Wonder you acquired", "opt.volfyirion.acquire_card"))
    async def acquire(self, interaction: Interaction, card: Acquired) -> None:
        await self._act(interaction, lambda _r: Action("acquire", card=card.pick("pk_acquire")))

    @app_commands.command(name="reshuffle", description=L(
        "You reshuffled your discard into a new House Deck during the turn (not in the end-of-turn draw)",
        "cmd.volfyirion.reshuffle"))
    async def reshuffle(self, interaction: Interaction) -> None:
        await self._act(interaction, Action("reshuffle"))

    @app_commands.command(name="putaside", description=L("Put aside the top card of the Rage Pile",
                                                         "cmd.volfyirion.putaside"))
    @app_commands.describe(paid=L("What you paid", "opt.volfyirion.paid"),
                           card=L("The card, if you looked", "opt.volfyirion.putaside_card"))
    @app_commands.choices(paid=PAID)
    async def putaside(self, interaction: Interaction, paid: str, card: AssetCard | None = None) -> None:
        if card is None:
            await self._act(interaction, Action("putaside", paid=paid, card=None))
            return
        code = PAID_CODES.get(paid.strip().casefold())
        await self._act(interaction, lambda _r: Action("putaside", paid=paid, card=card.pick(
            "pk_putaside", lambda i: None if code is None else f"{i}.{code}")))

    @app_commands.command(name="danger", description=L("How dangerous the Rage Pile is right now",
                                                       "cmd.volfyirion.danger"))
    async def danger(self, interaction: Interaction) -> None:
        await show_danger(self.service, interaction)

    @app_commands.command(name="end", description=L(
        "End your turn once you drew your new hand (Volfyirion attacks if its token is away)", "cmd.volfyirion.end"))
    @app_commands.describe(reshuffled=L("Drawing your new hand made you reshuffle your House Deck (it attacks now)",
                                        "opt.volfyirion.reshuffled"))
    async def end(self, interaction: Interaction, reshuffled: bool = False) -> None:
        await self._act(interaction, end_action(reshuffled))

    @app_commands.command(name="reveal", description=L("Name the Rage Pile's revealed cards",
                                                       "cmd.volfyirion.reveal"))
    @app_commands.describe(cards=L("Card names, comma separated", "opt.volfyirion.cards"))
    async def reveal(self, interaction: Interaction, cards: AssetCards) -> None:
        await self._act(interaction, lambda _r: Action("reveal", cards=cards.pick_many("pk_reveal")))

    @app_commands.command(name="choose", description=L("Which of your Troops or Buildings is removed",
                                                       "cmd.volfyirion.choose"))
    @app_commands.describe(city=L("The city it stands in", "opt.volfyirion.choose_city"))
    async def choose(self, interaction: Interaction, city: app_commands.Range[str, 1, 100]) -> None:
        await self._act(interaction, Action("choose", city=city))

    @app_commands.command(name="refill", description=L(
        "The Asset Deck ran out (put-aside cards shuffled into a new one, or none to shuffle)", "cmd.volfyirion.refill"))
    @app_commands.describe(confirm=L("Yes: the Asset Deck really ran out, even though the bot's count says it can hold "
                                     "cards", "opt.volfyirion.confirm"))
    async def refill(self, interaction: Interaction, confirm: bool = False) -> None:
        await self._act(interaction, refill_action(confirm))

    @app_commands.command(name="unseal", description=L("You unsealed a Wonder (only if the game allows it)",
                                                       "cmd.volfyirion.unseal"))
    @app_commands.describe(card=L("The Wonder", "opt.volfyirion.wonder"))
    async def unseal(self, interaction: Interaction, card: Wonder) -> None:
        await self._act(interaction, lambda _r: Action("unseal", card=card.pick("pk_unseal")))

    @app_commands.command(name="win", description=L("You defeated Volfyirion", "cmd.volfyirion.win"))
    @app_commands.describe(how=L("How", "opt.volfyirion.how"))
    @app_commands.choices(how=HOW)
    async def win(self, interaction: Interaction, how: str) -> None:
        await self._act(interaction, Action("win", how=how))

    @play.autocomplete("city")
    @remove.autocomplete("city")
    @redeploy.autocomplete("city")
    @choose.autocomplete("city")
    async def _city(self, interaction: Interaction, current: str) -> list[app_commands.Choice[str]]:
        summary = await _summary(interaction)
        names = [] if summary is None else [c.name for c in summary.standing]
        typed = current.casefold().strip()
        return [app_commands.Choice(name=n, value=n) for n in names if typed in n.casefold()][:25]


def _index(name: str) -> str:
    return str(_catalog().ids().index(name))


def _cards_or_pick(text: str) -> list[str]:
    return CARDS.pick_many(text, "pk_reveal")


async def _summary(interaction: Interaction) -> VolfyirionSummary | None:
    from engine.volfyirion.state import VolfState

    record = await current_record(group_of(interaction).service, interaction.channel_id, KIND, VolfState)
    return None if record is None else record.state.summary()


async def _in_play_choices(interaction: Interaction, current: str,
                           troops_only: bool = False) -> list[app_commands.Choice[str]]:
    summary = await _summary(interaction)
    names = [] if summary is None else summary.in_play(troops_only=troops_only)
    typed = current.casefold().strip()
    unique = list(dict.fromkeys(n for n in names if typed in n.casefold()))
    return [app_commands.Choice(name=n, value=n) for n in unique][:25]


async def show_danger(service: GameService, interaction: Interaction, *, game_id: int | None = None,
                      details: bool = False) -> None:
    """The Rage Pile's danger meter (anyone may look): its headline with a Details button, or the details."""
    from engine.volfyirion.state import VolfState

    row, record = await record_to_look_at(service, interaction.channel_id, KIND, VolfState, game_id)
    await think(interaction)
    lg = lang(interaction)
    from engine.volfyirion.whatif import danger_meter

    # The same seed for the headline and its details: the Monte Carlo figures agree between the two.
    report = await asyncio.to_thread(danger_meter, record.state, seed=row.seed ^ row.ply)
    details_button = ButtonSpec(DANGER_DETAILS, t(lg, "button.danger_details"))
    rows = [] if details else rows_of(row.id, row.ply, [details_button])
    await send(interaction, notice=danger_notice(lg, report, details=details), rows=rows)


class VolfyirionUI(GameUI["VolfyirionSummary", "VolfState"]):
    def buttons(self, step: Step[VolfState], row: Row, lg: str,
                summary: VolfyirionSummary) -> list[ButtonSpec | SelectSpec]:
        waiting, specs = step.waiting, list[ButtonSpec | SelectSpec]()
        legal = set(waiting.legal)
        if summary.choosing is not None:
            for i, city in enumerate(waiting.params.texts("cities")):
                specs.append(ButtonSpec("choose", city, arg=i, style=discord.ButtonStyle.primary))
        if "reveal" in legal:
            specs.append(ButtonSpec("reveal", t(lg, "button.reveal"), style=discord.ButtonStyle.primary))
        if "end" in legal:
            specs.append(ButtonSpec("end", t(lg, "button.end_turn"), style=discord.ButtonStyle.primary))
            if summary.draw_may_reshuffle:  # V-3.4: the end-of-turn draw may reshuffle
                specs.append(ButtonSpec("end", t(lg, "button.end_turn_reshuffled"), arg=RESHUFFLED,
                                        style=discord.ButtonStyle.primary))
            specs.append(ButtonSpec("danger", t(lg, "button.danger")))
        if "reshuffle" in legal and summary.draw_may_reshuffle:
            specs.append(ButtonSpec("reshuffle", t(lg, "button.reshuffle")))
        if "putaside" in legal and summary.rage_pile.size:
            specs.append(ButtonSpec("putaside", t(lg, "button.putaside_battle"), arg="battle"))
            specs.append(ButtonSpec("putaside", t(lg, "button.putaside_knowledge"), arg="knowledge"))
        if "refill" in legal and (summary.put_aside or summary.put_aside_unknown):  # V-2.4: cards to shuffle
            specs.append(ButtonSpec(REFILL_FORM, t(lg, "button.refill")))
        # The reports a select can narrow (the rest by the commands' autocomplete), least needed dropped first.
        picks: list[ButtonSpec | SelectSpec] = []
        if "end" in legal:
            picks += pickers.turn_pickers(step.state, lg, legal)
        specs += picks
        if row.ply:
            specs.append(ButtonSpec("undo", t(lg, "button.undo"), style=discord.ButtonStyle.danger))
        return fit(specs, list(reversed(picks)))

    def select_action(self, op: str, arg: str | None, values: list[str], record: GameRecord[VolfState],
                      lg: str) -> Builder[VolfState] | None:
        """A pick from a turn's select completes its command, as typed."""
        if op != "pick" or len(values) != 1:
            return None
        action = pickers.picked_action(arg, values[0], record.state)
        return None if action is None or action.type not in record.waiting.legal else _meant(action)

    def button_action(self, op: str, arg: str | None, record: GameRecord[VolfState]) -> Builder[VolfState] | None:
        picked = _picked_action(op, arg, record)
        if picked is not None:
            return picked
        if op == "choose" and arg is not None and arg.isdigit():
            cities = record.waiting.params.texts("cities")
            if int(arg) < len(cities):
                return _meant(Action("choose", city=cities[int(arg)]))
            return None
        if op == "end":
            return end_action(arg == RESHUFFLED)
        if op == "refill":
            return refill_action(arg == CONFIRM)
        if op == REFILL_FORM:  # the deck can hold no card by the count: no confirmation to ask (V-3.5)
            return refill_action(False)
        if op == "reshuffle":
            return Action(op)
        if op == "putaside" and arg in ("battle", "knowledge"):
            return Action("putaside", paid=arg, card=None)
        return None

    def refusal_buttons(self, key: str, lg: str) -> list[ButtonSpec]:
        """A refill before the bot's count says the Asset Deck can be empty (V-3.5): the button that confirms it."""
        if key == "volfyirion.refill_confirm":
            return [ButtonSpec("refill", t(lg, "button.refill_confirm"), arg=CONFIRM, style=discord.ButtonStyle.primary)]
        return []

    def form(self, op: str, lg: str, record: GameRecord[VolfState]) -> tuple[str, list[FieldSpec]] | None:
        if op == "reveal":  # the Asset cards a Rage card can be, a select per type, and a text field
            count = record.waiting.params.count("count")
            title, typed = reveal_form(lg, count)
            title = t(lg, "form.cards.title", count=count) if count else title  # how many, in the title
            typed = [dataclasses.replace(typed[0], label=t(lg, "form.cards.typed"), required=False,
                                         description=typed[0].label[:100])]
            return title, pickers.rage_fields(lg, record.state, count, typed[0])
        if op == REFILL_FORM and not record.state.deck_empty():  # V-3.5: the count says cards can be left
            return t(lg, "form.refill.title"), [FieldSpec(
                "confirm", t(lg, "form.refill.confirm"), kind=CHECKBOX, required=False,
                description=t(lg, "form.refill.description", left=record.state.deck or 0))]
        return None

    def form_action(self, op: str, values: dict[str, str], record: GameRecord[VolfState]) -> Builder[VolfState]:
        if op == "reveal":
            return _meant(Action("reveal", cards=_cards_or_pick(pickers.told_cards(values))))
        if op == REFILL_FORM:
            return refill_action(values.get("confirm") == TRUE)
        raise Refusal("refuse.unknown_button")

    def extra_fields(self, step: Step[VolfState], lg: str) -> list[tuple[str, str]]:
        """At each turn's prompt: when the next reshuffle, so the next attack, comes (V-3.4). At an attack that
        asks which Troop to remove: which city falls for each choice (V-4.1)."""
        from engine.volfyirion.house import next_attack
        from engine.volfyirion.state import TURN
        from engine.volfyirion.whatif import removal_outcomes

        if step.state.phase == TURN:
            return [(t(lg, "volfyirion.next.name"), next_attack_lines(lg, next_attack(step.state)))]
        outcomes = removal_outcomes(step.state)
        return [(t(lg, "whatif.choose.name"), removal_lines(lg, outcomes))] if outcomes else []

    def board(self, summary: VolfyirionSummary, lang: str = "en") -> bytes:
        from .board import board

        return board(summary, lang=lang)

    def wants_picture(self, played: Played) -> bool:
        # An attack resolved (V-4.3 … V-4.7) or a city fell: not the turns that end with no attack.
        keys = {e.key.rsplit(".", 1)[-1] for e in played.step.events}
        return played.finished_now or bool(keys & {"attack", "city_destroyed", "no_command_cards"})

    async def extra_button(self, ctl: Controller, interaction: Interaction, row: Row, op: str,
                           arg: str | None) -> bool:
        if op in ("danger", DANGER_DETAILS):
            await show_danger(ctl.service, interaction, game_id=row.id, details=op == DANGER_DETAILS)
            return True
        return False


# The arguments of the End button that says the end-of-turn draw reshuffled (V-3.4), and of the button that
# confirms a refill (V-3.5).
RESHUFFLED, CONFIRM = "reshuffled", "confirm"
# The turn's "The Asset Deck ran out…" button, and its form (a checkbox when the count says cards can be left); the
# refusal's confirmation stays the ``refill`` button, which acts at once.
REFILL_FORM = "refill_ask"


def end_action(reshuffled: bool) -> Action:
    """The end of the turn, ``reshuffled`` when drawing the new hand made the player reshuffle (V-3.4); stored
    without the flag otherwise, as every End before it was."""
    return Action("end", reshuffled=True) if reshuffled else Action("end")


def refill_action(confirm: bool) -> Action:
    """The Asset Deck ran out (V-2.4, V-3.5); ``confirm`` when the bot's count says it can still hold cards."""
    return Action("refill", confirm=True) if confirm else Action("refill")


# What was paid to put the top card aside, as a candidate button's argument carries it.
PAID_CODES = {"battle": "b", "knowledge": "k"}


def _with_city(kind: str, name: str, typed: str, city: str | None) -> Builder[VolfState]:
    """``play``/``remove``/``redeploy``: the card, or its candidates as buttons that keep the city typed (by its
    index among the game's cities; a city the game does not have gets no buttons, only the rules' refusal)."""
    def build(record: GameRecord[VolfState]) -> Action:
        cities = [c["name"].casefold() for c in record.state.cities]
        where = city.casefold().strip() if city is not None else None
        index = "" if where is None else str(cities.index(where)) if where in cities else None
        named = CARDS.pick(typed, f"pk_{kind}", lambda i: None if index is None else f"{i}.{index}")
        return Action(kind, **{name: named, "city": city})

    return build


def _picked_action(op: str, arg: str | None, record: GameRecord[VolfState]) -> Action | None:
    """A candidate button of a refusal: the command as typed, with the card picked (ids are catalog indexes)."""
    if not op.startswith("pk_") or not arg:
        return None
    ids = _catalog().ids()
    try:
        if op in ("pk_play", "pk_remove", "pk_redeploy"):
            card_index, _, city_index = arg.partition(".")
            city = record.state.cities[int(city_index)]["name"] if city_index else None
            name = "troop" if op == "pk_redeploy" else "card"
            return Action(op.removeprefix("pk_"), **{name: ids[int(card_index)], "city": city})
        if op in ("pk_acquire", "pk_unseal"):
            return Action(op.removeprefix("pk_"), card=ids[int(arg)])
        if op == "pk_putaside":
            card_index, _, code = arg.partition(".")
            paid = next(word for word, c in PAID_CODES.items() if c == code)
            return Action("putaside", paid=paid, card=ids[int(card_index)])
        if op == "pk_reveal":
            return Action("reveal", cards=[ids[int(i)] for i in arg.split(".")])
    except (ValueError, IndexError, StopIteration):
        return None
    return None

