"""A small disk of its own for the full-disk tests: a tmpfs, mounted where the process may mount one."""

from __future__ import annotations

import subprocess
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path

import pytest


@contextmanager
def tmpfs(mount: Path, size: str = "2m") -> Iterator[Path]:
    """A tmpfs of ``size`` at ``mount`` (made), unmounted afterwards; the test is skipped where none can be mounted
    (only root may, in a container)."""
    mount.mkdir()
    done = subprocess.run(["mount", "-t", "tmpfs", "-o", f"size={size}", "tmpfs", str(mount)], capture_output=True)
    if done.returncode != 0:
        pytest.skip(f"cannot mount a tmpfs here: {done.stderr.decode(errors='replace').strip()}")
    try:
        yield mount
    finally:
        subprocess.run(["umount", "-l", str(mount)], check=False)
