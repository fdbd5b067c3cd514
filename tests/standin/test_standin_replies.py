"""Every kind of reply a bot sends, gathered by the driver into a Reply."""

from __future__ import annotations

import pytest

from tests.support.standin import DriverError, channel_posts


async def test_message_with_locale_and_ephemeral(driver):
    reply = await driver.slash("echo say", {"text": "hello", "hidden": True}, locale="ja", user="haruka")
    assert reply.response_type == 4 and not reply.deferred
    assert reply.ephemeral
    assert reply.original.payload["content"] == "hello (ja)"
    assert reply.record.payload["member"]["user"]["username"] == "haruka"


async def test_deferred_reply_completes_with_the_followup_that_replaces_thinking(driver):
    reply = await driver.slash("echo later", {"text": "x", "pause": 0.05})
    await reply.until(lambda r: len(r.followups) == 2)  # EchoBot does not say when it is done: wait for both
    assert reply.response_type == 5 and reply.deferred
    contents = [m.payload["content"] for m in reply.messages]
    # Discord: the first followup after a deferral edits the "thinking" message; the second is new.
    assert contents == ["later x", "and one more"]
    assert reply.messages[0].id == reply.record.original_id
    assert len(reply.followups) == 2


async def test_deferred_then_edit_original(driver):
    reply = await driver.slash("echo edit", {"text": "E"})
    assert reply.response_type == 5
    assert len(reply.edits) == 1
    assert reply.original.payload["embeds"][0]["title"] == "Edited"
    assert reply.text.splitlines()[0] == "edited E"


async def test_buttons_press_update_and_form(driver):
    reply = await driver.slash("echo buttons")
    assert [b.get("label") for b in reply.buttons] == ["Count 0", "Form", "Docs"]
    pressed = await driver.press("echo:count:0")
    assert pressed.response_type == 7
    assert pressed.record.payload["message"]["id"] == str(reply.original.id)
    opened = await driver.press("echo:form")
    assert opened.modal["title"] == "Echo form"
    submitted = await driver.submit("echo:modal", {"Name": "Ann", "note": "n"})
    assert submitted.text == "form Ann|n"


async def test_form_rules_the_client_enforces(driver):
    await driver.slash("echo form")
    with pytest.raises(DriverError) as missing:
        await driver.submit("echo:modal", {"note": "no name"})
    assert missing.value.key == "console.error.missing_field"
    with pytest.raises(DriverError) as unknown:
        await driver.submit("echo:modal", {"name": "a", "colour": "red"})
    assert unknown.value.key == "console.error.unknown_field"
    with pytest.raises(DriverError):
        await driver.submit("echo:modal", {"name": "x" * 41})  # max_length 40


async def test_autocomplete_choices(driver):
    choices = await driver.autocomplete("echo pick", {"face": "wat"}, focused="face")
    assert [c["name"] for c in choices] == ["1 water", "2 water"]


async def test_options_are_typed_and_choices_matched_by_name_or_value(driver):
    reply = await driver.slash("echo pick", {"face": "star", "count": "3", "size": "Large"})
    assert reply.text == "picked star x3 l"
    options = reply.record.payload["data"]["options"][0]["options"]
    assert {o["name"]: o["value"] for o in options} == {"face": "star", "count": 3, "size": "l"}
    with pytest.raises(DriverError) as bad:
        await driver.slash("echo pick", {"face": "star", "size": "huge"})
    assert bad.value.key == "console.error.bad_choice"
    with pytest.raises(DriverError):
        await driver.slash("echo pick", {"face": "star", "count": "many"})
    with pytest.raises(DriverError) as missing:
        await driver.slash("echo pick", {})
    assert missing.value.key == "console.error.missing_option"


async def test_files(driver):
    reply = await driver.slash("echo files", {"text": '{"a": 1}'})
    assert [(f.filename, f.data) for f in reply.files] == [("echo.json", b'{"a": 1}'), ("blob.bin", bytes(range(16)))]
    attachments = driver.standin.messages[reply.original.id].payload["attachments"]
    assert [a["size"] for a in attachments] == [8, 16]


async def test_post_from_a_thread_lands_in_the_parent_and_in_the_reply(driver):
    world = driver.standin.world
    reply = await driver.slash("echo post", {"text": "result"}, channel="session")
    await reply.until(lambda r: channel_posts(r))
    assert reply.ephemeral
    posts = channel_posts(reply)
    assert len(posts) == 1 and posts[0].payload["embeds"][0]["description"] == "result"
    assert driver.standin.messages[posts[0].message_id].channel_id == world.channel("table").id
    # A post in an unrelated channel is not attributed to the reply.
    other = await driver.slash("echo post", {"text": "elsewhere"}, channel="lobby")
    await other.until(lambda r: len(r.messages) == 2)
    assert [m.kind for m in other.messages] == ["original", "channel"]
    assert other.messages[1].channel_id == world.channel("lobby").id


async def test_select_menu(driver):
    reply = await driver.slash("echo choose")
    assert reply.buttons[0]["type"] == 3
    chosen = await driver.press("echo:choose", values=["a", "c"])
    assert chosen.text == "chose a,c"
    assert chosen.record.payload["data"] == {"custom_id": "echo:choose", "component_type": 3, "values": ["a", "c"]}
