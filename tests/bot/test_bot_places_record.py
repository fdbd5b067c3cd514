"""Where the player is meets what follows them (issue 36, points 1–3 and 5 together): games played to the end
through real DM and user-install interactions are stored with their place, the player's `/game record` lists them
beside their server games, no server's leaderboard shows them, `/game stats` outside a server shows the player's
own record, the difficulty question works in a DM and in a group DM (its buttons on a private reply, a user
install's followup limit kept), and `/game forget` typed in a DM deletes everything the player owns.

Each game here is played through the stand-in as Discord would send it (context 1 for the DM with the bot,
context 2 with only the user's install for a group DM); the `standin` fixture fails a test on anything Discord
would refuse there (a channel message where the bot's token does not reach, a 6th followup)."""

from __future__ import annotations

import pytest
from play import button, pictured

from bot.store import GameNotFound
from conftest import running_bot


async def win_volfyirion(driver, difficulty: str = "normal", **where) -> None:
    """A Volfyirion game played to its end (a win on turn 2), wherever ``where`` says."""
    start = await driver.slash("volfyrion start", {"difficulty": difficulty}, **where)
    assert not start.ephemeral, start.text
    await driver.slash("volfyrion end", {}, **where)  # a win on turn 1 with the starting deck is refused
    won = await driver.slash("volfyrion win", {"how": "attack"}, **where)
    assert not won.ephemeral, won.text


async def places_of(store, user_id: int) -> list[tuple[str, str]]:
    """(the game's place, its result's place) of each of the player's games, oldest first."""
    found = []
    for game_id in range(1, 20):
        try:
            game = await store.game(game_id)
        except GameNotFound:  # forgotten, or never made
            continue
        if game.owner_id == user_id:
            result = await store.result(game_id)
            found.append((game.place, result.place if result is not None else "-"))
    return found


async def three_places(standin, driver) -> None:
    """The player won a Volfyirion game in the server's #table, in their DM with the bot (hard) and in a group DM
    through their own install (easy)."""
    world = standin.world
    world.user("player").installed = True
    await win_volfyirion(driver, channel="table", user="player")
    await win_volfyirion(driver, "hard", channel=world.dm("player"), user="player")
    await win_volfyirion(driver, "easy", channel=world.group_dm("friends", ["player", "haruka"]), user="player")


@pytest.mark.parametrize("locale", ["en-US", "ja"])
async def test_dm_and_group_dm_games_are_in_the_record_and_in_no_leaderboard(standin, db_path, locale):
    world = standin.world
    async with running_bot(standin, db_path) as driver:
        store = driver.bot.store
        await three_places(standin, driver)
        player = world.user("player")
        assert await places_of(store, player.id) == [("guild", "guild"), ("dm", "dm"), ("group_dm", "group_dm")]

        record = await driver.slash("game record", {}, channel=world.dm("player"), user="player", locale=locale)
        assert record.ephemeral, record.text
        if locale == "ja":
            assert "サーバー1か所" in record.text and "ダイレクトメッセージ（グループを含む）で2ゲーム" in record.text
            for level in ("イージー", "ノーマル", "ハード"):
                assert f"{level}: 1ゲーム・1勝・ベストは" in record.text, record.text
            assert "0敗" not in record.text and "放棄0" not in record.text  # zero counts are not said
        else:
            assert "in 1 server" in record.text and "2 games outside a server" in record.text
            for level in ("easy", "normal", "hard"):
                assert f"{level}: 1 game · 1 won · best: " in record.text, record.text
            assert "0 lost" not in record.text and "0 abandoned" not in record.text

        board = await driver.slash("game leaderboard", {"game": "volfyirion"}, channel="table", locale=locale)
        assert board.text.count("<@") == 1, board.text  # the server's own game, not the two outside it
        ranking = driver.bot.games.get("volfyirion").ranking
        listed = {r.game_id for r in await store.leaderboard(world.guilds[0].id, "volfyirion", ranking=ranking)}
        assert listed == {1}


@pytest.mark.parametrize(("locale", "said", "refused"), [
    ("en-US", "Outside a server, `/game stats` shows your own record", "only your own games"),
    ("ja", "サーバーの外では、`/game stats` はあなた自身の成績を表示します", "あなた自身の成績だけ")])
async def test_stats_in_a_dm_show_the_players_own_record(standin, db_path, locale, said, refused):
    """In a DM there is no server to count for: `/game stats` shows the caller's own record (privately, as
    `/game record`), saying so; another player's games outside a server are theirs alone and are refused."""
    world = standin.world
    async with running_bot(standin, db_path) as driver:
        await three_places(standin, driver)
        dm = world.dm("player")
        stats = await driver.slash("game stats", {}, channel=dm, user="player", locale=locale)
        assert stats.ephemeral and said in stats.text, stats.text
        # The record of every place: the server's game and the two outside a server.
        assert ("in 1 server" in stats.text and "hard: 1 game" in stats.text) if locale != "ja" else \
            ("サーバー1か所" in stats.text and "ハード: 1ゲーム" in stats.text), stats.text
        group = world.group_dm("friends", ["player", "haruka"])
        other = await driver.slash("game stats", {"user": world.user("haruka")}, channel=group, user="player",
                                   locale=locale)
        assert other.ephemeral and refused in other.text, other.text
        # In the server, stats stay the server's (its one game) and point to the record.
        server = await driver.slash("game stats", {}, channel="table", user="player", locale=locale)
        assert not server.ephemeral and "/game record" in server.text
        assert ("1 game" in server.text) if locale != "ja" else ("1ゲーム" in server.text), server.text


@pytest.mark.parametrize("locale", ["en-US", "ja"])
async def test_the_difficulty_question_in_a_dm_and_a_group_dm(standin, db_path, locale):
    """A bare start asks privately in both places; its button starts the game there, in the place's name
    (stored `dm` / `group_dm`); in the group DM every interaction keeps to a user install's 5 followups."""
    world = standin.world
    world.user("player").installed = True
    dm, group = world.dm("player"), world.group_dm("friends", ["player", "haruka"])
    async with running_bot(standin, db_path) as driver:
        store = driver.bot.store
        await win_volfyirion(driver, channel=dm, user="player")
        for channel, place in ((dm, "dm"), (group, "group_dm")):
            ask = await driver.slash("seasons start", {"dice": "bot"}, channel=channel, user="player",
                                     locale=locale)
            assert ask.ephemeral and len(ask.buttons) == 3, ask.text
            assert await store.active_game(channel.id) is None  # nothing stored until the tap
            started = await driver.press(ask.buttons[1]["custom_id"], message=ask.original, user="player",
                                         locale=locale)
            assert not started.ephemeral, started.text
            row = await store.active_game(channel.id)
            assert row is not None and row.place == place and row.options["difficulty"] == "wizard"
            assert row.guild_id is None
            await pictured(started)  # the board follows the tap's reply there too
            tapped = started.record.payload
            assert tapped["context"] == (1 if place == "dm" else 2) and tapped["message"]["flags"] & 64
            if place == "group_dm":  # only the player's install lets the tap through: its followups are counted
                assert tapped["authorizing_integration_owners"] == {"1": str(world.user("player").id)}
                assert standin.followups_taken().get(int(tapped["id"]), 0) <= 5
        # A Volfyirion start after the DM's win suggests from it (the DM's result counts).
        asked = await driver.slash("game abandon", {}, channel=dm, user="player")
        await driver.press(button(asked, "abandon"), message=asked.original, user="player")
        again = await driver.slash("volfyrion start", {}, channel=dm, user="player", locale=locale)
        said = ("前回はノーマルで勝ちました。今回もノーマルにしますか？" if locale == "ja"
                else "You won your last game at normal: normal again?")  # one game there: no tally of zero
        assert again.ephemeral and said in again.text, again.text
    assert max(standin.followups_taken().values(), default=0) <= 5


async def test_forget_typed_in_a_dm_deletes_the_players_games_everywhere(standin, db_path):
    """`/game forget` in the DM with the bot takes the player's games of the server, the DM and the group DM
    (one of them still being played) and their results; another player's DM game stays."""
    world = standin.world
    async with running_bot(standin, db_path) as driver:
        store = driver.bot.store
        await three_places(standin, driver)
        await driver.slash("seasons start", {"difficulty": "wizard", "dice": "bot"}, channel=world.dm("player"),
                           user="player")
        await win_volfyirion(driver, channel=world.dm("haruka"), user="haruka")
        dm = world.dm("player")
        for locale, count in (("ja", "4ゲーム"), ("en-US", "4 games")):
            ask = await driver.slash("game forget", {}, channel=dm, user="player", locale=locale)
            assert ask.ephemeral and count in ask.text, ask.text
        done = await driver.press(button(ask, "forget"), message=ask.original, user="player")
        assert done.ephemeral and "Deleted: 4 games" in done.text, done.text
        assert (await store.user_data(world.user("player").id))["games"] == 0
        assert (await store.record(world.user("player").id))["rows"] == []
        assert await places_of(store, world.user("haruka").id) == [("dm", "dm")]
        nothing = await driver.slash("game record", {}, channel=dm, user="player", locale="ja")
        assert "まだありません" in nothing.text


@pytest.mark.parametrize(("locale", "no_game", "board"), [
    ("ja", "ここにはゲームがありません", "`/game record` で見られます"),
    ("en-US", "There is no game here", "`/game record` shows your own games")])
async def test_what_a_dm_player_reads_names_no_channel(standin, db_path, locale, no_game, board):
    """Replies a DM player reads say "here", never "this channel" (a DM is no channel to them), and the refused
    leaderboard points to the player's own record."""
    dm = standin.world.dm("player")
    async with running_bot(standin, db_path) as driver:
        said = []
        for name in ("game status", "game undo", "game abandon", "game leaderboard"):
            reply = await driver.slash(name, {}, channel=dm, user="player", locale=locale)
            assert reply.ephemeral, reply.text
            said.append(reply.text)
        help_text = (await driver.slash("game help", {}, channel=dm, user="player", locale=locale)).text
    assert no_game in said[0] and board in said[3], said
    for text in [*said, help_text]:
        assert "このチャンネル" not in text and "this channel" not in text, text


def test_the_same_level_tally_says_no_zero_count():
    from bot.commands.suggest import Suggestion, suggestion_text

    def same(wins: int, losses: int) -> Suggestion:
        return Suggestion("wizard", "suggest.same", {"wins": wins, "losses": losses, "count": wins + losses,
                                                     "level": "wizard"})

    assert suggestion_text("ja", same(2, 0)) == "前回は魔法使いでした（魔法使いでの直近2ゲームは2勝）。今回も魔法使いにしますか？"
    assert suggestion_text("ja", same(0, 2)).count("2敗") == 1 and "0勝" not in suggestion_text("ja", same(0, 2))
    assert suggestion_text("ja", same(1, 1)) == "前回は魔法使いでした（魔法使いでの直近2ゲームは1勝1敗）。今回も魔法使いにしますか？"
    assert suggestion_text("en", same(0, 1)) == "You lost your last game at wizard: wizard again?"
    assert suggestion_text("en", same(2, 0)) == "You last played at wizard (2 won of your last 2 there): wizard again?"
