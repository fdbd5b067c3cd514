"""Whole games through the real client and the stand-in: slash commands, buttons, forms, restarts, undo.

Each game's actions come from the engines' seeded random players; the bot must end in exactly the state
the engine reaches on its own with the same seed and actions (nothing lost, nothing doubled).

One whole game per game and dice mode goes through the bot here (in English; the console's whole games in
tests/bot/test_bot_console_games.py are in Japanese and play the other difficulties): the engine tests play
every difficulty whole (Seasons: test_s2_4_a_whole_game_told_its_prelude_never_contradicts_the_hand for each
difficulty and dice mode, the locale sweep over 40 seeds; Volfyirion:
test_v1_6_every_difficulty_plays_a_whole_game), so a matrix here would only replay them more slowly.
"""

from __future__ import annotations

import asyncio

import pytest
from play import (
    button,
    export,
    pictured,
    play_seasons,
    play_volfyirion,
    seasons_command,
    written_by_the_store,
)

from bot.sessions import summary_json
from conftest import running_bot
from engine.core import GameRecord
from engine.seasons import RULES as SEASONS
from engine.seasons.autoplay import play_game as seasons_game
from engine.seasons.rules import SeasonsRules
from engine.volfyirion import RULES as VOLFYIRION
from engine.volfyirion.autoplay import play_game as volfyirion_game
from engine.volfyirion.rules import VolfyirionRules

SEED = 7


@pytest.mark.parametrize("dice", ["table", "bot"])
async def test_whole_seasons_game_through_commands_buttons_and_forms(driver, standin, dice):
    difficulty = "wizard"
    actions, steps = seasons_game(difficulty, dice, SEED)
    start = await driver.slash("seasons start", {"difficulty": difficulty, "dice": dice})
    assert not start.ephemeral, start.text
    await pictured(start)  # the season wheel follows the start's reply
    final = await play_seasons(driver, actions)
    record = await export(driver)
    expected = steps[-1].state
    assert record["game"] == "seasons"
    assert record["seed"] == SEED
    assert record["actions"] == [a.to_json() for a in actions]
    assert record["state"] == summary_json(expected.summary())
    assert record["result"] == expected.result().to_json(SeasonsRules.result_names)
    assert record["result"]["outcome"] in ("won", "lost")
    # The public result card: in the channel, as a message of its own.
    cards = [m for m in final.messages if m.kind in ("followup", "channel") and m.v2
             and any(f.filename == "result-card.png" for f in m.media)]
    assert cards, final.text
    assert any(str(expected.result().opponent_score) in str(m.payload) for m in cards)


async def test_whole_volfyirion_game_through_commands(driver):
    seed = 3
    game = volfyirion_game(seed, max_actions=400, options={"difficulty": "hard"})
    assert game.state.finished
    await driver.slash("volfyrion start", {"difficulty": "hard"})
    await play_volfyirion(driver, game.actions)
    record = await export(driver)
    assert record["game"] == "volfyirion"
    assert record["state"] == summary_json(game.state.summary())
    assert record["result"] == game.state.result().to_json(VolfyirionRules.result_names)


async def test_volfyirion_lost_game_posts_a_defeat(standin, db_path):
    # Look for a seed whose random game ends with every city destroyed.
    for seed in range(200):
        game = volfyirion_game(seed, max_actions=400, options={"difficulty": "hard"}, allow_win=False)
        if game.state.finished and game.state.result().outcome == "lost":
            break
    else:
        pytest.skip("no lost game among the seeds tried")
    async with running_bot(standin, db_path, seed=seed) as driver:
        await driver.slash("volfyrion start", {"difficulty": "hard"})
        final = await play_volfyirion(driver, game.actions)
        # The reply itself says so (the result card is a later message: its arrival is not waited for here).
        assert "Your last city has fallen" in final.text
        record = await export(driver)
        assert record["result"]["outcome"] == "lost" and record["result"]["how"] == "cities_destroyed"


async def test_restart_in_the_middle_carries_on(standin, db_path):
    actions, steps = seasons_game("wizard", "bot", SEED)
    half = len(actions) // 2
    # The bot plays a round of actions on each side of the restart; the rest of the game goes in through the
    # store (the whole game through the bot is test_whole_seasons_game_…), and the bot ends it.
    async with running_bot(standin, db_path) as driver:
        await driver.slash("seasons start", {"difficulty": "wizard", "dice": "bot"})
        await written_by_the_store(driver, actions[:half - 3])
        await play_seasons(driver, actions[half - 3:half])
        before = await driver.slash("game status", {})
    # A new client, the same database file: the game carries on where it was.
    async with running_bot(standin, db_path) as driver:
        status = await driver.slash("game status", {})
        assert status.text == before.text
        await play_seasons(driver, actions[half:half + 3])
        await written_by_the_store(driver, actions[half + 3:-1])
        await play_seasons(driver, actions[-1:])
        record = await export(driver)
    assert record["actions"] == [a.to_json() for a in actions]
    assert record["state"] == summary_json(steps[-1].state.summary())


async def test_volfyirion_restart_keeps_a_pending_attack(standin, db_path):
    game = volfyirion_game(5, max_actions=400)
    reveal_at = next(i for i, a in enumerate(game.actions) if a.type == "reveal")
    async with running_bot(standin, db_path) as driver:
        await driver.slash("volfyrion start", {"difficulty": "normal"})
        waiting = await play_volfyirion(driver, game.actions[:reveal_at])
        assert button(waiting, "reveal")
    async with running_bot(standin, db_path) as driver:
        opened = await driver.press(button(waiting, "reveal"))
        assert opened.modal is not None
        reply = await driver.submit(opened.modal["custom_id"], {"cards": ", ".join(game.actions[reveal_at].args["cards"])})
        assert not reply.ephemeral, reply.text
        await play_volfyirion(driver, game.actions[reveal_at + 1:])
        record = await export(driver)
    assert record["state"] == summary_json(game.state.summary())


async def test_undo_is_repeatable_and_equals_replay(driver):
    actions, _ = seasons_game("archmage", "table", SEED, extras=False)
    await driver.slash("seasons start", {"difficulty": "archmage", "dice": "table"})
    await play_seasons(driver, actions[:12], use_buttons=False)
    for _ in range(3):
        reply = await driver.slash("game undo", {})
        assert not reply.ephemeral and "Taken back" in reply.text, reply.text
    record = await export(driver)
    replay = GameRecord.replay(SEASONS, {"difficulty": "archmage", "dice": "table"}, SEED, actions[:9])
    assert record["actions"] == [a.to_json() for a in actions[:9]]
    assert record["state"] == summary_json(replay.state.summary())
    # Undo by button too.
    reply = await driver.slash(*seasons_command(actions[9]))
    reply = await driver.press(button(reply, "undo"))
    assert (await export(driver))["state"] == summary_json(replay.state.summary())


async def test_undo_after_the_final_score_reopens_the_game(driver):
    actions, steps = seasons_game("apprentice", "bot", SEED, extras=False)
    await driver.slash("seasons start", {"difficulty": "apprentice", "dice": "bot"})
    await written_by_the_store(driver, actions[:-2])  # near the end: the last two actions through the bot
    await play_seasons(driver, actions[-2:])
    assert (await export(driver))["result"] is not None
    await driver.slash("game undo", {})
    record = await export(driver)
    assert record["result"] is None and record["status"] == "active"
    score = await driver.slash(*seasons_command(actions[-1]))
    assert not score.ephemeral
    assert (await export(driver))["result"] == steps[-1].state.result().to_json(SeasonsRules.result_names)


async def test_game_in_a_thread_posts_the_result_in_the_parent(driver, standin):
    actions, steps = seasons_game("apprentice", "bot", SEED, extras=False)
    thread = standin.world.channel("session")
    await driver.slash("seasons start", {"difficulty": "apprentice", "dice": "bot"}, channel=thread)
    await written_by_the_store(driver, actions[:-2], channel=thread)  # near the end: the rest through the bot
    await play_seasons(driver, actions[-2:], channel=thread)
    # The parent's card may come a moment after the reply on a busy machine: look in the channel itself.
    for _ in range(100):
        parent_posts = [m for m in standin.messages.values() if m.channel_id == thread.parent_id]
        if parent_posts:
            break
        await asyncio.sleep(0.05)
    assert len(parent_posts) == 1
    assert str(steps[-1].state.result().player_score) in str(parent_posts[0].payload)


async def test_export_fields_follow_the_design(driver):
    await driver.slash("volfyrion start", {"difficulty": "easy", "bonus": "flat"})
    record = await export(driver)
    assert set(record) >= {"game", "options", "seed", "actions", "state", "result"}
    state = record["state"]
    assert set(state) >= {"turn", "cities", "rage_pile", "token", "wonders"}
    assert set(state["cities"][0]) >= {"name", "defence", "destroyed", "troop", "building"}
    assert set(state["rage_pile"]) >= {"size", "top"}
    assert record["options"]["bonus"] == "flat" and record["result"] is None
    assert record["seed"] is None  # withheld while the game is played (issue 37)
    fresh = GameRecord(VOLFYIRION, record["options"], SEED)
    assert state == summary_json(fresh.state.summary())
