"""Every refusal is private, localized, clear, and changes nothing."""

from __future__ import annotations

from play import as_shown, button, export, press_shown

from conftest import running_bot
from tests.support.standin import MESSAGE_COMPONENT


async def _actions(driver) -> int:
    return len((await export(driver))["actions"])


async def test_no_game_in_the_channel(driver):
    reply = await driver.slash("seasons die", {"face": "2 water, 1 dot"})
    assert reply.ephemeral and "no game here" in reply.text


async def test_another_user_cannot_change_the_game_but_may_look(driver):
    await driver.slash("seasons start", {"difficulty": "wizard", "dice": "table"}, user="player")
    refused = await driver.slash("seasons die", {"face": "2 water, 1 crystal, 2 dots"}, user="haruka", locale="ja")
    assert refused.ephemeral and "開始したプレイヤー" in refused.text
    look = await driver.slash("game status", {}, user="haruka", locale="ja")
    assert look.ephemeral and "ダムボット" in look.text and not look.buttons
    assert await _actions(driver) == 0


async def test_another_users_button_is_refused(driver):
    start = await driver.slash("seasons start", {"difficulty": "wizard", "dice": "bot"}, user="player")
    refused = await driver.press(button(start, "roll"), user="haruka", locale="en")
    assert refused.ephemeral and "Only the player who started" in refused.text
    assert await _actions(driver) == 0


async def test_a_stale_button_changes_nothing(driver):
    start = await driver.slash("seasons start", {"difficulty": "wizard", "dice": "bot"})
    shown, roll = as_shown(driver, start), button(start, "roll")
    rolled = await driver.press(roll)
    assert not rolled.ephemeral and not start.buttons  # the start message lost its controls …
    again = await press_shown(driver, shown, roll)  # … but a screen that still showed them pressed one
    refusal = again.messages[-1]  # private; the pressed message, updated first, shows no controls (as it was)
    assert refusal.ephemeral and "moved on" in refusal.text
    assert not again.original.buttons and not start.buttons
    assert await _actions(driver) == 1


async def test_buttons_of_a_finished_or_abandoned_game(driver):
    start = await driver.slash("seasons start", {"difficulty": "wizard", "dice": "bot"})
    shown, roll = as_shown(driver, start), button(start, "roll")
    confirm = await driver.slash("game abandon", {})
    assert confirm.ephemeral
    done = await driver.press(button(confirm, "abandon"))
    assert not done.ephemeral and "abandoned" in done.text
    assert not start.buttons  # abandoning took the game's last controls away
    stale = await press_shown(driver, shown, roll)
    assert stale.messages[-1].ephemeral and "over" in stale.messages[-1].text
    assert not start.buttons
    assert (await export(driver))["result"] == {"outcome": "abandoned"}


async def test_only_owner_or_manager_may_abandon(driver):
    await driver.slash("volfyrion start", {"difficulty": "normal"}, user="player")
    refused = await driver.slash("game abandon", {}, user="haruka")
    assert refused.ephemeral and "server manager" in refused.text.replace("サーバー管理者", "server manager")
    confirm = await driver.slash("game abandon", {}, user="admin")
    done = await driver.press(button(confirm, "abandon"), user="admin")
    assert not done.ephemeral
    again = await driver.slash("volfyrion end", {}, user="player")
    assert again.ephemeral and "no game" in again.text


async def test_impossible_face_names_the_closest(driver):
    await driver.slash("seasons start", {"difficulty": "wizard", "dice": "table"})
    reply = await driver.slash("seasons die", {"face": "7 fire, 1 dot"})
    assert reply.ephemeral and "closest: 1 fire, star, 1 dot" in reply.text  # on the die with 6 crystals, 3 dots
    unreadable = await driver.slash("seasons die", {"face": "banana"}, locale="ja")
    assert unreadable.ephemeral and "banana" in unreadable.text
    assert await _actions(driver) == 0


async def test_unknown_card_suggests_near_names(driver):
    await driver.slash("seasons start", {"difficulty": "wizard", "dice": "table"})
    # Two typos: no longer one card for sure (one typo is read as the card: tests/bot/test_bot_names.py).
    reply = await driver.slash("seasons played", {"card": "Kairn the Dstroyr"})
    assert reply.ephemeral and "Kairn the Destroyer" in reply.text
    assert await _actions(driver) == 0


async def test_commands_of_the_other_game_and_a_second_start(driver):
    await driver.slash("seasons start", {"difficulty": "wizard", "dice": "table"})
    other = await driver.slash("volfyrion end", {})
    assert other.ephemeral and "Seasons" in other.text
    second = await driver.slash("volfyrion start", {"difficulty": "easy"})
    assert second.ephemeral and "already being played here" in second.text
    out_of_turn = await driver.slash("seasons score", {"crystals": 1, "prestige": 1, "bonuses": 0, "hand": 0})
    assert out_of_turn.ephemeral
    assert await _actions(driver) == 0


async def test_forged_and_foreign_custom_ids(driver, standin):
    start = await driver.slash("seasons start", {"difficulty": "wizard", "dice": "bot"})
    channel = standin.world.channel("table")
    message = standin.messages[start.original.id]
    for custom_id in ("solo:999999:0:roll", "solo:1:0:nonsense", "not-ours", "solo:1:0:take:9", "solo:1:5:roll"):
        reply = await driver._run(MESSAGE_COMPONENT, {"custom_id": custom_id, "component_type": 2}, "player",
                                  channel, None, message, None, None)
        assert reply.ephemeral, (custom_id, reply.text)
    assert await _actions(driver) == 0


async def test_concurrent_presses_apply_once(driver):
    import asyncio

    start = await driver.slash("seasons start", {"difficulty": "wizard", "dice": "bot"})
    roll = button(start, "roll")
    replies = await asyncio.gather(*(driver.press(roll) for _ in range(8)))
    assert sum(not r.ephemeral for r in replies) == 1
    assert await _actions(driver) == 1


async def test_japanese_replies_for_japanese_users(driver):
    start = await driver.slash("seasons start", {"difficulty": "archmage", "dice": "table"}, user="haruka",
                               locale="ja")
    assert "ダムボット" in start.text and "クリスタル" in start.text
    face = await driver.slash("seasons die", {"face": "水2、クリスタル1、2点"}, user="haruka", locale="ja")
    assert not face.ephemeral, face.text
    assert "クリスタル" in face.text


async def test_restart_does_not_forget_refusal_state(standin, db_path):
    async with running_bot(standin, db_path) as driver:
        await driver.slash("seasons start", {"difficulty": "wizard", "dice": "table"}, user="player")
    async with running_bot(standin, db_path) as driver:
        refused = await driver.slash("seasons die", {"face": "2 water, 1 crystal, 2 dots"}, user="haruka")
        assert refused.ephemeral


async def test_a_slow_moment_defers_instead_of_missing_the_deadline(driver, standin):
    """A command that waits (here: behind another holding the channel's lock) answers "thinking…" in time."""
    import asyncio

    await driver.slash("seasons start", {"difficulty": "wizard", "dice": "table"})
    lock = driver.bot.service.lock(standin.world.channel("table").id)
    await lock.acquire()
    asyncio.get_running_loop().call_later(3.5, lock.release)
    played = await driver.slash("seasons die", {"face": "2 water, 1 crystal, 2 dots"})
    assert played.deferred and not played.ephemeral and "Dummbot" in played.text
    lock = driver.bot.service.lock(standin.world.channel("table").id)  # a lock leaves memory with its last change
    await lock.acquire()
    asyncio.get_running_loop().call_later(3.5, lock.release)
    refused = await driver.slash("seasons die", {"face": "not a face"})
    # The public "thinking…" is removed and the refusal comes privately.
    assert refused.deferred and refused.original is None
    assert refused.messages and all(m.ephemeral for m in refused.messages)
    assert "“not”" in refused.text
    assert await _actions(driver) == 1


async def test_payloads_from_a_stale_command_sync_are_refused_clearly(driver, standin):
    """Only a stale sync makes Discord send these; the answer is private and says what to do."""
    from tests.support.standin import APPLICATION_COMMAND

    await driver.slash("volfyrion start", {"difficulty": "normal"})
    table = standin.world.channel("table")
    wrong_value = {"id": "1", "name": "volfyrion", "type": 1, "options": [
        {"name": "reveal", "type": 1, "options": [{"name": "cards", "type": 3, "value": 12}]}]}
    missing = {"id": "1", "name": "volfyrion", "type": 1, "options": [
        {"name": "play", "type": 1, "options": [{"name": "city", "type": 3, "value": "Tylaris"}]}]}
    first = await driver._run(APPLICATION_COMMAND, wrong_value, "player", table, None, None, None, None)
    second = await driver._run(APPLICATION_COMMAND, missing, "player", table, None, None, None, None)
    assert first.ephemeral and "could not read" in first.text
    assert second.ephemeral and "just changed" in second.text
    assert await _actions(driver) == 0
