"""At the table (issue 10): compact replies, the result post worth sharing and its withdrawal, pictures in
the user's language."""

from __future__ import annotations

import io
import re

from PIL import Image
from play import button, export, has_board, pictured, play_seasons, play_volfyirion

from bot.standin.driver import Reply, media_urls, message_text, pressable
from bot.standin.protocol import MESSAGE_COMPONENT
from conftest import BOT_SEED
from engine.seasons.autoplay import play_game as seasons_game
from engine.volfyirion.autoplay import play_game as volfyirion_game
from tests.support.seasons_typed import seasons_command


def state_fields(reply: Reply) -> list[str]:
    """The names of the state's fields a reply shows (a line "**name**: value", or "**name**" above its lines)."""
    return re.findall(r"^\*\*(.+?)\*\*(?::|$)", reply.text, re.M)


async def look_privately(driver, reply: Reply) -> None:
    """The "State" button shows the full state and the picture, privately, to whoever asks (a look changes
    nothing: the reply stays the game's live message)."""
    state_id = next(b["custom_id"] for b in reply.buttons if b.get("label") == "State")
    looked = await driver.press(state_id, user="haruka", locale="ja")
    assert looked.ephemeral
    assert "ダムボットのクリスタル" in looked.text and has_board(await pictured(looked))
    assert pressable(driver.standin.messages[reply.original.id].payload)


def _result_posts(reply: Reply) -> list:
    return [m for m in reply.messages
            if m.v2 and m.text.startswith(("## 🏆", "## Dummbot wins", "## Volfyirion destroyed"))]


async def result_message(reply: Reply):
    """The result card: a followup of the final command's reply (waited for, however late it comes)."""
    await reply.until(lambda r: bool(_result_posts(r)))
    return _result_posts(reply)[0]


async def test_replies_are_compact_unless_what_a_player_looks_at_changed(driver):
    actions, steps = seasons_game("wizard", "table", BOT_SEED, extras=False)
    pictures = driver.bot.controller.pictures
    started = await driver.slash("seasons start", {"difficulty": "wizard", "dice": "table"})
    # The start: the full state and the picture (which follows the reply).
    assert "Dummbot's crystals" in state_fields(started) and has_board(await pictured(started))
    compact: Reply | None = None
    full = 0
    for action, step in zip(actions, steps[1:], strict=False):
        if action.type != "die" or (compact is not None and full):
            break
        name, options = seasons_command(action)
        queued = pictures.submitted
        reply = await driver.slash(name, options)
        changed = any(e.key.endswith(("season_changed", "new_year")) for e in step.events)
        has_state = "Dummbot's crystals" in state_fields(reply)
        has_picture = pictures.submitted > queued  # a picture follows this reply: wait for it
        if has_picture:
            await pictured(reply)
        assert has_picture == has_board(reply)
        assert has_state == has_picture == changed, (action.to_json(), state_fields(reply))
        if changed:
            full += 1
        else:
            # What happened, what to do now, and a "State" button: nothing more.
            assert state_fields(reply) == ["What to do now"]
            assert any(b.get("label") == "State" for b in reply.buttons)
            if compact is None:
                await look_privately(driver, reply)
            compact = reply
    assert compact is not None and full
    status = await driver.slash("game status", {})
    assert "Dummbot's crystals" in state_fields(status)


async def test_the_result_post_has_the_breakdown_the_margin_and_a_picture_and_undo_withdraws_it(driver):
    actions, steps = seasons_game("wizard", "table", BOT_SEED, extras=False)
    await driver.slash("seasons start", {"difficulty": "wizard", "dice": "table"})
    last = await play_seasons(driver, actions, use_buttons=False)
    result = steps[-1].state.result()
    mine, bot = result.player_score, result.opponent_score
    post = await result_message(last)
    text = post.text
    score = actions[-1].args
    assert f"= **{mine}**" in text and f"= **{bot}**" in text
    assert f"Crystals {score['crystals']} + prestige {score['prestige']}" in text
    margin = abs(mine - bot)
    assert (f"You win by **{margin}**" if mine > bot else f"Dummbot wins by **{margin}**") in text
    summary = steps[-1].state.summary().dummbot
    assert f"prestige of {len(summary.summoned)} cards {summary.prestige}" in text
    picture = next(f for f in post.media if f.filename == "result-card.png")  # shown by its gallery
    assert Image.open(io.BytesIO(picture.data)).size == (800, 420)
    stats = await driver.slash("game stats", {})
    assert ("1 won" if mine > bot else "1 lost") in stats.text

    undone = await driver.slash("game undo", {})
    assert not undone.ephemeral
    edited = driver.standin.messages[post.id].payload
    words = "\n".join(message_text(edited))
    assert words.startswith("## Withdrawn — ") and "game #1" in words
    assert not edited.get("attachments") and not media_urls(edited["components"])  # no picture any more
    board = await driver.slash("game leaderboard", {"game": "seasons"})
    assert "No finished games" in board.text
    stats = await driver.slash("game stats", {})
    # The game is on again, its result withdrawn: one game, no win or loss to count (zero counts are not said).
    assert "1 game" in stats.text and " won" not in stats.text and " lost" not in stats.text, stats.text

    # Finishing again posts a new result, and only that one counts.
    name_options = {k: score[k] for k in ("crystals", "prestige", "bonuses", "hand", "extra")}
    again = await driver.slash("seasons score", name_options)
    assert (await result_message(again)).id != post.id
    board = await driver.slash("game leaderboard", {"game": "seasons"})
    assert f"{mine - bot:+d} points".replace("-", "\N{MINUS SIGN}") in board.text  # a real minus sign


async def test_a_volfyirion_result_says_the_turn_the_cities_standing_and_how_it_ended(driver):
    game = next(g for g in (volfyirion_game(s, max_actions=400) for s in range(40))
                if g.state.finished and g.state.result().outcome == "won")
    driver.bot.service._new_seed = lambda: game.seed
    await driver.slash("volfyrion start", {"difficulty": game.options["difficulty"]}, locale="ja")
    last = await play_volfyirion(driver, game.actions, locale="ja")
    post = await result_message(last)
    result = game.state.result()
    assert f"**ターン**: {result.length}\n" in post.text
    standing = [c["name"] for c in game.state.cities if not c["destroyed"]]
    cities = post.text.split("**街**", 1)[1].lstrip(":\n ")
    assert cities.startswith(f"{len(game.state.cities)}つのうち{len(standing)}つが残りました")
    assert all(name in cities.split("\n**", 1)[0] for name in standing)
    assert "**決着**" in post.text
    assert any(f.filename == "result-card.png" for f in post.media)


async def test_an_older_replys_state_button_is_gone_and_the_newest_shows_the_game_as_it_is_now(driver):
    """One live message per game: the reply a newer one superseded has no State button left (a press on it, from
    a client that still shows it, is refused privately); the newest reply's shows the game as it is now."""
    started = await driver.slash("volfyrion start", {"difficulty": "normal"})
    assert button(started, "end")
    moved = await driver.slash("volfyrion reshuffle", {})
    state_id = next(b["custom_id"] for b in moved.buttons if b.get("label") == "State")
    ended = await driver.slash("volfyrion end", {})
    older = driver.standin.messages[moved.original.id]
    assert not pressable(older.payload)
    stale = await driver._run(MESSAGE_COMPONENT, {"custom_id": state_id, "component_type": 2}, None,
                              driver.standin.world.channel("table"), None, older, True, None)
    assert stale.ephemeral and "Nothing was changed" in stale.text
    looked = await driver.press(next(b["custom_id"] for b in ended.buttons if b.get("label") == "State"))
    assert looked.ephemeral and "Turn" in looked.text


async def test_v4_1_the_troop_choice_shows_which_city_falls_for_each_choice(driver):
    driver.bot.service._new_seed = lambda: 7
    await driver.slash("volfyrion start", {"difficulty": "easy"})
    for card, city in (("Novice", "Tylaris"), ("Guard", "Vahylea"), ("Soldier", "Alantar")):
        await driver.slash("volfyrion play", {"card": card, "city": city})
    await driver.slash("volfyrion reshuffle", {})
    await driver.slash("volfyrion end", {})
    asked = await driver.slash("volfyrion reveal", {"cards": "Fighter, Endless Tactic, Stab, Barracks"})
    said = asked.text.splitlines()
    at = said.index("**If you remove the Troop in…**")
    lines = said[at + 1:at + 4]
    assert lines == ["**Tylaris**: Tylaris would fall (attack 9)", "**Vahylea**: Vahylea would fall (attack 9)",
                     "**Alantar**: no city would fall (attack 9)"]
    # The what-if told the truth: taking Alantar's Troop saves every city.
    await driver.press(button(asked, "choose", "2"))
    record = await export(driver)
    assert [c["destroyed"] for c in record["state"]["cities"]] == [False, False, False]


def test_danger_percentages_stay_readable_when_small():
    from bot.games.volfyirion.front.danger import bar, distribution_lines, percent

    assert percent(0.053) == "5.3%" and percent(0.0004) == "<0.1%" and percent(0) == "0%" and percent(0.5) == "50%"
    assert percent(0.999) == ">99%" and percent(1.0) == "100%"
    lines = distribution_lines(((8, 0.05), (12, 0.6), (15, 0.0001)))
    assert lines[0] == "`  8   5.0%` " + bar(0.05, 0.6) and bar(0.05, 0.6) == "█▍"  # 1/12 of 16 characters: 11 eighths
    assert lines[1].endswith("█" * 16) and len(lines) == 2


async def test_v3_4_the_danger_meter_says_no_attack_can_come_and_what_putting_aside_would_change(driver):
    await driver.slash("volfyrion start", {"difficulty": "hard"})
    for card, city in (("Novice", "Tylaris"), ("Guard", "Vahylea")):
        await driver.slash("volfyrion play", {"card": card, "city": city})
    meter = await driver.slash("volfyrion danger", {})
    # V-3.4: the draw at the end of the turn can still send the token: the meter says so.
    assert "no attack this turn unless you reshuffle your House Deck — drawing your new hand" in meter.text
    assert "Put aside the top card first?" in meter.text and "→" in meter.text
    await driver.slash("volfyrion reshuffle", {})
    meter = await driver.slash("volfyrion danger", {}, locale="ja")
    assert "このターンは攻撃がありません" not in meter.text and "一番上のカードを先に脇に置いた場合" in meter.text
