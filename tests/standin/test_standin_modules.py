"""The stand-in's server and driver share bot/standin/protocol.py and do not import each other."""

from __future__ import annotations

import ast
from pathlib import Path

import bot.standin as standin

PACKAGE = Path(standin.__file__).parent


def _imports(name: str) -> set[str]:
    tree = ast.parse((PACKAGE / f"{name}.py").read_text(encoding="utf-8"))
    found = set()
    for node in ast.walk(tree):
        if isinstance(node, ast.ImportFrom):
            found.add((node.module or "").rsplit(".", 1)[-1] if node.level else node.module or "")
            found |= {alias.name for alias in node.names}
        elif isinstance(node, ast.Import):
            found |= {alias.name.rsplit(".", 1)[-1] for alias in node.names}
    return found


def test_the_driver_and_the_server_do_not_import_each_other():
    assert "server" not in _imports("driver") and "StandIn" not in _imports("driver")
    assert "driver" not in _imports("server") and "Driver" not in _imports("server")
    assert "protocol" in _imports("driver") and "protocol" in _imports("server")


def test_connect_makes_the_packages_driver():
    assert standin.StandIn.driver is standin.Driver


def test_what_ships_imports_nothing_from_the_tests():
    """bot/ is what the image ships and runs: the stand-in's refusals, shards, RESUME and validators live in
    tests/support/standin, which extends the console's stand-in; never the other way round."""
    root = PACKAGE.parent
    for path in sorted(root.rglob("*.py")):
        for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
            names = [a.name for a in node.names] if isinstance(node, ast.Import) else \
                [node.module or ""] if isinstance(node, ast.ImportFrom) and not node.level else []
            assert not any(n == "tests" or n.startswith("tests.") for n in names), path
