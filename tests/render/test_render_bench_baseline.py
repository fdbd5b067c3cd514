"""bench_images takes its baseline (the pictures before they were split per game) from git history at bench
time, not from a frozen copy; without git or that commit it says so and still measures the pictures."""

from __future__ import annotations

import shutil
import subprocess
import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[2]
if str(ROOT) not in sys.path:
    sys.path.insert(0, str(ROOT))

from bench import bench_images  # noqa: E402


def _has_commit() -> bool:
    if shutil.which("git") is None:
        return False
    found = subprocess.run(["git", "cat-file", "-e", f"{bench_images.BASELINE_COMMIT}^{{commit}}"], cwd=ROOT,
                           capture_output=True)
    return found.returncode == 0


@pytest.mark.skipif(not _has_commit(), reason="no git history here: the bench prints that the baseline is unavailable")
def test_the_baseline_is_the_old_renderer_from_git_loaded_for_the_run_only():
    with bench_images.baseline_module() as previous:
        assert previous is not None and previous.__name__ in sys.modules
        png = previous.seasons_board(bench_images.SEASONS_TYPICAL)
        assert png.startswith(b"\x89PNG") and callable(previous.clear_layer_caches)
        name = previous.__name__
    assert name not in sys.modules


def test_without_the_commit_the_bench_says_the_baseline_is_unavailable(monkeypatch, capsys):
    monkeypatch.setattr(bench_images, "BASELINE_COMMIT", "0" * 40)
    with bench_images.baseline_module() as previous:
        assert previous is None
    bench_images.main(quick=True)  # the quick cases: every path a picture takes, once
    out = capsys.readouterr().out
    assert "baseline unavailable (no git history)" in out and "seasons typical" in out
    assert "volfyirion first of a game" in out
