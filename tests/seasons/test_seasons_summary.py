"""The typed Seasons summary (issue 24): frozen, read by attribute, its closed sets StrEnums, its JSON the export's
``state`` as it always was; the rules the bot used to recompute — which cards a reveal can name, the final scores'
breakdown — given by the engine."""

from __future__ import annotations

import dataclasses
import json

import pytest
from seasons_helpers import act, new

from engine.core import Action, GameRecord
from engine.seasons import RULES
from engine.seasons.autoplay import play_game
from engine.seasons.cards import CATALOG, COPIES
from engine.seasons.summary import (
    DiceMode,
    Difficulty,
    DummbotScore,
    Pending,
    PlayerScore,
    Season,
    SeasonsSummary,
    final_scores,
)

RULES_IDS = CATALOG.ids()


@pytest.mark.parametrize(("dice", "seed"), [("table", 3), ("bot", 4)])
def test_every_summary_of_a_whole_game_goes_to_json_and_back(dice, seed):
    _actions, steps = play_game("archmage", dice, seed, prelude=dice == "table")
    for step in steps:
        summary = step.state.summary()
        data = summary.to_json()
        assert json.loads(json.dumps(data)) == data  # plain JSON: what the export writes
        assert SeasonsSummary.from_json(data) == summary
    assert steps[-1].state.summary().result is not None and steps[-1].state.summary().game_over


def test_the_summary_is_frozen_and_its_closed_sets_are_their_strings():
    summary = new(difficulty="apprentice", dice="bot").summary()
    with pytest.raises(dataclasses.FrozenInstanceError):
        summary.year = 2  # type: ignore[misc]
    assert (summary.season, summary.difficulty, summary.dice, summary.pending) == (
        Season.WINTER, Difficulty.APPRENTICE, DiceMode.BOT, Pending.ROLL)
    assert summary.difficulty == "apprentice" and f"word.{summary.dice}" == "word.bot"  # locale keys stay
    assert isinstance(summary.dummbot.summoned, tuple) and isinstance(summary.round_dice, tuple)


def test_an_older_shorter_summary_takes_the_defaults_of_the_fields_added_since():
    older = {"year": 2, "month": 7, "difficulty": "wizard", "dice": "table",
             "dummbot": {"crystals": 4, "hand_size": 3, "summoned": ["1"], "score": 10}}
    summary = SeasonsSummary.from_json(older)
    assert (summary.season, summary.dice_season, summary.pending) == (Season.SUMMER, Season.SUMMER, Pending.DIE)
    assert summary.dummbot.hand_known == () and summary.dummbot.hand_unknown == 3 and summary.dummbot.prestige == 6


def test_s2_4_a_reveal_from_the_hand_offers_the_known_cards_first_and_a_summon_only_the_unseen():
    state = new(hand_known=["12", "12", "5"], summoned=["5"], discards=["1"], player_area=["1", "2"])
    seen = {"12": 2, "5": 2, "1": 2, "2": 1}
    # S-4, S-5: a card is offered while the box has a copy the bot has not seen somewhere.
    offered = [c for c in RULES_IDS if COPIES[c] > seen.get(c, 0)]
    for pending in (Pending.REVEAL_HAND, Pending.REVEAL_DISCARD):
        state.wait_key = pending
        found = state.summary().reveal_candidates(25)
        assert found[:3] == [("12", True), ("12", True), ("5", True)]  # every known copy, each once (S-2.4)
        assert [c for c, _ in found[3:]] == offered[:22] and not any(known for _, known in found[3:])
    state.wait_key = Pending.REVEAL_SUMMON
    assert state.summary().reveal_candidates(25) == [(c, False) for c in offered[:25]]
    assert state.summary().reveal_candidates(2) == [(c, False) for c in offered[:2]]


def test_s7_2_the_final_scores_breakdown_comes_from_the_engine():
    actions, _steps = play_game("wizard", "table", 5)
    record = GameRecord.replay(RULES, {"difficulty": "wizard", "dice": "table"}, 5, actions)
    state = record.state
    parts = final_scores(state.summary(), record.actions)
    bot, mine = parts["dummbot"], parts["player"]
    assert isinstance(bot, DummbotScore) and isinstance(mine, PlayerScore)
    assert bot.crystals + bot.prestige == state.score and bot.card_count == len(state.summoned)
    total = mine.crystals + mine.prestige + mine.extra - mine.bonus_penalty - 5 * mine.hand
    assert total == state.player_score  # §9.4: the penalties the rules take


def test_s7_1_before_the_final_score_only_dummbots_side_is_known():
    step = act(new(), "crystals", change=3)
    parts = final_scores(step.state.summary(), [Action("crystals", change=3)])
    assert set(parts) == {"dummbot"} and parts["dummbot"] == DummbotScore(crystals=3, prestige=0, card_count=0)
