"""Issue 36, point 4, end to end through the stand-in: `thread:true` opens a public thread named for the game and
the player and plays there (or says why not and plays in the channel); a game's thread Discord archived after its
idle duration is unarchived when the game's player comes back; a locked thread keeps the refusal."""

from __future__ import annotations

import pytest

from bot.standin.permissions import CREATE_PUBLIC_THREADS, SEND_MESSAGES_IN_THREADS
from bot.standin.protocol import API
from bot.threads import ARCHIVE_MINUTES
from conftest import running_bot
from tests.support.standin import StandIn, World, pressable
from tests.support.standin.world import deny


def threads_of(standin: StandIn, parent: str) -> list:
    parent_id = standin.world.channel(parent).id
    return [c for c in standin.world.guilds[0].channels if c.parent_id == parent_id and c.name != "session"]


@pytest.mark.parametrize(("locale", "name", "said"), [
    ("en-US", "Seasons #1 — player", "is played in a thread of its own"),
    ("ja", "十二季節の魔法使い #1 — player", "このゲーム専用のスレッド"),
])
async def test_thread_true_opens_a_thread_named_for_the_game_and_plays_there(driver, locale, name, said):
    standin = driver.standin
    start = await driver.slash("seasons start", {"difficulty": "wizard", "dice": "bot", "thread": True},
                               user="player", channel="table", locale=locale)
    assert not start.ephemeral and said in start.text
    [thread] = threads_of(standin, "table")
    assert thread.name == name and thread.owner_id == standin.world.bot.id
    assert thread.auto_archive_duration == ARCHIVE_MINUTES and f"<#{thread.id}>" in start.text
    row = await driver.bot.store.active_game(thread.id)
    assert row is not None and row.parent_channel_id == standin.world.channel("table").id and row.place == "guild"
    assert await driver.bot.store.active_game(standin.world.channel("table").id) is None
    # The game's first reply is the thread's (a bot message there), with its board and buttons.
    [message] = [m for m in standin.messages.values() if m.channel_id == thread.id]
    assert message.files and any(f.filename == "board.png" for f in message.files)
    roll = next(c["custom_id"] for c in pressable(message.payload) if ":roll" in c["custom_id"])
    rolled = await driver.press(roll, message=message.id, user="player", locale=locale)
    assert not rolled.ephemeral
    assert (await driver.bot.store.active_game(thread.id)).ply == 1


@pytest.mark.parametrize(("locale", "said"), [
    ("en-US", "I may not open a thread here"),
    ("ja", "スレッドを作る権限がないため"),
])
async def test_without_create_public_threads_the_start_says_so_and_plays_in_the_channel(standin_world, db_path,
                                                                                       locale, said):
    world = World.default()
    guild = world.guilds[0]
    deny(world.channel("table"), guild.role("automaton"), CREATE_PUBLIC_THREADS)
    standin = await standin_world(world)
    async with running_bot(standin, db_path) as driver:
        start = await driver.slash("volfyrion start", {"difficulty": "normal", "thread": True}, user="player",
                                   channel="table", locale=locale)
        assert not start.ephemeral and said in start.text
        assert threads_of(standin, "table") == []
        assert await driver.bot.store.active_game(world.channel("table").id) is not None


async def test_thread_true_in_a_thread_plays_there(driver):
    start = await driver.slash("seasons start", {"difficulty": "wizard", "dice": "bot", "thread": True},
                               user="player", channel="session")
    assert not start.ephemeral and "This is a thread already" in start.text
    assert await driver.bot.store.active_game(driver.standin.world.channel("session").id) is not None


async def _game_in_thread(driver, user: str = "player"):
    start = await driver.slash("seasons start", {"difficulty": "wizard", "dice": "bot", "thread": True}, user=user,
                               channel="table")
    assert not start.ephemeral, start.text
    await driver.bot.controller.pictures.idle()
    [thread] = threads_of(driver.standin, "table")
    return thread


@pytest.mark.parametrize("locale", ["en-US", "ja"])
async def test_an_auto_archived_game_thread_is_unarchived_when_its_player_comes_back(driver, locale):
    thread = await _game_in_thread(driver)
    assert thread not in await driver.standin.pass_time(ARCHIVE_MINUTES - 1)  # not idle long enough yet
    await driver.slash("game status", {}, user="player", channel=thread.id)  # a message: the week starts again
    await driver.bot.controller.pictures.idle()  # its picture follows by an edit, before the thread can archive
    assert thread not in await driver.standin.pass_time(ARCHIVE_MINUTES - 1)
    assert thread in await driver.standin.pass_time(1) and thread.archived
    status = await driver.slash("game status", {}, user="player", channel=thread.id, locale=locale)
    assert not status.ephemeral and not thread.archived
    rolled = await driver.slash("seasons roll", {}, user="player", channel=thread.id, locale=locale)
    assert not rolled.ephemeral and (await driver.bot.store.active_game(thread.id)).ply == 1


async def test_someone_else_in_an_archived_game_thread_is_refused(driver):
    thread = await _game_in_thread(driver)
    await driver.standin.pass_time(ARCHIVE_MINUTES)
    other = await driver.slash("seasons roll", {}, user="haruka", channel=thread.id, locale="ja")
    assert other.ephemeral and "アーカイブされています" in other.text and thread.archived
    assert (await driver.bot.store.active_game(thread.id)).ply == 0


async def test_an_archived_thread_the_bot_may_not_reopen_is_refused(standin_world, db_path):
    world = World.default()
    standin = await standin_world(world)
    async with running_bot(standin, db_path) as driver:
        thread = await _game_in_thread(driver)
        # A thread takes its parent's overwrites: the bot may no longer send in the table's threads.
        deny(world.channel("table"), world.guilds[0].role("automaton"), SEND_MESSAGES_IN_THREADS)
        await standin.pass_time(ARCHIVE_MINUTES)
        refused = await driver.slash("seasons roll", {}, user="player", channel=thread.id)
        assert refused.ephemeral and "thread is archived" in refused.text and thread.archived
        assert (await driver.bot.store.active_game(thread.id)).ply == 0


async def test_a_locked_game_thread_keeps_the_refusal(driver):
    thread = await _game_in_thread(driver)
    thread.locked = True
    await driver.standin.pass_time(ARCHIVE_MINUTES)
    for locale, said in (("en-US", "thread is locked"), ("ja", "ロック")):
        refused = await driver.slash("seasons roll", {}, user="player", channel=thread.id, locale=locale)
        assert refused.ephemeral and said in refused.text
    assert thread.archived and (await driver.bot.store.active_game(thread.id)).ply == 0


async def test_the_stand_in_refuses_what_discord_refuses_for_threads(driver):
    """Starting a thread in a thread, unarchiving a locked thread without Manage Threads, a name too long."""
    import aiohttp

    standin = driver.standin
    thread = standin.world.channel("session")
    base = f"http://127.0.0.1:{standin.port}{API}"
    headers = {"Authorization": f"Bot {standin.bot_token}"}
    async with aiohttp.ClientSession(headers=headers) as http:
        nested = await http.post(f"{base}/channels/{thread.id}/threads", json={"name": "x", "type": 11})
        assert nested.status == 400
        too_long = await http.post(f"{base}/channels/{standin.world.channel('table').id}/threads",
                                   json={"name": "x" * 101, "type": 11})
        assert too_long.status == 400
        guild = standin.world.guilds[0]
        deny(standin.world.channel("table"), guild.role("automaton"), 1 << 34)  # Manage Threads (the parent's)
        thread.archived, thread.locked = True, True
        locked = await http.patch(f"{base}/channels/{thread.id}", json={"archived": False})
        assert locked.status == 403 and thread.archived
        thread.locked = False
        reopened = await http.patch(f"{base}/channels/{thread.id}", json={"archived": False})
        assert reopened.status == 200 and not thread.archived
    # These refusals were asked for by the test, not by the bot.
    assert {v.kind for v in standin.violations} == {"thread_channel_type", "thread_name", "missing_permissions"}
    standin.violations.clear()


async def test_a_start_that_asks_the_difficulty_opens_its_thread_on_the_tap(driver):
    ask = await driver.slash("volfyrion start", {"thread": True}, user="haruka", channel="table", locale="ja")
    assert ask.ephemeral and threads_of(driver.standin, "table") == []  # nothing made before the tap
    started = await driver.press(ask.buttons[2]["custom_id"], message=ask.original, user="haruka", locale="ja")
    assert not started.ephemeral and "このゲーム専用のスレッド" in started.text
    [thread] = threads_of(driver.standin, "table")
    assert thread.name == "ヴォルフィーリオン #1 — haruka"
    row = await driver.bot.store.active_game(thread.id)
    assert row is not None and row.options["difficulty"] == "hard"
