"""The docstring examples of engine/ run as doctests with the tests (`make test`, or `pytest engine`):
every ``.py`` file under engine/ is collected as pytest's own doctest module (as ``--doctest-modules`` would;
that flag itself would also import every helper module under tests/ as a doctest module)."""

from __future__ import annotations

from pathlib import Path

from _pytest.doctest import DoctestModule

ENGINE = Path(__file__).parent / "engine"


def pytest_collect_file(file_path: Path, parent):
    if file_path.suffix == ".py" and ENGINE in file_path.parents:
        return DoctestModule.from_parent(parent, path=file_path)
    return None
