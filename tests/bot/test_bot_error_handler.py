"""One error handler: a refusal raised anywhere (a command, after a "thinking…", a button, a form) reaches the
player privately through SoloBot.on_app_command_error; an unexpected exception gets the localized internal
error and a log line."""

from __future__ import annotations

import logging

import discord
import pytest
from discord import app_commands
from play import button

from bot.app import create_bot
from bot.config import Config
from bot.replies import think
from bot.sessions import Refusal
from bot.store import StoreError


@pytest.fixture
async def probe(standin, db_path):
    """The bot with two extra commands: one refuses after answering "thinking…", one fails unexpectedly."""
    bot = create_bot(Config(db_path=db_path), seed=lambda: 7)

    @app_commands.command(name="probe_late_refusal", description="probe")
    @app_commands.describe(private="Think privately")
    async def late_refusal(interaction: discord.Interaction, private: bool = False) -> None:
        await think(interaction, ephemeral=private)
        raise Refusal("refuse.no_game", kind="any")

    @app_commands.command(name="probe_store", description="probe")
    async def store_refusal(interaction: discord.Interaction) -> None:
        raise StoreError("the store is busy")

    @app_commands.command(name="probe_crash", description="probe")
    async def crash(interaction: discord.Interaction) -> None:
        raise RuntimeError("boom")

    for command in (late_refusal, store_refusal, crash):
        bot.tree.add_command(command)
    async with standin.connect(bot) as driver:
        yield driver


@pytest.mark.parametrize("private", [False, True])
async def test_a_refusal_after_thinking_is_a_private_followup(probe, private):
    reply = await probe.slash("probe_late_refusal", {"private": private}, locale="en")
    # A public "thinking…" cannot turn private: it is deleted and the refusal follows privately.
    assert [(m.kind, m.ephemeral) for m in reply.messages] == [("original" if private else "followup", True)]
    assert "There is no game here" in reply.text


async def test_a_store_refusal_is_answered_and_logged(probe, caplog):
    with caplog.at_level(logging.WARNING, logger="bot.controller"):
        reply = await probe.slash("probe_store", {}, locale="ja")
    assert reply.ephemeral and reply.text
    assert any("store refused" in r.getMessage() for r in caplog.records)


async def test_an_unexpected_exception_gets_the_localized_internal_error_and_a_log_line(probe, caplog):
    with caplog.at_level(logging.ERROR, logger="bot.app"):
        reply = await probe.slash("probe_crash", {}, locale="en")
    assert reply.ephemeral and "Something went wrong on my side; nothing was changed" in reply.text
    assert any(r.getMessage() == "command failed" and r.exc_info and "boom" in str(r.exc_info[1])
               for r in caplog.records)


async def test_an_unexpected_exception_in_a_button_is_answered_like_a_commands(driver, caplog, monkeypatch):
    start = await driver.slash("seasons start", {"difficulty": "wizard", "dice": "bot"})
    ui = driver.bot.controller.uis["seasons"]

    def broken(*args, **kwargs):
        raise RuntimeError("button boom")

    monkeypatch.setattr(ui, "button_action", broken)
    with caplog.at_level(logging.ERROR, logger="bot.app"):
        reply = await driver.press(button(start, "roll"), locale="ja")
    assert reply.ephemeral and "ボット側で問題が発生しました。何も変更していません。" in reply.text
    assert any("button boom" in str(r.exc_info[1]) for r in caplog.records if r.exc_info)

