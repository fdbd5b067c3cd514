"""One path for every change, whether it came as a slash command, a button or a form.

``act`` is the whole story of a command: apply it through the session service (lock → load → engine →
one transaction), then answer — publicly with the new state, or privately with a localized refusal
that changed nothing. Game-specific parts (which buttons to offer, what a button or form means) live
in the game's package (``bot/games/<game>/``) as its ``GameUI``; this module knows none of the rules.
"""

from __future__ import annotations

import asyncio
import contextlib
import dataclasses
import io
import json
import logging
import time
from collections import OrderedDict
from collections.abc import AsyncIterator, Awaitable, Callable
from datetime import UTC, datetime
from typing import Any, Protocol, TypeAlias, TypeVar, cast

import discord

from engine.core import Action, GameRecord, Result, RuleError, State

from . import understood
from .buttons import (
    ButtonSpec,
    Form,
    GameButton,
    GameSelect,
    SelectSpec,
    custom_id,
    item_of,
    rows_of,
)
from .channels import post_to_parent
from .config import Config
from .delivery import Deliveries, Gate, NotAcknowledged
from .i18n import card_name, t
from .live import LiveMessages, Posted
from .permissions import notice_answer
from .pictures import PictureQueue, picture_key
from .places import followup_allowed, place_of
from .registry import Registry
from .render.embeds import Shown
from .render.layout import Card, custom_ids, game_card, layout, without_controls
from .render.notices import notice
from .render.notices import view as notice_view
from .render.picture import drawn
from .render.results import Resulting
from .replies import lang, send, think
from .sessions import REFUSALS, GameService, Played, Refusal
from .store import GameRow, StoreError
from .store.base import ChannelBusy, GameNotActive, GameNotFound, NothingToUndo, StaleVersion

log = logging.getLogger(__name__)

# Past this many seconds since an interaction arrived, answer "thinking…" first and edit it afterwards,
# so a slow moment (a burst of commands, a big render) never misses Discord's 3 s deadline.
DEFER_AFTER = 1.2
LIVE_SETTING = "live_replies"  # the store setting that keeps each game's live reply across a restart

S = TypeVar("S", bound=State)
# An action, or how to make it from the live record (its state is the game's own: ``Builder[SeasonsState]``).
Builder: TypeAlias = Action | Callable[[GameRecord[S]], Action]
# A change, given its gate (awaited before the commit).
Change = Callable[[Gate], Awaitable[Played]]
T = TypeVar("T")


@dataclasses.dataclass
class Composed:
    """A reply to a change, composed before it is sent (Controller.compose): its words (``card``) and its
    controls, laid out as one Components V2 message by ``view``."""

    card: Card
    controls: list[list[GameButton | GameSelect]]  # rows of buttons and menus
    undo: GameButton | None  # beside the footer
    summary: object  # the game's own summary type (each game's ``state.summary()``)
    full: bool  # the full state, and a picture

    def view(self, *, picture: bool = False) -> discord.ui.LayoutView:
        return layout(self.card, self.controls, undo=self.undo, picture=picture)


# The channels whose messages a result post can be (those with ``get_partial_message``).
MESSAGE_CHANNELS = (discord.TextChannel, discord.Thread, discord.VoiceChannel, discord.StageChannel,
                    discord.DMChannel, discord.PartialMessageable)

# Store refusals a player's own move brings (a second game in a channel, a button from an older reply):
# answered, and logged at INFO, not as warnings an operator should look into.
EXPECTED_REFUSALS = (ChannelBusy, GameNotActive, GameNotFound, NothingToUndo, StaleVersion)


def channel_of(interaction: discord.Interaction) -> int:
    """The channel a change is played in: every interaction that changes a game comes from one (discord.py
    types ``channel_id`` as optional for the interactions that have none, a ping)."""
    return cast(int, interaction.channel_id)
class Host(Protocol):
    """What the controller reads of the bot that made it (bot/app.py): its services and its channels."""

    service: GameService
    config: Config

    def get_channel(self, id: int, /) -> Any: ...
    async def fetch_channel(self, channel_id: int, /) -> Any: ...
    async def on_app_command_error(self, interaction: discord.Interaction, error: Exception, /) -> None: ...


class Game(Shown, Resulting, Protocol):
    """A registered game as its replies and its result card show it (bot/games/plugin.py's ``GamePlugin``)."""

    def action_params(self, before: Any, action: Action) -> dict[str, Any]: ...


# A game's buttons, menus and forms (bot/games/plugin.py's ``GameUI``): each reads only its own state and summary,
# which the controller passes back to it untouched.
UI: TypeAlias = Any


class Controller:
    def __init__(self, bot: Host, games: Registry[Game]) -> None:
        self.bot = bot
        self.games = games  # the registered games (the replies' fields and colours, the result card)
        self.uis: dict[str, UI] = {}  # each game's, by kind (the bot's setup adds them)
        self.deliveries = Deliveries()
        # Buttons that belong to no game (custom_id game 0), by op: e.g. /game forget's confirmation.
        self.ops: dict[str, Callable[[discord.Interaction, int, str | None], Awaitable[None]]] = {}
        self._answering = 0  # changes under way, from arrival to their answer (a shutdown waits for them)
        self._quiet = asyncio.Event()
        self._quiet.set()
        self.pictures = PictureQueue()  # pictures that follow their reply (issue 12)
        self.kept = KeptForms()  # what refused forms held, for their "Edit what I typed…" button
        # Each game's one reply with live controls (bot/live.py).
        self.live = LiveMessages(self._channel, lambda app, token: discord.Webhook.partial(
            app, token, client=cast(discord.Client, self.bot)))
        self._live_loaded = False  # the live replies kept at the last stop, read at the first reply

    @property
    def service(self) -> GameService:
        return self.bot.service

    async def _channel(self, channel_id: int) -> Any:
        return self.bot.get_channel(channel_id) or await self.bot.fetch_channel(channel_id)

    # -- the one path --------------------------------------------------------------------------------
    async def act(self, interaction: discord.Interaction, action: Builder[Any], *, kind: str | None = None,
                  game_id: int | None = None, ply: int | None = None,
                  typed: tuple[str, dict[str, str]] | None = None) -> None:
        """``typed``: the form (its op and values) this action came from, so that a refusal can reopen it
        filled in."""
        notes = understood.collecting()  # cards read from a part of their name or a typo, said in the reply
        await self._change(interaction, lambda gate: self.service.play(
            channel_of(interaction), interaction.user.id, action, kind=kind, game_id=game_id, ply=ply,
            before_commit=gate, interaction_id=interaction.id), notes=notes, typed=typed)

    async def undo(self, interaction: discord.Interaction, *, game_id: int | None = None, ply: int | None = None) -> None:
        await self._change(interaction, lambda gate: self.service.undo(
            channel_of(interaction), interaction.user.id, game_id=game_id, ply=ply, before_commit=gate,
            interaction_id=interaction.id))

    async def start(self, interaction: discord.Interaction, kind: str, options: dict[str, Any],
                    parent_channel_id: int | None, *, note: str | None = None,
                    thread: discord.Thread | None = None) -> None:
        """A new game takes the same path as every change: acknowledged in time, or not committed. In a
        ``thread`` made for it (bot/threads.py) the game is the thread's, its parent the channel asked in."""
        channel_id = channel_of(interaction) if thread is None else thread.id
        parent = parent_channel_id if thread is None else interaction.channel_id
        await self._change(interaction, lambda gate: self.service.start(
            kind=kind, options=options, guild_id=interaction.guild_id, channel_id=channel_id,
            parent_channel_id=parent, owner_id=interaction.user.id, before_commit=gate, place=place_of(interaction).stored),
            picture=True, note=note, where=thread)

    @contextlib.asynccontextmanager
    async def _in_flight(self) -> AsyncIterator[None]:
        self._answering += 1
        self._quiet.clear()
        try:
            yield
        finally:
            self._answering -= 1
            if not self._answering:
                self._quiet.set()

    async def drain(self, timeout: float = 6.0) -> None:
        """Wait (a while) for the changes under way to commit and be answered, before the bot closes."""
        with contextlib.suppress(TimeoutError):
            await asyncio.wait_for(self._quiet.wait(), timeout)
        await self.pictures.drain(timeout)
        await self._save_live()

    async def _save_live(self) -> None:
        """Each game's live reply, kept in the store's settings for the next start (bot/live.py)."""
        if not len(self.live):
            return
        try:
            store = self.service.store
            await store.put_setting(LIVE_SETTING, self.live.saved(await store.get_setting(LIVE_SETTING)))
        except StoreError as exc:
            log.warning("could not keep the games' live replies for the next start: %s", exc)

    async def _load_live(self) -> None:
        """Once, at the first reply after a start: the live replies the last process kept."""
        if self._live_loaded:
            return
        self._live_loaded = True
        try:
            self.live.restore(await self.service.store.get_setting(LIVE_SETTING))
        except StoreError as exc:
            log.warning("could not read the games' live replies kept at the last stop: %s", exc)

    def first_delivery(self, interaction: discord.Interaction) -> bool:
        """False (and logged) for a second delivery of an interaction this process has taken on already."""
        if self.deliveries.first(interaction.id):
            return True
        self.deliveries.drop(interaction.id, "repeat")
        log.info("interaction %s delivered again: ignored", interaction.id)
        return False

    async def arrive(self, interaction: discord.Interaction, started: float | None = None, *,
                     ephemeral: bool = False) -> Gate | None:
        """The interaction's gate, or None when it must be left alone: a repeat, or too late to be answered."""
        if not self.first_delivery(interaction):
            return None
        gate = Gate(interaction, started, ephemeral=ephemeral)
        if not await gate.arrive():
            self.deliveries.drop(interaction.id, "late")
            log.warning("interaction %s arrived %.1f s after its creation and Discord refused to take an answer "
                        "(%s): nothing was applied", interaction.id, gate.age(), gate.refused)
            return None
        return gate

    def not_acknowledged(self, interaction: discord.Interaction, exc: NotAcknowledged) -> None:
        self.deliveries.drop(interaction.id, "late")
        log.warning("interaction %s could not be acknowledged in time (%s): nothing was applied",
                    interaction.id, exc.reason)

    async def _change(self, interaction: discord.Interaction, make: Change, *,
                      picture: bool | None = None, notes: list[tuple[str, str, str]] | None = None,
                      typed: tuple[str, dict[str, str]] | None = None, note: str | None = None,
                      where: discord.Thread | None = None) -> None:
        """Await a change (in time for Discord's deadline), then show it, or say privately why it was refused.

        The change is committed only if its answer can still be given (bot.delivery): a late interaction is
        acknowledged first, and nothing is applied when Discord refuses that."""
        async with self._in_flight():
            await self._change_now(interaction, make, picture=picture, notes=notes, typed=typed, note=note,
                                   where=where)

    async def _change_now(self, interaction: discord.Interaction, make: Change, *,
                          picture: bool | None = None, notes: list[tuple[str, str, str]] | None = None,
                          typed: tuple[str, dict[str, str]] | None = None, note: str | None = None,
                          where: discord.Thread | None = None) -> None:
        started = time.monotonic()
        gate = await self.arrive(interaction, started)
        if gate is None:
            return
        try:
            played = await within_deadline(interaction, started, make(gate), gate=gate)
        except NotAcknowledged as exc:
            self.not_acknowledged(interaction, exc)
            return
        except REFUSALS as err:  # answered here, not by the error handler: the form's "Edit", the gate
            if gate.refused is None:  # else no answer can reach the player any more (and nothing changed)
                await self.refuse(interaction, err, typed=typed if isinstance(err, RuleError) else None)
            return
        if gate.refused is not None:
            # The "thinking…" sent while the commit was already under way was refused: it is in the store,
            # but no answer can reach the player (the next command or /game status shows it).
            log.warning("interaction %s: a change was committed but Discord refused its answer (%s)",
                        interaction.id, gate.refused)
            return
        if where is not None:  # a game started in the thread made for it
            await self._show_in_thread(interaction, played, where)
            return
        if played.undone is None:
            await self.show(interaction, played, started=started, picture=picture,
                            note=note or self._played_note(interaction, played, notes))
            return
        lg = lang(interaction)
        known = self.games.get(played.row.kind).action_params(played.record.state, played.undone)
        note = t(lg, "reply.undone", action=self.describe_action(lg, played.row.kind, played.undone, known))
        if played.withdrawn is not None and not place_of(interaction).bot_present:
            note += "\n" + t(lg, "place.withdrawn_unseen")
        await self.show(interaction, played, started=started, note=note, picture=True)

    @staticmethod
    def _played_note(interaction: discord.Interaction, played: Played, notes: list[tuple[str, str, str]] | None) -> str | None:
        """What the reply says it understood: cards read from a part of their name or a typo."""
        return understood.text(lang(interaction), notes or [])

    async def refuse(self, interaction: discord.Interaction, err: Refusal | RuleError | StoreError, *,
                     typed: tuple[str, dict[str, str]] | None = None) -> None:
        """A private refusal that changed nothing. Pick, don't retype: when the error names candidates (an
        unknown or ambiguous card), each is a button that completes the command; when the input came from a
        form, "Edit" reopens it with what was typed."""
        if isinstance(err, StoreError):  # an expected refusal (a second game, a stale button) is no warning
            level = logging.INFO if isinstance(err, EXPECTED_REFUSALS) else logging.WARNING
            log.log(level, "store refused a change in channel %s: %s", interaction.channel_id, err)
        lg = lang(interaction)
        said = notice(lg, err.key, params=err.params)
        choices = list(getattr(err, "choices", None) or [])
        offered = [spec for ui in self.uis.values() for spec in ui.refusal_buttons(err.key, lg)]
        rows: list[list[GameButton | GameSelect]] = []
        if choices or typed or offered:
            row = await self._row_quietly(interaction.channel_id)
            specs: list[ButtonSpec | SelectSpec] = list(offered)
            if row is not None and choices:
                said.append(t(lg, "pick.candidates"))
                specs += [ButtonSpec(op, card_name(lg, row.kind, card)[:80], arg=arg,
                                     style=discord.ButtonStyle.primary) for card, op, arg in choices[:20]]
            if row is not None and typed:
                name, values = typed
                self.kept.keep((row.id, row.ply, interaction.user.id, name), values)
                lines = [f"`{k}` {' '.join(str(v).split())}"[:300] for k, v in values.items()]
                said.add_field(t(lg, "pick.edit"), "\n".join(lines)[:1024] or "—")
                specs.append(ButtonSpec("edit", t(lg, "button.edit"), arg=name))
            rows = rows_of(row.id, row.ply, specs) if row is not None and specs else []
        await send(interaction, notice=said, rows=rows, ephemeral=True)

    async def _row_quietly(self, channel_id: int | None) -> GameRow | None:
        try:
            return await self.service.active(channel_id)
        except StoreError:
            return None

    def compose(self, interaction: discord.Interaction, played: Played, *, note: str | None = None,
                picture: bool | None = None, buttons: bool = True) -> Composed:
        """The reply to ``played``, without its picture: the embed (events, the next step, the state when it
        is shown in full) and the buttons. Pure: the same change composes the same reply."""
        lg = lang(interaction)
        row, step = played.row, played.step
        ui = self.uis[row.kind]
        summary = played.state_summary()
        # Compact by default (the README: full state and picture when they change what you look at): the full state and the picture only when they change what a
        # player looks at (the UI says when), on /game status and from the "State" button.
        full = ui.wants_picture(played) if picture is None else picture
        card = game_card(lg, game=self.games.get(row.kind), game_id=row.id, ply=row.ply, summary=summary,
                         events=played.reversal if played.undone else step.events, waiting=step.waiting, state=full,
                         extra=[(name[:256], value) for name, value in ui.extra_fields(step, lg)], note=note)
        specs = ui.buttons(step, row, lg, summary) if buttons else []
        if buttons and not full:
            specs = with_state_button(specs, lg)
        # Undo sits beside the footer that names it ("/game undo takes the last action back").
        undo_spec = next((spec for spec in specs if isinstance(spec, ButtonSpec) and spec.op == "undo"), None)
        undo = item_of(row.id, row.ply, undo_spec) if undo_spec is not None else None
        controls = rows_of(row.id, row.ply, [spec for spec in specs if spec is not undo_spec])
        return Composed(card, controls, cast(GameButton | None, undo), summary, full)

    async def show(self, interaction: discord.Interaction, played: Played, *, started: float | None = None,
                   note: str | None = None, picture: bool | None = None, ephemeral: bool = False,
                   buttons: bool = True) -> None:
        """Answer with the game as the change left it: events, the next step, the state, a picture, buttons.

        Everything comes from ``played`` (taken under the channel's lock), never from the live record, which
        a command right behind this one may already have moved on."""
        lg = lang(interaction)
        row = played.row
        ui = self.uis[row.kind]
        started = time.monotonic() if started is None else started
        if age(interaction, started) > DEFER_AFTER:
            await think(interaction, ephemeral=ephemeral)
        composed = self.compose(interaction, played, note=note, picture=picture, buttons=buttons)
        summary, card = composed.summary, composed.card
        attach = may_attach(interaction)
        if composed.full and not attach:  # the text goes; the picture's upload needs Attach Files
            card = dataclasses.replace(card, notice=t(lg, "perm.no_picture"))
        posted = Posted(row.id, card, composed.controls, composed.undo, picture=False,
                        channel_id=interaction.channel_id)
        if not ephemeral:  # a private reply is nobody's live message; a public one supersedes the last
            await self._retire_previous(interaction, row.id)
        sent = await send(interaction, view=posted.view(), ephemeral=ephemeral)
        if not ephemeral:
            await self._went_live(interaction, posted, sent)
        if composed.full and attach:  # the reply first, its picture by an edit
            # The pictures a game's moves bring (the UI's choice, not asked for): only the newest one matters.
            group = ("game", row.id) if picture is None else None
            self.pictures.submit(lambda: ui.board(summary, lg), picture_edit(interaction, sent, posted),
                                 key=picture_key(interaction, sent), group=group)
        step = played.step
        if played.finished_now and not played.undone:
            # A finished state has its result; were it missing, the card says a loss (as a result of no outcome).
            await self.post_result(interaction, row, step.state.result() or Result("lost"), played)
        if played.withdrawn is not None:
            await self.withdraw_result(interaction, row, played.withdrawn)

    async def _show_in_thread(self, interaction: discord.Interaction, played: Played, thread: discord.Thread) -> None:
        """A game started in a thread made for it: the channel is told where (the interaction's answer), the
        thread takes the game's number and its first reply, with the board (a bot message there, so its
        buttons are the thread's)."""
        from .threads import name_for_game

        lg = lang(interaction)
        row = played.row
        await send(interaction, notice=notice(lg, "thread.started", kind="info", game=row.kind, game_id=row.id,
                                              thread=thread.mention))
        await name_for_game(thread, lg, row.kind, interaction.user.display_name, row.id)
        composed = self.compose(interaction, played, picture=True)
        card, attach = composed.card, may_attach(interaction)
        if not attach:  # the text goes; the picture's upload needs Attach Files
            card = dataclasses.replace(card, notice=t(lg, "perm.no_picture"))
        posted = Posted(row.id, card, composed.controls, composed.undo, picture=attach, channel_id=thread.id)
        files = [board_file(await drawn(self.uis[row.kind].board, composed.summary, lg))] if attach else []
        sent = await thread.send(view=posted.view(), files=files)
        posted.message_id = sent.id  # the thread's message is the game's live reply (edited through the thread)
        older = self.live.replace(posted)
        if older is not None:
            await self.live.retire(older)

    async def _retire_pressed(self, interaction: discord.Interaction, game_id: int) -> Posted | None:
        """A press on the game's live reply: answered by taking that message's controls away (UPDATE_MESSAGE on
        its own message), the new reply then following. A press that got this far acted on the game as it is
        (its ply checked), so its message is the newest reply, whether or not this process sent it (a restart):
        laid out again from what this process composed, else from the message itself. None when it is no
        press, or answered already."""
        message = pressed_reply(interaction)
        if message is None:
            return None
        known = self.live.get(game_id)
        if known is not None and known.message_id != message.id:
            return None  # an older reply pressed while a newer one is live: that one is retired as usual
        older = self.live.forget(game_id)
        if not await update_pressed(interaction, older.view() if older else without_controls(message)):
            return None  # the new reply still goes (a followup, or the response)
        self.live.retired += 1
        return older

    async def _retire_previous(self, interaction: discord.Interaction, game_id: int) -> None:
        """Before a new public reply goes, the game's live one loses its controls, so that a channel never shows
        two (issue 35): a press on it is answered by that edit (``_retire_pressed``), else it is edited through its
        webhook or the channel."""
        await self._load_live()
        if await self._retire_pressed(interaction, game_id) is not None:
            return
        older = self.live.forget(game_id)
        if older is not None:
            await self.live.retire(older)

    async def _went_live(self, interaction: discord.Interaction, posted: Posted, sent: Any) -> None:
        """``posted`` (just sent) is its game's live reply. Were another reply of the game sent meanwhile (two
        commands answered at once), the older of the two loses its controls now."""
        posted.message_id = sent.id if sent is not None else interaction.extras.get("message_id")
        posted.webhook = (interaction.application_id, interaction.token)
        older = self.live.replace(posted)
        if older is not None:
            await self.live.retire(older)

    async def post_result(self, interaction: discord.Interaction, row: GameRow, result: Result,
                          played: Played | None = None) -> None:
        """The public result card (the breakdown, the margin and a picture to share), in the channel and in the
        parent channel when the game ran in a thread. Each post is remembered, so that undoing the end of the
        game can mark it withdrawn."""
        from .render.results import PICTURE, result_card

        lg = lang(interaction)
        date = datetime.now(UTC).strftime("%Y-%m-%d")
        parts = self.uis[row.kind].result_parts(played.record) if played else {}
        card, png = await asyncio.to_thread(result_card, lg, game=self.games.get(row.kind), owner_id=row.owner_id,
                                             options=row.options, result=result, parts=parts, date=date)

        def picture() -> list[discord.File]:
            return [discord.File(io.BytesIO(png), filename=PICTURE)] if png else []

        present = place_of(interaction).bot_present
        if row.parent_channel_id and not present:  # a user install in a server without the bot: no channel post
            card.append(t(lg, "place.result_stays"), gap="\n\n")
        # A V2 message: no Embed Links needed; without Attach Files it goes without its picture, and says so.
        if followup_allowed(interaction):
            message = notice_answer(interaction, card, files=picture())
            await self._remember_post(row, await interaction.followup.send(wait=True, **message))
        if row.parent_channel_id and present:  # not a forum or media channel: the result stays in the post
            for posted in await post_to_parent(cast(discord.Client, self.bot), row.parent_channel_id, card, lg, files=picture):
                await self._remember_post(row, posted)

    async def _remember_post(self, row: GameRow, message: Any) -> None:
        channel_id = getattr(message, "channel_id", None) or getattr(getattr(message, "channel", None), "id", None)
        if message is None or channel_id is None:
            return
        try:
            await self.service.store.add_result_post(row.id, int(channel_id), int(message.id))
        except StoreError as exc:
            log.warning("could not remember result post %s of game %s: %s", message.id, row.id, exc)

    async def withdraw_result(self, interaction: discord.Interaction, row: GameRow, result: Result) -> None:
        """Undoing the end of a game: its result posts now say the result was withdrawn (the result row is
        already gone from the store, so no leaderboard or stats counts it)."""
        from .render.results import withdrawn_notice

        try:
            posts = await self.service.store.take_result_posts(row.id)
        except StoreError as exc:
            log.warning("could not read the result posts of game %s: %s", row.id, exc)
            return
        if not place_of(interaction).bot_present:  # no edit with the bot's token here: the undo reply says so
            return
        card = withdrawn_notice(lang(interaction), game=self.games.get(row.kind), owner_id=row.owner_id,
                                options=row.options, result=result, game_id=row.id)
        for channel_id, message_id in posts:
            try:
                channel = self.bot.get_channel(channel_id) or await self.bot.fetch_channel(channel_id)
                if not isinstance(channel, MESSAGE_CHANNELS):
                    raise AttributeError(f"a {type(channel).__name__} holds no messages")
                # V2 with no picture; a post made as an embed before V2 loses its content and embeds too
                await channel.get_partial_message(message_id).edit(content=None, embed=None, attachments=[],
                                                                   view=notice_view(card))
            except (discord.HTTPException, AttributeError) as exc:
                log.warning("could not mark result post %s withdrawn: %s", message_id, exc)

    # -- buttons and forms ---------------------------------------------------------------------------------
    async def answering(self, interaction: discord.Interaction, work: Awaitable[None]) -> None:
        """Buttons, menus and forms: what they raise reaches the player through the one error handler, as a
        command's does (a refusal privately, anything else as the localized internal error, logged)."""
        try:
            await work
        except Exception as exc:
            await self.bot.on_app_command_error(interaction, exc)

    async def _row_here(self, interaction: discord.Interaction, game_id: int) -> GameRow:
        """The game a button or menu belongs to; refused when it is gone or elsewhere."""
        row = await self.service.store.game(game_id)
        if row.channel_id != interaction.channel_id:
            raise Refusal("refuse.stale_game")
        return row

    async def on_button(self, interaction: discord.Interaction, game_id: int, ply: int, op: str, arg: str | None) -> None:
        await self.answering(interaction, self._on_button(interaction, game_id, ply, op, arg))

    async def _on_button(self, interaction: discord.Interaction, game_id: int, ply: int, op: str,
                         arg: str | None) -> None:
        if game_id == 0 and op in self.ops:
            await self.ops[op](interaction, ply, arg)
            return
        row = await self._row_here(interaction, game_id)
        ui = self.uis[row.kind]
        if op == "state":
            await self.show_state(interaction, row)
            return
        if op == "undo":
            await self.undo(interaction, game_id=game_id, ply=ply)
            return
        if op == "abandon":
            await self.abandon(interaction, game_id=game_id)
            return
        if await ui.extra_button(self, interaction, row, op, arg):
            return
        if op == "edit":
            await self._reopen_form(interaction, row, ply, arg or "")
            return
        record = await self._checked_record(interaction, row, ply)
        form = ui.form(op, lang(interaction), record)
        if form is not None:
            title, fields = form
            await interaction.response.send_modal(
                Form(title=title, form_id=custom_id(game_id, ply, f"form_{op}"), fields=fields,
                     timeout=self.bot.config.form_seconds)
            )
            return
        action = ui.button_action(op, arg, record)
        if action is None:
            raise Refusal("refuse.unknown_button")
        await self.act(interaction, action, game_id=game_id, ply=ply)

    async def _reopen_form(self, interaction: discord.Interaction, row: GameRow, ply: int, name: str) -> None:
        """"Edit": the form a refusal came from, again, with what was typed (``KeptForms``)."""
        record = await self._checked_record(interaction, row, ply)
        form = self.uis[row.kind].form(name, lang(interaction), record)
        if form is None:
            raise Refusal("refuse.unknown_button")
        title, fields = form
        typed = self.kept.get((row.id, ply, interaction.user.id, name))
        fields = [dataclasses.replace(f, default=typed[f.name][:1000]) if typed.get(f.name) else f for f in fields]
        await interaction.response.send_modal(Form(title=title, form_id=custom_id(row.id, ply, f"form_{name}"),
                                                   fields=fields))

    async def on_select(self, interaction: discord.Interaction, game_id: int, ply: int, op: str, arg: str | None,
                        values: list[str]) -> None:
        await self.answering(interaction, self._on_select(interaction, game_id, ply, op, arg, values))

    async def _on_select(self, interaction: discord.Interaction, game_id: int, ply: int, op: str, arg: str | None,
                         values: list[str]) -> None:
        """A pick from a select menu: it completes the command as if typed, or opens its form filled in."""
        row = await self._row_here(interaction, game_id)
        record = await self._checked_record(interaction, row, ply)
        outcome = self.uis[row.kind].select_action(op, arg, values, record, lang(interaction))
        if outcome is None:
            raise Refusal("refuse.unknown_button")
        if isinstance(outcome, tuple):  # (form op, title, fields): finish typing in the form
            name, title, fields = outcome
            await interaction.response.send_modal(Form(title=title, form_id=custom_id(game_id, ply, f"form_{name}"),
                                                       fields=fields))
            return
        await self.act(interaction, outcome, game_id=game_id, ply=ply)

    async def show_state(self, interaction: discord.Interaction, row: GameRow) -> None:
        """The "State" button: the full state and the picture, privately, for whoever pressed it (anyone may
        look); always the game as it is now, even from an older message."""
        record = await self.service.record(row)
        await self.show(interaction, Played(row, record.last, record), picture=True, ephemeral=True, buttons=False)

    async def on_form(self, interaction: discord.Interaction, game_id: int, ply: int, op: str,
                      values: dict[str, str]) -> None:
        await self.answering(interaction, self._on_form(interaction, game_id, ply, op, values))

    async def _on_form(self, interaction: discord.Interaction, game_id: int, ply: int, op: str,
                       values: dict[str, str]) -> None:
        row = await self.service.store.game(game_id)
        ui = self.uis[row.kind]
        name = op.removeprefix("form_")

        def build(record: GameRecord[Any]) -> Action:
            built = ui.form_action(name, values, record)
            if built is None:  # no form of the game's
                raise Refusal("refuse.unknown_button")
            return cast(Action, built(record) if callable(built) else built)

        await self.act(interaction, build, game_id=game_id, ply=ply, typed=(name, values))

    async def _checked_record(self, interaction: discord.Interaction, row: GameRow, ply: int) -> GameRecord[Any]:
        """The record a press on a message of ``row`` at ``ply`` acts on; refused when the game moved on,
        ended, or is someone else's."""
        if row.status != "active" or row.ply != ply:
            await self._retire_stale(interaction)
            raise Refusal("refuse.stale_game" if row.status != "active" else "refuse.stale_button")
        self.service.check_owner(row, interaction.user.id)
        return await self.service.record(row)

    async def _retire_stale(self, interaction: discord.Interaction) -> None:
        """A press on a reply the game has moved past that still shows controls (one sent before a crash, whose
        successor could not retire it: bot/live.py keeps live replies across clean stops only) loses them now,
        by UPDATE_MESSAGE on its own message; the refusal then follows privately."""
        message = pressed_reply(interaction)
        if message is not None and any(custom_ids(message.components)):
            await update_pressed(interaction, without_controls(message))  # the refusal goes either way

    async def abandon(self, interaction: discord.Interaction, *, game_id: int) -> None:
        async with self._in_flight():
            await self._abandon(interaction, game_id=game_id)

    async def _abandon(self, interaction: discord.Interaction, *, game_id: int) -> None:
        perms = getattr(interaction, "permissions", None)
        may_manage = bool(perms and perms.manage_guild)
        started = time.monotonic()
        gate = await self.arrive(interaction, started)
        if gate is None:
            return
        try:
            row = await within_deadline(interaction, started, self.service.abandon(
                channel_of(interaction), interaction.user.id, may_manage=may_manage, game_id=game_id,
                before_commit=gate), gate=gate)
        except NotAcknowledged as exc:
            self.not_acknowledged(interaction, exc)
            return
        except REFUSALS as err:  # answered here, as a change's refusal (see _change_now)
            await self.refuse(interaction, err)
            return
        if gate.refused is not None:
            log.warning("interaction %s: a game was abandoned but Discord refused the answer (%s)",
                        interaction.id, gate.refused)
            return
        await send(interaction, notice=notice(lang(interaction), "reply.abandoned", kind="lost", game=row.kind,
                                              game_id=row.id))
        await self._load_live()
        older = self.live.forget(row.id)  # the game's last reply: its controls can do nothing any more
        if older is not None:
            await self.live.retire(older)

    # -- words for actions (history, undo) -------------------------------------------------------------
    def describe_action(self, lg: str, kind: str, action: Action | None, known: dict[str, Any] | None = None) -> str:
        """``action`` in words; ``known``: what it read in the state it was played in (GamePlugin.action_params)."""
        if action is None:
            return "—"
        key = f"action.{kind}.{action.type}"
        args = action.args.to_json()
        params = {k: (json.dumps(v, ensure_ascii=False) if isinstance(v, dict) and k != "face" else v)
                  for k, v in args.items()}
        params.update(known or {})
        text = t(lg, key, **params)
        return text if text != key else f"{action.type} {json.dumps(args, ensure_ascii=False)}"


class KeptForms:
    """What refused forms held, by (game, ply, user, form), for the refusal's "Edit what I typed…" button.

    Held here rather than read back from the refusal's text: the reply shows the values for the player, it
    is no store of ours. A refusal changes nothing, so the button carries the same game and ply as the key.
    Bounded (the oldest go first) and in memory only: after a restart, or ``size`` refusals later, the form
    opens as new, and the refusal above it still shows what was typed."""

    def __init__(self, size: int = 512) -> None:
        self.size = size
        self._values: OrderedDict[tuple[int, int, int, str], dict[str, str]] = OrderedDict()

    def keep(self, key: tuple[int, int, int, str], values: dict[str, str]) -> None:
        self._values[key] = dict(values)
        self._values.move_to_end(key)
        while len(self._values) > self.size:
            self._values.popitem(last=False)

    def get(self, key: tuple[int, int, int, str]) -> dict[str, str]:
        return self._values.get(key, {})


def with_state_button(specs: list[ButtonSpec | SelectSpec], lg: str) -> list[ButtonSpec | SelectSpec]:
    """A compact reply's buttons plus "State" (before Undo, which stays last)."""
    state = ButtonSpec("state", t(lg, "button.state"))
    if specs and specs[-1].op == "undo":
        return [*specs[:-1], state, specs[-1]]
    return [*specs, state]


def pressed_reply(interaction: discord.Interaction) -> discord.Message | None:
    """The public Components V2 message a press came from, while the press is still unanswered; None for a command,
    a private notice's button (a refusal's candidate, the difficulty question) or a press answered already."""
    message = interaction.message
    if message is None or interaction.response.is_done() or not message.flags.components_v2 or message.flags.ephemeral:
        return None
    return message


async def update_pressed(interaction: discord.Interaction, view: discord.ui.LayoutView) -> bool:
    """Answer a press by laying its own message out as ``view`` (UPDATE_MESSAGE); False (logged) when refused."""
    try:
        await interaction.response.edit_message(view=view)
    except discord.HTTPException as exc:
        log.warning("could not take the controls off pressed message %s: %s", getattr(interaction.message, "id", "?"), exc)
        return False
    return True


def age(interaction: discord.Interaction, started: float) -> float:
    """Seconds since the interaction was created: by Discord's clock (its id), or ours if that is behind."""
    local = time.monotonic() - started
    remote = (discord.utils.utcnow() - interaction.created_at).total_seconds()
    return max(local, min(remote, 10.0))


async def within_deadline(interaction: discord.Interaction, started: float, work: Awaitable[T], *,
                          ephemeral: bool = False, gate: Gate | None = None) -> T:
    """Await ``work``; if it is still running close to Discord's deadline (a busy lock, a locked database),
    answer "thinking…" first so the interaction does not fail, and the answer follows as an edit. With a
    change's ``gate``, a refused "thinking…" is noted there (the gate then stops a commit not yet begun).

    The work runs in the caller's task with a timer beside it: the "thinking…" becomes a task of its own only
    when the timer fires, so the usual quick command makes no task here."""
    loop = asyncio.get_running_loop()
    acking: asyncio.Task[None] | None = None

    def fire() -> None:
        nonlocal acking
        acking = loop.create_task(gate.watchdog_ack() if gate is not None else think(interaction, ephemeral=ephemeral))

    timer = loop.call_later(max(0.0, DEFER_AFTER - age(interaction, started)), fire)
    try:
        return await work
    finally:
        timer.cancel()
        if acking is not None:
            await acking  # the answer, or the refusal, must come after its "thinking…"


def may_attach(interaction: discord.Interaction) -> bool:
    """Whether the reply may carry its picture: a file upload (Attach Files; always outside a server)."""
    return interaction.guild_id is None or interaction.app_permissions.attach_files


def board_file(png: bytes) -> discord.File:
    """The board picture as the file the reply's gallery shows (``attachment://board.png``)."""
    return discord.File(io.BytesIO(png), filename="board.png")


def picture_edit(interaction: discord.Interaction, sent: Any, posted: Posted) -> Callable[[bytes], Awaitable[Any]]:
    """Add the picture to the reply already sent (the original response, or the followup ``sent``): its gallery
    and its file, with its controls only if it is still its game's live reply."""
    async def deliver(png: bytes) -> Any:
        posted.picture = True
        view = posted.view()
        if sent is None:
            return await interaction.edit_original_response(view=view, attachments=[board_file(png)])
        return await sent.edit(view=view, attachments=[board_file(png)])
    return deliver
