"""Every bench runs in its quickest mode and prints its headings. No timing is checked: figures belong
in bench/'s output, not in tests."""

from __future__ import annotations

import pytest

from bench.__main__ import BENCHES, main, run

HEADINGS = {
    "seasons": ["machine:", "actions applied per second", "resume a", "calibration"],
    "volfyirion": ["Volfyirion engine bench", "attacks resolved", "danger meter"],
    "images": ["machine:", "picture", "seasons typical", "volfyirion crowded"],
    "bot": ["machine:", "Commands per second through the stand-in", "Latency, dispatch to answered",
            "What durability costs", "Resume: the first command", "Bytes per action",
            "Memory per active game", "Startup: bot created to ready"],
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


def test_quick_counts_are_restored_after_the_run():
    import bench.bench_seasons as seasons
    from bench.__main__ import quick_counts

    before = (seasons.RUNS, seasons.GAMES, seasons.calibration)
    with quick_counts(seasons):
        assert seasons.RUNS == 1 and seasons.calibration is not before[2]
    assert (seasons.RUNS, seasons.GAMES, seasons.calibration) == before
