"""Where a solo player is (issue 36, points 1, 2 and 6): whole games in the DM with the bot and in a group DM
reached through a user install, a game in a server that never added the bot, abandon without a manager, and what
Discord's client does not offer — end to end through the stand-in with a real client and SQLite file.

The tests' stand-in refuses what Discord refuses there (a channel message where the bot's token does not reach,
a 6th followup of a user install's interaction) and the `standin` fixture fails a test on any refusal, so each
game here also shows the bot kept to those limits."""

from __future__ import annotations

import discord
import pytest
from play import button, export, pictured, play_seasons, play_volfyirion

from bot.places import BOT_DM, GUILD, PRIVATE_CHANNEL, followup_allowed, place_of
from bot.sessions import summary_json
from bot.standin.driver import message_text
from conftest import running_bot
from engine.seasons.autoplay import play_game as seasons_game
from engine.seasons.rules import SeasonsRules
from engine.volfyirion.autoplay import play_game as volfyirion_game
from engine.volfyirion.rules import VolfyirionRules
from tests.support.standin import APPLICATION_COMMAND, DriverError, channel_posts

SEED = 7  # the test bot's seed (conftest.BOT_SEED): the engine's game of the same seed is the bot's


def result_cards(reply) -> list:
    return [m for m in reply.messages if m.kind == "followup" and m.v2
            and any(f.filename == "result-card.png" for f in m.media)]


async def test_a_whole_seasons_game_in_a_dm_with_the_bot_in_japanese(standin, db_path):
    """Point 1: start, buttons, forms, undo, status with its picture, export and the result card — all in
    haruka's DM with the bot (context 1, no guild), in her language; the card stays in the DM."""
    dm = standin.world.dm("haruka")
    actions, steps = seasons_game("wizard", "bot", SEED)
    async with running_bot(standin, db_path) as driver:
        start = await driver.slash("seasons start", {"difficulty": "wizard", "dice": "bot"}, channel=dm,
                                   user="haruka")
        assert not start.ephemeral, start.text
        payload = start.record.payload
        assert payload["context"] == 1 and "guild_id" not in payload and "member" not in payload
        await pictured(start)  # the season wheel follows the reply in the DM too
        assert "ダムボット" in start.text
        await play_seasons(driver, actions[:4], channel=dm, user="haruka")
        undone = await driver.slash("game undo", {}, channel=dm, user="haruka")
        assert not undone.ephemeral and "取り消しました" in undone.text
        status = await pictured(await driver.slash("game status", {}, channel=dm, user="haruka"))
        assert not status.ephemeral
        final = await play_seasons(driver, actions[3:], channel=dm, user="haruka")
        record = await export(driver, channel=dm, user="haruka")
        row = await driver.bot.store.game(record["game_id"])
        result = await driver.bot.store.result(record["game_id"])
    assert (row.guild_id, row.channel_id, row.owner_id) == (None, dm.id, standin.world.user("haruka").id)
    assert row.place == "dm" and result is not None and result.place == "dm"  # the record's, no leaderboard's
    expected = steps[-1].state
    assert record["actions"] == [a.to_json() for a in actions]
    assert record["state"] == summary_json(expected.summary())
    assert record["result"] == expected.result().to_json(SeasonsRules.result_names)
    cards = result_cards(final)
    assert cards and all(m.channel_id == dm.id for m in cards), final.text
    title = "🏆 ダムボットに勝利！" if expected.result().outcome == "won" else "今回はダムボットの勝ち"
    assert any(f"## {title}" in m.text for m in cards)
    assert channel_posts(final) == []  # no parent, nothing posted with the bot's token


async def test_a_whole_volfyirion_game_in_a_group_dm_through_a_user_install(standin, db_path):
    """Point 2: player installed the app to their account and plays in a group DM with haruka (context 2, only
    the user's install authorizes it): every reply through the interaction, pictures and the result card
    included, never more than 5 followups for one interaction, no channel message (the stand-in refuses them
    there). haruka, who did not install it, is offered no command; her press on the game's button is refused."""
    world = standin.world
    world.user("player").installed = True
    group = world.group_dm("friends", ["player", "haruka"])
    game = volfyirion_game(3, max_actions=400, options={"difficulty": "hard"})
    assert game.state.finished
    async with running_bot(standin, db_path, seed=3) as driver:
        start = await driver.slash("volfyrion start", {"difficulty": "hard"}, channel=group, user="player")
        assert not start.ephemeral, start.text
        payload = start.record.payload
        assert payload["context"] == 2 and "guild_id" not in payload
        assert payload["authorizing_integration_owners"] == {"1": str(world.user("player").id)}
        with pytest.raises(DriverError):  # Discord's client offers haruka nothing here
            await driver.slash("game status", {}, channel=group, user="haruka")
        if start.buttons:
            pressed = await driver.press(start.buttons[0]["custom_id"], user="haruka", locale="ja")
            assert pressed.ephemeral
        world.user("haruka").installed = True  # now she has the app too, but the game is player's
        refused = await driver.slash("game abandon", {}, channel=group, user="haruka")
        assert refused.ephemeral and "ここにはサーバー管理者がいません" in refused.text
        status = await pictured(await driver.slash("game status", {}, channel=group, user="player"))
        assert not status.ephemeral
        final = await play_volfyirion(driver, game.actions, channel=group, user="player")
        record = await export(driver, channel=group, user="player")
        row = await driver.bot.store.game(record["game_id"])
        result = await driver.bot.store.result(record["game_id"])
    assert row.place == "group_dm" and result is not None and result.place == "group_dm"
    assert record["state"] == summary_json(game.state.summary())
    assert record["result"] == game.state.result().to_json(VolfyirionRules.result_names)
    cards = result_cards(final)
    assert cards and all(m.channel_id == group.id for m in cards), final.text
    assert channel_posts(final) == []
    taken = standin.followups_taken()
    assert taken and max(taken.values()) <= 5  # the result card was a followup; none went past the limit


async def test_a_game_in_a_server_without_the_bot_keeps_its_result_in_the_thread(standin, db_path):
    """Point 2: a server that never added the bot, reached through player's user install: a game in a thread
    there ends with its card in the thread, saying once why it is not in the parent channel; undoing the end says
    the card above cannot be marked withdrawn here. No channel message, no edit with the bot's token."""
    world = standin.world
    world.user("player").installed = True
    guild = world.add_guild("Friends' Server", bot_member=False)
    parent = guild.add_channel("general")
    thread = guild.add_channel("solo", parent=parent)
    async with running_bot(standin, db_path) as driver:
        assert driver.bot.get_guild(guild.id) is None  # the gateway never told the bot of it
        start = await driver.slash("volfyrion start", {"difficulty": "normal"}, channel=thread)
        assert not start.ephemeral, start.text
        assert start.record.payload["guild_id"] == str(guild.id)
        assert start.record.payload["authorizing_integration_owners"] == {"1": str(world.user("player").id)}
        await driver.slash("volfyrion end", {}, channel=thread)
        won = await driver.slash("volfyrion win", {"how": "attack"}, channel=thread)
        assert "not a member of this server" in won.text and channel_posts(won) == []
        assert result_cards(won)
        undone = await driver.slash("game undo", {}, channel=thread, locale="ja")
        assert not undone.ephemeral and "上の結果カードは投稿したときのまま残ります" in undone.text
    with pytest.raises(DriverError):  # haruka has no user install: Discord offers her nothing there
        async with running_bot(standin, db_path) as driver:
            await driver.slash("game status", {}, channel=thread, user="haruka")


@pytest.mark.parametrize(("user", "locale", "done"), [("player", "en-US", "was abandoned"),
                                                       ("haruka", "ja", "放棄")])
async def test_abandon_in_a_dm_needs_no_manager(standin, db_path, user, locale, done):
    """Point 1: in a DM there is no server and no manager: the game's owner (the DM's player) abandons it."""
    dm = standin.world.dm(user)
    async with running_bot(standin, db_path) as driver:
        await driver.slash("volfyrion start", {"difficulty": "normal"}, channel=dm, user=user)
        asked = await driver.slash("game abandon", {}, channel=dm, user=user)
        assert asked.ephemeral and asked.buttons, asked.text
        gone = await driver.press(button(asked, "abandon"), message=asked.original, user=user)
        assert not gone.ephemeral and done in gone.text, gone.text
        status = await driver.slash("game status", {}, channel=dm, user=user, locale=locale)
        assert status.ephemeral or "abandon" in status.text.lower() or "放棄" in status.text


async def test_a_command_where_it_is_not_registered_is_not_offered(standin, db_path):
    """Point 6: Discord's client offers a command only in the contexts and through the installs it is registered
    for: an older registration for servers only is not offered in a DM; a group DM or a server without the bot
    needs the user's own install."""
    world = standin.world
    group = world.group_dm("friends", ["player", "haruka"])
    async with running_bot(standin, db_path) as driver:
        with pytest.raises(DriverError):  # no user install yet
            await driver.slash("volfyrion start", {"difficulty": "normal"}, channel=group)
        world.user("player").installed = True
        started = await driver.slash("volfyrion start", {"difficulty": "normal"}, channel=group)
        assert not started.ephemeral
        for command in driver.schema:  # as registered before issue 36
            command["contexts"], command["integration_types"] = [0], [0]
        with pytest.raises(DriverError):
            await driver.slash("game status", {}, channel=world.dm("player"))
        fine = await driver.slash("game status", {}, channel="table")
        assert fine.ephemeral  # no game in #table: a private "no game here"


async def test_undoing_a_dm_games_end_withdraws_its_card_in_the_dm(standin, db_path):
    """Point 1: the bot's token reaches its own DM, so undoing the end of a DM game marks the card there
    withdrawn, as in a server."""
    dm = standin.world.dm("player")
    async with running_bot(standin, db_path) as driver:
        await driver.slash("volfyrion start", {"difficulty": "normal"}, channel=dm)
        await driver.slash("volfyrion end", {}, channel=dm)
        won = await driver.slash("volfyrion win", {"how": "attack"}, channel=dm)
        card = result_cards(won)[0]
        undone = await driver.slash("game undo", {}, channel=dm)
        assert not undone.ephemeral and "cannot edit it here" not in undone.text
        edited = "\n".join(message_text(standin.messages[card.id].payload))
        assert edited.startswith("## Withdrawn — ")


async def test_each_place_is_read_from_what_discord_sends_and_a_sixth_followup_is_held_back(standin, db_path):
    """bot.places on the interactions the stand-in sends (real discord.py objects): the bot is present in its
    servers and its DM, not in a group DM or a server that never added it; a command there sends at most 5
    followups, the 6th is held back (the stand-in would refuse it), once logged."""
    world = standin.world
    world.user("player").installed = True
    elsewhere = world.add_guild("Elsewhere", bot_member=False).add_channel("general")
    places = {"table": (GUILD, True), world.dm("player").name: (BOT_DM, True),
              world.group_dm("friends", ["player", "haruka"]).name: (PRIVATE_CHANNEL, False),
              elsewhere.name: (GUILD, False)}
    async with running_bot(standin, db_path) as driver:
        for name, (kind, present) in places.items():
            record = standin.new_interaction(APPLICATION_COMMAND, {"name": "game", "type": 1},
                                             user=world.user("player"), channel=world.channel(name))
            interaction = discord.Interaction(data=record.payload, state=driver.bot._connection)
            place = place_of(interaction)
            assert (place.kind, place.bot_present) == (kind, present), name
            allowed = [followup_allowed(interaction) for _ in range(6)]
            assert allowed == ([True] * 5 + [False] if place.followups_limited else [True] * 6), name
