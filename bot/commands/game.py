"""``/game`` — what both games share: status, undo, history, export, abandon, leaderboard, stats, help."""

from __future__ import annotations

import io
import json
import zlib
from typing import TYPE_CHECKING, Any, Protocol

import discord
from discord import app_commands

from engine.core import Action, GameRecord, RuleError, Rules

from ..buttons import ButtonSpec, rows_of
from ..delivery import NotAcknowledged
from ..i18n import L, card_name, t
from ..registry import Registry
from ..render.embeds import COLOURS, Shown, colour_of
from ..render.notices import Notice, notice
from ..replies import lang, send
from ..sessions import Played, Refusal, summary_json
from ..store import GameRow, StaleVersion
from .common import card_choices, card_id_of, hopeless, word_choices

if TYPE_CHECKING:
    from ..controller import Controller
    from ..sessions import GameService
    from ..store import Store
    from .cards import CardOption

Interaction = discord.Interaction


class Game(Shown, Protocol):
    """A registered game as /game reads it (bot/games/plugin.py's ``GamePlugin``): its names, colour and replies,
    ranking, help, cards and leaderboard rows."""

    @property
    def name(self) -> str: ...
    @property
    def ranking(self) -> Any: ...  # the store's ``Ranking``
    @property
    def difficulties(self) -> tuple[str, ...]: ...
    @property
    def help_keys(self) -> tuple[str, ...]: ...
    def help_params(self, key: str) -> dict[str, Any]: ...
    def leaderboard_row(self, lang: str, row: Any) -> str: ...
    def card_option(self) -> CardOption | None: ...
    def card_fields(self, lang: str, card_id: str, summary: Any) -> list[tuple[str, str]]: ...
    def rules(self) -> Rules[Any]: ...
    def action_params(self, before: Any, action: Action) -> dict[str, Any]: ...

HISTORY_LIMIT = 15


def game_choices(games: Registry[Game]) -> list[app_commands.Choice[str]]:
    """One choice per registered game (its English name, ``word.<kind>`` in Japanese)."""
    return [app_commands.Choice(name=L(g.name, f"word.{g.kind}"), value=g.kind) for g in games]


def difficulties(games: Registry[Game]) -> list[str]:
    """Every game's difficulties, each once, in the order of the games."""
    seen: list[str] = []
    for g in games:
        seen += [d for d in g.difficulties if d not in seen]
    return seen


def difficulty_choices(games: Registry[Game]) -> list[app_commands.Choice[str]]:
    return word_choices(*difficulties(games))


class GameCommands(app_commands.Group):
    """``/game``: given the controller, the session service and the store (leaderboards, stats, history) when
    it is built."""

    def __init__(self, games: Registry[Game], controller: Controller, service: GameService, store: Store) -> None:
        super().__init__(name="game", description=L("The game played here, results and help", "cmd.game"))
        self.games = games
        self.controller = controller
        self.service = service
        self.store = store

    @app_commands.command(name="status", description=L("Show the game played here", "cmd.game.status"))
    async def status(self, interaction: Interaction) -> None:
        row = await self._latest(interaction)
        record = await self.service.record(row)
        # Anyone may look; only the owner's view carries the buttons that change the game.
        mine = interaction.user.id == row.owner_id
        if row.status in ("abandoned", "finished"):  # no next step, no buttons, no undo footer
            await send(interaction, notice=over_notice(lang(interaction), self.games.get(row.kind), row, record),
                       ephemeral=not mine)
            return
        played = Played(row, record.last, record)
        await self.controller.show(interaction, played, picture=True, ephemeral=not mine,
                                                buttons=mine)

    @app_commands.command(name="undo", description=L("Take back the last action", "cmd.game.undo"))
    async def undo(self, interaction: Interaction) -> None:
        row = await self._latest(interaction)
        if row.status == "abandoned":
            raise Refusal("refuse.undo_abandoned", game=row.kind, game_id=row.id)
        await self.controller.undo(interaction, game_id=row.id)

    @app_commands.command(name="history", description=L("The last actions of the game", "cmd.game.history"))
    async def history(self, interaction: Interaction) -> None:
        lg = lang(interaction)
        ctl = self.controller
        row = await self._latest(interaction)
        actions = await self.store.history(row.id, HISTORY_LIMIT)
        known = await self._known_before(row, {a.ply for a in actions if not a.undone})
        lines = []
        for a in reversed(actions):
            text = ctl.describe_action(lg, row.kind, Action.from_json(a.action), None if a.undone else known.get(a.ply))
            line = f"`{a.ply:>3}` {text}"
            lines.append(f"~~{line}~~ ({t(lg, 'history.undone')})" if a.undone else line)
        said = Notice(accent=colour_of(row.kind), title=t(lg, "history.title", game=row.kind, game_id=row.id),
                      description="\n".join(lines) or t(lg, "history.empty"))
        await send(interaction, notice=said, ephemeral=interaction.user.id != row.owner_id)

    async def _known_before(self, row: GameRow, plies: set[int]) -> dict[int, dict[str, Any]]:
        """What each live action of ``plies`` read in the state it was played in (the face of the die taken, see
        GamePlugin.action_params): the game replayed from its start, as the export's record is."""
        if not plies:
            return {}
        plugin = self.games.get(row.kind)
        record = GameRecord(plugin.rules(), row.options, row.seed)
        known: dict[int, dict[str, Any]] = {}
        for a in await self.store.live_actions(row.id, after_ply=0):
            if a.ply > max(plies):
                break
            action = Action.from_json(a.action)
            if a.ply in plies:
                known[a.ply] = plugin.action_params(record.state, action)
            record.push(action)
        return known

    @app_commands.command(name="export", description=L("The game record as a JSON file", "cmd.game.export"))
    async def export(self, interaction: Interaction) -> None:
        row = await self._latest(interaction)
        record = await self.service.full_record(row)
        data = export_record(row, record)
        text = json.dumps(data, ensure_ascii=False, indent=2)
        file = discord.File(io.BytesIO(text.encode("utf-8")), filename=f"{row.kind}-game-{row.id}.json")
        said = notice(lang(interaction), "export.text", kind=row.kind, game=row.kind, game_id=row.id, ply=row.ply)
        said.files.append(file.filename)  # a V2 message shows its files only through components
        await send(interaction, notice=said, files=[file])

    @app_commands.command(name="abandon", description=L("Abandon the game played here", "cmd.game.abandon"))
    async def abandon(self, interaction: Interaction) -> None:
        lg = lang(interaction)
        service = self.service
        row = await service.require(interaction.channel_id)
        perms = interaction.permissions
        if row.owner_id != interaction.user.id and not perms.manage_guild:
            private = interaction.guild_id is None  # a DM or group DM: nobody manages it
            raise Refusal("refuse.not_owner_abandon_private" if private else "refuse.not_owner_abandon",
                          owner=f"<@{row.owner_id}>")
        rows = rows_of(row.id, row.ply, [ButtonSpec("abandon", t(lg, "button.abandon_confirm"),
                                                    style=discord.ButtonStyle.danger)])
        said = notice(lg, "abandon.confirm", kind="lost", game=row.kind, game_id=row.id)
        await send(interaction, notice=said, rows=rows, ephemeral=True)

    @app_commands.command(name="leaderboard", description=L("This server's best results", "cmd.game.leaderboard"))
    @app_commands.describe(game=L("Which game", "opt.game.game"), difficulty=L("Only this difficulty",
                                                                               "opt.game.difficulty"))
    async def leaderboard(self, interaction: Interaction, game: str | None = None,
                          difficulty: str | None = None) -> None:
        if interaction.guild_id is None:  # a DM or group DM: one board for every DM player would mean nothing
            raise Refusal("refuse.leaderboard_server_only")
        lg = lang(interaction)
        # Discord only sends the offered choices; a stale sync could send others: fall back to the defaults.
        entry = self.games.find(game or "") or self.games.default
        game = entry.kind
        difficulty = difficulty if difficulty in difficulties(self.games) else None
        rows = await self.store.leaderboard(interaction.guild_id, game, difficulty, limit=10,
                                                          ranking=entry.ranking)
        lines = []
        for rank, r in enumerate(rows, 1):
            detail = entry.leaderboard_row(lg, r)
            lines.append(f"**{rank}.** <@{r.user_id}> — {detail} · {r.finished_at[:10]}")
        title = t(lg, "leaderboard.title", game=game) + (f" · {t(lg, f'word.{difficulty}')}" if difficulty else "")
        # Players named as <@id>: a mention that pings nobody (the client's allowed_mentions is none).
        board = Notice(accent=colour_of(game), title=title, description="\n".join(lines) or t(lg, "leaderboard.empty"))
        await send(interaction, notice=board)

    @app_commands.command(name="stats", description=L("Games, wins and best results of a player", "cmd.game.stats"))
    @app_commands.describe(user=L("Whose (you by default)", "opt.game.user"))
    async def stats(self, interaction: Interaction, user: discord.User | None = None) -> None:
        lg = lang(interaction)
        who = user or interaction.user
        if interaction.guild_id is None:
            # Outside a server there is no server to count for: the caller's own record, privately (it tells
            # where they played, so another player's is theirs alone to see).
            if who.id != interaction.user.id:
                raise Refusal("refuse.stats_private_other")
            own = (await self._record_notice(interaction)).append(t(lg, "record.stats_here"))
            await send(interaction, notice=own, ephemeral=True)
            return
        stats = await self.store.stats(interaction.guild_id, who.id, rankings={g.kind: g.ranking for g in self.games})
        said = Notice(accent=self.games.default.colour, title=t(lg, "stats.title", user=who.display_name))
        said.description = counts_text(lg, stats.get("games", 0), stats.get("wins", 0), stats.get("losses", 0),
                                       stats.get("abandoned", 0))
        for kind, best in (stats.get("best") or {}).items():
            value = t(lg, "stats.no_best") if best is None else self.games.get(kind).leaderboard_row(lg, best)
            said.add_field(t(lg, "stats.best", game=kind), value)
        # A server's stats, as its leaderboard: a player's games everywhere are /game record's (theirs to see).
        said.append(t(lg, "stats.here_only"))
        await send(interaction, notice=said)

    @app_commands.command(name="record", description=L("Your own games everywhere you played, by game and difficulty",
                                                         "cmd.game.record"))
    async def record(self, interaction: Interaction) -> None:
        """The caller's own record across every server, DM and group DM, privately: it tells where they played,
        so nobody else may ask for it (``/game stats`` stays a server's, as its leaderboard)."""
        await send(interaction, notice=await self._record_notice(interaction), ephemeral=True)

    async def _record_notice(self, interaction: Interaction) -> Notice:
        """The caller's record: where they played, then one line per game and difficulty (easiest first), each
        count said only when it is not zero."""
        lg = lang(interaction)
        found = await self.store.record(interaction.user.id, rankings={g.kind: g.ranking for g in self.games})
        said = Notice(accent=self.games.default.colour, title=t(lg, "record.title", user=interaction.user.display_name))
        private = found["places"].get("dm", 0) + found["places"].get("group_dm", 0)
        where = "record.where" if found["servers"] and private else (
            "record.where_servers" if found["servers"] else "record.where_private")  # no "in 0 servers"
        said.description = t(lg, where, servers=found["servers"], private=private)
        by_kind: dict[str, list[str]] = {}
        for row in sorted(found["rows"], key=self._level_order):
            best = row["best"]
            level = t(lg, f"word.{row['difficulty']}") if row["difficulty"] else "—"
            counts = counts_text(lg, row["played"], row["wins"], row["losses"], row["abandoned"])
            line = t(lg, "record.row", difficulty=level, counts=counts) if best is None else t(
                lg, "record.row_best", difficulty=level, counts=counts,
                best=self.games.get(row["kind"]).leaderboard_row(lg, best))
            by_kind.setdefault(row["kind"], []).append(line)
        for kind, lines in by_kind.items():
            said.add_field(t(lg, "record.game", game=kind), "\n".join(lines)[:1024])
        if not by_kind:
            said.description = t(lg, "record.empty")
        return said

    def _level_order(self, row: dict[str, Any]) -> tuple[int, int, str]:
        """A record row's place: the games in the bot's order, each game's levels from easiest to hardest (a level
        the game no longer has last)."""
        kinds = [g.kind for g in self.games]
        game = self.games.find(row["kind"])
        levels = list(game.difficulties) if game is not None else []
        difficulty = row["difficulty"] or ""
        return (kinds.index(row["kind"]) if row["kind"] in kinds else len(kinds),
                levels.index(difficulty) if difficulty in levels else len(levels), difficulty)

    @app_commands.command(name="forget", description=L("Delete everything the bot stores about you",
                                                         "cmd.game.forget"))
    async def forget(self, interaction: Interaction) -> None:
        """Shows what would go, with a button only the caller can press (see on_forget)."""
        lg = lang(interaction)
        data = await self.store.user_data(interaction.user.id)
        if not data["games"] and not data["ended_others"]:
            await send(interaction, notice=notice(lg, "forget.nothing", kind="info"), ephemeral=True)
            return
        rows = rows_of(0, forget_mark(data), [ButtonSpec("forget", t(lg, "button.forget_confirm"),
                                                         arg=interaction.user.id, style=discord.ButtonStyle.danger)])
        said = notice(lg, "forget.confirm", kind="lost", minutes=FORGET_CONFIRM_MINUTES,
                      what=counted(lg, data, ("games", "actions", "results")))
        await send(interaction, notice=said, rows=rows, ephemeral=True)

    @app_commands.command(name="card", description=L("Look a card up: its facts and how the automaton treats it",
                                                       "cmd.game.card"))
    @app_commands.describe(name=L("A number or any name of the card", "opt.game.card_name"),
                           game=L("Which game's cards (default: the game played here, else both)",
                                  "opt.game.card_game"))
    async def card(self, interaction: Interaction, name: app_commands.Range[str, 1, 100],
                   game: str | None = None) -> None:
        lg = lang(interaction)
        row = await self._last_game(interaction)
        active = row if row is not None and row.status == "active" else None
        found = lookup_cards(name, card_options(self.games, game, active))
        summary = None
        cards: list[Notice] = []
        for kind, card_id in found:
            if active is not None and active.kind == kind and summary is None:
                summary = (await self.service.record(active)).state.summary()
            entry = self.games.get(kind)
            said = Notice(accent=entry.colour, title=card_name(lg, kind, card_id))
            shown = summary if active is not None and active.kind == kind else None
            for field_name, value in entry.card_fields(lg, card_id, shown):
                said.add_field(field_name, value[:1024])
            # Where the copies are is said only from this channel's game: the footer says so only when it is.
            said.footer = t(lg, "card.lookup.footer" if shown is not None else "card.lookup.footer.alone")
            cards.append(said)
        if len(cards) > 1:
            cards[0].description = t(lg, "card.lookup.choose_game", query=name)
        for said in cards:
            await send(interaction, notice=said, ephemeral=True)

    @card.autocomplete("name")
    async def card_autocomplete(self, interaction: Interaction, current: str) -> list[app_commands.Choice[str]]:
        """The cards of the chosen game, else of the channel's game, else of every game (first game first)."""
        chosen = getattr(interaction.namespace, "game", None)
        row = await self.service.active(interaction.channel_id)
        choices: list[app_commands.Choice[str]] = []
        for kind, option in card_options(self.games, chosen, row).items():
            choices += card_choices(lang(interaction), kind, option.catalog(), current)
        return choices[:25]

    @app_commands.command(name="help", description=L("How to play each game with the bot", "cmd.game.help"))
    @app_commands.describe(game=L("Which game", "opt.game.game"))
    async def help(self, interaction: Interaction, game: str | None = None) -> None:
        lg = lang(interaction)
        # Discord only sends the offered choices; anything else (a stale sync) gets the whole help.
        chosen = self.games.find(game or "")
        shown = list(self.games) if chosen is None else [chosen]
        rows = [(key, g.help_params(key)) for g in shown for key in g.help_keys]
        if chosen is None:
            rows = [("help.intro", {}), *rows, ("help.game", {})]
        said = Notice(accent=self.games.default.colour, title=t(lg, "help.title"))
        for key, params in rows:
            said.add_field(t(lg, f"{key}.name"), t(lg, key, **params)[:1024])
        await send(interaction, notice=said, ephemeral=True)


    async def _last_game(self, interaction: Interaction) -> GameRow | None:
        """The channel's most recent game (none where there is no channel)."""
        channel_id = interaction.channel_id
        return None if channel_id is None else await self.store.last_game(channel_id)

    async def _latest(self, interaction: Interaction) -> GameRow:
        """The channel's active game, else its most recent one (status, history and export still work)."""
        row = await self._last_game(interaction)
        if row is None:
            raise Refusal("refuse.no_game", kind="any")
        return row

    async def on_forget(self, interaction: discord.Interaction, mark: int, owner: str | None) -> None:
        """The confirmation button of /game forget: only its user may press it, and only while it is fresh."""
        ctl = self.controller
        lg = lang(interaction)
        gate = await ctl.arrive(interaction, ephemeral=True)
        if gate is None:
            return
        if owner != str(interaction.user.id):
            await send(interaction, notice=notice(lg, "forget.not_yours"), ephemeral=True)
            return
        sent = getattr(interaction.message, "created_at", None)
        too_old = sent is None or (discord.utils.utcnow() - sent).total_seconds() > FORGET_CONFIRM_MINUTES * 60
        try:
            data = await self.store.user_data(interaction.user.id)
            if too_old or forget_mark(data) != mark:
                raise StaleVersion(game_id=0)
            forgotten = await self.service.forget_user(interaction.user.id, expected_mark=data["mark"],
                                                                     before_commit=gate)
        except NotAcknowledged as exc:
            ctl.not_acknowledged(interaction, exc)
            return
        except StaleVersion:
            await send(interaction, notice=notice(lg, "forget.stale", minutes=FORGET_CONFIRM_MINUTES), ephemeral=True)
            return
        what = counted(lg, forgotten, ("games", "actions", "snapshots", "results"))
        await send(interaction, notice=notice(lg, "forget.done", kind="info", what=what), ephemeral=True)

def counts_text(lg: str, games: int, wins: int, losses: int, abandoned: int) -> str:
    """「3ゲーム・3勝」 / "3 games · 3 won": the games and, of them, the wins, losses and abandoned ones — each said
    only when there is one (ja-style: zero counts are not said); no game at all is said in words."""
    if not games:
        return t(lg, "stats.none")
    parts = [t(lg, "count.games", games=games)]
    parts += [t(lg, f"count.{name}", **{name: n}) for name, n in (("wins", wins), ("losses", losses),
                                                                   ("abandoned", abandoned)) if n]
    return t(lg, "count.sep").join(parts)


def counted(lg: str, counts: dict[str, Any], names: tuple[str, ...]) -> str:
    """「2ゲーム、アクション14件」 / "2 games, 14 actions": the games always, the others only when there are some."""
    parts = [t(lg, f"count.{name}", **{name: counts[name]}) for name in names
             if counts[name] or name == "games"]
    return t(lg, "count.list_sep").join(parts)


def card_options(games: Registry[Game], game: str | None, active: GameRow | None) -> dict[str, CardOption]:
    """The games whose cards /game card searches, and how each types its cards: the one chosen, else the
    channel's game, else all of them."""
    with_cards = {g.kind: option for g in games if (option := g.card_option()) is not None}
    if game is not None and game in with_cards:
        return {game: with_cards[game]}
    if active is not None and active.kind in with_cards:
        return {active.kind: with_cards[active.kind]}
    return with_cards


def lookup_cards(text: str, kinds: dict[str, CardOption]) -> list[tuple[str, str]]:
    """(game, card id) for what was typed, read as forgivingly as a reveal (a number, a part of a name, one
    typo). In several games: the exact matches if any, else the forgiving ones; none at all is refused with
    the first game's "did you mean" (the game whose catalog suggests something, if one does)."""
    found: list[tuple[str, str, bool]] = []
    for kind, option in kinds.items():
        catalog = option.catalog()
        resolved = catalog.resolve(text)
        if resolved is not None:
            found.append((kind, card_id_of(resolved[0]), resolved[1]))
    exact = [f for f in found if f[2]]
    if exact or found:
        return [(kind, card_id) for kind, card_id, _ in (exact or found)]
    options = list(kinds.values())
    suggesting = [o for o in options if o.catalog().suggest(text)] or options
    suggesting[0].ids([text])  # a miss: raises the game's own refusal, with its suggestions
    raise hopeless(RuleError("card.unknown", query=text, suggestions=[]), suggesting[0].kind)


def over_notice(lg: str, game: Game, row: GameRow, record: Any) -> Notice:
    """A game that is over (abandoned or finished) as it was left: said so, its final state, and no next step,
    buttons or undo footer (a finished game's final score can still be taken back with /game undo)."""
    result = record.state.result()
    return Notice(accent=COLOURS["won" if result is not None and result.won else "lost"],
                  title=t(lg, "reply.title", game=game.kind),
                  description=t(lg, f"reply.status_{row.status}", game=row.kind, game_id=row.id),
                  fields=[(name, value) for name, value, _ in game.state_fields(lg, record.state.summary())],
                  footer=t(lg, f"reply.footer_{row.status}", game_id=row.id, ply=row.ply))


def export_record(row: GameRow, record: Any) -> dict[str, Any]:
    """The JSON record of docs/playing.md: game, options, seed (null while the game is played), actions, state,
    result."""
    if row.status == "abandoned":
        outcome: dict[str, Any] | None = {"outcome": "abandoned"}
    elif row.status == "finished":
        result_now = record.state.result()
        # Each game names the result's fields in its own words (the export of docs/playing.md), if it has any.
        outcome = None if result_now is None else result_now.to_json(record.rules.result_names)
    else:
        outcome = None
    return {
        "game": row.kind,
        "game_id": row.id,
        "status": row.status,
        "options": dict(row.options),
        # The seed of a game still being played is withheld: with it anyone could work out the automaton's
        # coming choices (issue 37). A finished or abandoned game's export keeps it, to replay the game.
        "seed": row.seed if row.status != "active" else None,
        "actions": [a.to_json() for a in record.actions],
        "state": summary_json(record.state.summary()),
        "result": outcome,
        "created_at": row.created_at,
        "updated_at": row.updated_at,
    }


# /game forget: the confirmation holds for this long, and only while what it counted is unchanged.
FORGET_CONFIRM_MINUTES = 10


def forget_mark(data: dict[str, Any]) -> int:
    """A short fingerprint of what ``/game forget`` counted (it rides in the button's custom_id)."""
    return zlib.crc32(str(data["mark"]).encode()) % 1_000_000_000


def install(tree: app_commands.CommandTree[Any], games: Registry[Game], controller: Controller,
            service: GameService, store: Store) -> None:
    """/game, for the games the entry point registered (a game a test registers is offered by the next bot)."""
    group = GameCommands(games, controller, service, store)
    for name, option, choices in (("leaderboard", "game", game_choices(games)), ("help", "game", game_choices(games)),
                                  ("card", "game", game_choices(games)),
                                  ("leaderboard", "difficulty", difficulty_choices(games))):
        # discord.py's own decorator, applied to the command made.
        app_commands.choices(**{option: choices})(group.get_command(name))
    tree.add_command(group)
    controller.ops["forget"] = group.on_forget
