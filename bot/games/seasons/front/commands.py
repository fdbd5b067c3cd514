"""``/seasons`` — Dummbot's Challenge: start, roll/die, reveal, played, effect, time, crystals, score."""

from __future__ import annotations

import asyncio
from typing import TypeAlias

import discord
from discord import app_commands

from engine.core import Action, GameRecord, Step
from engine.seasons import (
    CATALOG,
    EFFECT_KINDS,
    SeasonsState,
    face_text,
    resolve_face,
    search_faces,
    season_faces,
)
from engine.seasons.rules import PRELUDE_HAND
from engine.seasons.summary import DummbotScore, Pending, PlayerScore, SeasonsSummary, final_scores

from ....buttons import MENU_OPTIONS, ButtonSpec, FieldSpec, SelectSpec
from ....commands.cards import CardOption, CardTransformer, Typed
from ....commands.common import (
    GameGroup,
    card_choices,
    current_record,
    group_of,
    int_field,
    record_to_look_at,
    reveal_form,
    word_choices,
)
from ....controller import Builder, Controller
from ....i18n import L, card_name, english, remembered, t
from ....render.notices import notice
from ....replies import lang, send, think
from ....sessions import GameService, Played, Refusal
from ...plugin import GameUI, Row
from . import forms, pickers

KIND = "seasons"
Interaction = discord.Interaction



def difficulty_choices() -> list[app_commands.Choice[str]]:
    """The engine's difficulties (``Difficulty``: what it plays is what is offered), each by its ``word.<value>``."""
    from engine.seasons.summary import Difficulty

    return word_choices(*(d.value for d in Difficulty))


DICE = [
    app_commands.Choice(name=L("table (I roll the dice)", "word.dice_table"), value="table"),
    app_commands.Choice(name=L("bot (the bot rolls)", "word.dice_bot"), value="bot"),
]


# Cards are typed by number or by name, in English or Japanese (S-1).
CARDS = CardOption(KIND, lambda: CATALOG)
Card: TypeAlias = app_commands.Transform[Typed, CardTransformer(CARDS)]
Cards: TypeAlias = app_commands.Transform[
    Typed, CardTransformer(CARDS, max_length=500, multiple=True)]  # a comma-separated list


async def _reveal_choices(interaction: Interaction, current: str) -> list[app_commands.Choice[str]]:
    """A reveal's autocomplete: while a draw from Dummbot's hand is asked for, the cards known to be there come
    first (every one of them, S-2.4), then the catalog's matches, as for any card list."""
    record = await current_record(group_of(interaction).service, interaction.channel_id, KIND, SeasonsState)
    known = record.state.hand_known if record is not None and Pending(record.waiting.key).from_hand else ()
    return card_choices(lang(interaction), KIND, CARDS.catalog(), current, multiple=True, first=known)


RevealCards: TypeAlias = app_commands.Transform[
    Typed, CardTransformer(CARDS, max_length=500, multiple=True, source=_reveal_choices)]


def _effect_choices() -> list[app_commands.Choice[str]]:
    # Named by their label in both languages (English too: the raw id is no name for a player).
    return [app_commands.Choice(name=L(english(f"seasons.effect.{kind}"), f"seasons.effect.{kind}"), value=kind)
            for kind in EFFECT_KINDS]


class SeasonsCommands(GameGroup):
    def __init__(self, controller: Controller, service: GameService) -> None:
        super().__init__(controller, service, name="seasons",
                         description=L("Seasons: play against Dummbot", "cmd.seasons"))
        app_commands.choices(difficulty=difficulty_choices())(self.start)

    @app_commands.command(name="start", description=L("Start a Dummbot's Challenge game in this channel",
                                                      "cmd.seasons.start"))
    @app_commands.describe(difficulty=L("Dummbot's difficulty (leave it out: the bot asks, suggesting one from "
                                        "your last games)", "opt.seasons.difficulty"),
                           dice=L("Who rolls: you on the table, or the bot", "opt.seasons.dice"),
                           thread=L("Play in a new thread made for this game", "opt.game.thread"))
    @app_commands.choices(dice=DICE)  # the difficulties: when the group is made (``__init__``)
    async def start(self, interaction: Interaction, difficulty: str | None = None, dice: str = "table",
                    thread: bool = False) -> None:
        await self.start_game(interaction, KIND, {"difficulty": difficulty, "dice": dice}, thread=thread)

    @app_commands.command(name="roll", description=L("Bot dice: roll this season's two dice", "cmd.seasons.roll"))
    async def roll(self, interaction: Interaction) -> None:
        await self.controller.act(interaction, Action("roll"), kind=KIND)

    @app_commands.command(name="end", description=L("Bot dice: your turn is over; Dummbot resolves its die",
                                                    "cmd.seasons.end"))
    async def end(self, interaction: Interaction) -> None:
        await self.controller.act(interaction, Action("end"), kind=KIND)

    @app_commands.command(name="die", description=L("Table dice: the face of the die left for Dummbot",
                                                    "cmd.seasons.die"))
    @app_commands.describe(face=L("The face's symbols, e.g. 2 water, 3 crystals, 1 dot", "opt.seasons.face"))
    async def die(self, interaction: Interaction, face: app_commands.Range[str, 1, 200]) -> None:
        def build(record: GameRecord[SeasonsState]) -> Action:
            return Action("die", face=resolve_face(record.state, face))

        await self.controller.act(interaction, build, kind=KIND)

    @die.autocomplete("face")
    async def die_face(self, interaction: Interaction, current: str) -> list[app_commands.Choice[str]]:
        record = await current_record(self.service, interaction.channel_id, KIND, SeasonsState)
        if record is None:
            return []
        lg = lang(interaction)
        allowed = season_faces(record.state)
        faces = [f for f in search_faces(record.state.dice_season, current, lg, limit=60) if f in allowed]
        return [app_commands.Choice(name=face_text(f, lg)[:100], value=face_text(f, "en")[:100])
                for f in faces[:25]]

    @app_commands.command(name="reveal", description=L("Name the cards the bot asked you to reveal",
                                                       "cmd.seasons.reveal"))
    @app_commands.describe(cards=L("Card numbers or names, comma separated", "opt.seasons.cards"))
    async def reveal(self, interaction: Interaction, cards: RevealCards) -> None:
        await self.controller.act(interaction, lambda _r: Action("reveal", cards=_reveal_ids(cards)),
                                                kind=KIND)

    @app_commands.command(name="prelude", description=L("Dummbot's 6 prelude cards (optional, before its first die)",
                                                        "cmd.seasons.prelude"))
    @app_commands.describe(cards=L("The 6 cards: numbers or names, comma separated", "opt.seasons.prelude_cards"))
    async def prelude(self, interaction: Interaction, cards: Cards) -> None:
        await self.controller.act(interaction, lambda _r: _prelude_action(cards), kind=KIND)

    @app_commands.command(name="played", description=L("You summoned a card that touches Dummbot",
                                                       "cmd.seasons.played"))
    @app_commands.describe(card=L("The card you summoned (number or name)", "opt.seasons.card"))
    async def played(self, interaction: Interaction, card: Card) -> None:
        await self.controller.act(
            interaction, lambda _r: Action("played", card=card.pick("pk_played")), kind=KIND
        )

    @app_commands.command(name="effect", description=L("An effect on your side that touches Dummbot",
                                                       "cmd.seasons.effect"))
    @app_commands.describe(kind=L("What happened", "opt.seasons.effect"),
                           card=L("The card concerned, when it matters", "opt.seasons.effect_card"))
    @app_commands.choices(kind=_effect_choices())
    async def effect(self, interaction: Interaction, kind: str, card: Card | None = None) -> None:
        def build(_record: GameRecord[SeasonsState]) -> Action:
            if card is None:
                return Action("effect", kind=kind)
            return Action("effect", kind=kind, card=card.pick("pk_effect", lambda c: f"{kind}.{c}"))

        await self.controller.act(interaction, build, kind=KIND)

    @app_commands.command(name="answer", description=L("Answer the bot's question: how many crystals you have",
                                                       "cmd.seasons.answer"))
    @app_commands.describe(crystals=L("Your crystals", "opt.seasons.score.crystals"))
    async def answer(self, interaction: Interaction, crystals: app_commands.Range[int, 0, 10000]) -> None:
        await self.controller.act(interaction, Action("answer", crystals=crystals), kind=KIND)

    @app_commands.command(name="time", description=L("One of your cards moved the season token",
                                                     "cmd.seasons.time"))
    @app_commands.describe(steps=L("Spaces moved: 1 to 3 forward, -1 to -3 back", "opt.seasons.steps"))
    async def time(self, interaction: Interaction, steps: app_commands.Range[int, -3, 3]) -> None:
        await self.controller.act(interaction, Action("time", steps=steps), kind=KIND)

    @app_commands.command(name="crystals", description=L("Correct Dummbot's crystals", "cmd.seasons.crystals"))
    @app_commands.describe(change=L("How many to add (negative to take away)", "opt.seasons.change"))
    async def crystals(self, interaction: Interaction, change: app_commands.Range[int, -500, 500]) -> None:
        await self.controller.act(interaction, Action("crystals", change=change), kind=KIND)

    @app_commands.command(name="score", description=L("Your final score, to compare with Dummbot's",
                                                      "cmd.seasons.score"))
    @app_commands.describe(
        crystals=L("Your crystals", "opt.seasons.score.crystals"),
        prestige=L("Printed prestige of your cards in play", "opt.seasons.score.prestige"),
        bonuses=L("Bonus-track uses (0-3)", "opt.seasons.score.bonuses"),
        hand=L("Cards left in your hand", "opt.seasons.score.hand"),
        extra=L("End-of-game card effects (may be negative)", "opt.seasons.score.extra"),
    )
    async def score(
        self, interaction: Interaction, crystals: app_commands.Range[int, 0, 10000],
        prestige: app_commands.Range[int, -1000, 1000], bonuses: app_commands.Range[int, 0, 3],
        hand: app_commands.Range[int, 0, 100], extra: app_commands.Range[int, -1000, 1000] = 0,
    ) -> None:
        action = Action("score", crystals=crystals, prestige=prestige, bonuses=bonuses, hand=hand, extra=extra)
        await self.controller.act(interaction, action, kind=KIND)

    @app_commands.command(name="forecast", description=L("Dummbot's projected final score",
                                                         "cmd.seasons.forecast"))
    async def forecast(self, interaction: Interaction) -> None:
        await show_forecast(self.service, interaction)


def _reveal_ids(text: str) -> list[str]:
    """The revealed cards; an unknown or ambiguous name offers its candidates as buttons."""
    return CARDS.pick_many(text, "pk_reveal")


def _number(lg: str, name: str, *, required: bool = True) -> FieldSpec:
    """A field of the score form: a whole number (``int_field`` refuses anything else, in words)."""
    return FieldSpec(name, t(lg, f"form.score.{name}"), "0", required=required, max_length=6,
                     description=t(lg, "form.number.description"))


def _prelude_action(text: str) -> Action:
    """S-2.4: Dummbot's six prelude cards, typed as a reveal's are (a miss offers its candidates)."""
    return Action("prelude", cards=CARDS.pick_many(text, "pk_prelude"))


def _cannot_pay_buttons(step: Step[SeasonsState], lg: str, summary: SeasonsSummary) -> list[ButtonSpec]:
    """“I could not pay” for the payments this reply names (S-8.3): one button that corrects that payment, or one
    per card when it names several; a reply that names none corrects the latest."""
    open_cards = {p.card for p in summary.payments}
    named = list(dict.fromkeys(e.params.text("card") for e in step.events
                               if e.key == "seasons.event.crystals_from_player" and e.params.text("card") in open_cards
                               and e.params.flag("assumed", default=True)))
    if len(named) <= 1:
        return [ButtonSpec("cannot_pay", t(lg, "button.cannot_pay"), arg=named[0] if named else None)]
    return [ButtonSpec("cannot_pay", t(lg, "seasons.button.cannot_pay_card", card=card), arg=card)
            for card in named]


async def show_forecast(service: GameService, interaction: Interaction, *, game_id: int | None = None) -> None:
    """Monte Carlo over the rest of the game: Dummbot's projected score (anyone may look)."""
    row, record = await record_to_look_at(service, interaction.channel_id, KIND, SeasonsState, game_id)
    await think(interaction)
    state = record.state
    lg = lang(interaction)
    from engine.seasons.forecast import forecast

    result = await asyncio.to_thread(forecast, state, samples=10_000, seed=row.seed ^ row.ply)
    said = notice(lg, "forecast.text", kind="seasons", mean=round(result["mean"], 1),
                  p10=result["p10"], p90=result["p90"], samples=result["samples"], now=state.score)
    await send(interaction, notice=said)


PRIMARY = discord.ButtonStyle.primary


def _button(lg: str, op: str, key: str, style: discord.ButtonStyle = discord.ButtonStyle.secondary) -> ButtonSpec:
    """A button worded the same in every reply (roll, forecast, undo…): made once a language (a spec is frozen)."""
    return remembered(lg, key, (op, style), lambda: ButtonSpec(op, t(lg, key), style=style))


class SeasonsUI(GameUI[SeasonsSummary, SeasonsState]):
    """Buttons and forms for the states a Seasons game waits in."""

    def buttons(self, step: Step[SeasonsState], row: Row, lg: str,
                summary: SeasonsSummary) -> list[ButtonSpec | SelectSpec]:
        waiting = step.waiting
        specs: list[ButtonSpec | SelectSpec] = []
        legal = set(waiting.legal)
        if "roll" in legal:
            specs.append(_button(lg, "roll", "button.roll", PRIMARY))
        if "die" in legal:  # table dice: the round's report, by the face it shows (issue 35)
            specs += [p for p in [pickers.die_picker(step.state, lg)] if p]
        if "take" in legal:
            for i, die in enumerate(waiting.params.entries("dice")):
                label = t(lg, "button.take", n=i + 1, face=die["face"])
                specs.append(ButtonSpec("take", label, arg=i, style=discord.ButtonStyle.primary))
        if "end" in legal:
            specs.append(_button(lg, "end", "button.turn_over", PRIMARY))
        if "reveal" in legal:
            specs.append(_button(lg, "reveal", "button.reveal", PRIMARY))
            specs.append(self._reveal_picker(step, lg, summary))
        if "prelude" in legal and not row.ply:  # S-2.4, on the start reply (the command stays open longer)
            specs.append(_button(lg, "prelude", "button.prelude"))
        if "answer" in legal:
            specs.append(_button(lg, "answer", "button.answer", PRIMARY))
        if "score" in legal:
            specs.append(_button(lg, "score", "button.score", PRIMARY))
        if "effect" in legal and summary.can_correct_payment:
            specs += _cannot_pay_buttons(step, lg, summary)
        # The effects the player reports as they happen, a button each while they can be (the engine says which).
        effects = [ButtonSpec("fx", t(lg, f"seasons.effect.{kind}"), arg=kind)
                   for kind in step.state.reportable_effects()]
        specs += effects
        reports = self._report_pickers(step.state, lg)
        specs += reports
        forecast = [] if step.state.finished else [_button(lg, "forecast", "button.forecast")]
        specs += forecast
        if row.ply:
            specs.append(_button(lg, "undo", "button.undo", discord.ButtonStyle.danger))
        # Least needed first: the forecast (also in /seasons forecast), the time move and the card (both typed
        # as often), then the effects from the last.
        return pickers.fit(specs, [*forecast, *reversed(reports), *reversed(effects)])

    @staticmethod
    def _report_pickers(state: SeasonsState, lg: str) -> list[ButtonSpec | SelectSpec]:
        """During the player's turn: "Report a card…" (S-8) and the time moves."""
        if state.before_take or state.finished:
            return []
        legal = set(state.waiting.legal)
        played = pickers.played_picker(state, lg) if "played" in legal else None
        return [p for p in (played, pickers.time_picker(lg) if "time" in legal else None) if p]

    def _reveal_picker(self, step: Step[SeasonsState], lg: str, summary: SeasonsSummary) -> SelectSpec:
        count = step.waiting.params.number("count", 1) or 1
        seen: dict[str, int] = {}
        options = []
        for card_id, known in summary.reveal_candidates(MENU_OPTIONS):
            seen[card_id] = seen.get(card_id, 0) + 1
            value = card_id if seen[card_id] == 1 else f"{card_id}~{seen[card_id]}"  # a second known copy
            options.append((card_name(lg, KIND, card_id), value, t(lg, "pick.reveal.known") if known else None))
        placeholder = (t(lg, "pick.reveal.placeholder_one") if count == 1 else
                       t(lg, "pick.reveal.placeholder", count=count))
        return SelectSpec("pick", placeholder, tuple(options), arg="reveal", min_values=1,
                          max_values=min(count, len(options)))

    def select_action(self, op: str, arg: str | None, values: list[str], record: GameRecord[SeasonsState],
                      lg: str) -> Builder[SeasonsState] | tuple[str, str, list[FieldSpec]] | None:
        """The reveal picker: as many cards as asked completes the reveal; fewer opens its form with them filled
        in, to type the rest."""
        if op == "pick" and arg in ("die", "played", "time") and len(values) == 1:
            return pickers.picked_action(arg, values[0], record)
        if op != "pick" or arg != "reveal" or "reveal" not in record.waiting.legal or not values:
            return None
        ids = [v.split("~", 1)[0] for v in values]
        count = record.waiting.params.number("count", 1) or 1
        if len(ids) == count:
            return Action("reveal", cards=ids)
        title, fields = self._reveal_form(lg, record, chosen=values)
        return "reveal", title, fields

    @staticmethod
    def _reveal_form(lg: str, record: GameRecord[SeasonsState],
                     chosen: list[str] | None = None) -> tuple[str, list[FieldSpec]]:
        """The reveal's form: the cards that can be there as selects, known cards first, and a text field."""
        count = record.waiting.params.count("count")
        title, typed = reveal_form(lg, count)
        title = t(lg, "form.cards.title", count=count) if count else title  # how many, in the title
        return title, forms.card_fields(lg, record.state.summary(), count, label=typed[0].label, chosen=chosen)

    def button_action(self, op: str, arg: str | None, record: GameRecord[SeasonsState]) -> Builder[SeasonsState] | None:
        if op == "pk_reveal" and arg:
            return Action("reveal", cards=arg.split("."))
        if op == "pk_prelude" and arg:
            return Action("prelude", cards=arg.split("."))
        if op == "pk_played" and arg:
            return Action("played", card=arg)
        if op == "pk_effect" and arg and "." in arg:
            kind, card = arg.split(".", 1)
            return Action("effect", kind=kind, card=card)
        if op == "roll":
            return Action("roll")
        if op == "take" and arg in ("0", "1"):
            return Action("take", index=int(arg))
        if op == "end":
            return Action("end")
        if op == "cannot_pay":
            return Action("effect", kind="cannot_pay", **({"card": arg} if arg else {}))
        if op == "fx" and arg:
            return Action("effect", kind=arg)  # the engine refuses a kind it does not take now
        return None

    def form(self, op: str, lg: str, record: GameRecord[SeasonsState]) -> tuple[str, list[FieldSpec]] | None:
        if op == "reveal":
            return self._reveal_form(lg, record)
        if op == "prelude":
            return t(lg, "form.prelude.title"), forms.card_fields(lg, record.state.summary(), PRELUDE_HAND,
                                                                  label=t(lg, "form.prelude.label"))
        if op == "answer":
            return t(lg, "form.answer.title"), [_number(lg, "crystals")]
        if op == "score":
            return t(lg, "form.score.title"), [_number(lg, "crystals"), _number(lg, "prestige"),
                                               _number(lg, "bonuses"), _number(lg, "hand"),
                                               _number(lg, "extra", required=False)]
        return None

    def form_action(self, op: str, values: dict[str, str], record: GameRecord[SeasonsState]) -> Builder[SeasonsState]:
        if op == "reveal":
            return Action("reveal", cards=_reveal_ids(forms.told_cards(values)))
        if op == "prelude":
            return _prelude_action(forms.told_cards(values))
        if op == "answer":
            return Action("answer", crystals=int_field(values, "crystals"))
        if op == "score":
            return Action("score", crystals=int_field(values, "crystals"), prestige=int_field(values, "prestige"),
                          bonuses=int_field(values, "bonuses"), hand=int_field(values, "hand"),
                          extra=int_field(values, "extra", default=0))
        raise Refusal("refuse.unknown_button")

    def result_parts(self, record: GameRecord[SeasonsState]) -> dict[str, PlayerScore | DummbotScore]:
        """The breakdown of both final scores (S-7), as the engine gives it; the result card words it."""
        return final_scores(record.state.summary(), record.actions)

    def board(self, summary: SeasonsSummary, lang: str = "en") -> bytes:
        from .board import board

        return board(summary, lang=lang)

    def wants_picture(self, played: Played) -> bool:
        keys = {e.key for e in played.step.events}
        return played.finished_now or any(k.endswith(("season_changed", "new_year")) for k in keys)

    async def extra_button(self, ctl: Controller, interaction: Interaction, row: Row, op: str,
                           arg: str | None) -> bool:
        if op == "forecast":
            await show_forecast(ctl.service, interaction, game_id=row.id)
            return True
        return False

