"""The forecast simulator: seeded, sensible, and in agreement with the real engine on average."""

from __future__ import annotations

import pytest
from seasons_helpers import act, new

from engine.seasons import RULES
from engine.seasons.autoplay import final_dummbot_score, play_game
from engine.seasons.forecast import calibration, forecast


def test_forecast_is_seeded():
    state = RULES.new_game({"difficulty": "wizard", "dice": "bot"}, 4).state
    assert forecast(state, 500, seed=3) == forecast(state, 500, seed=3)
    assert forecast(state, 500, seed=3) != forecast(state, 500, seed=4)
    result = forecast(state, 500, seed=3)
    assert result["p10"] <= result["mean"] <= result["p90"] and result["samples"] == 500


def test_forecast_of_a_finished_game_is_its_score():
    _, steps = play_game("archmage", "table", 6)
    state = steps[-1].state
    assert forecast(state, 100)["mean"] == state.score


def test_forecast_counts_what_dummbot_already_has():
    rich = forecast(new(crystals=50, summoned=["38"]), 2000, seed=1)["mean"]
    poor = forecast(new(), 2000, seed=1)["mean"]
    assert 60 < rich - poor < 72  # 66 points already banked, a card less in the pile


def test_forecast_mid_round_states():
    _, steps = play_game("wizard", "bot", 12, extras=False)
    for step in steps[:-1]:
        result = forecast(step.state, 50, seed=2)
        assert result["mean"] >= step.state.crystals


@pytest.mark.parametrize("difficulty", ["apprentice", "wizard", "archmage"])
def test_simulator_agrees_with_the_engine_on_average(difficulty):
    engine = [final_dummbot_score(difficulty, "table", seed) for seed in range(120)]
    engine_mean = sum(engine) / len(engine)
    simulated = calibration(difficulty, 3000, seed=1)
    assert abs(simulated["mean"] - engine_mean) < 0.06 * engine_mean
    assert simulated["p10"] < simulated["mean"] < simulated["p90"]


def test_calibration_orders_the_difficulties():
    means = [calibration(d, 2000, seed=5)["mean"] for d in ("apprentice", "wizard", "archmage")]
    assert means == sorted(means)


def test_forecast_from_a_bot_dice_roll_pending():
    state = act(RULES.new_game({"dice": "bot"}, 2).state, "roll").state
    assert forecast(state, 200, seed=1)["mean"] > 0
