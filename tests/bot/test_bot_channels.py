"""Where the bot plays (issue 11, points 2-4), end to end through the stand-in with a real client and store:
forum and media posts, archived and locked threads, DMs and group DMs, and channels that deny the bot
Embed Links or Attach Files."""

from __future__ import annotations

import pytest
from play import pictured

from bot.standin.permissions import ATTACH_FILES, EMBED_LINKS, SEND_MESSAGES
from bot.store import SqliteStore
from conftest import running_bot
from tests.support.standin import World
from tests.support.standin.world import add_forum, deny, dm, group_dm


def forum_world(*, media: bool = False) -> World:
    world = World.default()
    guild = world.guilds[0]
    forum = add_forum(guild, "boardgames", media=media)
    guild.add_channel("my game", parent=forum)
    archived = guild.add_channel("old game", parent=guild.channels[0])
    archived.archived = True
    locked = guild.add_channel("locked game", parent=guild.channels[0])
    locked.locked = True
    return world


async def win_volfyirion(driver, **where) -> object:
    start = await driver.slash("volfyrion start", {"difficulty": "normal"}, **where)
    assert not start.ephemeral, start.text
    turn = await driver.slash("volfyrion end", {}, **where)  # a win on turn 1 with the starting deck is refused
    assert not turn.ephemeral, turn.text
    return await driver.slash("volfyrion win", {"how": "attack"}, **where)


async def games_in(db_path) -> int:
    async with SqliteStore(db_path) as store:
        return await store.count_games()


@pytest.mark.parametrize("media", [False, True], ids=["forum", "media"])
async def test_a_game_in_a_forum_post_keeps_its_result_in_the_post(standin_world, db_path, media):
    """Point 2: a forum (15) or media (16) channel takes no messages: the result card stays in the post,
    and the player gets the game's end, not "something went wrong"."""
    standin = await standin_world(forum_world(media=media))
    async with running_bot(standin, db_path) as driver:
        end = await win_volfyirion(driver, channel="my game")
        await end.until(lambda r: "defeated" in r.text)  # the result card, a followup
    post = standin.world.channel("my game")
    assert not end.ephemeral, end.text
    assert "Something went wrong" not in end.text
    cards = [m for m in end.messages if m.v2 and "defeated" in m.text]
    assert cards, [m.text for m in end.messages]
    assert {m.channel_id for m in end.messages} == {post.id}  # nothing tried in the forum itself
    assert not [v for v in standin.violations if v.kind == "non_text_channel"]


async def test_a_game_in_a_text_thread_still_posts_its_result_in_the_parent(driver):
    end = await win_volfyirion(driver, channel="session")
    await end.until(lambda r: any(m.kind == "channel" for m in r.messages))  # posted after the reply
    table = driver.standin.world.channel("table")
    assert [m.channel_id for m in end.messages if m.kind == "channel"] == [table.id]


async def test_result_goes_as_v2_to_a_parent_without_embed_links(standin, db_path):
    """A V2 message needs no Embed Links: the card goes to the parent as it is, its picture with it."""
    table = standin.world.channel("table")
    guild = standin.world.guilds[0]
    deny(table, guild.role("automaton"), EMBED_LINKS)
    async with running_bot(standin, db_path) as driver:
        end = await win_volfyirion(driver, channel="session")
        await end.until(lambda r: any(m.kind == "channel" for m in r.messages))
    posted = [m for m in end.messages if m.kind == "channel"]
    assert len(posted) == 1 and posted[0].channel_id == table.id
    assert posted[0].v2 and not posted[0].payload.get("embeds") and "defeated" in posted[0].text
    assert [f.filename for f in posted[0].media] == ["result-card.png"]


async def test_no_result_in_a_parent_where_the_bot_may_not_send(standin, db_path):
    table = standin.world.channel("table")
    deny(table, standin.world.guilds[0].role("automaton"), SEND_MESSAGES)
    async with running_bot(standin, db_path) as driver:
        end = await win_volfyirion(driver, channel="session")
        await end.until(lambda r: "defeated" in r.text)  # the result card in the thread: the parent's would be next
    assert not [m for m in end.messages if m.kind == "channel"]
    assert "defeated" in end.text


@pytest.mark.parametrize(("name", "key_text"), [("old game", "archived"), ("locked game", "locked")])
async def test_archived_or_locked_threads_get_a_clear_message_and_nothing_is_applied(standin_world, db_path,
                                                                                    name, key_text):
    standin = await standin_world(forum_world())
    async with running_bot(standin, db_path) as driver:
        reply = await driver.slash("volfyrion start", {"difficulty": "normal"}, channel=name)
        assert reply.ephemeral and f"thread is {key_text}" in reply.text and "Nothing was changed" in reply.text
        ja = await driver.slash("game status", {}, channel=name, locale="ja")
        assert ja.ephemeral and "スレッド" in ja.text
    assert await games_in(db_path) == 0


async def test_a_button_in_a_thread_archived_since_reopens_it_for_its_player_only(standin, db_path):
    """Issue 36 changed this: an archived (not locked) thread is unarchived when its game's player comes back;
    anyone else's press is refused as before, and does nothing."""
    async with running_bot(standin, db_path) as driver:
        start = await driver.slash("seasons start", {"difficulty": "wizard", "dice": "bot"}, channel="session")
        roll = next(b["custom_id"] for b in start.buttons if ":roll" in b["custom_id"])
        # The start reply's picture follows it (an edit of the reply): archived before that edit, the thread
        # would refuse it. A player archives a thread whose messages are all there.
        await driver.bot.controller.pictures.idle()
        thread = standin.world.channel("session")
        thread.archived = True
        await standin.update_channel(thread)
        other = await driver.press(roll, message=start.original, user="haruka")
        assert other.ephemeral and "アーカイブ" in other.text and thread.archived
        async with SqliteStore(db_path) as store:
            row = await store.active_game(thread.id)
        assert row is not None and row.ply == 0
        pressed = await driver.press(roll, message=start.original, user="player")
        assert not pressed.ephemeral and not thread.archived
    async with SqliteStore(db_path) as store:
        row = await store.active_game(thread.id)
    assert row is not None and row.ply == 1


async def test_commands_are_offered_everywhere_for_both_installs(driver):
    """Issue 36: the synced payload offers the commands in servers, the DM with the bot and group DMs
    (`contexts` [0, 1, 2]), for a server's install and a user's (`integration_types` [0, 1])."""
    from bot.sync import command_payload

    payload = await command_payload(driver.bot, None)
    assert {c["name"] for c in payload} == {"seasons", "volfyrion", "game"}
    assert all(c["contexts"] == [0, 1, 2] and c["integration_types"] == [0, 1] for c in payload), payload


@pytest.mark.parametrize("place", ["dm", "group_dm"])
async def test_a_leaderboard_outside_a_server_is_refused_and_changes_nothing(standin, db_path, place):
    """Issue 36: leaderboards stay per server; in a DM or a group DM `/game leaderboard` says so (in the
    player's language), where a shared board of every DM player would mean nothing."""
    world = standin.world
    world.user("player").installed = True
    channel = dm(world, "player") if place == "dm" else group_dm(world, "friends", ["player", "haruka"])
    async with running_bot(standin, db_path) as driver:
        board = await driver.slash("game leaderboard", {"game": "seasons"}, channel=channel, locale="ja")
        assert board.ephemeral and "サーバーごと" in board.text and "`/game record`" in board.text
        board = await driver.slash("game leaderboard", {"game": "seasons"}, channel=channel)
        assert board.ephemeral and "per server" in board.text
    assert await games_in(db_path) == 0


async def test_without_attach_files_no_picture_and_the_text_says_so(standin, db_path):
    """Point 4: a channel that denies Attach Files gets the reply without its picture, saying why."""
    lobby = standin.world.channel("lobby")
    deny(lobby, standin.world.guilds[0].role("automaton"), ATTACH_FILES)
    async with running_bot(standin, db_path) as driver:
        reply = await driver.slash("volfyrion start", {"difficulty": "normal"}, channel="lobby")
        assert not reply.ephemeral and not reply.files
        assert "Attach Files" in reply.text
        assert reply.original.v2 and not reply.media  # no gallery in the V2 reply
        export = await driver.slash("game export", {}, channel="lobby", locale="ja")
        assert not export.files and "ファイルを添付" in export.text
        ok = await driver.slash("volfyrion start", {"difficulty": "normal"}, channel="table")
        await pictured(ok)  # elsewhere the picture is there (it follows the reply)


async def test_without_embed_links_every_reply_is_v2(standin, db_path):
    """Point 4: a channel that denies Embed Links gets every reply as it is: the game's replies, the refusals,
    the help and the result card are Components V2 messages (text displays need no Embed Links)."""
    lobby = standin.world.channel("lobby")
    deny(lobby, standin.world.guilds[0].role("automaton"), EMBED_LINKS)
    async with running_bot(standin, db_path) as driver:
        start = await driver.slash("volfyrion start", {"difficulty": "normal"}, channel="lobby")
        refused = await driver.slash("volfyrion start", {"difficulty": "normal"}, channel="lobby")
        status = await driver.slash("game status", {}, channel="lobby")
        assert status.buttons  # the newest reply's controls (the next replies take them away)
        help_ = await driver.slash("game help", {}, channel="lobby", locale="ja")
        await driver.slash("volfyrion end", {}, channel="lobby")
        end = await driver.slash("volfyrion win", {"how": "attack"}, channel="lobby")
    for reply in (start, refused, status, help_, end):
        assert reply.messages, reply.rejections
        assert all(m.v2 and not m.payload.get("embeds") for m in reply.messages)
    assert "Tylaris" in start.text  # the state is there
    assert start.original.v2 and status.original.v2
    assert refused.ephemeral and "/game abandon" in refused.text
    assert "defeated" in end.text
    assert standin.violations == []


async def test_the_stand_in_refuses_embeds_and_files_a_channel_denies(standin, db_path):
    """What the bot must avoid: the stand-in answers 403 Missing Permissions (50013) for an embed where the
    app lacks Embed Links — the test above fails on code that does not read app_permissions."""
    from discord.http import Route

    lobby = standin.world.channel("lobby")
    deny(lobby, standin.world.guilds[0].role("automaton"), EMBED_LINKS)
    async with running_bot(standin, db_path) as driver:
        import discord

        route = Route("POST", "/channels/{channel_id}/messages", channel_id=lobby.id)
        with pytest.raises(discord.Forbidden) as refused:
            await driver.bot.http.request(route, json={"embeds": [{"title": "x"}]})
        assert refused.value.code == 50013
    standin.violations.clear()


