"""bench_reply's guard rail against the tree before issue 35: the baseline's embed reply is built by that tree
(taken from git history, run in a fresh interpreter), beside this tree's V2 and embed replies; without git or
that commit it says so."""

from __future__ import annotations

import shutil
import subprocess

import pytest

from bench import bench_reply


def _has_commit() -> bool:
    if shutil.which("git") is None:
        return False
    found = subprocess.run(["git", "cat-file", "-e", f"{bench_reply.BASELINE_COMMIT}^{{commit}}"],
                           cwd=bench_reply.ROOT, capture_output=True)
    return found.returncode == 0


@pytest.mark.skipif(not _has_commit(), reason="no git history here: the bench says the baseline is unavailable")
def test_the_baseline_tree_builds_its_own_embed_reply_beside_this_trees_v2(capsys: pytest.CaptureFixture[str]) -> None:
    bench_reply.against_baseline(bench_reply.BASELINE_COMMIT, quick=True)
    out = capsys.readouterr().out
    for side in ("Components V2, this tree", f"embed and View, {bench_reply.BASELINE_COMMIT}",
                 "embed and View, this tree"):
        rows = [line for line in out.splitlines() if line.strip().startswith(side)]
        assert [row.split()[-4] for row in rows] == ["compact", "full"], out  # a median and a p99 each


def test_without_the_commit_the_bench_says_so(capsys: pytest.CaptureFixture[str]) -> None:
    bench_reply.against_baseline("0" * 40, quick=True)
    assert "baseline unavailable" in capsys.readouterr().out


def test_a_probe_times_each_reply_of_its_shape() -> None:
    found = bench_reply.run_probe(bench_reply.ROOT, "v2", quick=True)
    assert set(found) == {"compact", "full"}
    assert found["compact"]["replies"] == found["full"]["replies"] > 100
    assert 0 < found["compact"]["median"] <= found["compact"]["p99"]
