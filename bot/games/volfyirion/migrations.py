"""Volfyirion's part of the store's schema steps (``VolfyirionGame.store_steps``), numbered as the store's.

SQLite's step 2: Volfyirion's stored actions say what was meant, not what was typed (issue 8).

Before this step the bot stored the player's text (``{"type": "play", "card": "elite trooper", "city": "8"}``),
so replaying an old game depended on name matching never changing. This step rewrites every stored
Volfyirion action to card ids and city names as the engine resolves them (``canonical_action``), and renames
the per-city bonus reading that older games recorded as ``official`` (V-5.3) in their options, summary and
snapshots.

Each game is replayed twice from its seed, before and after the rewrite, in the order its actions were
written (undone ones included, each on top of the actions that were live when it was written); if any state
differs, or the rewritten log no longer replays, the step raises ``MigrationMismatch`` and the transaction
that runs it (``bot.store.sqlite._migrate``) rolls back: the database is left exactly as it was. A game the
current engine cannot replay as stored at all is left untouched (and logged): nothing can be checked for it.
"""

from __future__ import annotations

import json
import logging
from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any

from ...store.base import JSON, StoreError
from ...store.rows import dumps

if TYPE_CHECKING:
    import aiosqlite

    from ..plugin import StoreStep

log = logging.getLogger(__name__)


class MigrationMismatch(StoreError):
    """Rewriting a game's log would change a state (params: game_id, ply, seq, detail)."""

    key = "store.migration_mismatch"


class Unreplayable(Exception):
    """The stored log does not replay with the current engine as it is (the game is left untouched)."""


@dataclass(frozen=True)
class LogRow:
    seq: int
    ply: int
    action: JSON
    undone: bool


def rewrite_log(game_id: int, options: JSON, seed: int, rows: list[LogRow]) -> dict[int, JSON]:
    """The rewritten actions by ``seq`` (only those that change), checked by replaying before and after.

    Raises ``Unreplayable`` when the stored log does not replay as it is, ``MigrationMismatch`` when the
    rewritten one does not reach the very same states.
    """
    from engine.core import Action, RuleError
    from engine.volfyirion import RULES, canonical_action
    from engine.volfyirion.canonical import apply_typed  # the stored log as the rules read typed text

    try:
        # This step runs on databases older than schema V8, whose games are all of the rules' edition 1.
        start = RULES.new_game(RULES.normalize_options({"edition": 1, **options}), seed).state
    except RuleError as err:
        raise Unreplayable(f"options: {err}") from err
    before: list[Any] = [start]  # the states after each live ply, replaying the log as stored
    after: list[Any] = [start]  # the same, replaying the rewritten log
    changed: dict[int, JSON] = {}
    for row in sorted(rows, key=lambda r: r.seq):
        if not 1 <= row.ply <= len(before):
            raise Unreplayable(f"seq {row.seq}: ply {row.ply} after {len(before) - 1} live actions")
        # A row at ply p was written on top of the p - 1 actions live then: later plies were undone first.
        del before[row.ply:], after[row.ply:]
        try:
            typed = Action.from_json(row.action)
            old = apply_typed(before[-1], typed).state
        except (RuleError, KeyError, TypeError, ValueError) as err:
            raise Unreplayable(f"seq {row.seq} (ply {row.ply}): {err}") from err
        meant = canonical_action(after[-1], typed)
        try:
            new = RULES.apply(after[-1], meant).state
        except RuleError as err:
            raise MigrationMismatch(game_id=game_id, ply=row.ply, seq=row.seq, detail=str(err)) from err
        if new.to_json() != old.to_json():
            raise MigrationMismatch(game_id=game_id, ply=row.ply, seq=row.seq, detail="state differs")
        before.append(old)
        after.append(new)
        if meant.to_json() != row.action:
            changed[row.seq] = meant.to_json()
    return changed


def _renamed_bonus(data: Any) -> tuple[Any, bool]:
    """``data`` with ``"bonus": "official"`` (V-5.3's per-city table, as older games recorded it) renamed."""
    if isinstance(data, dict) and data.get("bonus") == "official":
        return {**data, "bonus": "per_city"}, True
    return data, False


async def migrate_volfyirion_actions(db: aiosqlite.Connection) -> None:
    """The schema step (runs inside the migration's transaction; raising rolls everything back)."""
    games = list(await db.execute_fetchall(
        "SELECT id, options, seed, summary FROM games WHERE kind = 'volfyirion' ORDER BY id"))
    rewritten = skipped = 0
    for game_id, options_text, seed, summary_text in games:
        options = json.loads(options_text)
        stored = await db.execute_fetchall(
            "SELECT seq, ply, action, undone FROM actions WHERE game_id = ? ORDER BY seq", (game_id,))
        rows = [LogRow(int(seq), int(ply), json.loads(action), bool(undone)) for seq, ply, action, undone in stored]
        try:
            changed = rewrite_log(game_id, options, int(seed), rows)
        except Unreplayable as why:
            log.warning("volfyirion game %s left as stored: the current rules cannot replay it (%s)", game_id, why)
            skipped += 1
            continue
        for seq, action in changed.items():
            await db.execute("UPDATE actions SET action = ? WHERE seq = ?", (dumps(action), seq))
        new_options, renamed = _renamed_bonus(options)
        if renamed:
            await db.execute("UPDATE games SET options = ? WHERE id = ?", (dumps(new_options), game_id))
        if summary_text:
            summary, renamed = _renamed_bonus(json.loads(summary_text))
            if renamed:
                await db.execute("UPDATE games SET summary = ? WHERE id = ?", (dumps(summary), game_id))
        for ply, state_text in await db.execute_fetchall(
                "SELECT ply, state FROM snapshots WHERE game_id = ?", (game_id,)):
            state = json.loads(state_text)
            state_options, renamed = _renamed_bonus(state.get("options"))
            if renamed:
                await db.execute("UPDATE snapshots SET state = ? WHERE game_id = ? AND ply = ?",
                                 (dumps({**state, "options": state_options}), game_id, ply))
        rewritten += bool(changed)
    log.info("volfyirion logs: %d game(s) checked, %d rewritten, %d left as stored", len(games), rewritten, skipped)



# SQLite's step 8: games recorded before the rules counted the Asset Deck (V-3.5: an empty deck adds no Rage card,
# an early refill asks for a confirmation) keep the rules they were played under, so they replay unchanged.
_EDITION_1 = """
    UPDATE games SET options = json_set(options, '$.edition', 1)
    WHERE kind = 'volfyirion' AND json_extract(options, '$.edition') IS NULL
    """
# PostgreSQL's step 2: the same (its step 1 is the shape of SQLite's steps 1 to 7, this log rewrite included).
_PG_EDITION_1 = """
    UPDATE games SET options = (options::jsonb || '{"edition": 1}'::jsonb)::text
    WHERE kind = 'volfyirion' AND NOT (options::jsonb ? 'edition')
    """

STEPS: Mapping[str, Mapping[int, Sequence[StoreStep]]] = {
    "sqlite": {2: (migrate_volfyirion_actions,), 8: (_EDITION_1,)},
    "postgresql": {2: (_PG_EDITION_1,)},
}
