"""Play engine actions through the bot as a user would: slash commands, buttons and forms."""

from __future__ import annotations

import copy
import json
from typing import Any

from bot.standin.driver import Driver, Reply
from bot.standin.protocol import MESSAGE_COMPONENT, StoredMessage
from engine.core import Action
from tests.support.seasons_typed import seasons_command
from tests.support.volfyirion_typed import volfyirion_command

__all__ = [
    "as_shown",
    "button",
    "export",
    "pictured",
    "play_seasons",
    "play_volfyirion",
    "press_shown",
    "seasons_command",
    "volfyirion_command",
    "written_by_the_store",
]


def has_board(reply: Reply) -> bool:
    return any(f.filename == "board.png" for f in reply.files)


async def pictured(reply: Reply) -> Reply:
    """The reply once its picture has followed it (issue 12: the reply goes first, an edit adds the picture),
    waited for by what arrives, not by time."""
    return await reply.until(has_board)


def button(reply: Reply, op: str, arg: str | None = None) -> str:
    """The custom_id of the reply's button for ``op`` (and ``arg``)."""
    for b in reply.buttons:
        parts = b.get("custom_id", "").split(":")
        if len(parts) >= 4 and parts[3] == op and (arg is None or (len(parts) > 4 and parts[4] == arg)):
            return b["custom_id"]
    raise AssertionError(f"no {op}:{arg} button in {[b.get('custom_id') for b in reply.buttons]}")


def as_shown(driver: Driver, reply: Reply) -> StoredMessage:
    """The reply's message as a client shows it now: a copy, which the edits that follow do not change (a press
    sent from a screen that has not seen the newer reply take the controls away yet)."""
    return copy.deepcopy(driver.standin.messages[reply.original.id])


async def press_shown(driver: Driver, shown: StoredMessage, custom_id: str, values: list[str] | None = None,
                      **who: Any) -> Reply:
    """Press ``custom_id`` on ``shown`` (``as_shown``), or pick ``values`` in that menu: the interaction carries the
    message as the client showed it."""
    channel = driver.standin.world.find_channel(shown.channel_id)
    data: dict[str, Any] = {"custom_id": custom_id, "component_type": 2}
    if values is not None:
        data |= {"component_type": 3, "values": values}
    return await driver._run(MESSAGE_COMPONENT, data, who.get("user"), channel, who.get("locale"), shown, True, None)


async def play_seasons(driver: Driver, actions: list[Action], *, use_buttons: bool = True, **who: Any) -> Reply:
    """Every action of a Seasons game through the bot; `take` always by button, some others by button too."""
    reply: Reply | None = None
    # A button press or form happens where its message is: it takes the user, not the channel.
    presser = {k: v for k, v in who.items() if k != "channel"}
    for i, action in enumerate(actions):
        by_button = use_buttons and i % 3 == 0
        if action.type == "take":
            reply = await driver.press(button(reply, "take", str(action.args["index"])), **presser)
        elif action.type in ("roll", "end") and by_button and reply is not None:
            reply = await driver.press(button(reply, action.type), **presser)
        elif action.type == "reveal" and by_button and reply is not None:
            opened = await driver.press(button(reply, "reveal"), **presser)
            assert opened.modal is not None, opened.text
            reply = await driver.submit(opened.modal["custom_id"], {"cards": ", ".join(action.args["cards"])},
                                        **presser)
        else:
            name, options = seasons_command(action)
            reply = await driver.slash(name, options, **who)
        assert not reply.ephemeral, f"{action.to_json()} was refused: {reply.text}"
    assert reply is not None
    return reply


async def written_by_the_store(driver: Driver, actions: list[Action], *, channel: Any = None,
                               user: Any = None) -> None:
    """``actions`` appended to the channel's game through the store's public API, as another process of the
    bot would write them: for a test that needs a game near its end, not the whole game played through the bot
    (the whole games through the bot are tests/bot/test_bot_games.py's). The bot reads them at its next
    command, as after any other writer."""
    world, store = driver.standin.world, driver.bot.store
    row = await store.active_game(world.channel(channel).id)
    assert row is not None, "no game in the channel"
    for ply, action in enumerate(actions, start=row.ply):
        row = await store.append_action(row.id, expected_ply=ply, action=action.to_json(), user_id=world.user(user).id)


async def play_volfyirion(driver: Driver, actions: list[Action], **who: Any) -> Reply:
    reply: Reply | None = None
    for action in actions:
        name, options = volfyirion_command(action)
        reply = await driver.slash(name, options, **who)
        assert not reply.ephemeral, f"{action.to_json()} was refused: {reply.text}"
    assert reply is not None
    return reply


async def export(driver: Driver, **who: Any) -> dict[str, Any]:
    reply = await driver.slash("game export", {}, **who)
    files = [f for f in reply.files if f.filename.endswith(".json")]
    assert files, reply.text
    return json.loads(files[0].data.decode("utf-8"))
