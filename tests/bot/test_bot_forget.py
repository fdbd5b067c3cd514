"""Issue 11, point 9: `/game forget` deletes what the bot stores about the caller, after a confirmation that
only they may press and that does nothing once stale."""

from __future__ import annotations

import asyncio

from play import button, export

from bot.commands import game as game_commands


async def until(condition, limit: float = 20.0) -> None:
    loop = asyncio.get_running_loop()
    give_up = loop.time() + limit
    while not condition():
        assert loop.time() < give_up, "the awaited event never came"
        await asyncio.sleep(0.01)


async def _user_id(driver, name: str) -> int:
    return driver.standin.world.user(name).id


async def _two_players(driver) -> None:
    """'player' has a finished-by-abandon game and one in progress; 'haruka' has one of her own."""
    await driver.slash("seasons start", {"difficulty": "wizard", "dice": "table"}, user="player", channel="table")
    await driver.slash("seasons crystals", {"change": 2}, user="player", channel="table")
    confirm = await driver.slash("game abandon", {}, user="player", channel="table")
    await driver.press(button(confirm, "abandon"), message=confirm.original, user="player")
    await driver.slash("volfyrion start", {"difficulty": "normal"}, user="player", channel="table")
    await driver.slash("volfyrion reshuffle", {}, user="player", channel="table")
    await driver.slash("seasons start", {"difficulty": "apprentice", "dice": "bot"}, user="haruka",
                       channel="lobby")


async def test_forget_after_confirmation_deletes_the_callers_games_and_nothing_of_others(driver):
    await _two_players(driver)
    store = driver.bot.store
    player, haruka = await _user_id(driver, "player"), await _user_id(driver, "haruka")
    assert (await store.user_data(player))["games"] == 2

    ask = await driver.slash("game forget", {}, user="player", channel="table")
    assert ask.ephemeral and "2 games" in ask.text and "cannot be undone" in ask.text
    assert (await store.user_data(player))["games"] == 2  # asking deletes nothing

    other = await driver.press(button(ask, "forget"), message=ask.original, user="haruka")
    assert other.ephemeral and "依頼した本人だけ" in other.text
    assert (await store.user_data(player))["games"] == 2

    done = await driver.press(button(ask, "forget"), message=ask.original, user="player")
    assert done.ephemeral and "Deleted: 2 games" in done.text
    assert (await store.user_data(player))["games"] == 0
    assert (await store.stats(driver.standin.world.guilds[0].id, player))["games"] == 0
    assert (await store.user_data(haruka))["games"] == 1
    # The channel whose game was deleted is free; the bot holds no cached record of the deleted games.
    assert driver.bot.service.cached_games() == 1
    again = await driver.slash("seasons start", {"difficulty": "wizard", "dice": "table"}, user="player",
                               channel="table")
    assert not again.ephemeral
    assert (await export(driver, user="player", channel="table"))["actions"] == []
    # Pressing the old confirmation again: stale, deletes nothing (the new game stays).
    stale = await driver.press(button(ask, "forget"), message=ask.original, user="player")
    assert stale.ephemeral and "out of date" in stale.text
    assert (await store.user_data(player))["games"] == 1


async def test_a_confirmation_is_stale_once_the_data_changed(driver):
    await driver.slash("seasons start", {"difficulty": "wizard", "dice": "table"}, user="player")
    ask = await driver.slash("game forget", {}, user="player", locale="ja")
    assert "1ゲーム" in ask.text and "元に戻せません" in ask.text
    await driver.slash("seasons crystals", {"change": 1}, user="player")
    stale = await driver.press(button(ask, "forget"), message=ask.original, user="player", locale="ja")
    assert stale.ephemeral and "古くなっています" in stale.text and "何も削除していません" in stale.text
    assert (await driver.bot.store.user_data(await _user_id(driver, "player")))["games"] == 1


async def test_a_confirmation_is_stale_after_its_time(driver, monkeypatch):
    await driver.slash("seasons start", {"difficulty": "wizard", "dice": "table"}, user="player")
    ask = await driver.slash("game forget", {}, user="player")
    monkeypatch.setattr(game_commands, "FORGET_CONFIRM_MINUTES", 0)  # any age is now past the limit
    stale = await driver.press(button(ask, "forget"), message=ask.original, user="player")
    assert stale.ephemeral and "out of date" in stale.text
    assert (await driver.bot.store.user_data(await _user_id(driver, "player")))["games"] == 1


async def test_a_late_confirmation_deletes_nothing(driver):
    await driver.slash("seasons start", {"difficulty": "wizard", "dice": "table"}, user="player")
    ask = await driver.slash("game forget", {}, user="player")
    late = await driver.press(button(ask, "forget"), message=ask.original, user="player", late=3.5)
    await until(lambda: any(iid == late.interaction_id for iid, _ in driver.bot.controller.deliveries.dropped))
    driver.standin.violations[:] = [v for v in driver.standin.violations
                                    if not (v.interaction_id == late.interaction_id and v.kind == "late_response")]
    assert (await driver.bot.store.user_data(await _user_id(driver, "player")))["games"] == 1


async def test_forget_with_nothing_stored(driver):
    reply = await driver.slash("game forget", {}, user="haruka", locale="ja")
    assert reply.ephemeral and "保存していません" in reply.text and not reply.buttons
