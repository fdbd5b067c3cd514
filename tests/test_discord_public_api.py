"""Issue 26: the bot uses discord.py through its public API. No module of bot/ imports a discord.py name that
starts with an underscore, reads or writes an underscored attribute of a discord.py object, or overrides one
of discord.py's private methods — save the one hook docs/architecture.md names ("discord.py's internals"), where
discord.py has no public way.

"Underscored attribute of a discord.py object" is checked by name: every ``_name`` that discord.py's own source
defines or uses (its private attributes and methods) is looked for in bot/ on anything but the bot's own
``self`` — and on ``self`` too in a class derived from a discord.py class, where it would reach discord.py's
own attribute.

Issue 35: nor an attribute discord.py does not document, underscored or not (``client.http``,
``command.binding``). "Undocumented" is read from discord.py's source: a name its classes assign
(``self.name = …``) that no docstring of discord.py lists as an attribute (``name: :class:`…```) and no
documented function, method, property or class bears. Looked for by name, as the underscored ones are, on
anything but the bot's own names (an attribute bot/ itself assigns or defines: its own ``port``, ``lock``…)."""

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
NAMED_IN_README = {("bot/handled.py", "_connection"), ("bot/handled.py", "parsers"), ("bot/app.py", "_connection"),
                   ("bot/standin/driver.py", "_connection")}
# (module, name): an undocumented discord.py name bot/ reads on something that is not discord.py's.
NOT_DISCORD = {("bot/__main__.py", "handlers")}  # logging.Logger.handlers


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


DOCUMENTED_ATTRIBUTE = re.compile(r"^\s*(\w+)\s*:\s*\S", re.M)  # an "Attributes" entry: ``name: :class:`int```


@functools.cache
def discord_undocumented_names() -> frozenset[str]:
    """Every public name discord.py's classes assign to themselves that none of its docstrings documents (the
    Sphinx documentation is built from them: autodoc of the documented members, the "Attributes" sections)."""
    documented: set[str] = set()
    assigned: set[str] = set()
    for path in Path(discord.__file__).parent.rglob("*.py"):
        for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
            if isinstance(node, (ast.FunctionDef, ast.AsyncFunctionDef, ast.ClassDef)):
                doc = ast.get_docstring(node)
                if doc:
                    documented.add(node.name)
                    documented.update(DOCUMENTED_ATTRIBUTE.findall(doc))
            elif isinstance(node, ast.Attribute) and isinstance(node.ctx, ast.Store) \
                    and isinstance(node.value, ast.Name) and node.value.id == "self" and not private(node.attr):
                assigned.add(node.attr)
    return frozenset(assigned - documented)


def own_names(sources: list[str]) -> frozenset[str]:
    """The attribute names the bot's own code assigns or defines (its classes' fields, methods, attributes)."""
    names: set[str] = set()
    for source in sources:
        for node in ast.walk(ast.parse(source)):
            if isinstance(node, ast.Attribute) and isinstance(node.ctx, ast.Store):
                names.add(node.attr)
            elif isinstance(node, ast.AnnAssign) and isinstance(node.target, ast.Name):
                names.add(node.target.id)
            elif isinstance(node, (ast.FunctionDef, ast.AsyncFunctionDef, ast.ClassDef)):
                names.add(node.name)
    return frozenset(names)


def undocumented_uses(source: str, own: frozenset[str]) -> Iterator[tuple[int, str, str]]:
    """(line, "undocumented", name) of every undocumented discord.py attribute ``source`` reads."""
    for node in ast.walk(ast.parse(source)):
        if isinstance(node, ast.Attribute) and isinstance(node.ctx, ast.Load) \
                and node.attr in discord_undocumented_names() and node.attr not in own:
            yield node.lineno, "undocumented", node.attr


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
    paths = sorted(root.rglob("*.py"))
    sources = {path: path.read_text(encoding="utf-8") for path in paths}
    own = own_names(list(sources.values()))
    return [(str(path.relative_to(ROOT)), line, what, name)
            for path, source in sources.items()
            for line, what, name in [*uses(source), *undocumented_uses(source, own)]
            if (str(path.relative_to(ROOT)), name) not in NOT_DISCORD]


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


def test_the_check_finds_undocumented_attributes_that_are_not_underscored() -> None:
    """What bot/app.py and bot/sync.py did before issue 35 (``Client.http``), and common.py (``binding``)."""
    old = '''
async def before_identify_hook(self, shard_id, *, initial=False):
    limits = (await self.http.get_bot_gateway())[2]

async def clear(bot, app_id):
    await bot.http.bulk_upsert_global_commands(app_id, payload=[])

def group_of(interaction):
    return interaction.command.binding

class Own:
    def __init__(self):
        self.port = 1  # the bot's own attribute: not discord.py's

def port(own):
    return own.port
'''
    assert {"http", "binding", "port"} <= discord_undocumented_names()
    assert not {"parent", "fetch_session_start_limits", "fetch_commands", "sync"} & discord_undocumented_names()
    found = sorted({(what, name) for _, what, name in undocumented_uses(old, own_names([old]))})
    assert found == [("undocumented", "binding"), ("undocumented", "http")]
    assert not {"http", "binding"} & own_names([p.read_text(encoding="utf-8") for p in (ROOT / "bot").rglob("*.py")])
