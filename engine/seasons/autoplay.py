"""A seeded random-game driver: a model of the physical table that answers every request plausibly.

``Table`` holds the shuffled draw pile (2 copies of each base card), Dummbot's physical hand and the
player's table dice; ``choose_action`` picks a legal action for the state (mostly the main flow, now and
then a card played, an effect, a time move or a correction), ``play_game`` runs a whole game. Used by the
property tests, the bench and the bot's own tests.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, field
from typing import Any

from engine.core import Action, GameRecord, Rng, Step

from . import cards as C
from .cards import BASE_IDS, COPIES, PRESTIGE
from .faces import SEASONS, dice_numbers, die_faces
from .rules import RULES
from .state import CORRECTIONS_ONLY, SeasonsState

# Player cards worth playing now and then: the S-8 table plus one that does not touch Dummbot.
_PLAYED = (C.SYLLAS, C.FIGRIM, C.NARIA, C.KAIRN, C.AMSUG, C.LEWIS, C.LEECH, C.ARGOS, C.TITUS,
           C.AIR_ELEMENTAL, C.FAIRIES, C.SID, C.ONYS, "1")


@dataclass
class Table:
    """The physical components as the player would see them."""

    rng: Rng
    pile: list[str] = field(default_factory=list)
    hand: list[str] = field(default_factory=list)
    table_dice: dict[str, list[int]] = field(default_factory=dict)
    revealed: list[str] = field(default_factory=list)

    @classmethod
    def deal(cls, seed: int) -> Table:
        table = cls(Rng(seed ^ 0x5EA5))
        table.pile = [cid for cid in BASE_IDS for _ in range(COPIES[cid])]
        table.rng.shuffle(table.pile)
        del table.pile[:9]  # the player's year I-III cards (S-2.1)
        table.hand = [table.draw() for _ in range(6)]  # Dummbot's prelude hand (S-2.2)
        table.table_dice = {s: table.rng.sample(dice_numbers(s), 2) for s in SEASONS}
        return table

    def draw(self) -> str:
        if not self.pile:  # never in practice; keep the model total
            self.pile = list(BASE_IDS)
            self.rng.shuffle(self.pile)
        return self.pile.pop()

    def take_from_hand(self, n: int) -> list[str]:
        while len(self.hand) < n:
            self.hand.append(self.draw())
        self.rng.shuffle(self.hand)
        taken, self.hand = self.hand[:n], self.hand[n:]
        return taken

    def follow(self, step: Step[SeasonsState]) -> None:
        """Move the physical cards as the events tell the player to."""
        for event in step.events:
            key, p = event.key.rsplit(".", 1)[-1], event.params
            if key == "draw_to_hand":
                self.hand += [self.draw() for _ in range(p["n"])]
            elif key == "item_to_hand":
                self.hand.append(p["card"])
            elif key in ("summoned", "discarded", "discarded_from_hand", "onys_to_player") and p.get("card") in self.revealed:
                self.revealed.remove(p["card"])
        if step.state.wait_key not in ("seasons.waiting.reveal_hand", "seasons.waiting.reveal_discard"):
            self.hand += self.revealed  # the cards drawn and not used go back
            self.revealed = []


def main_action(state: SeasonsState, table: Table, rng: Rng) -> Action:
    """The action that moves the game on (no corrections)."""
    key, params = state.wait_key, state.wait_params
    if key == "seasons.waiting.roll":
        return Action("roll")
    if key == "seasons.waiting.take_die":
        return Action("take", index=rng.randbelow(2))
    if key == "seasons.waiting.player_turn":
        return Action("end")
    if key == "seasons.waiting.die":
        season = state.dice_season  # S-3.2: the dice rolled at the round's start
        dice = state.round_dice or table.table_dice[season]  # S-1.4: the engine's chosen dice since edition 3
        faces = [die_faces(season, d)[rng.randbelow(6)] for d in dice]
        return Action("die", face=dict(faces[rng.randbelow(2)]))
    if key == "seasons.waiting.reveal_summon":
        return Action("reveal", cards=[_fresh(state, table)])
    if key == "seasons.waiting.reveal_hand":
        drawn = table.take_from_hand(params["count"])
        table.revealed = list(drawn)
        return Action("reveal", cards=drawn)
    if key == "seasons.waiting.reveal_discard":
        drawn = table.take_from_hand(params["drawn"])
        table.revealed = list(drawn)
        return Action("reveal", cards=drawn[: params["count"]])
    if key == "seasons.waiting.player_crystals":
        return Action("answer", crystals=rng.randbelow(20))
    if key == "seasons.waiting.score":
        return Action("score", crystals=rng.randbelow(120), prestige=rng.randbelow(80), bonuses=rng.randbelow(4),
                      hand=rng.randbelow(3), extra=0)
    raise ValueError(f"nothing to do in {key}")


def _fresh(state: SeasonsState, table: Table) -> str:
    """The top card of the pile, skipping any copy the engine already knows to be elsewhere."""
    known = state.summoned + state.discards + state.player_area + state.hand_known
    for _ in range(len(table.pile) + 1):
        card = table.draw()
        if known.count(card) < COPIES[card]:
            return card
    return next(c for c in BASE_IDS if known.count(c) < COPIES[c])


def side_action(state: SeasonsState, table: Table, rng: Rng) -> Action | None:
    """Now and then a legal correction or player-side effect; None when none fits."""
    legal = state.waiting.legal
    roll = rng.randbelow(100)
    in_turn = not state.before_take  # bot dice: the player's cards wait for the die they take (S-3.1a)
    if "played" in legal and roll < 4 and in_turn:
        known = state.summoned + state.discards + state.player_area + state.hand_known
        options = [c for c in _PLAYED if known.count(c) < COPIES[c] and c in table.pile]
        if not options:
            return None
        card = options[rng.randbelow(len(options))]
        table.pile.remove(card)  # the player drew it some time ago
        return Action("played", card=card)
    if "effect" in legal and roll < 7:
        if state.wait_key in CORRECTIONS_ONLY:  # S-8.3: only corrections mid-step and after the last round
            return Action("effect", kind="cannot_pay") if state.payments else None
        kinds = ["kairn"] if in_turn and state.kairn_used < state.player_area.count(C.KAIRN) else []
        if in_turn and C.FAIRIES in state.summoned:
            kinds.append("activate")
        if in_turn and C.LEECH in state.summoned:
            kinds.append("summon")
        if state.payments:
            kinds.append("cannot_pay")
        if in_turn and C.ONYS in state.player_area:
            kinds.append("onys")
        if state.player_area:
            kinds.append("left")
        if not kinds:
            return None
        kind = kinds[rng.randbelow(len(kinds))]
        if kind == "left":
            return Action("effect", kind=kind, card=state.player_area[rng.randbelow(len(state.player_area))])
        return Action("effect", kind=kind)
    if "time" in legal and roll < 9:
        steps = (-3, -2, -1, 1, 2, 3)[rng.randbelow(6)]
        if state.position + steps < 0 or (steps > 0 and state.past_end):
            return None
        return Action("time", steps=steps)
    if "crystals" in legal and roll < 10:
        return Action("crystals", change=(-2, -1, 1, 3)[rng.randbelow(4)])
    return None


def play_game(difficulty: str = "wizard", dice: str = "bot", seed: int = 0, *, extras: bool = True,
              max_actions: int = 2000, prelude: bool = False) -> tuple[list[Action], list[Step[SeasonsState]]]:
    """A whole random game, scored: its actions and the steps they produced (new_game's step first). With
    ``prelude``, the player first tells the bot Dummbot's six starting cards (S-2.4)."""
    step = RULES.new_game({"difficulty": difficulty, "dice": dice}, seed)
    table = Table.deal(seed)
    rng = Rng(seed * 7919 + 1)
    actions: list[Action] = []
    steps = [step]
    if prelude:
        actions.append(Action("prelude", cards=list(table.hand)))
        step = RULES.apply(step.state, actions[-1])
        steps.append(step)
    while not step.state.finished and len(actions) < max_actions:
        action = side_action(step.state, table, rng) if extras else None
        if action is None:
            action = main_action(step.state, table, rng)
        step = RULES.apply(step.state, action)
        table.follow(step)
        actions.append(action)
        steps.append(step)
    return actions, steps


def autoplay(options: Mapping[str, Any] | None, seed: int, *, max_actions: int = 2000) -> GameRecord[SeasonsState]:
    """The one autoplay signature every game offers: a whole seeded random game (or its first ``max_actions``
    actions) as a GameRecord, from the table's side (``play_game`` with its corrections and side actions)."""
    opts = {"difficulty": "wizard", "dice": "bot", **dict(options or {})}
    actions, _ = play_game(opts["difficulty"], opts["dice"], seed, max_actions=max_actions)
    return GameRecord.replay(RULES, {"difficulty": opts["difficulty"], "dice": opts["dice"]}, seed, actions)


def final_dummbot_score(difficulty: str, dice: str, seed: int) -> int:
    """Dummbot's final score of one plain random game (no corrections)."""
    _, steps = play_game(difficulty, dice, seed, extras=False)
    return steps[-1].state.score


def prestige_of(cards: list[str]) -> int:
    return sum(PRESTIGE[c] for c in cards)


__all__ = ["Table", "autoplay", "final_dummbot_score", "main_action", "play_game", "side_action"]
