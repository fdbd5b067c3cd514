"""Every bench runs in its quickest mode and prints its headings. No timing is checked: figures belong
in bench/'s output, not in tests."""

from __future__ import annotations

import sys
from pathlib import Path

import pytest

# bench/ is not an installed package: make the checkout importable however pytest was started.
ROOT = str(Path(__file__).resolve().parents[2])
if ROOT not in sys.path:
    sys.path.insert(0, ROOT)

from bench.__main__ import BENCHES, main, run  # noqa: E402

HEADINGS = {
    "seasons": ["machine:", "actions applied per second", "resume a", "calibration"],
    "volfyirion": ["Volfyirion engine bench", "attacks resolved", "danger meter"],
    "images": ["machine:", "picture", "seasons typical", "volfyirion crowded"],
    "bot": ["machine:", "Commands per second through the stand-in", "Latency, dispatch to answered",
            "What durability costs", "The bare commit on the database", "Databases side by side", "Resume: the first command", "Bytes per action",
            "durable no-op p50 (its floor)",
            "Memory per active game", "Startup: bot created to ready"],
    "path": ["machine:", "One command at 1 channel, step by step", "the stand-in has the answer", "durable step",
             "The no-op with memory stirred between its commands"],
    "store": ["machine:", "Store writes per second, SQLite against PostgreSQL", "SQLite", "PostgreSQL",
              "The WAL's checkpoint schedule", "python -m bot check: integrity check, then every game replayed"],
    "stack": ["machine:", "Issue 26's guard rails: this branch against the commit before it",
              "store, 200 writers: appends/s", "start, "],
    "stop": ["machine:", "SIGTERM to exit", "logging in", "connecting", "connected", "reconnecting"],
    "table": ["machine:", "At the table: what a player types", "lines typed after the start", "selects chosen",
              "forms submitted", "messages posted in the channel", "most messages with live controls",
              "Seasons, table dice", "Seasons, bot dice", "Volfyirion"],
}


@pytest.mark.parametrize("name", BENCHES)
def test_each_bench_prints_its_headings_in_quick_mode(name, capsys):
    run(name, quick=True)
    out = capsys.readouterr().out
    missing = [h for h in HEADINGS[name] if h not in out]
    assert not missing, f"bench_{name} did not print {missing}:\n{out}"


def test_the_runner_runs_only_what_is_asked_and_reports_failures(capsys, monkeypatch):
    ran = []
    monkeypatch.setattr("bench.__main__.run", lambda name, quick: ran.append((name, quick)))
    assert main(["--quick", "--only", "images", "--only", "volfyirion"]) == 0
    assert ran == [("images", True), ("volfyirion", True)]

    def broken(name, quick):
        raise RuntimeError("boom")

    monkeypatch.setattr("bench.__main__.run", broken)
    assert main(["--only", "seasons"]) == 1
    assert "boom" in capsys.readouterr().err


def test_the_database_targets_come_from_the_command_line(monkeypatch):
    import bench.bench_bot as bench_bot

    monkeypatch.setattr("bench.__main__.run", lambda name, quick: None)
    monkeypatch.setattr(bench_bot, "TARGETS", bench_bot.TARGETS)
    assert main(["--quick", "--only", "bot", "--db", "sqlite", "--db", "postgresql://bench@localhost/bench"]) == 0
    assert bench_bot.TARGETS == ("sqlite", "postgresql://bench@localhost/bench")
    assert [bench_bot.target_label(t) for t in bench_bot.TARGETS] == ["sqlite", "postgresql"]


def test_quick_counts_are_restored_after_the_run():
    import bench.bench_seasons as seasons
    from bench.__main__ import quick_counts

    before = (seasons.RUNS, seasons.GAMES, seasons.calibration)
    with quick_counts(seasons):
        assert seasons.RUNS == 1 and seasons.calibration is not before[2]
    assert (seasons.RUNS, seasons.GAMES, seasons.calibration) == before


def test_percentile_is_an_observed_value_by_nearest_rank():
    from bench.common import percentile

    values = [5.0, 1.0, 4.0, 2.0, 3.0]
    assert percentile(values, 50) == 3.0
    assert percentile(values, 99) == 5.0
    assert percentile(values, 1) == 1.0
    assert percentile(list(range(1, 101)), 99) == 99


def test_median_of_calls_the_measure_runs_times(capsys):
    from bench.common import median_of, print_table

    calls = iter([3.0, 1.0, 2.0])
    assert median_of(lambda: next(calls), 3) == 2.0
    print_table("Title", ["name", "value"], [["a", 1234.5], ["bb", 0.25]], ["why"])
    lines = capsys.readouterr().out.splitlines()
    # Text left-aligned, numbers right-aligned under their heading, thousands separated, notes below.
    assert lines == ["", "Title", "  name  value", "  ----  -----", "  a     1,234", "  bb     0.25", "  note: why"]
