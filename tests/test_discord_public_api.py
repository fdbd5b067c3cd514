"""Issue 26: the bot uses discord.py through its public API. No module of bot/ imports a discord.py name that
starts with an underscore, reads or writes an underscored attribute of a discord.py object, or overrides one
of discord.py's private methods — save the one hook docs/architecture.md names ("discord.py's internals"), where
discord.py has no public way.

"Underscored attribute of a discord.py object" is checked by name: every ``_name`` that discord.py's own source
defines or uses (its private attributes and methods) is looked for in bot/ on anything but the bot's own
``self`` — and on ``self`` too in a class derived from a discord.py class, where it would reach discord.py's
own attribute."""

from __future__ import annotations

import ast
import functools
import re
from collections.abc import Iterator
from pathlib import Path

import discord

ROOT = Path(__file__).resolve().parents[1]
README = (ROOT / "docs" / "architecture.md").read_text(encoding="utf-8")  # where the internals are named
# (module, name): discord.py internals docs/architecture.md names, with why no public way exists.
NAMED_IN_README = {("bot/handled.py", "_connection"), ("bot/app.py", "_connection"), ("bot/standin/driver.py", "_connection")}


PRIVATE_WORD = re.compile(r"\b_\w*")


def private(name: str) -> bool:
    return name.startswith("_") and not name.startswith("__")


@functools.cache  # read when first asked for: not at collection, which every xdist worker repeats
def discord_private_names() -> frozenset[str]:
    """Every underscored name discord.py's source defines or reads: attributes, methods, module names. Every
    underscored word of the source, by a regular expression: parsing it all takes some 2 s, and the words
    are the names its syntax tree holds and a few more (those its strings name too, as ``_cs_`` slots)."""
    names: set[str] = set()
    for path in Path(discord.__file__).parent.rglob("*.py"):
        names.update(PRIVATE_WORD.findall(path.read_text(encoding="utf-8")))
    return frozenset(n for n in names if private(n))


def from_discord(base: ast.expr) -> bool:
    """A class base spelled from discord.py (``discord.Client``, ``app_commands.CommandTree``, ``commands.Bot``)."""
    root = base
    while isinstance(root, (ast.Attribute, ast.Subscript)):
        root = root.value
    return isinstance(root, ast.Name) and root.id in {"discord", "app_commands", "commands", "ui"}


def uses(source: str) -> Iterator[tuple[int, str, str]]:
    """(line, what, name) of every private discord.py name ``source`` imports, reads or overrides."""
    tree = ast.parse(source)
    for node in ast.walk(tree):
        if isinstance(node, ast.ImportFrom) and (node.module or "").split(".")[0] == "discord":
            for alias in node.names:
                if private(alias.name) or any(private(part) for part in (node.module or "").split(".")):
                    yield node.lineno, "import", alias.name
        elif isinstance(node, ast.Import):
            for alias in node.names:
                parts = alias.name.split(".")
                if parts[0] == "discord" and any(private(p) for p in parts):
                    yield node.lineno, "import", alias.name
    yield from _attributes(tree, inside_discord_class=False)


def _attributes(node: ast.AST, *, inside_discord_class: bool) -> Iterator[tuple[int, str, str]]:
    for child in ast.iter_child_nodes(node):
        if isinstance(child, ast.ClassDef):
            derived = any(from_discord(base) for base in child.bases)
            if derived:
                for item in child.body:
                    if isinstance(item, (ast.FunctionDef, ast.AsyncFunctionDef)) and item.name in discord_private_names():
                        yield item.lineno, "override", item.name
            yield from _attributes(child, inside_discord_class=derived)
            continue
        if isinstance(child, ast.Attribute) and child.attr in discord_private_names():
            own = isinstance(child.value, ast.Name) and child.value.id in ("self", "cls")
            if not own or inside_discord_class:
                yield child.lineno, "attribute", child.attr
        yield from _attributes(child, inside_discord_class=inside_discord_class)


def found_in(root: Path) -> list[tuple[str, int, str, str]]:
    return [(str(path.relative_to(ROOT)), line, what, name)
            for path in sorted(root.rglob("*.py"))
            for line, what, name in uses(path.read_text(encoding="utf-8"))]


def test_the_bot_uses_discord_py_through_its_public_api_only() -> None:
    found = [f for f in found_in(ROOT / "bot") if (f[0], f[3]) not in NAMED_IN_README]
    assert found == [], "discord.py's private names in bot/ (docs/architecture.md must name any that stays):\n" + \
        "\n".join(f"{path}:{line}: {what} {name}" for path, line, what, name in found)


def test_what_stays_is_named_in_the_readme() -> None:
    assert all(name in README and module in README for module, name in NAMED_IN_README)


def test_the_check_finds_what_the_old_code_did() -> None:
    """The check fails on what bot/respond.py, SoloTree and /game's choices did before issue 26."""
    old = '''
from discord.webhook.async_ import async_context, _context
import discord

async def answer(interaction):
    state = interaction._state
    await async_context.get().request(route, session=interaction._session)
    interaction.response._response_type = discord.InteractionResponseType.channel_message

class SoloTree(app_commands.CommandTree):
    async def _call(self, interaction):
        command, options = self._get_app_command_options(interaction.data)
        await super()._call(interaction)

class Own:
    def __init__(self):
        self._state = 1  # the bot's own attribute, on its own object: not discord.py's

def install(group):
    group.get_command("help")._params["game"].choices = []
'''
    assert sorted({(what, name) for _, what, name in uses(old)}) == [
        ("attribute", "_call"), ("attribute", "_get_app_command_options"), ("attribute", "_params"),
        ("attribute", "_response_type"), ("attribute", "_session"), ("attribute", "_state"),
        ("import", "_context"), ("override", "_call")]
