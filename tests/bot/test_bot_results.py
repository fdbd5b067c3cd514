"""Results: leaderboards and stats from finished games; the explicit sync step; the token never logged."""

from __future__ import annotations

import logging

import yarl
from discord.gateway import DiscordWebSocket
from discord.http import Route
from play import play_seasons, play_volfyirion, written_by_the_store

from bot.__main__ import _sync
from bot.config import Config
from engine.seasons.autoplay import play_game as seasons_game
from engine.volfyirion.autoplay import play_game as volfyirion_game


async def test_leaderboard_ranks_margins_and_stats_count_games(driver):
    margins = {}
    for user, seed in (("player", 7), ("haruka", 8)):
        actions, steps = seasons_game("wizard", "bot", seed, extras=False)
        driver.bot.service._new_seed = lambda seed=seed: seed
        await driver.slash("seasons start", {"difficulty": "wizard", "dice": "bot"}, user=user, channel="lobby")
        # The game up to its final score through the store; the score through the bot, which records the result.
        await written_by_the_store(driver, actions[:-1], user=user, channel="lobby")
        await play_seasons(driver, actions[-1:], user=user, channel="lobby", locale="en")
        margins[user] = steps[-1].state.result().margin
    board = await driver.slash("game leaderboard", {"game": "seasons"}, channel="lobby")
    assert not board.ephemeral
    lines = [line for line in board.text.splitlines() if line.startswith("**")]
    ranked = sorted(margins, key=margins.get, reverse=True)
    assert [str(driver.standin.world.user(u).id) in line for u, line in zip(ranked, lines, strict=True)] == [True] * 2
    best = margins[ranked[0]]  # a real minus sign and the unit, as every other score (ja-style)
    assert (f"+{best} point" if best >= 0 else f"−{-best} point") in lines[0]
    only_archmage = await driver.slash("game leaderboard", {"game": "seasons", "difficulty": "archmage"})
    assert "No finished games" in only_archmage.text
    stats = await driver.slash("game stats", {"user": str(driver.standin.world.user("haruka").id)}, locale="ja")
    assert "1ゲーム" in stats.text


async def test_volfyirion_leaderboard_lists_fastest_wins(driver):
    game = next(g for g in (volfyirion_game(s, max_actions=400) for s in range(40))
                if g.state.finished and g.state.result().outcome == "won")
    driver.bot.service._new_seed = lambda: game.seed
    await driver.slash("volfyrion start", {"difficulty": game.options["difficulty"]})
    await play_volfyirion(driver, game.actions)
    board = await driver.slash("game leaderboard", {"game": "volfyirion"})
    assert f"won on turn {game.state.result().length}" in board.text


async def test_sync_is_an_explicit_step_and_never_logs_the_token(standin, tmp_path, caplog):
    saved = Route.BASE, DiscordWebSocket.DEFAULT_GATEWAY
    Route.BASE, DiscordWebSocket.DEFAULT_GATEWAY = standin.api_base, yarl.URL(standin.gateway_url)
    caplog.set_level(logging.DEBUG)
    try:
        config = Config(token=standin.bot_token, db_path=tmp_path / "db.sqlite3")
        assert await _sync(config, None) == 0
        guild = standin.world.guilds[0].id
        assert await _sync(config, guild) == 0
    finally:
        Route.BASE, DiscordWebSocket.DEFAULT_GATEWAY = saved
    # The guild sync clears the global set: the same commands are never registered twice (issue 11, point 5).
    assert standin.synced[None] == []
    assert {c["name"] for c in standin.synced[guild]} == {"seasons", "volfyrion", "game"}
    assert standin.bot_token not in caplog.text
    assert standin.bot_token not in repr(config)
