"""Seasons games typed into the console with Temporal Boots moves, checked against results worked out by hand
from the rules (S-3.1a, S-3.2, S-5.1, S-6.2, S-7.1, S-7.4, S-9.2 … S-9.4)."""

from __future__ import annotations

import json

from console_session import SIX_CRYSTALS_SEED
from test_bot_console_games import console, exported

from bot.sessions import summary_json
from bot.standin.driver import message_text
from engine.seasons.rules import SeasonsRules

EPHEMERAL = 64


def refusals(items: list[dict]) -> list[str]:
    return ["\n".join(message_text(item)) for item in items if item.get("flags", 0) & EPHEMERAL] + [
        item["error"] for item in items if "error" in item]


def test_s9_2_a_whole_table_dice_game_with_boots_in_japanese(tmp_path):
    """Apprentice, table dice. Every face Dummbot gets gives 6 crystals (no energy, so no rates to apply);
    the positions are months counted from year 1 month 1 = 0. Worked out by hand:

    R1  pos 0 winter. Boots +1 -> 1. Die 6 crystals 3 dots: 6; -> 4 spring: summon 1 of 6: #38 (16). Hand 5.
    R2  pos 4 spring. 6 -> 12; -> 7 summer: summon #1 (6). Hand 4.
    R3  pos 7 summer. Boots -2 -> 5 spring: a change of season backwards summons (S-9.2): #2 (6). Hand 3.
        Die: a summer face (the round's dice, S-3.2), 6 crystals 2 dots: 18; -> 7 summer: summon #3 (6). Hand 2.
    R4  pos 7. 24; -> 10 autumn: summon #4 (6). Hand 1.
    R5  pos 10. 30; -> 13 winter, year 2: summon #5 (4), hand 0; new year: +1 (apprentice, S-6.2). Hand 1.
    R6  pos 13. Boots -2 -> 11 autumn, year 1: summon #6 (9), hand 0. Die (winter's): 36; -> 14 winter,
        year 2 again: a change of season with an empty hand; no second new-year draw (S-9.3).
    R7-R9   pos 14 -> 17 -> 20 -> 23: 42, 48, 54; changes of season with an empty hand.
    R10 pos 23. 60; -> 26 winter, year 3: empty hand; new year: +1. Hand 1.
    R11 pos 26. 66; -> 29 spring: summon #7 (8). Hand 0.
    R12 pos 29. 72; -> 32 summer.
    R13 pos 32. Boots +3 -> 35 autumn (a change, empty hand). Die (summer's): 78; the dots carry the token
        past month 12 of year 3: the last change of season (empty hand), the game ends (S-7.1, S-9.4).
    Dummbot: 78 crystals + 16 + 6 + 6 + 6 + 6 + 4 + 9 + 8 = 139.
    The player: 104 crystals + 40 prestige - 5 (one bonus) = 139: a tie, which Dummbot wins (S-7.4).
    """
    six3, six2 = "/seasons die face:クリスタル6、3点", "/seasons die face:クリスタル6、2点"
    lines = [
        "/seasons start difficulty:apprentice dice:table",
        "/seasons time steps:1", six3, "/seasons reveal cards:38",  # R1
        six3, "/seasons reveal cards:1",  # R2
        "/seasons time steps:-2", "/seasons reveal cards:2", six2, "/seasons reveal cards:3",  # R3
        six3, "/seasons reveal cards:4",  # R4
        six3, "/seasons reveal cards:5",  # R5
        "/seasons time steps:-2", "/seasons reveal cards:6", six3,  # R6
        six3, six3, six3,  # R7-R9
        six3,  # R10
        six3, "/seasons reveal cards:7",  # R11
        six3,  # R12
        "/seasons time steps:3", six3,  # R13
        "/seasons score crystals:104 prestige:40 bonuses:1 hand:0",
        "/game export",
    ]
    items = console(lines, "--lang", "ja", "--db", str(tmp_path / "g.sqlite3"), seed=SIX_CRYSTALS_SEED)
    assert refusals(items) == []
    record = exported(items)
    dummbot = record["state"]["dummbot"]
    assert dummbot["crystals"] == 78 and dummbot["score"] == 139 and dummbot["hand_size"] == 0
    assert dummbot["summoned"] == ["38", "1", "2", "3", "4", "5", "6", "7"]
    assert (record["state"]["year"], record["state"]["month"]) == (3, 12)
    assert record["result"] == {"outcome": "lost", "player_score": 139, "dummbot_score": 139}
    texts = " ".join(part for item in items for part in message_text(item))
    assert "2マス戻します" in texts  # the backward move is said as a move back


def test_s3_1a_bot_dice_take_then_boots_then_end_in_english(tmp_path):
    """Wizard, bot dice, seed 7: the bot chose winter dice 2 and 5 and rolled "2 water, 1 crystal, 2 dots"
    on both (see the first reply). Worked out by hand:

    Take die 2: Dummbot does nothing yet (crystals 0, month 1). Boots +1: month 2, still winter.
    End of turn: Dummbot's die 5, 2 water at winter's rate 1 = 2, plus 1 crystal = 3 (S-4.1, S-4.3); its
    2 dots carry the token from month 2 to month 4: spring, so wizard draws 4 of its 6 cards (S-5.1).
    """
    lines = [
        "/seasons start difficulty:wizard dice:bot",
        "/seasons roll",
        "/seasons end",  # refused: no die taken yet
        "press 1",  # take the first die
        "/seasons time steps:1",
        "/seasons end",
        "/game export",
    ]
    items = console(lines, "--lang", "en", "--db", str(tmp_path / "g.sqlite3"), seed=7)
    refused = refusals(items)
    assert len(refused) == 1 and "take one first" in refused[0]
    rolled = [part for item in items for part in message_text(item) if "Rolled:" in part]
    assert rolled and "“2 water, 1 crystal, 2 dots” and “2 water, 1 crystal, 2 dots”" in rolled[0]
    record = exported(items)
    assert "{'energy'" not in json.dumps(items, ensure_ascii=False)  # faces are said in words, never as data
    state = record["state"]
    assert state["dummbot"]["crystals"] == 3 and (state["year"], state["month"]) == (1, 4)
    assert state["pending"] == "seasons.waiting.reveal_hand" and state["pending_params"] == {"count": 4}


def test_s5_2_the_tie_break_is_said_by_card_name_in_both_languages(tmp_path):
    """Wizard, a season change with two cards of prestige 6 and two lower: the tie is said by name."""
    lines = ["/seasons start difficulty:wizard dice:table", "/seasons time steps:2", "/seasons time steps:1",
             "/seasons reveal cards:1, 41, 23, 24"]
    for lang, names in (("en", ("Amulet of Air (#1)", "Thieving Fairies (#41)")),
                        ("ja", ("大気の護符（#1）", "泥棒フェアリー（#41）"))):
        items = console(lines, "--lang", lang, "--db", str(tmp_path / f"{lang}.sqlite3"), seed=3)
        assert refusals(items) == []
        said = [part for item in items for part in message_text(item)]
        tie = [line for text in said for line in text.splitlines() if names[0] in line and names[1] in line]
        assert len(tie) == 1 and ("highest" in tie[0] or "最も高い" in tie[0]), said[-1]


def test_s9_2_a_whole_bot_dice_game_with_boots_both_ways_typed_into_the_console(tmp_path):
    """Archmage, bot dice: a seeded player who moves time often, forward and back, plays a whole game through
    the console; its export holds exactly the state the engine reaches on its own (replay = live)."""
    from engine.core import Action, Rng
    from engine.seasons import RULES
    from engine.seasons.autoplay import Table, main_action, side_action
    from tests.support.seasons_typed import seasons_console_line

    seed = 8
    step = RULES.new_game({"difficulty": "archmage", "dice": "bot"}, seed)
    table, rng = Table.deal(seed), Rng(seed)
    lines, moves_back = ["/seasons start difficulty:archmage dice:bot"], 0
    while not step.state.finished:
        state = step.state
        action = None
        if "time" in state.waiting.legal and rng.randbelow(100) < 30:
            moves = [n for n in (-3, -2, -1, 1, 2, 3) if state.position + n >= 0 and not (n > 0 and state.past_end)]
            action = Action("time", steps=moves[rng.randbelow(len(moves))])
            moves_back += action.args["steps"] < 0
        action = action or side_action(state, table, rng) or main_action(state, table, rng)
        step = RULES.apply(state, action)
        table.follow(step)
        lines.append(seasons_console_line(action, "en"))
    assert moves_back >= 3
    lines.append("/game export")
    items = console(lines, "--lang", "en", "--db", str(tmp_path / "g.sqlite3"), seed=seed)
    assert refusals(items) == []
    record = exported(items)
    assert record["state"] == summary_json(step.state.summary())
    assert record["result"] == step.state.result().to_json(SeasonsRules.result_names)
