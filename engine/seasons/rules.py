"""The Dummbot automaton: ``RULES.new_game`` and ``RULES.apply`` (rules S-1 … S-9 of seasons-dummbot.md).

``apply`` copies the state, runs the action's handler, then ``_advance`` works through the queue of
pending steps (the rest of a round: end-of-round effects, the token move, the season change, the new
year) until one of them needs something from the player, which becomes the state's ``waiting``.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping
from typing import Any

from engine.core import JSON, Action, Event, Params, Rng, RuleError, Step

from . import cards as C
from . import undo
from .cards import COPIES, IS_ITEM, PRESTIGE, card_by_id
from .faces import RATES, SEASONS, canonical, check_face, dice_numbers, die_faces
from .state import CORRECTIONS_ONLY, EDITION, EDITIONS, END, STATE_VERSION, SeasonsState
from .summary import BONUS_PENALTY, RESULT_NAMES

DIFFICULTIES = ("apprentice", "wizard", "archmage")
DICE_MODES = ("table", "bot")

HAND_DRAW = {"apprentice": 1, "wizard": 4, "archmage": 4}  # S-5.1 cards drawn from the hand
NEW_YEAR_DRAW = {"apprentice": 1, "wizard": 2, "archmage": 4}  # S-6.2
PRELUDE_HAND = 6  # S-2.2

# What `effect` accepts: the player's side of ongoing or triggered effects, and the S-8.3 correction.
EFFECT_KINDS = ("activate", "summon", "kairn", "onys", "cannot_pay", "left")
# Those only the player's own turn brings (corrections and a card leaving play may come before the roll).
_TURN_EFFECTS = frozenset({"activate", "summon", "kairn", "onys"})

WAIT_DIE, WAIT_ROLL, WAIT_TAKE = "seasons.waiting.die", "seasons.waiting.roll", "seasons.waiting.take_die"
WAIT_TURN = "seasons.waiting.player_turn"
WAIT_SUMMON, WAIT_HAND = "seasons.waiting.reveal_summon", "seasons.waiting.reveal_hand"
WAIT_DISCARD, WAIT_CRYSTALS = "seasons.waiting.reveal_discard", "seasons.waiting.player_crystals"
WAIT_SCORE, WAIT_FINISHED = "seasons.waiting.score", "seasons.waiting.finished"
# The S-8 cards whose effect on the other side lasts while they are in play: the event that, as one enters
# play, tells the player what it will do and what they must report (each card's own words).
DUMMBOT_ONGOING = {C.FIGRIM: "dummbot_figrim", C.LEECH: "dummbot_leech", C.TITUS: "dummbot_titus",
                   C.FAIRIES: "dummbot_fairies"}
PLAYER_ONGOING = {C.FIGRIM: "player_figrim", C.LEECH: "player_leech", C.TITUS: "player_titus",
                  C.FAIRIES: "player_fairies", C.KAIRN: "player_kairn", C.ONYS: "player_onys"}

Events = list[Event]


def _ev(events: Events, key: str, **params: Any) -> None:
    events.append(Event(f"seasons.event.{key}", params))


class SeasonsRules:
    game = "seasons"
    version = STATE_VERSION
    # The result's fields as the export and the summary have always named them (docs/playing.md, the export).
    result_names = RESULT_NAMES

    # -- options and setup -----------------------------------------------------------------------
    def normalize_options(self, options: Mapping[str, Any]) -> JSON:
        """The options as codes (``apprentice``, ``table``): what a player typed the bot has resolved already
        (its choices, in either language); anything else is refused."""
        difficulty = options.get("difficulty", "wizard")
        if difficulty not in DIFFICULTIES:
            raise RuleError("seasons.bad_option", option="difficulty", value=str(difficulty),
                            choices=list(DIFFICULTIES))
        dice = options.get("dice", "table")
        if dice not in DICE_MODES:
            raise RuleError("seasons.bad_option", option="dice", value=str(dice), choices=list(DICE_MODES))
        edition = options.get("edition", EDITION)
        if edition not in EDITIONS:
            raise RuleError("seasons.bad_option", option="edition", value=str(edition),
                            choices=", ".join(map(str, EDITIONS)))
        unknown = set(options) - {"difficulty", "dice", "edition"}
        if unknown:
            raise RuleError("seasons.bad_option", option=sorted(unknown)[0], value="", choices="difficulty, dice")
        return {"difficulty": difficulty, "dice": dice, "edition": edition}

    def new_game(self, options: Mapping[str, Any], seed: int) -> Step[SeasonsState]:
        opts = self.normalize_options(options)
        rng = Rng(int(seed))
        # S-1.4: two dice of each season chosen at random, in both modes (always drawn, so both modes and
        # every edition share the seed's stream); table-dice games use them since edition 3.
        chosen = {season: sorted(rng.sample(dice_numbers(season), 2)) for season in SEASONS}
        state = SeasonsState(
            difficulty=opts["difficulty"], dice=opts["dice"], year=1, month=1, rng=rng.state, chosen=chosen,
            crystals=0, hand_size=PRELUDE_HAND, hand_known=[], summoned=[], discards=[], player_area=[],
            rolled=None, queue=[], wait_key=WAIT_DIE, wait_params={}, payments=[], over=False, round=1,
            player_score=None, outcome=None, edition=opts["edition"], taken=None, round_season="winter",
            top_year=1, past_end=False, kairn_used=0, prelude_open=opts["edition"] >= 3, turn_reported=False,
        )
        events: Events = []
        _ev(events, "game_started", difficulty=state.difficulty, dice=state.dice, hand_size=PRELUDE_HAND)
        _ev(events, "dummbot_setup")  # S-1.2
        _ev(events, "two_player_costs")  # S-3.1
        _ev(events, "prelude", hand_size=PRELUDE_HAND, can_tell=state.prelude_open)  # S-2.1, S-2.4
        if state.uses_chosen_dice:
            for season in SEASONS:
                a, b = chosen[season]
                _ev(events, "dice_chosen", season=season, first_die=a, second_die=b, dice=state.dice)
        _ev(events, "report_help")  # where the cards that need a report are listed, said once
        _set_round_wait(state)
        return Step(state, tuple(events), state.waiting)

    def state_from_json(self, data: JSON) -> SeasonsState:
        return SeasonsState.from_json(data)

    def reversal(self, before: SeasonsState, action: Action, step: Step[SeasonsState]) -> tuple[Event, ...]:
        """What to put back on the table to undo ``step`` (see ``undo``)."""
        return undo.reversal(before, action, step)

    # -- playing ---------------------------------------------------------------------------------
    def apply(self, state: SeasonsState, action: Action) -> Step[SeasonsState]:
        handler = _HANDLERS.get(action.type)
        if handler is None:
            raise RuleError("seasons.unknown_action", action=str(action.type))
        if action.type not in state.waiting.legal:
            _refuse_out_of_turn(state, action.type)
        s = state.clone()
        events: Events = []
        handler(s, action.args, events)
        _advance(s, events)
        if s.wait_key == WAIT_SCORE:  # corrections until the final score (S-8.3): ask with the corrected score
            s.wait_params = {**s.wait_params, "dummbot_score": s.score}
        if len(s.hand_known) > s.hand_size:  # a mistaken reveal cannot make known cards outnumber the hand
            del s.hand_known[s.hand_size:]
        return Step(s, tuple(events), s.waiting)


def _refuse_out_of_turn(s: SeasonsState, action: str) -> None:
    """The clearest refusal for an action that does not fit the moment (S-3.1a's order of a round)."""
    if s.edition >= 2 and s.wait_key in (WAIT_ROLL, WAIT_TAKE):
        if action == "time":
            raise RuleError("seasons.time_in_your_turn")
        if action == "end":
            raise RuleError("seasons.end_take_first")
    if action == "end" and s.dice == "table" and s.wait_key == WAIT_DIE:
        raise RuleError("seasons.end_table_dice")
    if action == "prelude":  # S-2.4: only before Dummbot's first die, in games begun under edition 3
        raise RuleError("seasons.prelude_too_late" if s.edition >= 3 else "seasons.prelude_older_game")
    raise RuleError("seasons.not_now", action=action, waiting=s.wait_key)


# == the flow =======================================================================================
def _set_round_wait(s: SeasonsState) -> None:
    """Between Dummbot's dice: the player's turn of the round (S-3.1, S-3.1a)."""
    if s.round_season is None:  # a new round: its dice are the season's where the token now stands
        s.round_season = s.season
    if s.rolled and s.taken is not None:
        taken, left = s.rolled[s.taken], s.rolled[1 - s.taken]
        s.wait_key, s.wait_params = WAIT_TURN, {"die": taken["die"], "face": dict(taken["face"]),
                                                "dummbot_die": left["die"], "dummbot_face": dict(left["face"])}
    elif s.rolled:
        s.wait_key, s.wait_params = WAIT_TAKE, {"dice": [dict(d) for d in s.rolled]}
    elif s.dice == "bot":
        s.wait_key, s.wait_params = WAIT_ROLL, {"season": s.dice_season, "year": s.year, "month": s.month,
                                                "round": s.round}
    else:
        s.wait_key, s.wait_params = WAIT_DIE, _table_round_params(s)


def _table_round_params(s: SeasonsState) -> dict[str, Any]:
    """Table dice: the month with its own season, the season of the dice rolled (S-3.2: they stay the round's
    after a time move), the two dice (S-1.4) and whether the turn is under way (then no new roll)."""
    params: dict[str, Any] = {"season": s.season, "dice_season": s.dice_season, "year": s.year, "month": s.month,
                              "round": s.round, "in_turn": s.turn_reported}
    if s.uses_chosen_dice:
        params["first_die"], params["second_die"] = s.round_dice
    return params


def _wait(s: SeasonsState, key: str, **params: Any) -> bool:
    s.wait_key, s.wait_params = key, params
    return True


def _advance(s: SeasonsState, events: Events) -> None:
    """Run queued steps until one waits for the player; with nothing queued, wait for the next round."""
    if s.wait_key in (WAIT_SUMMON, WAIT_HAND, WAIT_DISCARD, WAIT_CRYSTALS, WAIT_SCORE, WAIT_FINISHED):
        return
    while s.queue:
        step = s.queue.pop(0)
        if _STEPS[step[0]](s, events, *step[1:]):
            return
    _set_round_wait(s)


def _step_summon_reveal(s: SeasonsState, events: Events) -> bool:
    _ev(events, "reveal_top_card")
    return _wait(s, WAIT_SUMMON, count=1)


def _step_end_round(s: SeasonsState, events: Events) -> bool:
    """S-3.5: Titus Deepgaze at the end of the round, before the token moves (both sides: ``_both_sides``)."""
    def pay_player() -> None:
        if s.crystals:
            _give_to_player(s, events, 1, C.TITUS)
        else:
            s.player_area.remove(C.TITUS)
            _ev(events, "player_titus_sacrificed", card=C.TITUS)

    _both_sides(s, events, C.TITUS, pay_player)
    return False


def _step_move(s: SeasonsState, events: Events, steps: int, by: str = "dots") -> bool:
    """Move the token: Dummbot's dots (S-3.3) or the player's time move (S-9.1), forward or back.

    Every change of season queues S-5 and its triggers (S-9.2), the first entry into a year S-6 (S-9.3).
    The game ends after Dummbot's dots carry the token past month 12 of year 3, or in the round in which
    the player's move did (S-7.1, S-9.4); the last change of season still summons.
    """
    if s.edition < 2:
        return _step_move_edition_1(s, events, steps)
    before = s.position
    if before == END and by == "dots":  # the player's move already ended the year: this round is the last
        _ev(events, "last_round_over")
        s.over = True
        s.queue.insert(0, ["game_end"])
        return False
    after = min(before + steps, END)
    s.past_end = after == END
    if not s.past_end:
        s.year, s.month = after // 12 + 1, after % 12 + 1
    else:
        s.year, s.month = 3, 12
    if steps < 0 and s.year < min(before, END - 1) // 12 + 1:
        _ev(events, "year_back", year=s.year)
    _ev(events, "token_moved", steps=steps, year=s.year, month=s.month, season=s.season)
    if before // 3 == after // 3:
        return False
    triggers: list[list[Any]] = [["season_change"], ["season_triggers"]]
    if s.past_end:
        _ev(events, "year_three_over")
        if by == "dots":
            s.over = True
            triggers.append(["game_end"])
        else:
            _ev(events, "last_round", year=s.year)
    else:
        _ev(events, "season_changed", season=s.season, year=s.year, month=s.month)
        if s.year > (s.top_year or 1):
            s.top_year = s.year
            triggers.append(["new_year"])
    s.queue[:0] = triggers
    return False


def _step_move_edition_1(s: SeasonsState, events: Events, steps: int) -> bool:
    """The first release's move (forward only; every entry into a year drew), kept for recorded games."""
    before = s.season
    new_year = False
    for _ in range(steps):
        if s.month == 12:
            if s.year == 3:
                s.over = True
                break
            s.month, s.year, new_year = 1, s.year + 1, True
        else:
            s.month += 1
    _ev(events, "token_moved", steps=steps, year=s.year, month=s.month, season=s.season)
    if s.over:
        _ev(events, "year_three_over")
        s.queue[:0] = [["season_change"], ["season_triggers"], ["game_end"]]
    elif s.season != before:
        _ev(events, "season_changed", season=s.season, year=s.year, month=s.month)
        s.queue[:0] = [["season_change"], ["season_triggers"]] + ([["new_year"]] if new_year else [])
    return False


def _step_season_change(s: SeasonsState, events: Events) -> bool:
    """S-5.1/S-5.3: tell the player how many cards to draw at random from Dummbot's hand."""
    if s.hand_size == 0:
        _ev(events, "hand_empty")
        return False
    count = min(HAND_DRAW[s.difficulty], s.hand_size)
    _ev(events, "draw_from_hand", count=count, hand_size=s.hand_size)
    return _wait(s, WAIT_HAND, count=count)


def _step_season_triggers(s: SeasonsState, events: Events) -> bool:
    """S-5.5: Figrim the Avaricious on either side, after Dummbot's summon (both sides: ``_both_sides``)."""
    _both_sides(s, events, C.FIGRIM, lambda: _give_to_player(s, events, 1, C.FIGRIM))
    return False


def _both_sides(s: SeasonsState, events: Events, card: str, pay_player: Callable[[], object]) -> None:
    """Figrim (S-8 #11) or Titus (#39) on both sides at once: Dummbot's side first, then the player's.

    **Ruling** (the rules are silent): Dummbot's card is paid first, so the player's payment to Dummbot can fund
    Dummbot's payment to the player. The order matters only when Dummbot had fewer crystals than it owes the
    player: then (edition 3) the reply says so, and the payments that funded the player's are marked, so that "I
    could not pay" on one of them takes back what it funded (``_correct_payment``). The box holds 2 copies, so
    both sides hold one each.
    """
    owed, before = s.player_area.count(card), s.crystals
    for _ in range(s.summoned.count(card)):
        _take_from_player(s, events, 1, card)
    taken = s.crystals - before
    for _ in range(owed):
        pay_player()
    funded = min(owed, before + taken) - min(owed, before)
    if funded and s.edition >= 3:
        s.payments[-taken:] = [{**p, "funded": True} for p in s.payments[-taken:]]
        _ev(events, "both_sides_order", card=card, n=funded)


def _step_new_year(s: SeasonsState, events: Events) -> bool:
    """S-6.1/S-6.2: after the season-change summon, new cards face down onto Dummbot's hand."""
    _ev(events, "new_year", year=s.year)
    _draw_to_hand(s, events, NEW_YEAR_DRAW[s.difficulty], "new_year")
    return False


def _step_game_end(s: SeasonsState, events: Events) -> bool:
    """S-7.1: after the last summon, ask for the player's score."""
    _ev(events, "game_end", dummbot_score=s.score, crystals=s.crystals,
        prestige=s.score - s.crystals, cards=len(s.summoned))
    return _wait(s, WAIT_SCORE, dummbot_score=s.score)


def _step_sid(s: SeasonsState, events: Events, side: str) -> bool:
    """Sid Nightshade needs the player's crystal count (S-8.3 keeps questions to this one)."""
    if s.crystals == 0:
        _ev(events, "sid_no_effect", card=C.SID)
        return False
    return _wait(s, WAIT_CRYSTALS, card=C.SID, side=side, dummbot_crystals=s.crystals)


def _step_hand_discard(s: SeasonsState, events: Events, card: str, count: int, discard: int) -> bool:
    """Demon of Argos / Air Elemental played by the player: random cards from Dummbot's hand."""
    count = min(count, s.hand_size)
    discard = min(discard, count)
    if count == 0:
        _ev(events, "hand_empty_no_effect", card=card)
        return False
    _ev(events, "draw_to_discard", card=card, count=count, discard=discard)
    return _wait(s, WAIT_DISCARD, card=card, drawn=count, count=discard)


_STEPS: dict[str, Callable[..., bool]] = {
    "summon_reveal": _step_summon_reveal, "end_round": _step_end_round, "move": _step_move,
    "season_change": _step_season_change, "season_triggers": _step_season_triggers,
    "new_year": _step_new_year, "game_end": _step_game_end, "sid": _step_sid,
    "hand_discard": _step_hand_discard,
}


# == crystals and cards =============================================================================
def _gain(s: SeasonsState, events: Events, n: int, source: str, **params: Any) -> None:
    """Crystals Dummbot gains; one event key per source so every template has its own fields."""
    s.crystals += n
    _ev(events, f"crystals_from_{source}", n=n, total=s.crystals, **params)


def _give_to_player(s: SeasonsState, events: Events, n: int, card: str) -> int:
    """Dummbot pays the player: never more than it has (S-8.3)."""
    paid = min(n, s.crystals)
    s.crystals -= paid
    if paid:
        _ev(events, "crystals_to_player", n=paid, card=card, total=s.crystals)
    else:
        _ev(events, "nothing_to_give", card=card)
    return paid


def _take_from_player(s: SeasonsState, events: Events, n: int, card: str) -> None:
    """The player pays Dummbot; assumed possible, corrected by `effect cannot_pay` (S-8.3)."""
    s.crystals += n
    s.payments.append({"card": card, "n": n})
    _ev(events, "crystals_from_player", n=n, card=card, total=s.crystals)


def _draw_to_hand(s: SeasonsState, events: Events, n: int, reason: str) -> None:
    s.hand_size += n
    _ev(events, "draw_to_hand", n=n, reason=reason, hand_size=s.hand_size)


def _random_pick(s: SeasonsState, items: list[str]) -> str:
    rng = Rng(s.rng)
    choice = items[rng.randbelow(len(items))] if len(items) > 1 else items[0]
    s.rng = rng.state
    return choice


def _extreme(s: SeasonsState, events: Events, cards: list[str], best: bool) -> str:
    """S-5.2: the highest (or lowest) printed prestige; ties broken at random among the tied *cards*, so
    two copies of one card are twice as likely as a single other card (seeded). A real tie is said."""
    target = (max if best else min)(PRESTIGE[c] for c in cards)
    if s.edition < 2:  # the first release drew among the distinct titles
        return _random_pick(s, sorted({c for c in cards if PRESTIGE[c] == target}))
    tied = sorted(c for c in cards if PRESTIGE[c] == target)
    choice = _random_pick(s, tied)
    if len(set(tied)) > 1:
        _ev(events, "tie_broken", tied_cards=sorted(set(tied)), card=choice, prestige=target, highest=best,
            copies=tied.count(choice), among=len(tied))
    return choice


def _dummbot_summons(s: SeasonsState, events: Events, card: str, source: str) -> None:
    """A card enters Dummbot's play area; the S-8 column "Dummbot summons it" applies.

    The player's Arcano Leech takes its crystal before every summon of Dummbot's: from its hand, and (edition 3)
    straight into play from a card-draw face (S-8 #33, S-4.5); the editions before, from its hand only."""
    if source == "hand" or s.edition >= 3:
        for _ in range(s.player_area.count(C.LEECH)):
            _give_to_player(s, events, 1, C.LEECH)
    if card == C.ONYS:
        s.player_area.append(card)
        _ev(events, "onys_to_player", card=card, source=source)
        return
    s.summoned.append(card)
    _ev(events, "summoned", card=card, source=source, prestige=PRESTIGE[card], score=s.score)
    if card == C.SYLLAS:
        _ev(events, "player_sacrifices", card=card)
    elif card == C.AMSUG:
        _ev(events, "player_returns_item", card=card)
    elif card == C.ARGOS:
        _ev(events, "player_argos", card=card)
    elif card == C.AIR_ELEMENTAL:
        _ev(events, "player_air", card=card)
    elif card == C.SID:
        s.queue.insert(0, ["sid", "dummbot"])
    elif card in DUMMBOT_ONGOING:
        # After the last change of season Figrim takes its crystal once more; after the last round, nothing more.
        _ev(events, DUMMBOT_ONGOING[card], card=card, last=s.past_end if card == C.FIGRIM else s.over)


def _check_copies(s: SeasonsState, cards: list[str], *, include_hand: bool) -> None:
    """No more copies than the box holds minus those known to be in play (or in Dummbot's hand).

    Discarded copies are never counted (§9.5): the discard pile is shuffled into a new draw pile when the
    draw pile runs out, so a discarded card can come back.
    """
    known = s.summoned + s.player_area + (s.hand_known if include_hand else [])
    for card in set(cards):
        available = COPIES[card] - known.count(card)
        count = cards.count(card)
        if count > available:
            raise RuleError("seasons.too_many_copies", card=card, count=count, available=max(available, 0))


def _card_list(value: Any) -> list[str]:
    """A list of card ids (the bot resolves a typed list before ``apply``)."""
    if not isinstance(value, (list, tuple)):
        raise RuleError("seasons.reveal_count", expected=1, got=0)
    return [card_by_id(v) for v in value]


def _int_arg(args: Params, name: str, default: int | None = None, lo: int | None = None,
             hi: int | None = None) -> int:
    """A whole number (never a typed one: the bot reads forms and options as numbers)."""
    value = args.get(name, default)
    if isinstance(value, bool) or not isinstance(value, int):
        raise RuleError("seasons.bad_number", field=name, value=str(value))
    if (lo is not None and value < lo) or (hi is not None and value > hi):
        raise RuleError("seasons.bad_number", field=name, value=str(value))
    return value


# == Dummbot's die (S-4) ============================================================================
def _resolve_die(s: SeasonsState, face: JSON, events: Events) -> None:
    """S-4: Dummbot's die, after the player's whole turn (S-3.1a). Energy at the rate of the season where
    the token stands now (S-4.1), which a time move in the player's turn may have changed: past the end of
    year 3 that is the winter space (S-9.4)."""
    season = s.token_season
    if s.edition >= 2:
        s.payments = []  # S-8.3: what was assumed paid before Dummbot's die can no longer be corrected
    s.round_season, s.kairn_used = None, 0
    s.prelude_open = s.turn_reported = False
    _ev(events, "dummbot_die", face=face, season=season)
    energy = face["energy"]
    total = sum(energy.values())
    if C.ONYS in s.summoned and (energy.get("water", 0) >= 1 or total >= 2):  # S-8.2
        s.summoned.remove(C.ONYS)
        s.player_area.append(C.ONYS)
        _ev(events, "onys_returned", card=C.ONYS)
    if total and face["transmute"]:  # S-4.2
        _gain(s, events, 4 * total, "transmute", energies=total)
    else:  # S-4.1
        for element, n in energy.items():
            _gain(s, events, n * RATES[season][element], "energy", element=element, energies=n,
                  rate=RATES[season][element], season=season)
    number = face["crystals"]
    if number:  # S-4.3
        _gain(s, events, number, "die")
    for _ in range(face["star"]):  # S-4.4, S-4.7
        _draw_to_hand(s, events, 2 if face["transmute"] else 1, "star")
        for _ in range(s.player_area.count(C.FAIRIES)):
            _give_to_player(s, events, 1, C.FAIRIES)
            _ev(events, "player_gains", n=1, card=C.FAIRIES)
    steps: list[list[Any]] = [["summon_reveal"]] * face["draw"]  # S-4.5
    s.queue[:0] = [list(x) for x in steps] + [["end_round"], ["move", face["dots"]]]
    s.round += 1


# == action handlers ================================================================================
def _do_roll(s: SeasonsState, args: Params, events: Events) -> None:
    """Bot dice: roll the round's two chosen dice (S-1.4, S-3.1)."""
    if s.edition < 2:
        s.payments = []
    rng = Rng(s.rng)
    s.rolled = []
    season = s.dice_season
    for die in s.chosen[season]:
        faces = die_faces(season, die)
        s.rolled.append({"die": die, "face": dict(faces[rng.randbelow(len(faces))])})
    s.rng = rng.state
    _ev(events, "dice_rolled", first_die=s.rolled[0]["die"], first_face=s.rolled[0]["face"],
        second_die=s.rolled[1]["die"], second_face=s.rolled[1]["face"])


def _do_take(s: SeasonsState, args: Params, events: Events) -> None:
    """Bot dice: the player takes a die and plays their turn; Dummbot's die waits for ``end`` (S-3.1a)."""
    index = _int_arg(args, "index", lo=0, hi=1)
    taken, left = s.rolled[index], s.rolled[1 - index]
    _ev(events, "die_taken", die=taken["die"], face=taken["face"], dummbot_die=left["die"],
        dummbot_face=left["face"])
    if s.edition < 2:  # the first release resolved Dummbot's die at once
        s.rolled = None
        _resolve_die(s, canonical(left["face"]), events)
    else:
        s.taken = index


def _do_end(s: SeasonsState, args: Params, events: Events) -> None:
    """Bot dice: the player's turn is over; Dummbot resolves the die left to it (S-3.1a, S-3.2)."""
    left = s.rolled[1 - s.taken]
    s.rolled, s.taken = None, None
    _ev(events, "turn_over")
    _resolve_die(s, canonical(left["face"]), events)


def _do_die(s: SeasonsState, args: Params, events: Events) -> None:
    """Table dice: the face left for Dummbot, one of the faces of the dice rolled at the round's start
    (S-3.2), even if the player's turn moved time since (a face dict; the bot reads what was typed)."""
    raw = args.get("face")
    if raw is None:
        raise RuleError("seasons.face_unreadable", word="")
    if s.edition < 2:
        s.payments = []
    _resolve_die(s, check_face(s, raw), events)


def _do_reveal(s: SeasonsState, args: Params, events: Events) -> None:
    cards = _card_list(args.get("cards"))
    params = s.wait_params
    expected = params["count"]
    if len(cards) != expected:
        raise RuleError("seasons.reveal_count", expected=expected, got=len(cards))
    if s.wait_key == WAIT_SUMMON:
        _check_copies(s, cards, include_hand=True)
        s.wait_key = ""
        _dummbot_summons(s, events, cards[0], "pile")
    elif s.wait_key == WAIT_HAND:
        _check_copies(s, cards, include_hand=False)
        _check_fits_hand(s, cards)
        s.wait_key = ""
        _summon_from_hand(s, events, cards)
    else:
        _check_copies(s, cards, include_hand=False)
        _check_fits_hand(s, cards)
        s.wait_key = ""
        for card in cards:
            _leave_hand(s, card)
            s.discards.append(card)
            _ev(events, "discarded_from_hand", card=card, reason_card=params["card"])
        if params["drawn"] > len(cards):
            _ev(events, "returned_to_hand", count=params["drawn"] - len(cards), hand_size=s.hand_size)


def _check_fits_hand(s: SeasonsState, cards: list[str]) -> None:
    """S-2.4: cards drawn from Dummbot's hand fit what is known of it: those not among the known cards (as a
    multiset) are at most its unknown ones. Games of older editions took any reveal, and replay so."""
    if s.edition < 3:
        return
    missing = list(s.hand_known)  # the known cards not named
    outside = []  # the named cards not known to be there
    for card in cards:
        if card in missing:
            missing.remove(card)
        else:
            outside.append(card)
    if len(outside) > s.hand_unknown:
        raise RuleError("seasons.reveal_not_in_hand", cards=cards, known_cards=list(s.hand_known),
                        missing_cards=missing, outside_cards=outside, outside_count=len(outside),
                        unknown=s.hand_unknown, hand_size=s.hand_size, count=len(cards),
                        need=len(cards) - s.hand_unknown)


def _leave_hand(s: SeasonsState, card: str) -> None:
    s.hand_size -= 1
    s.prelude_open = False  # a card of the prelude's may be gone: its six no longer say what the hand holds
    if card in s.hand_known:
        s.hand_known.remove(card)


def _do_prelude(s: SeasonsState, args: Params, events: Events) -> None:
    """S-2.4: the six cards the prelude gave Dummbot (optional). Nothing has left its hand yet, so these are
    known to be there, beside any card drawn face down since; told again, the new six replace the first."""
    cards = _card_list(args.get("cards"))
    if len(cards) != PRELUDE_HAND:
        raise RuleError("seasons.prelude_count", expected=PRELUDE_HAND, got=len(cards))
    s.hand_known = []  # a prelude told before is replaced, not counted against this one's copies
    _check_copies(s, cards, include_hand=False)
    s.hand_known = cards
    _ev(events, "prelude_told", cards=cards, hand_size=s.hand_size, unknown=s.hand_unknown)


def _turn_under_way(s: SeasonsState, action: str = "time") -> None:
    """A report of the player's own turn (a summon, an activation, a time move). Bot dice (edition 4): refused
    before a die is taken, as a time move is (S-3.1a: the turn begins with the die). Table dice: it says they
    have rolled the round's dice; until Dummbot's die the prompt says to go on, not to roll again."""
    if s.before_take:
        raise RuleError("seasons.take_die_first", action=action)
    if s.wait_key == WAIT_DIE:
        s.turn_reported = True


def _summon_from_hand(s: SeasonsState, events: Events, drawn: list[str]) -> None:
    """S-5.1, S-5.2, S-5.4: choose by difficulty and printed prestige; the rest go back."""
    rest = list(drawn)
    summon: str | None
    discard: str | None = None
    if s.difficulty == "archmage" and len(drawn) == 1:
        summon, discard = (drawn[0], None) if PRESTIGE[drawn[0]] > 0 else (None, drawn[0])
    else:
        summon = _extreme(s, events, rest, best=True)
        if s.difficulty == "archmage" and len(drawn) >= 2:
            rest.remove(summon)
            discard = _extreme(s, events, rest, best=False)
            rest.append(summon)
    s.prelude_open = False
    for card in drawn:
        if card in s.hand_known:
            s.hand_known.remove(card)
    if discard is not None:
        rest.remove(discard)
        s.hand_size -= 1
        s.discards.append(discard)
    if summon is not None:
        rest.remove(summon)
        s.hand_size -= 1
        _dummbot_summons(s, events, summon, "hand")
    if discard is not None:
        _ev(events, "discarded", card=discard, hand_size=s.hand_size)
    s.hand_known.extend(rest)  # the player has seen them: they go back known
    if rest:
        _ev(events, "returned_to_hand", count=len(rest), hand_size=s.hand_size, cards=sorted(rest))


def _do_played(s: SeasonsState, args: Params, events: Events) -> None:
    """S-8: the player summoned a card; the column "Player summons it"."""
    card = card_by_id(args.get("card", ""))
    _turn_under_way(s, "played")
    _check_copies(s, [card], include_hand=True)
    s.player_area.append(card)
    if card == C.SYLLAS:
        if s.summoned:
            victim = _extreme(s, events, s.summoned, best=False)
            s.summoned.remove(victim)
            s.discards.append(victim)
            _ev(events, "dummbot_sacrifices", card=victim, reason_card=card, score=s.score)
        else:
            _ev(events, "nothing_in_play", card=card)
    elif card == C.NARIA:
        _ev(events, "naria", card=card)
        _draw_to_hand(s, events, 1, "naria")
    elif card == C.AMSUG:
        items = [c for c in s.summoned if IS_ITEM[c]]
        if items:
            back = _extreme(s, events, items, best=False)
            s.summoned.remove(back)
            s.hand_size += 1
            s.hand_known.append(back)
            _ev(events, "item_to_hand", card=back, reason_card=card, hand_size=s.hand_size)
        else:
            _ev(events, "no_item_in_play", card=card)
    elif card == C.LEWIS:
        _ev(events, "lewis", card=card)
    elif card == C.ARGOS:
        s.queue.insert(0, ["hand_discard", card, 5, 1])
    elif card == C.AIR_ELEMENTAL:
        s.queue.insert(0, ["hand_discard", card, 3, 2])
    elif card == C.SID:
        s.queue.insert(0, ["sid", "player"])
    elif card in PLAYER_ONGOING:
        _ev(events, PLAYER_ONGOING[card], card=card)
    else:
        _ev(events, "no_effect_on_dummbot", card=card)


def _do_effect(s: SeasonsState, args: Params, events: Events) -> None:
    kind = str(args.get("kind", ""))
    if s.wait_key in CORRECTIONS_ONLY and kind != "cannot_pay":  # S-8.3: only corrections now
        raise RuleError("seasons.only_corrections_now" if s.wait_key == WAIT_SCORE else "seasons.payments_mid_step",
                        kind=kind)
    if kind in _TURN_EFFECTS:
        _turn_under_way(s, "effect")
    if kind == "activate":  # Dummbot's Thieving Fairies
        _require_dummbot_card(s, C.FAIRIES, kind)
        _fairies_take(s, events)
    elif kind == "summon":  # Dummbot's Arcano Leech
        _require_dummbot_card(s, C.LEECH, kind)
        for _ in range(s.summoned.count(C.LEECH)):
            _take_from_player(s, events, 1, C.LEECH)
    elif kind == "kairn":  # S-8 #16: the player's Kairn activation, once per round per Kairn (S-8.6)
        if s.edition >= 2:
            _require_player_card(s, C.KAIRN, kind)
            if s.kairn_used >= s.player_area.count(C.KAIRN):
                raise RuleError("seasons.kairn_once_per_round", card=C.KAIRN)
            s.kairn_used += 1
        lost = min(4, s.crystals)
        s.crystals -= lost
        _ev(events, "crystals_lost", n=lost, card=C.KAIRN, total=s.crystals)
        _activation_for_fairies(s, events, C.KAIRN)
    elif kind == "onys":  # S-8.2: the player passes Damned Soul of Onys to Dummbot; they must hold it (S-8.6)
        if s.edition >= 2:
            _require_player_card(s, C.ONYS, kind)
        if s.summoned.count(C.ONYS) >= COPIES[C.ONYS]:
            raise RuleError("seasons.too_many_copies", card=C.ONYS, count=s.summoned.count(C.ONYS) + 1,
                            available=0)
        if C.ONYS in s.player_area:
            s.player_area.remove(C.ONYS)
        s.summoned.append(C.ONYS)
        _ev(events, "onys_to_dummbot", card=C.ONYS, score=s.score)
        _activation_for_fairies(s, events, C.ONYS)
    elif kind == "cannot_pay":  # S-8.3
        _correct_payment(s, args, events)
    elif kind == "left":  # one of the player's cards left their play area
        card = card_by_id(args.get("card", ""))
        if card not in s.player_area:
            raise RuleError("seasons.card_not_in_play", card=card)
        s.player_area.remove(card)
        _ev(events, "player_card_left", card=card)
    else:
        raise RuleError("seasons.bad_effect", kind=kind, kinds=", ".join(EFFECT_KINDS))


def _fairies_take(s: SeasonsState, events: Events) -> None:
    """S-8 #41, Dummbot's side: the player activated a card: they give Dummbot 1 crystal and it gains 1 more."""
    for _ in range(s.summoned.count(C.FAIRIES)):
        _take_from_player(s, events, 1, C.FAIRIES)
        _gain(s, events, 1, "card", card=C.FAIRIES)


def _activation_for_fairies(s: SeasonsState, events: Events, card: str) -> None:
    """S-8.7 (edition 3): Kairn's activation and passing Onys are activations, so Dummbot's Thieving Fairies take
    their crystal too, after the card's own effect (the Fairies answer the activation), in the same report."""
    if s.edition >= 3 and C.FAIRIES in s.summoned:
        _ev(events, "activation_for_fairies", card=card, reason_card=C.FAIRIES)
        _fairies_take(s, events)


def _correct_payment(s: SeasonsState, args: Params, events: Events) -> None:
    """S-8.3: the player could not pay. The payment of the card named (its latest; edition 3), else the latest one.
    Titus unpaid is sacrificed (S-8 #39). A payment whose crystal Dummbot passed straight on to the player's own
    Figrim or Titus (``_both_sides``) takes that one back too: Dummbot had none to give.

    **Ruling** (README): such a correction "takes back what it paid": the crystal the player did not give is taken
    from Dummbot, and the one Dummbot passed on comes back to it, so its count stays (edition 4; the editions
    before took the first and forgot the second, which showed once a later payment had raised the count)."""
    payment = _payment_named(s, args.get("card") if s.edition >= 3 else None)
    paid = _int_arg(args, "paid", 0, lo=0, hi=payment["n"] - 1) if "paid" in args else 0
    funded = bool(payment.get("funded")) and paid == 0
    back = 0 if funded and s.edition >= 4 else min(payment["n"] - paid, s.crystals)
    s.crystals -= back
    _ev(events, "payment_corrected", n=back, card=payment["card"], total=s.crystals, funded=funded)
    if payment["card"] == C.TITUS and paid == 0 and C.TITUS in s.summoned:
        s.summoned.remove(C.TITUS)
        s.discards.append(C.TITUS)
        _ev(events, "dummbot_titus_sacrificed", card=C.TITUS, score=s.score)
    if funded:
        _ev(events, "funded_payment_back", card=payment["card"], total=s.crystals)
        if payment["card"] == C.TITUS and C.TITUS in s.player_area:
            s.player_area.remove(C.TITUS)
            _ev(events, "player_titus_sacrificed", card=C.TITUS)


def _payment_named(s: SeasonsState, named: Any) -> dict[str, Any]:
    """The payment ``cannot_pay`` corrects (taken off the list): the latest of the card named, or the latest."""
    if not s.payments:
        raise RuleError("seasons.nothing_to_correct")
    if named is None:
        return s.payments.pop()
    card = card_by_id(named)
    for i in range(len(s.payments) - 1, -1, -1):
        if s.payments[i]["card"] == card:
            return s.payments.pop(i)
    raise RuleError("seasons.no_payment_of_card", card=card,
                    cards=list(dict.fromkeys(p["card"] for p in reversed(s.payments))))


def _require_dummbot_card(s: SeasonsState, card: str, kind: str) -> None:
    if card not in s.summoned:
        raise RuleError("seasons.effect_needs_card", kind=kind, card=card)


def _require_player_card(s: SeasonsState, card: str, kind: str) -> None:
    """S-8.6: an effect of the player's card needs that card in their play area as the bot knows it."""
    if card not in s.player_area:
        raise RuleError("seasons.effect_needs_your_card", kind=kind, card=card)


def _do_time(s: SeasonsState, args: Params, events: Events) -> None:
    """S-9.1: the player's cards move the token in their turn, forward or back (S-9.2 … S-9.4)."""
    steps = _int_arg(args, "steps", lo=-3, hi=3)
    if steps == 0:
        raise RuleError("seasons.bad_number", field="steps", value="0")
    _turn_under_way(s)
    if s.edition >= 2:
        if s.position + steps < 0:
            raise RuleError("seasons.time_before_start", steps=steps)
        if s.past_end and steps > 0:
            raise RuleError("seasons.time_past_end", steps=steps)
        s.queue.insert(0, ["move", steps, "time"])
        return
    if steps > 0:
        s.queue.insert(0, ["move", steps])
        return
    month, year = s.month + steps, s.year
    if month < 1:
        month, year = month + 12, year - 1
    if year < 1:
        raise RuleError("seasons.time_before_start", steps=steps)
    if year != s.year:
        _ev(events, "year_back", year=year)
    s.month, s.year = month, year
    _ev(events, "token_moved", steps=steps, year=s.year, month=s.month, season=s.season)


def _do_crystals(s: SeasonsState, args: Params, events: Events) -> None:
    change = _int_arg(args, "change")
    if change == 0:
        raise RuleError("seasons.bad_number", field="change", value="0")
    before = s.crystals
    s.crystals = max(0, s.crystals + change)  # never below 0
    _ev(events, "crystals_corrected", change=s.crystals - before, total=s.crystals, asked=change)


def _do_answer(s: SeasonsState, args: Params, events: Events) -> None:
    """Sid Nightshade: the player's crystal count decides who has strictly the most."""
    theirs = _int_arg(args, "crystals", lo=0)
    side = s.wait_params["side"]
    s.wait_key = ""
    if side == "dummbot" and s.crystals > theirs:
        gained = min(5, theirs)
        s.crystals += gained
        _ev(events, "crystals_from_player", n=gained, card=C.SID, total=s.crystals, assumed=False)  # nothing to correct
    elif side == "player" and theirs > s.crystals:
        _give_to_player(s, events, 5, C.SID)
    else:
        _ev(events, "sid_no_effect", card=C.SID)


def _do_score(s: SeasonsState, args: Params, events: Events) -> None:
    """S-7.3/S-7.4: the player's standard score; strictly greater wins, a tie is a loss."""
    crystals = _int_arg(args, "crystals", lo=0)
    prestige = _int_arg(args, "prestige", 0)
    bonuses = _int_arg(args, "bonuses", 0, lo=0, hi=3)
    hand = _int_arg(args, "hand", 0, lo=0)
    extra = _int_arg(args, "extra", 0)
    s.player_score = crystals + prestige + extra - BONUS_PENALTY[bonuses] - 5 * hand
    s.outcome = "won" if s.player_score > s.score else "lost"
    if s.outcome == "won":
        _ev(events, "game_won", player_score=s.player_score, dummbot_score=s.score)
    else:
        _ev(events, "game_lost", player_score=s.player_score, dummbot_score=s.score)
    _wait(s, WAIT_FINISHED, outcome=s.outcome, player_score=s.player_score, dummbot_score=s.score)


_HANDLERS: dict[str, Callable[[SeasonsState, Params, Events], None]] = {
    "roll": _do_roll, "take": _do_take, "end": _do_end, "die": _do_die, "reveal": _do_reveal, "played": _do_played,
    "effect": _do_effect, "time": _do_time, "crystals": _do_crystals, "answer": _do_answer,
    "score": _do_score, "prelude": _do_prelude,
}

RULES = SeasonsRules()
