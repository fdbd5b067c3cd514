"""Issue 33's Seasons points in the engine: every change of Dummbot's crystals is said with the count its sorcerer
token moves to; "I could not pay" for a payment Dummbot passed straight on keeps Dummbot's count (S-8.3, the
README's ruling); with bot dice a card or an effect of the player's turn waits for the die they take (S-3.1a);
undoing a reveal from Dummbot's hand takes back the report, not the random draw (S-5.1). Games of edition 3
replay as they were played."""

from __future__ import annotations

import itertools

import pytest
from seasons_helpers import act, die, keys, new, params

from engine.core import Action, GameRecord, RuleError
from engine.seasons import RULES, parse_face
from engine.seasons import cards as C
from engine.seasons.autoplay import play_game

# The issue's reproduction (seed 1, wizard, table dice): both sides' Titus, Dummbot at 0, the Leech's crystal after.
ISSUE = [Action("die", face=parse_face("draw, 1 dot")), Action("reveal", cards=["33"]), Action("played", card="39"),
         Action("die", face=parse_face("draw, 1 dot")), Action("reveal", cards=["39"]), Action("effect", kind="summon")]

# The events that change Dummbot's crystals; each carries the count after it (``total``).
CRYSTAL_EVENTS = {"crystals_from_energy", "crystals_from_transmute", "crystals_from_die", "crystals_from_card",
                  "crystals_from_player", "crystals_to_player", "crystals_lost", "crystals_corrected",
                  "payment_corrected", "funded_payment_back"}


def _issue(edition: int | None = None) -> GameRecord:
    options = {"difficulty": "wizard", "dice": "table", **({"edition": edition} if edition else {})}
    record = GameRecord(RULES, options, 1)
    for action in ISSUE:
        record.push(action)
    return record


# -- every change of the crystals, with its square (S-1.2) ---------------------------------------------------------

@pytest.mark.parametrize("dice", ["bot", "table"])
@pytest.mark.parametrize("difficulty", ["apprentice", "wizard", "archmage"])
def test_s1_2_every_change_of_dummbots_crystals_names_the_count_its_token_moves_to(difficulty, dice):
    """Whole random games with corrections and the player's cards: in every step, each event that changes the count
    says the count after it, in order, and the last one is the state's count."""
    changed = 0
    for seed in range(6):
        _, steps = play_game(difficulty, dice, seed)
        for before, step in itertools.pairwise(steps):
            count = before.state.crystals
            for event in step.events:
                name = event.key.rpartition(".")[2]
                if name in CRYSTAL_EVENTS and event.key.startswith("seasons.event."):
                    assert "total" in event.params, event
                    changed += event.params["total"] != count
                    count = event.params["total"]
            assert count == step.state.crystals, [e.key for e in step.events]
    assert changed > 50


# -- "I could not pay" for a payment passed straight on (S-8.3, the README's ruling) -------------------------------

def test_s8_3_cannot_pay_titus_passed_on_takes_back_what_it_paid():
    """Seed 1: Dummbot at 0 pays the player's Titus with the player's own crystal; the Leech's crystal raises it to 2
    then; "I could not pay" for Titus takes that crystal (2 → 1) and takes back the one passed on (the player's own
    count goes down): Dummbot keeps 1 — the Leech's. The issue's engine gave 0."""
    record = _issue()
    assert record.state.crystals == 1 and record.state.payments[0]["funded"] is True
    step = record.push(Action("effect", kind="cannot_pay", card="39"))
    assert step.state.crystals == 1
    assert params(step, "payment_corrected") == [{"n": 0, "card": C.TITUS, "total": 1, "funded": True}]
    assert params(step, "funded_payment_back") == [{"card": C.TITUS, "total": 1}]
    assert C.TITUS not in step.state.summoned and C.TITUS not in step.state.player_area  # both sacrificed
    assert GameRecord.from_json(RULES, record.to_json()).state == record.state


def test_s8_3_an_edition_3_game_replays_its_correction_as_it_was_played():
    step = _issue(edition=3).push(Action("effect", kind="cannot_pay", card="39"))
    assert step.state.crystals == 0 and params(step, "payment_corrected")[0]["n"] == 1


@pytest.mark.parametrize(("edition", "kept"), [(4, 2), (3, 1)])
def test_s8_3_cannot_pay_figrim_passed_on_keeps_the_count_later_payments_raised(edition, kept):
    """Both Figrim at a change of season with Dummbot at 0; the Leech's crystal and a correction raise it to 2; "I
    could not pay" for Figrim leaves 2 (edition 3: 1, as the issue found)."""
    state = new(month=3, crystals=0, hand_size=0, summoned=[C.FIGRIM, C.LEECH], player_area=[C.FIGRIM])
    state.edition = edition
    step = act(state, "time", steps=1)
    assert params(step, "both_sides_order") == [{"card": C.FIGRIM, "n": 1}]
    step = act(act(step.state, "effect", kind="summon").state, "crystals", change=1)
    assert step.state.crystals == 2
    back = act(step.state, "effect", kind="cannot_pay", card="11")
    assert back.state.crystals == kept and "funded_payment_back" in keys(back)


def test_s8_3_cannot_pay_with_nothing_left_to_take_says_so():
    """A payment not passed on, corrected when Dummbot has no crystal left: nothing is taken, n is 0, not funded."""
    state = new(crystals=0, summoned=[C.LEECH])
    step = act(act(state, "effect", kind="summon").state, "crystals", change=-1)
    back = act(step.state, "effect", kind="cannot_pay")
    assert params(back, "payment_corrected") == [{"n": 0, "card": C.LEECH, "total": 0, "funded": False}]


# -- bot dice: the player's turn begins with the die they take (S-3.1a) ---------------------------------------------

@pytest.mark.parametrize("action", [Action("played", card="10"), Action("effect", kind="summon"),
                                    Action("effect", kind="kairn")])
def test_s3_1a_with_bot_dice_a_turn_report_before_a_die_is_taken_is_refused(action):
    state = new(dice="bot", crystals=5, summoned=[C.LEECH], player_area=[C.KAIRN])
    for waiting in (state, act(state, "roll").state):  # before the roll, and rolled but not taken
        assert waiting.reportable_effects() == []
        with pytest.raises(RuleError) as err:
            RULES.apply(waiting, action)
        assert err.value.key == "seasons.take_die_first" and err.value.params == {"action": action.type}
    taken = act(act(state, "roll").state, "take", index=0).state
    assert taken.reportable_effects() == ["summon", "kairn"]
    assert RULES.apply(taken, action).state != taken


def test_s3_1a_with_bot_dice_corrections_stay_open_before_a_die_is_taken():
    state = new(dice="bot", crystals=5, summoned=[C.LEECH])
    state.payments = [{"card": C.LEECH, "n": 1}]
    assert act(state, "crystals", change=-1).state.crystals == 4
    assert act(state, "effect", kind="cannot_pay").state.crystals == 4


def test_s3_1a_an_edition_3_bot_dice_game_still_takes_a_report_before_the_die():
    state = new(dice="bot", edition=3)
    assert act(state, "played", card="10").state.player_area == ["10"]


# -- undoing a reveal from Dummbot's hand (S-5.1: one random draw) ---------------------------------------------------

def test_s5_1_undoing_a_reveal_at_a_new_year_keeps_the_draw_and_asks_for_the_same_cards():
    """Wizard, month 12 → year 2: the reveal summons, puts the rest back, then the new year draws 2 face down. Its
    undo puts the new year's cards back, the summoned card and the rest with the cards drawn, and says to tell the
    same 4 cards again (year 2 then begins again); told again, they give the same summon."""
    asked = die(new(month=12, crystals=0, hand_size=6), "2 air, 3 crystals, 1 dot").state
    assert asked.wait_key == "seasons.waiting.reveal_hand" and asked.wait_params["count"] == 4
    reveal = Action("reveal", cards=["1", "5", "10", "23"])
    told = RULES.apply(asked, reveal)
    assert keys(told)[-2:] == ["new_year", "draw_to_hand"]
    said = [(e.key.rpartition(".")[2], e.params) for e in RULES.reversal(asked, reveal, told)]
    assert said == [("draw_to_hand", {"n": 2}), ("new_year", {"year": 2}),
                    ("returned_to_drawn", {"count": 3, "cards": ["1", "23", "5"]}),
                    ("player_sacrifices", {"card": C.SYLLAS}), ("summoned_to_drawn", {"card": C.SYLLAS}),
                    ("reveal_again", {"count": 4, "year": 2})]
    assert RULES.apply(asked, reveal).state == told.state  # the same cards told again: the same summon


def test_s5_1_undoing_a_reveal_for_the_demon_of_argos_keeps_its_draw():
    """Demon of Argos: 5 drawn from Dummbot's 6, the player discards 1; its undo puts it and the 4 put back with the
    cards drawn, to be told again."""
    record = GameRecord(RULES, {"difficulty": "wizard", "dice": "table"}, 1)
    assert record.push(Action("played", card=C.ARGOS)).waiting.key == "seasons.waiting.reveal_discard"
    record.push(Action("reveal", cards=["5"]))
    undone = record.pop()
    said = [(e.key.rpartition(".")[2], e.params) for e in record.reversal(undone)]
    assert said == [("returned_to_drawn", {"count": 4, "cards": []}), ("discarded_to_drawn", {"card": "5"}),
                    ("reveal_again", {"count": 5, "reason_card": C.ARGOS})]


def test_s5_2_a_tie_among_drawn_cards_is_drawn_per_tied_card():
    step = die(new("archmage", month=3, hand_size=4), "2 water, 3 crystals, 1 dot")
    told = act(step.state, "reveal", cards=["1", "2", "3", "4"])
    ties = params(told, "tie_broken")
    assert [t["highest"] for t in ties] == [True, False] and ties[0]["among"] == 4 and ties[1]["among"] == 3
