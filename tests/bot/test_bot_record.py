"""Issue 36, points 3 and 5, end to end through the stand-in with a real client and store: a player's record follows
them across servers and DMs (/game record), a server's leaderboard and stats count only its own games, a start
without a difficulty asks with a suggestion from that history, and /game forget takes the player's games wherever
they were played.

A game in a DM is written to the store as the DM's (guild None, place "dm"): branch dm brings the DM interactions
themselves; the record and forget read the store, which is what these tests need of a DM game."""

from __future__ import annotations

import itertools

import pytest
from play import button

from bot.store import FinishInfo
from conftest import _install_conformance, running_bot
from tests.support.standin import StandIn, World

_channels = itertools.count(900_000)


def two_servers() -> World:
    world = World.default()
    second = world.add_guild("Second Table")
    second.add_channel("den")
    return world


@pytest.fixture
async def standin_two(db_path):
    server = StandIn(two_servers())
    await server.start()
    _install_conformance(server)
    yield server
    await server.close()
    assert server.violations == [], server.violations
    assert server.unknown_routes == []


async def win_volfyirion(driver, **where) -> None:
    start = await driver.slash("volfyrion start", {"difficulty": "normal"}, **where)
    assert not start.ephemeral, start.text
    await driver.slash("volfyrion end", {}, **where)  # a win on turn 1 with the starting deck is refused
    won = await driver.slash("volfyrion win", {"how": "attack"}, **where)
    assert not won.ephemeral, won.text


async def stored_result(store, user_id: int, *, guild: int | None, kind: str = "seasons", difficulty: str = "wizard",
                        outcome: str = "won", score: tuple[int, int] = (150, 100), when: str = "2026-01-01") -> int:
    """A finished game written as the store keeps one: a DM's when ``guild`` is None."""
    game = await store.create_game(guild_id=guild, channel_id=next(_channels), parent_channel_id=None,
                                   owner_id=user_id, kind=kind, options={"difficulty": difficulty}, seed=1)
    finish = FinishInfo("finished", outcome, difficulty, score[0], score[1], 8, None, when)
    await store.append_action(game.id, expected_ply=0, action={"type": "end"}, user_id=user_id, finish=finish)
    return game.id


@pytest.mark.parametrize("locale", ["en-US", "ja"])
async def test_the_record_spans_two_servers_and_a_dm_and_a_leaderboard_only_its_server(standin_two, db_path, locale):
    async with running_bot(standin_two, db_path) as driver:
        world, store = standin_two.world, driver.bot.store
        player = world.user("player")
        await win_volfyirion(driver, channel="table", user="player")
        await win_volfyirion(driver, channel="den", user="player")
        dm_game = await stored_result(store, player.id, guild=None, score=(190, 100))  # +90 in a DM
        assert (await store.game(dm_game)).place == "dm"

        record = await driver.slash("game record", {}, channel="den", user="player", locale=locale)
        assert record.ephemeral  # it tells where the player played: theirs alone
        if locale == "ja":
            assert "サーバー2か所" in record.text and "ダイレクトメッセージ（グループを含む）で1ゲーム" in record.text
            assert "1ゲーム・1勝・ベストは" in record.text and "2ゲーム・2勝・ベストは" in record.text
            assert "0敗" not in record.text and "放棄0" not in record.text  # zero counts are not said
            assert "+90点" in record.text or "＋90点" in record.text
        else:
            assert "in 2 servers" in record.text and "1 game outside a server" in record.text
            assert "normal: 2 games · 2 won · best: " in record.text
            assert "wizard: 1 game · 1 won · best: " in record.text and "+90" in record.text

        # The server's leaderboard and stats: its own games only; the DM's result is in neither.
        board = await driver.slash("game leaderboard", {"game": "seasons"}, channel="table", locale=locale)
        assert "+90" not in board.text and "＋90" not in board.text
        stats = await driver.slash("game stats", {}, channel="table", user="player", locale=locale)
        assert ("1 game" in stats.text and "/game record" in stats.text) if locale != "ja" else \
            ("1ゲーム" in stats.text and "/game record" in stats.text)
        ranking = driver.bot.games.get("seasons").ranking
        for guild in world.guilds:  # in no server's leaderboard, though it is the player's best
            assert dm_game not in {r.game_id for r in await store.leaderboard(guild.id, "seasons", ranking=ranking)}


async def test_record_with_nothing_played(driver):
    reply = await driver.slash("game record", {}, user="haruka", locale="ja")
    assert reply.ephemeral and "まだありません" in reply.text


async def _history(driver, user: str, outcomes: list[str], difficulty: str = "wizard", kind: str = "seasons") -> None:
    store, user_id = driver.bot.store, driver.standin.world.user(user).id
    for day, outcome in enumerate(outcomes, 1):  # oldest first; one of them in a DM
        await stored_result(store, user_id, guild=None if day == 2 else driver.standin.world.guilds[0].id,
                            kind=kind, difficulty=difficulty, outcome=outcome, when=f"2026-01-{day:02}")


async def test_a_start_without_difficulty_suggests_the_next_harder_and_one_tap_starts_it(driver):
    await _history(driver, "player", ["lost", "won", "won", "won"])  # 3 of the last 4 won at wizard
    ask = await driver.slash("seasons start", {"dice": "bot"}, user="player", channel="table")
    assert ask.ephemeral and "You won 3 of your last 4 games at wizard: try archmage?" in ask.text
    assert [b["label"] for b in ask.buttons] == ["archmage", "apprentice", "wizard"]
    assert ask.buttons[0]["style"] == 1 and all(b["style"] == 2 for b in ask.buttons[1:])  # the suggestion first
    assert await driver.bot.store.active_game(driver.standin.world.channel("table").id) is None  # nothing yet

    other = await driver.press(ask.buttons[0]["custom_id"], message=ask.original, user="haruka")
    assert other.ephemeral and "本人だけ" in other.text

    started = await driver.press(ask.buttons[0]["custom_id"], message=ask.original, user="player")
    assert not started.ephemeral
    row = await driver.bot.store.active_game(driver.standin.world.channel("table").id)
    assert row is not None and row.options["difficulty"] == "archmage" and row.options["dice"] == "bot"
    again = await driver.press(ask.buttons[0]["custom_id"], message=ask.original, user="player")
    assert again.ephemeral  # a second tap while that game is on: refused as any start in a busy channel


async def test_the_suggestion_in_japanese_an_easier_level_and_the_same_level(driver):
    await _history(driver, "haruka", ["lost", "lost", "won", "lost"], difficulty="archmage")
    ask = await driver.slash("seasons start", {"dice": "table"}, user="haruka", channel="table", locale="ja")
    assert "大魔導師では直近4ゲームで3敗しています。魔法使いにしますか？" in ask.text
    assert ask.buttons[0]["label"] == "魔法使い" and ask.buttons[0]["style"] == 1
    await _history(driver, "player", ["won", "lost"], difficulty="normal", kind="volfyirion")
    same = await driver.slash("volfyrion start", {}, user="player", channel="lobby")
    assert "You last played at normal (1 won, 1 lost of your last 2 there): normal again?" in same.text
    started = await driver.press(button(same, "begin", same.buttons[0]["custom_id"].split(":")[4]),
                                 message=same.original, user="player")
    assert not started.ephemeral
    row = await driver.bot.store.active_game(driver.standin.world.channel("lobby").id)
    assert row is not None and row.kind == "volfyirion" and row.options["difficulty"] == "normal"


async def test_a_first_start_without_difficulty_asks_with_no_suggestion(driver):
    ask = await driver.slash("volfyrion start", {}, user="haruka", channel="lobby", locale="ja")
    assert ask.ephemeral and "難易度を下から選んでください" in ask.text
    assert all(b["style"] == 2 for b in ask.buttons) and len(ask.buttons) == 3


async def test_a_question_from_before_a_restart_says_so(standin, db_path):
    async with running_bot(standin, db_path) as driver:
        ask = await driver.slash("seasons start", {"dice": "bot"}, user="player")
    async with running_bot(standin, db_path) as driver:
        late = await driver.press(ask.buttons[0]["custom_id"], message=ask.original, user="player")
        assert late.ephemeral and "out of date" in late.text
        assert await driver.bot.store.count_games() == 0


@pytest.mark.parametrize("locale", ["en-US", "ja"])
async def test_forget_takes_the_players_games_from_servers_and_dms(driver, locale):
    store, world = driver.bot.store, driver.standin.world
    player = world.user("player")
    await driver.slash("seasons start", {"difficulty": "wizard", "dice": "bot"}, user="player", channel="table")
    await stored_result(store, player.id, guild=None)  # a DM game
    grouped = await store.create_game(guild_id=None, channel_id=next(_channels), parent_channel_id=None,
                                      owner_id=player.id, kind="seasons", options={"difficulty": "wizard"}, seed=1,
                                      place="group_dm")
    kept = await stored_result(store, world.user("haruka").id, guild=None)
    ask = await driver.slash("game forget", {}, user="player", channel="table", locale=locale)
    assert ("3 games" in ask.text and "DM" in ask.text) if locale != "ja" else ("3ゲーム" in ask.text and "ダイレクトメッセージ" in ask.text)
    done = await driver.press(button(ask, "forget"), message=ask.original, user="player", locale=locale)
    assert done.ephemeral
    assert (await store.user_data(player.id))["games"] == 0
    assert (await store.record(player.id))["rows"] == []
    assert grouped.place == "group_dm" and await store.result(kept) is not None


def test_the_console_takes_the_suggestion_with_press_1(tmp_path):
    """`press N` in the console, in Japanese: three wins at normal, then a start without a difficulty suggests
    hard, and `press 1` starts it."""
    import os
    import subprocess
    import sys
    from pathlib import Path

    win = "/volfyrion start difficulty:normal\n/volfyrion end\n/volfyrion win how:attack\n"
    script = win * 3 + "/volfyrion start\npress 1\n/game record\n"
    done = subprocess.run([sys.executable, "-m", "bot", "console", "--lang", "ja", "--db", str(tmp_path / "c.sqlite3")],
                          input=script, capture_output=True, text=True, timeout=240,
                          cwd=Path(__file__).resolve().parents[2], env=dict(os.environ, SOLO_BOT_SEED="1"))
    assert done.returncode == 0 and "Traceback" not in done.stderr + done.stdout, done.stderr
    out = done.stdout
    assert "ノーマルでは直近3ゲームで3勝しています。ハードに挑戦しますか？" in out
    assert "[1] ハード  [2] イージー  [3] ノーマル" in out
    import json
    import sqlite3

    with sqlite3.connect(tmp_path / "c.sqlite3") as db:
        [(options,)] = db.execute("SELECT options FROM games WHERE status = 'active'").fetchall()
    assert json.loads(options)["difficulty"] == "hard"  # what `press 1` started
    assert "ノーマル: 3ゲーム・3勝・ベストは" in out


def _results(*pairs: tuple[str, str]) -> list:
    """Results newest first: (difficulty, outcome) pairs."""
    from bot.store import ResultRow

    return [ResultRow(i, None, 7, "seasons", outcome, level, None, None, None, None, f"2026-01-{30 - i:02}", 7)
            for i, (level, outcome) in enumerate(pairs)]


def test_the_suggestion_rule_at_its_edges():
    from bot.commands.suggest import suggest

    levels = ("apprentice", "wizard", "archmage")
    assert suggest([], levels) is None
    won = suggest(_results(*[("archmage", "won")] * 3), levels)  # the hardest: again
    assert won is not None and (won.difficulty, won.key) == ("archmage", "suggest.top")
    lost = suggest(_results(*[("apprentice", "lost")] * 4), levels)  # the easiest: again
    assert lost is not None and (lost.difficulty, lost.key) == ("apprentice", "suggest.bottom")
    # Only the games at the level played last count, up to 4: two wins there and older wins elsewhere → same.
    mixed = suggest(_results(("wizard", "won"), ("wizard", "won"), ("apprentice", "won"), ("apprentice", "won")),
                    levels)
    assert mixed is not None and (mixed.difficulty, mixed.key, mixed.params["count"]) == ("wizard", "suggest.same", 2)
    # A fifth, older result at that level is past the window.
    window = suggest(_results(("wizard", "won"), ("wizard", "won"), ("wizard", "lost"), ("wizard", "lost"),
                              ("wizard", "won")), levels)
    assert window is not None and window.key == "suggest.same" and window.params["count"] == 4
    assert suggest(_results(("retired", "won")), levels) is None  # a level the game no longer has
