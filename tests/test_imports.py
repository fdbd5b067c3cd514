"""The import graph of bot/ and engine/ has no cycle, whatever the kind of import: at the top of a module, inside
a function, or under ``TYPE_CHECKING``. A lower module (i18n, the renderers, the sessions, the store) is handed
the registry or the game's plugin by the entry points that build it; it never calls back up for it."""

from __future__ import annotations

import ast
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
PACKAGES = ("bot", "engine")
# The entry points that build the registry (bot/games) and hand it down; a game's own package is in it.
BUILDERS = {"bot.app", "bot.console", "bot.__main__"}


def module_files() -> dict[str, Path]:
    """Every module of the packages, by dotted name (a package by its own name)."""
    found = {}
    for package in PACKAGES:
        for path in sorted((ROOT / package).rglob("*.py")):
            parts = list(path.relative_to(ROOT).with_suffix("").parts)
            if parts[-1] == "__init__":
                parts.pop()
            found[".".join(parts)] = path
    return found


def imported(name: str, path: Path, modules: set[str]) -> set[str]:
    """The modules of ours that ``name`` imports anywhere in its file (every kind of import)."""
    package = name if path.name == "__init__.py" else name.rpartition(".")[0]
    targets: set[str] = set()
    for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
        if isinstance(node, ast.Import):
            targets.update(alias.name for alias in node.names)
        elif isinstance(node, ast.ImportFrom):
            base = package.split(".")
            base = base[: len(base) - node.level + 1] if node.level else []
            source = ".".join([*base, *(node.module.split(".") if node.module else [])])
            # ``from pkg import mod`` imports the module pkg.mod; ``from mod import name`` the module itself.
            for alias in node.names:
                full = f"{source}.{alias.name}".lstrip(".")
                targets.add(full if full in modules else source)
    return {ours(t, modules) for t in targets if ours(t, modules)} - {name}


def ours(target: str, modules: set[str]) -> str:
    """The module of ours ``target`` names (``a.b.c`` when it is one, else its nearest package of ours)."""
    while target and target not in modules:
        target = target.rpartition(".")[0]
    return target


def graph() -> dict[str, set[str]]:
    files = module_files()
    return {name: imported(name, path, set(files)) for name, path in files.items()}


def cycles(edges: dict[str, set[str]]) -> list[list[str]]:
    """The strongly connected components of more than one module (Tarjan), each sorted."""
    index: dict[str, int] = {}
    low: dict[str, int] = {}
    stack: list[str] = []
    found: list[list[str]] = []

    def visit(node: str) -> None:
        index[node] = low[node] = len(index)
        stack.append(node)
        for nxt in sorted(edges.get(node, ())):
            if nxt not in index:
                visit(nxt)
                low[node] = min(low[node], low[nxt])
            elif nxt in stack:
                low[node] = min(low[node], index[nxt])
        if low[node] == index[node]:
            component = []
            while True:
                top = stack.pop()
                component.append(top)
                if top == node:
                    break
            if len(component) > 1:
                found.append(sorted(component))

    for node in sorted(edges):
        if node not in index:
            visit(node)
    return found


def test_no_import_cycle_in_bot_or_engine() -> None:
    assert cycles(graph()) == []


def test_only_the_entry_points_and_the_games_import_the_registry() -> None:
    importers = {name for name, targets in graph().items() if any(t.startswith("bot.games") for t in targets)}
    assert {name for name in importers if not name.startswith("bot.games")} <= BUILDERS


def test_the_walk_sees_every_kind_of_import(tmp_path: Path) -> None:
    """A cycle made only of a function-local import and a TYPE_CHECKING one is found (the test can fail)."""
    edges = {"a": {"b"}, "b": {"c"}, "c": {"a"}, "d": {"a"}}
    assert cycles(edges) == [["a", "b", "c"]]
    code = ("from typing import TYPE_CHECKING\nif TYPE_CHECKING:\n    from .render import embeds\n"
            "def f():\n    from .. import engine\n")
    path = tmp_path / "probe.py"
    path.write_text(code, encoding="utf-8")
    assert imported("bot.probe", path, {"bot", "bot.render", "bot.render.embeds", "engine"}) == {
        "bot.render.embeds", "engine"}


def test_the_plugin_interface_depends_on_the_engine_only() -> None:
    """bot/games/plugin.py names no module of the bot (its controller, sessions, buttons, commands or store):
    a game's front end brings those; the interface has the engine and small protocols of its own."""
    assert {t for t in graph()["bot.games.plugin"] if not t.startswith("engine")} == set()


# The bot's Discord side: what a game's front end (bot/games/<game>/front/) may use and its definition may not.
DISCORD_SIDE = ("bot.app", "bot.controller", "bot.sessions", "bot.buttons", "bot.commands", "bot.replies",
                "bot.console", "bot.pictures", "bot.delivery")


# The picture helpers: Pillow and the bot's renderers draw a game's result card and board in its front end.
PICTURE_SIDE = ("bot.render",)


def outside_imports(path: Path, top: str) -> set[str]:
    """The modules of the outside package ``top`` (discord, PIL) that the file imports, anywhere in it."""
    found = set()
    for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
        names = [a.name for a in node.names] if isinstance(node, ast.Import) else \
            [node.module or ""] if isinstance(node, ast.ImportFrom) and not node.level else []
        found.update(n for n in names if n.split(".")[0] == top)
    return found


def discord_imports(path: Path) -> set[str]:
    return outside_imports(path, "discord")


def test_a_games_definition_has_no_discord_in_it() -> None:
    """A game is a pure definition (its plugin, words, result lines, card facts, migrations) and a Discord front
    end (front/: commands, controls, pictures): the definition imports neither discord nor the bot's Discord
    side, nor Pillow or the bot's renderers; it reaches its front end only by asking it (its plugin's
    ``commands``, ``ui``, ``card_option``, ``result_picture``)."""
    files, edges = module_files(), graph()
    for name, path in files.items():
        if not name.startswith("bot.games.") or ".front" in name or name == "bot.games.plugin":
            continue
        game = ".".join(name.split(".")[:3])
        assert discord_imports(path) == set(), name
        assert outside_imports(path, "PIL") == set(), name
        assert {t for t in edges[name] if t.startswith(DISCORD_SIDE + PICTURE_SIDE)} == set(), name
        assert {t for t in edges[name] if ".front" in t and not t.startswith(f"{game}.front")} == set(), name
