"""The SQLite schema as a list of forward migrations; ``PRAGMA user_version`` says how many ran.

``MIGRATIONS[i]`` takes a database from version ``i`` to ``i + 1``. Each step is a tuple of single
statements (not a script: ``executescript`` would commit the surrounding transaction) and runs in
one transaction together with the new ``user_version``. Never edit a step that has shipped; append
a new one.

A game's own statements (a rewrite of its stored logs, its options) live in its package
(``bot/games/<game>/migrations.py``) and join the step of the version they were written for
(``GamePlugin.store_steps``, see ``step``): after the shared statements, in the same transaction, in the
order of the registry the entry point hands down (``use``). A version whose only content is a game's has an empty shared step here.
"""

from __future__ import annotations

from collections.abc import Awaitable, Callable, Iterable, Mapping, Sequence
from typing import Any, Protocol

# A statement of a step: SQL, or a coroutine function given the aiosqlite connection (it must not commit).
Statement = str | Callable[[Any], Awaitable[None]]

V1 = (
    # One row per game. ``ply`` counts the live actions and is the game's version: every write checks
    # it with a conditional UPDATE. ``options`` and ``summary`` are JSON text (``summary`` went in V10).
    """
    CREATE TABLE games (
        id                INTEGER PRIMARY KEY,
        guild_id          INTEGER,
        channel_id        INTEGER NOT NULL,
        parent_channel_id INTEGER,
        owner_id          INTEGER NOT NULL,
        kind              TEXT    NOT NULL,
        options           TEXT    NOT NULL,
        seed              INTEGER NOT NULL,
        status            TEXT    NOT NULL DEFAULT 'active'
                                  CHECK (status IN ('active', 'finished', 'abandoned')),
        ply               INTEGER NOT NULL DEFAULT 0 CHECK (ply >= 0),
        created_at        TEXT    NOT NULL,
        updated_at        TEXT    NOT NULL,
        summary           TEXT
    )
    """,
    # (The first release also checked ``kind`` against the names of its two games. V6 drops that CHECK and a
    # new file runs every step at its first opening, so V1 leaves it out: no shared step names a game.)
    # The rule "one active game per channel" lives in the database, so two processes cannot both
    # start a game in one channel.
    "CREATE UNIQUE INDEX games_one_active_per_channel ON games (channel_id) WHERE status = 'active'",
    "CREATE INDEX games_owner ON games (guild_id, owner_id)",
    # The append-only action log: an undo marks the row, it never deletes it. At most one live row
    # per (game, ply).
    """
    CREATE TABLE actions (
        seq        INTEGER PRIMARY KEY,
        game_id    INTEGER NOT NULL REFERENCES games (id),
        ply        INTEGER NOT NULL CHECK (ply >= 1),
        action     TEXT    NOT NULL,
        user_id    INTEGER NOT NULL,
        created_at TEXT    NOT NULL,
        undone     INTEGER NOT NULL DEFAULT 0 CHECK (undone IN (0, 1)),
        undone_at  TEXT,
        undone_by  INTEGER
    )
    """,
    "CREATE UNIQUE INDEX actions_live_ply ON actions (game_id, ply) WHERE undone = 0",
    "CREATE INDEX actions_game_seq ON actions (game_id, seq)",
    # State JSON at a ply, so resume and undo replay only the tail of a long game.
    """
    CREATE TABLE snapshots (
        game_id    INTEGER NOT NULL REFERENCES games (id),
        ply        INTEGER NOT NULL CHECK (ply >= 0),
        state      TEXT    NOT NULL,
        created_at TEXT    NOT NULL,
        PRIMARY KEY (game_id, ply)
    ) WITHOUT ROWID
    """,
    # One row per ended game, for leaderboards and stats; deleted again if the ending is undone.
    """
    CREATE TABLE results (
        game_id       INTEGER PRIMARY KEY REFERENCES games (id),
        guild_id      INTEGER,
        user_id       INTEGER NOT NULL,
        kind          TEXT    NOT NULL,
        outcome       TEXT    NOT NULL CHECK (outcome IN ('won', 'lost', 'abandoned')),
        difficulty    TEXT,
        player_score  INTEGER,
        dummbot_score INTEGER,
        turns         INTEGER,
        how           TEXT,
        finished_at   TEXT    NOT NULL,
        ended_by      INTEGER
    )
    """,
    "CREATE INDEX results_board ON results (guild_id, kind, outcome)",
    "CREATE INDEX results_user ON results (guild_id, user_id)",
)

# A game's stored actions rewritten from what was typed to what was meant (card ids, city names), each game
# replayed before and after: the game's own statements only.
V2: tuple[Statement, ...] = ()

# Games recorded before their rules' edition 2 keep the rules they were played under: the game's own statements.
V3: tuple[Statement, ...] = ()


# The bot's own small key/value table (e.g. the hash of the last command sync).
V4 = (
    """
    CREATE TABLE IF NOT EXISTS settings (
        key        TEXT PRIMARY KEY,
        value      TEXT NOT NULL,
        updated_at TEXT NOT NULL
    )
    """,  # a rowid table: SQLite 3.40's integrity_check misreads NOT NULL columns of WITHOUT ROWID tables
)


# The public result posts of a game (the channel's and the parent channel's), so that undoing the end of
# the game can mark them withdrawn. Rows go once the posts are marked.
V5 = (
    """
    CREATE TABLE result_posts (
        game_id    INTEGER NOT NULL REFERENCES games (id),
        channel_id INTEGER NOT NULL,
        message_id INTEGER NOT NULL,
        PRIMARY KEY (game_id, message_id)
    )
    """,  # a rowid table: SQLite 3.40's integrity_check misreads NOT NULL columns of WITHOUT ROWID tables
)



# Game-neutral (issue 9): ``games`` without the CHECK on ``kind`` (a new game needs no schema change), rebuilt
# with its indexes; ``results`` keeps the engine's Result as JSON plus the columns a ranking orders by
# (``dummbot_score`` → ``opponent_score``, ``turns`` → ``length``, ``how`` → inside ``result``). One transaction,
# every row kept (the store runs the step with foreign keys off and checks them before the commit).
V6 = (
    """
    CREATE TABLE games_v6 (
        id                INTEGER PRIMARY KEY,
        guild_id          INTEGER,
        channel_id        INTEGER NOT NULL,
        parent_channel_id INTEGER,
        owner_id          INTEGER NOT NULL,
        kind              TEXT    NOT NULL,
        options           TEXT    NOT NULL,
        seed              INTEGER NOT NULL,
        status            TEXT    NOT NULL DEFAULT 'active'
                                  CHECK (status IN ('active', 'finished', 'abandoned')),
        ply               INTEGER NOT NULL DEFAULT 0 CHECK (ply >= 0),
        created_at        TEXT    NOT NULL,
        updated_at        TEXT    NOT NULL,
        summary           TEXT
    )
    """,
    "INSERT INTO games_v6 SELECT id, guild_id, channel_id, parent_channel_id, owner_id, kind, options, seed, status,"
    " ply, created_at, updated_at, summary FROM games",
    "DROP TABLE games",
    "ALTER TABLE games_v6 RENAME TO games",
    "CREATE UNIQUE INDEX games_one_active_per_channel ON games (channel_id) WHERE status = 'active'",
    "CREATE INDEX games_owner ON games (guild_id, owner_id)",
    """
    CREATE TABLE results_v6 (
        game_id        INTEGER PRIMARY KEY REFERENCES games (id),
        guild_id       INTEGER,
        user_id        INTEGER NOT NULL,
        kind           TEXT    NOT NULL,
        outcome        TEXT    NOT NULL CHECK (outcome IN ('won', 'lost', 'abandoned')),
        difficulty     TEXT,
        player_score   INTEGER,
        opponent_score INTEGER,
        length         INTEGER,
        result         TEXT,
        finished_at    TEXT    NOT NULL,
        ended_by       INTEGER
    )
    """,
    # The Result's JSON form (engine/core/result.py): the outcome, then only the parts that are known.
    """
    INSERT INTO results_v6
    SELECT game_id, guild_id, user_id, kind, outcome, difficulty, player_score, dummbot_score, turns,
           json_patch(json_object('outcome', outcome),
                      json_object('player_score', player_score, 'opponent_score', dummbot_score,
                                  'length', turns, 'how', how)),
           finished_at, ended_by
    FROM results
    """,
    "DROP TABLE results",
    "ALTER TABLE results_v6 RENAME TO results",
    "CREATE INDEX results_board ON results (guild_id, kind, outcome)",
    "CREATE INDEX results_user ON results (guild_id, user_id)",
)


# A version that never repeats (issue 13): ``ply`` comes back to an earlier number after an undo, so two
# processes could each think their cached record current (ABA). ``revision`` is increased by every write,
# undo included, and is what the cache check and the conditional UPDATE compare. Existing games start at the
# number of writes their log shows. Each action keeps the id of the Discord interaction that asked for it
# (NULL from the console and for older rows), unique, so a second delivery of one interaction is refused; an
# undone action keeps the id of the interaction that undid it, unique too (a repeated undo is not a second undo).

V7 = (
    "ALTER TABLE games ADD COLUMN revision INTEGER NOT NULL DEFAULT 0",
    """
    UPDATE games SET revision =
        (SELECT count(*) + coalesce(sum(undone), 0) FROM actions WHERE actions.game_id = games.id)
        + (status = 'abandoned')
    """,
    "ALTER TABLE actions ADD COLUMN interaction_id INTEGER",
    "CREATE UNIQUE INDEX actions_interaction ON actions (interaction_id) WHERE interaction_id IS NOT NULL",
    "ALTER TABLE actions ADD COLUMN undone_interaction_id INTEGER",
    "CREATE UNIQUE INDEX actions_undone_interaction ON actions (undone_interaction_id)"
    " WHERE undone_interaction_id IS NOT NULL",
)

# Another game's records from before an edition of its rules keep edition 1: the game's own statements only.
V8: tuple[Statement, ...] = ()

# -- issue 24, the store's part (named V10; it is the ninth entry of MIGRATIONS, so user_version 9) ------------
# ``games.summary`` was written on every action and never read: a reply takes the summary from the replayed
# state. The column goes; SQLite drops it in place (3.35, the store's minimum anyway: MIN_SQLITE).
V10 = ("ALTER TABLE games DROP COLUMN summary",)
# -- end of issue 24's store steps -----------------------------------------------------------------------------

# -- issue 36: where a game was played (named V11; the tenth entry of MIGRATIONS, so user_version 10) -----------
# A player's record follows them across servers and DMs, while a server's leaderboard counts only its own games:
# each game and result keeps the kind of place it was played in (``PLACES``) beside its ``guild_id`` (NULL outside
# a server). Rows from before were played in a server, or (no guild) in a DM with the bot.
V11 = (
    "ALTER TABLE games ADD COLUMN place TEXT NOT NULL DEFAULT 'guild'"
    " CHECK (place IN ('guild', 'dm', 'group_dm', 'user_install'))",
    "UPDATE games SET place = 'dm' WHERE guild_id IS NULL",
    "ALTER TABLE results ADD COLUMN place TEXT NOT NULL DEFAULT 'guild'"
    " CHECK (place IN ('guild', 'dm', 'group_dm', 'user_install'))",
    "UPDATE results SET place = 'dm' WHERE guild_id IS NULL",
    # A player's own results, newest first (/game record, the difficulty a start suggests).
    "CREATE INDEX results_player ON results (user_id, kind, finished_at)",
)
# -- end of issue 36's store steps -----------------------------------------------------------------------------

MIGRATIONS: list[tuple[Statement, ...]] = [V1, V2, V3, V4, V5, V6, V7, V8, V10, V11]
SCHEMA_VERSION = len(MIGRATIONS)


def step(shared: Sequence[Statement], version: int, engine: str) -> tuple[Statement, ...]:
    """The statements of the step to ``version`` on ``engine`` ("sqlite", "postgresql"): ``shared`` (the store's
    own), then each registered game's for that version, in the order of the registry."""
    return (*shared, *(s for game in GAMES for s in game.store_steps(engine).get(version, ())))


class StoredGame(Protocol):
    """A registered game, as the store's schema reads it: its own steps (bot/games/plugin.py)."""

    def store_steps(self, engine: str) -> Mapping[int, Sequence[Statement]]: ...


# The registered games, in their order: handed by the entry point that builds the registry (the store imports no
# game).
GAMES: Iterable[StoredGame] = ()


def use(games: Iterable[StoredGame]) -> None:
    global GAMES
    GAMES = games
