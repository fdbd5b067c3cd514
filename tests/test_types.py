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
    "danger_report(...)": "TypedDict(engine.volfyirion.whatif.DangerReport,",
    "next_attack(...)": "TypedDict(engine.volfyirion.house.NextAttack,",
}
PROGRAM = """
from engine.core import Action, GameRecord
from engine.seasons import RULES as SEASONS
from engine.seasons.forecast import forecast
from engine.volfyirion import RULES as VOLFYIRION
from engine.volfyirion.house import next_attack
from engine.volfyirion.whatif import danger_report

seasons = GameRecord(SEASONS, {"difficulty": "wizard", "dice": "bot"}, 1)
volfyirion = GameRecord(VOLFYIRION, {"difficulty": "normal"}, 1)
reveal_type(seasons.state)
reveal_type(seasons.push(Action("roll")).state)
reveal_type(volfyirion.last.state)
reveal_type(volfyirion.state.result())
reveal_type(seasons.state.to_json())
reveal_type(forecast(seasons.state))
reveal_type(danger_report(volfyirion.state))
reveal_type(next_attack(volfyirion.state))
"""


def test_the_bot_sees_each_games_own_types_not_any(monkeypatch, tmp_path):
    program = tmp_path / "holder.py"
    program.write_text(PROGRAM)
    monkeypatch.chdir(ROOT)  # the program imports the engine from the repository
    out, err, _ = api.run(["--config-file", "pyproject.toml", "--no-error-summary", str(program)])
    assert not err, err
    revealed = re.findall(r'Revealed type is "(.*)"', out)
    assert len(revealed) == len(EXPECTED), revealed
    for (what, expected), got in zip(EXPECTED.items(), revealed, strict=True):
        assert got.startswith(expected), (what, got)
        assert "Any" not in got, (what, got)
