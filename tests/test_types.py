"""The engine/bot boundary is typed (issue 24): what a game's rules hand the bot is the game's own state and its own
report types, never ``Any``; the type checker that ``make test`` runs says so about a few lines a bot would write."""

from __future__ import annotations

import re
from pathlib import Path

from mypy import api

ROOT = Path(__file__).resolve().parent.parent

# What the bot holds, one ``reveal_type`` each, with the type the checker must see.
EXPECTED = {
    "seasons.state": "engine.seasons.state.SeasonsState",
    "seasons.push(...).state": "engine.seasons.state.SeasonsState",
    "volfyirion.last.state": "engine.volfyirion.state.VolfState",
    "volfyirion.state.result()": "engine.core.result.Result | None",
    "seasons.state.to_json()": "dict[str, None | bool | int | float | str | list[...] | dict[str, ...]]",
    "forecast(...)": "TypedDict(engine.seasons.forecast.Forecast,",
    "danger_meter(...)": "engine.volfyirion.whatif.DangerMeter",
    "next_attack(...)": "engine.volfyirion.house.NextAttack",
}
PROGRAM = """
from engine.core import Action, GameRecord
from engine.seasons import RULES as SEASONS
from engine.seasons.forecast import forecast
from engine.volfyirion import RULES as VOLFYIRION
from engine.volfyirion.house import next_attack
from engine.volfyirion.whatif import danger_meter

seasons = GameRecord(SEASONS, {"difficulty": "wizard", "dice": "bot"}, 1)
volfyirion = GameRecord(VOLFYIRION, {"difficulty": "normal"}, 1)
reveal_type(seasons.state)
reveal_type(seasons.push(Action("roll")).state)
reveal_type(volfyirion.last.state)
reveal_type(volfyirion.state.result())
reveal_type(seasons.state.to_json())
reveal_type(forecast(seasons.state))
reveal_type(danger_meter(volfyirion.state))
reveal_type(next_attack(volfyirion.state))
"""


# What the shared bot and each game's package hold of the engine: the shared bot sees the ``State`` protocol and
# a summary it only passes on (``object``); a game's plugin, UI and records are typed with the game's own.
BOT_EXPECTED = {
    "SeasonsGame().rules()": "engine.core.record.Rules[engine.seasons.state.SeasonsState]",
    "VolfyirionGame().rules()": "engine.core.record.Rules[engine.volfyirion.state.VolfState]",
    "SeasonsGame().ui()":
        "bot.games.plugin.GameUI[engine.seasons.summary.SeasonsSummary, engine.seasons.state.SeasonsState]",
    "VolfyirionGame().ui()":
        "bot.games.plugin.GameUI[engine.volfyirion.summary.VolfyirionSummary, engine.volfyirion.state.VolfState]",
    "SeasonsGame().state_fields": "def (lang: str, summary: engine.seasons.summary.SeasonsSummary)",
    "VolfyirionGame().progress": "def (lang: str, summary: engine.volfyirion.summary.VolfyirionSummary) -> str",
    "SeasonsGame().ui().buttons": "def (step: engine.core.model.Step[engine.seasons.state.SeasonsState], ",
    "played.step": "engine.core.model.Step[engine.core.model.State]",
    "played.record": "engine.core.record.GameRecord[engine.core.model.State]",
    "played.state_summary()": "object",
    "own_record(played.record, SeasonsState).state": "engine.seasons.state.SeasonsState",
    "own_record(played.record, VolfState).last": "engine.core.model.Step[engine.volfyirion.state.VolfState]",
    "summary_json(...)": "dict[str, None | bool | int | float | str | list[...] | dict[str, ...]]",
    "controller.service": "bot.sessions.GameService",  # every service call of the controller is typed
}
BOT_PROGRAM = """
from engine.seasons import SeasonsState
from engine.volfyirion.state import VolfState

from bot.commands.common import own_record
from bot.controller import Controller
from bot.games.seasons import SeasonsGame
from bot.games.volfyirion import VolfyirionGame
from bot.sessions import Played, summary_json


def held(played: Played, controller: Controller) -> None:
    reveal_type(SeasonsGame().rules())
    reveal_type(VolfyirionGame().rules())
    reveal_type(SeasonsGame().ui())
    reveal_type(VolfyirionGame().ui())
    reveal_type(SeasonsGame().state_fields)
    reveal_type(VolfyirionGame().progress)
    reveal_type(SeasonsGame().ui().buttons)
    reveal_type(played.step)
    reveal_type(played.record)
    reveal_type(played.state_summary())
    reveal_type(own_record(played.record, SeasonsState).state)
    reveal_type(own_record(played.record, VolfState).last)
    reveal_type(summary_json(played.state_summary()))
    reveal_type(controller.service)
"""


def revealed_types(program_text: str, monkeypatch, tmp_path) -> list[str]:
    """What mypy, run with the project's configuration, reveals in ``program_text``."""
    program = tmp_path / "holder.py"
    program.write_text(program_text)
    monkeypatch.chdir(ROOT)  # the program imports the engine and the bot from the repository
    out, err, _ = api.run(["--config-file", "pyproject.toml", "--no-error-summary", str(program)])
    assert not err, err
    return re.findall(r'Revealed type is "(.*)"', out)


def check_revealed(expected: dict[str, str], revealed: list[str]) -> None:
    assert len(revealed) == len(expected), revealed
    for (what, want), got in zip(expected.items(), revealed, strict=True):
        assert got.startswith(want), (what, got)
        assert "Any" not in got, (what, got)


def test_the_bot_sees_each_games_own_types_not_any(monkeypatch, tmp_path):
    check_revealed(EXPECTED, revealed_types(PROGRAM, monkeypatch, tmp_path))


def test_each_game_package_reads_its_own_state_and_summary_the_shared_bot_no_any(monkeypatch, tmp_path):
    check_revealed(BOT_EXPECTED, revealed_types(BOT_PROGRAM, monkeypatch, tmp_path))
