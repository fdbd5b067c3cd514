"""What both games' commands share: starting a game, card autocomplete, the reveal form."""

from __future__ import annotations

from collections.abc import Callable, Iterable
from typing import TYPE_CHECKING, Any

import discord
from discord import app_commands

from engine.core import Catalog, GameRecord, RuleError

from ..buttons import FieldSpec
from ..controller import lang, send
from ..i18n import L, card_name, t
from ..sessions import Refusal
from ..store import GameRow, StoreError

if TYPE_CHECKING:
    from ..app import SoloBot


def word_choices(*values: str) -> list[app_commands.Choice[str]]:
    """Choices named by their ``word.<value>`` translation (in English, the value itself)."""
    return [app_commands.Choice(name=L(v, f"word.{v}"), value=v) for v in values]


async def current_record(interaction: discord.Interaction[SoloBot], kind: str) -> GameRecord | None:
    """The channel's game of ``kind``, for autocomplete: read-only, no lock, None when there is none."""
    service = interaction.client.service
    try:
        row = await service.active(interaction.channel_id)
        if row is None or row.kind != kind:
            return None
        return await service.record(row)
    except StoreError:
        return None


async def record_to_look_at(interaction: discord.Interaction[SoloBot], kind: str,
                            game_id: int | None) -> tuple[GameRow, GameRecord] | None:
    """The channel's game for a read-only look (forecast, danger meter): anyone may look. On a refusal the
    user has been answered and None comes back."""
    service = interaction.client.service
    try:
        row = await service.require(interaction.channel_id, kind=kind)
        if game_id is not None and row.id != game_id:
            raise Refusal("refuse.stale_game")
        return row, await service.record(row)
    except (Refusal, StoreError) as err:
        await interaction.client.controller.refuse(interaction, err)
        return None


async def start_game(interaction: discord.Interaction[SoloBot], kind: str, options: dict[str, Any]) -> None:
    channel = interaction.channel
    parent_id = getattr(channel, "parent_id", None) if isinstance(channel, discord.Thread) else None
    await interaction.client.controller.start(interaction, kind, options, parent_id)


def card_choices(
    lg: str, game: str, catalog: Catalog, current: str, *, keep: Callable[[Any], bool] | None = None,
    multiple: bool = False,
) -> list[app_commands.Choice[str]]:
    """Autocomplete for card names in both languages. With ``multiple``, completes the last item of a
    comma-separated list and keeps what was typed before it."""
    head, last = "", current
    if multiple:
        parts = current.replace("、", ",").split(",")
        head = ", ".join(p.strip() for p in parts[:-1] if p.strip())
        last = parts[-1].strip()
        head = head + ", " if head else ""
    choices = []
    for card_id in catalog.search(last, limit=50):
        if keep is not None and not keep(catalog[card_id]):
            continue
        name = card_name(lg, game, card_id)
        value = head + card_id
        if len(value) > 100:
            continue
        choices.append(app_commands.Choice(name=(head + name)[:100], value=value))
        if len(choices) == 25:
            break
    return choices


def ids_of(catalog: Catalog, text: str | Iterable[str]) -> list[str]:
    """Card ids for a typed list; a miss raises the catalog's RuleError (with suggestions)."""
    found = catalog.lookup_many(text)
    return [card_id_of(c) for c in found]


def card_id_of(card: Any) -> str:
    for attr in ("id", "name"):
        value = getattr(card, attr, None) if not isinstance(card, dict) else card.get(attr)
        if value is not None:
            return str(value)
    raise TypeError(card)


def require_text(values: dict[str, str], name: str) -> str:
    text = values.get(name, "").strip()
    if not text:
        raise RuleError("form.missing", field=name)
    return text


def int_field(values: dict[str, str], name: str, *, default: int | None = None) -> int:
    text = values.get(name, "").strip().translate(str.maketrans("０１２３４５６７８９－", "0123456789-"))
    if not text and default is not None:
        return default
    try:
        return int(text)
    except ValueError:
        raise RuleError("form.not_a_number", field=name, value=text[:40]) from None


def reveal_form(lg: str, count: int | None) -> tuple[str, list[FieldSpec]]:
    placeholder = t(lg, "form.reveal.placeholder")
    label = t(lg, "form.reveal.label", count=count if count is not None else "?")
    return t(lg, "form.reveal.title"), [FieldSpec("cards", label, placeholder, long=True)]


async def ephemeral_notice(interaction: discord.Interaction, key: str, **params: Any) -> None:
    from ..render.embeds import notice_embed

    await send(interaction, embed=notice_embed(lang(interaction), key, kind="info", **params), ephemeral=True)
