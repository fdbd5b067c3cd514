"""A seeded random legal player: for property tests, the bench and the bot's tests.

``random_action(state, rng)`` picks an action the engine accepts in ``state`` (mostly: a chosen name
can still be refused in rare corner cases, so ``play_game`` retries). Reveals are plausible: the
unknown Rage cards are drawn from what the solo Asset Deck can still hold.
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Mapping
from typing import Any

from engine.core import Action, GameRecord, Rng, RuleError

from .cards import CATALOG
from .rules import RULES
from .state import CHOOSE_BUILDING, CHOOSE_TROOP, REVEAL, TURN, VolfState

_PLAYABLE = tuple(c.name for c in CATALOG if c.solo and c.type in ("troop", "building", "wonder"))

# Relative weights of the main-phase actions: mostly playing cards and ending turns.
_TURN_WEIGHTS = (("play", 30), ("end", 25), ("reshuffle", 12), ("putaside", 8), ("acquire", 6),
                 ("remove", 4), ("redeploy", 4), ("win", 1))


def random_action(state: VolfState, rng: Rng) -> Action:
    if state.phase == REVEAL:
        return Action("reveal", cards=plausible_reveal(state, rng))
    if state.phase in (CHOOSE_TROOP, CHOOSE_BUILDING):
        return Action("choose", city=rng.choice(state.waiting.params["cities"]))
    if state.phase != TURN:
        raise RuleError("volfyirion.not_now", action="autoplay", waiting=state.waiting.key, expected="—")
    if state.deck_left() < _DECK_MARGIN:
        return _running_out(state)
    total = sum(w for _, w in _TURN_WEIGHTS)
    roll = rng.randbelow(total)
    for kind, weight in _TURN_WEIGHTS:
        if roll < weight:
            return _turn_action(kind, state, rng)
        roll -= weight
    raise AssertionError("weights cover the roll")


# A real Asset Deck runs out: well before the unknown Rage cards could outnumber what it can still hold,
# the player refills it from the put-aside cards (V-2.4), or lets the dragon attack to empty the pile.
_DECK_MARGIN = 8


def _running_out(state: VolfState) -> Action:
    if state.put_aside or state.put_aside_unknown:
        return Action("refill") if state.deck_empty() or state.deck is None else Action("refill", confirm=True)
    return Action("reshuffle") if state.token == "lair" else Action("end")


def plausible_reveal(state: VolfState, rng: Rng) -> list[str]:
    """Names for the pile's unknown cards, drawn without replacement from the unseen deck."""
    pool = [name for name, n in state.unseen_deck().items() for _ in range(n)]
    return rng.sample(pool, min(state.unknown_in_pile, len(pool)))


def _turn_action(kind: str, state: VolfState, rng: Rng) -> Action:
    standing = state.standing()
    if kind == "play":
        name = rng.choice(_PLAYABLE)
        city = None if CATALOG[name].type == "wonder" or not standing else rng.choice(standing)["name"]
        return Action("play", card=name, city=city)
    if kind == "reshuffle":
        return Action("reshuffle") if state.token == "lair" else Action("end")
    if kind == "putaside":
        return Action("putaside", paid=rng.choice(("battle", "knowledge")), card=None)
    if kind == "acquire":
        return Action("acquire", card=rng.choice([c.name for c in CATALOG if c.in_asset_deck]))
    if kind == "remove":
        in_play = [(c[s], c["name"]) for c in standing for s in ("troop", "building") if c[s]]
        if not in_play:
            return Action("end")
        name, city = rng.choice(in_play)
        return Action("remove", card=name, city=city)
    if kind == "redeploy":
        troops = [c for c in standing if c["troop"]]
        empty = [c for c in standing if not c["troop"]]
        if not troops or not empty:
            return Action("end")
        return Action("redeploy", troop=rng.choice(troops)["troop"], city=rng.choice(empty)["name"])
    if kind == "win":
        return Action("win", how=rng.choice(("attack", "subjugate")))
    return Action("end")


def play_game(seed: int, *, max_actions: int = 200, options: Mapping[str, Any] | None = None,
              allow_win: bool = True) -> GameRecord[VolfState]:
    """A whole random game (or its first ``max_actions`` actions) as a GameRecord."""
    rng = Rng(seed)
    record = GameRecord(RULES, options or {}, seed)
    while record.ply < max_actions and not record.state.finished:
        for _ in range(20):
            action = random_action(record.state, rng)
            if action.type == "win" and not allow_win:
                continue
            try:
                record.push(action)
                break
            except RuleError:
                continue
        else:
            record.push(Action("end") if record.state.phase == TURN else random_action(record.state, rng))
    return record


def autoplay(options: Mapping[str, Any] | None, seed: int, *, max_actions: int = 2000) -> GameRecord[VolfState]:
    """The one autoplay signature every game offers: a whole seeded random game (or its first ``max_actions``
    actions) as a GameRecord."""
    return play_game(seed, max_actions=max_actions, options=dict(options or {}))


def copies_known(state: VolfState) -> Counter[str]:
    """Every copy the bot knows the whereabouts of (for tests that check copy limits)."""
    return state.known_elsewhere()
