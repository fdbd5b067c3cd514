"""Pick, don't retype (issue 10, point 6): candidates as buttons, a refused form reopened filled in, and the
reveal picker for Dummbot's hand — all surviving a restart like the other buttons."""

from __future__ import annotations

from play import button, export, seasons_command

from conftest import BOT_SEED, running_bot
from engine.seasons.autoplay import play_game as seasons_game


def pick_select(reply) -> dict:
    return next(c for c in reply.buttons if c.get("type") == 3)


async def until_reveal(driver, *, locale: str = "en", known: bool = False):
    """A Seasons game played up to its first reveal (with ``known``: the first one while some cards of
    Dummbot's hand are known); (reply, the reveal action)."""
    actions, steps = seasons_game("wizard", "table", BOT_SEED, extras=False)
    reply = await driver.slash("seasons start", {"difficulty": "wizard", "dice": "table"}, locale=locale)
    for action, before in zip(actions, steps, strict=False):
        hand_known = before.state.summary().dummbot.hand_known
        if action.type == "reveal" and (hand_known or not known) and "hand" in before.waiting.key:
            return reply, action
        name, options = seasons_command(action)
        reply = await driver.slash(name, options, locale=locale)
    raise AssertionError("no reveal in the game")


async def test_an_unknown_card_offers_its_candidates_and_a_press_completes_the_command(driver):
    await driver.slash("volfyrion start", {"difficulty": "normal"})
    refused = await driver.slash("volfyrion play", {"card": "Elite Tropr", "city": "Tylaris"})
    assert refused.ephemeral and "Elite Tropr" in refused.text
    labels = [b.get("label") for b in refused.buttons]
    assert "Elite Trooper" in labels
    done = await driver.press(next(b["custom_id"] for b in refused.buttons if b.get("label") == "Elite Trooper"))
    assert not done.ephemeral
    record = await export(driver)
    assert record["state"]["cities"][0]["troop"] == "Elite Trooper"
    # The same button again: the game has moved on, and the answer says so.
    stale = await driver.press(next(b["custom_id"] for b in refused.buttons if b.get("label") == "Elite Trooper"))
    assert stale.ephemeral and "moved on" in stale.text


async def test_a_seasons_card_typo_offers_candidates_in_japanese(driver):
    await driver.slash("seasons start", {"difficulty": "wizard", "dice": "table"}, locale="ja")
    refused = await driver.slash("seasons played", {"card": "Amulit of Aiir"}, locale="ja")
    assert refused.ephemeral
    labels = [b.get("label") or "" for b in refused.buttons]
    assert any("大気の護符" in label for label in labels), labels
    done = await driver.press(next(b["custom_id"] for b in refused.buttons if "大気の護符" in (b.get("label") or "")),
                              locale="ja")
    assert not done.ephemeral
    assert (await export(driver))["actions"][-1] == {"type": "played", "card": "1"}


async def test_the_reveal_picker_lists_the_known_cards_first_and_a_full_pick_reveals(driver):
    reply, action = await until_reveal(driver, known=True)
    menu = pick_select(reply)
    count = len(action.args["cards"])
    assert menu["max_values"] == count
    options = menu["options"]
    known = [o for o in options if o.get("description") == "known in Dummbot's hand"]
    assert options[: len(known)] == known and known  # cards seen at an earlier reveal are known
    # Picking as many cards as asked completes the reveal, exactly as typing their numbers would.
    picked = [o["value"] for o in options[:count]]
    done = await driver.press(menu["custom_id"], values=picked)
    assert not done.ephemeral, done.text
    assert (await export(driver))["actions"][-1] == {"type": "reveal",
                                                     "cards": [v.split("~")[0] for v in picked]}
    # Typing still works, whatever the menu offered.


def form_field(modal: dict, name: str) -> dict:
    """A form's field by custom_id (each held in a Label)."""
    return next(row["component"] for row in modal["components"] if row["component"]["custom_id"] == name)


async def test_a_partial_pick_opens_the_reveal_form_filled_in(driver):
    reply, action = await until_reveal(driver)
    menu = pick_select(reply)
    if len(action.args["cards"]) < 2:
        return
    first = menu["options"][0]["value"]
    opened = await driver.press(menu["custom_id"], values=[first])
    assert opened.modal is not None
    # The form's selects hold the pick (in the select that offers it), the rest is picked or typed there.
    chosen = [o["value"] for row in opened.modal["components"] if row["type"] == 18
              for o in row["component"].get("options", []) if o.get("default")]
    assert chosen == [first]
    assert not form_field(opened.modal, "cards").get("value")


async def test_a_refused_form_is_reopened_with_what_was_typed(driver):
    reply, action = await until_reveal(driver)
    opened = await driver.press(button(reply, "reveal"))
    typed = ", ".join(action.args["cards"][:-1]) or "1"  # one card short
    refused = await driver.submit(opened.modal["custom_id"], {"cards": typed})
    assert refused.ephemeral
    again = await driver.press(button(refused, "edit", "reveal"))
    assert again.modal is not None
    assert form_field(again.modal, "cards")["value"] == typed
    done = await driver.submit(again.modal["custom_id"], {"cards": ", ".join(action.args["cards"])})
    assert not done.ephemeral


async def test_a_refused_form_after_a_restart_reopens_empty_and_the_refusal_still_shows_the_text(standin, db_path):
    """What a refused form held is kept in memory, not read back from the refusal's text: after a restart the
    "Edit" press still opens the form (as new), and the refusal above it shows what was typed."""
    async with running_bot(standin, db_path) as driver:
        reply, action = await until_reveal(driver)
        opened = await driver.press(button(reply, "reveal"))
        typed = ", ".join(action.args["cards"][:-1]) or "1"
        refused = await driver.submit(opened.modal["custom_id"], {"cards": typed})
    assert typed in refused.text
    async with running_bot(standin, db_path) as driver:
        again = await driver.press(button(refused, "edit", "reveal"))
        assert again.modal is not None
        assert not form_field(again.modal, "cards").get("value")


async def test_pickers_survive_a_restart(standin, db_path):
    async with running_bot(standin, db_path) as driver:
        reply, action = await until_reveal(driver)
        refused = await driver.slash("seasons reveal", {"cards": "Amulit of Aiir"})
    async with running_bot(standin, db_path) as driver:
        menu = pick_select(reply)
        opened = await driver.press(menu["custom_id"], values=[menu["options"][0]["value"]])
        if len(action.args["cards"]) > 1:
            assert opened.modal is not None
        assert any(b.get("label", "").startswith("Amulet of Air") for b in refused.buttons)
        pressed = await driver.press(next(b["custom_id"] for b in refused.buttons
                                          if b.get("label", "").startswith("Amulet of Air")))
        # The press is understood after the restart: it completes the reveal (refused by the rules only if
        # one card is not what Dummbot had to reveal).
        assert pressed.text and "unknown" not in pressed.text.lower()


def test_the_console_picks_in_a_select_menu_with_select_n():
    """`select N value[,value]` (documented in the console's help and docs/console.md) is `press N` with values."""
    import io

    from bench.echo import EchoBot
    from bot.console import main

    out = io.StringIO()
    assert main([], bot_factory=lambda config: EchoBot(), stdin=io.StringIO("/echo choose\nselect 1 b, Letter C\n"),
                stdout=out) == 0
    assert "chose b,c" in out.getvalue()
    import bot.console as console_module

    assert "select 3 value1,value2" in console_module.__doc__


async def test_every_volfyirion_card_option_offers_its_candidates(driver):
    """remove, redeploy and putaside too: the press completes the command as typed, city and payment kept."""

    async def pick(reply, label: str):
        assert reply.ephemeral, reply.text
        return await driver.press(next(b["custom_id"] for b in reply.buttons if b.get("label") == label))

    await driver.slash("volfyrion start", {"difficulty": "normal"})
    await driver.slash("volfyrion play", {"card": "Elite Trooper", "city": "Tylaris"})
    moved = await pick(await driver.slash("volfyrion redeploy", {"troop": "Elite Tropr", "city": "Vahylea"}),
                       "Elite Trooper")
    assert not moved.ephemeral, moved.text
    cities = {c["name"]: c["troop"] for c in (await export(driver))["state"]["cities"]}
    assert cities["Vahylea"] == "Elite Trooper" and cities["Tylaris"] is None
    removed = await pick(await driver.slash("volfyrion remove", {"card": "Elite Tropr"}), "Elite Trooper")
    assert not removed.ephemeral, removed.text
    assert all(c["troop"] is None for c in (await export(driver))["state"]["cities"])
    aside = await pick(await driver.slash("volfyrion putaside", {"paid": "knowledge", "card": "Shrwd Dael"}),
                       "Shrewd Deal")
    assert not aside.ephemeral, aside.text
    record = await export(driver)
    assert record["actions"][-1] == {"type": "putaside", "paid": "knowledge", "card": "Shrewd Deal"}
