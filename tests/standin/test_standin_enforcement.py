"""The stand-in refuses what Discord refuses, with Discord's codes, and records each refusal."""

from __future__ import annotations

import asyncio
import contextlib
import json
import time

import aiohttp
import pytest

from bench.echo import EchoBot
from tests.support.standin import APPLICATION_COMMAND, AUTOCOMPLETE, MESSAGE_COMPONENT, NoReply, StandIn


def live_interaction(standin: StandIn, type_: int = APPLICATION_COMMAND):
    """An interaction as if just dispatched (no bot involved), to answer by hand."""
    world = standin.world
    record = standin.new_interaction(type_, {"name": "echo", "type": 1}, user=world.user(),
                                     channel=world.channel())
    record.created = time.monotonic()
    return record


async def post(standin: StandIn, path: str, body: dict, *, bot_auth: bool = False) -> tuple[int, dict]:
    headers = {"Authorization": f"Bot {standin.bot_token}"} if bot_auth else {}
    async with aiohttp.ClientSession() as session, \
            session.post(standin.api_base + path, json=body, headers=headers) as response:
        text = await response.text()
        return response.status, (json.loads(text) if text else {})


def callback_path(record) -> str:
    return f"/interactions/{record.id}/{record.token}/callback?with_response=true"


async def wait_for_violation(standin: StandIn, kind: str):
    for _ in range(100):
        found = [v for v in standin.violations if v.kind == kind]
        if found:
            return found[0]
        await asyncio.sleep(0.02)
    raise AssertionError(f"no {kind} violation in {standin.violations}")


async def test_exactly_one_initial_response(driver):
    reply = await driver.slash("echo say", {"text": "once"})
    status, body = await post(driver.standin, callback_path(reply.record),
                              {"type": 4, "data": {"content": "twice"}})
    assert (status, body["code"], body["message"]) == (400, 40060, "Interaction has already been acknowledged.")
    assert [v.kind for v in driver.standin.violations] == ["double_response"]
    assert driver.standin.violations[0].interaction_id == reply.interaction_id


async def test_late_initial_response_is_unknown_interaction():
    async with StandIn(deadline=0.2) as standin, standin.connect(EchoBot()) as driver:
        with contextlib.suppress(NoReply):  # the driver gives up at the deadline (+0.25 s) or on the refusal
            await driver.slash("echo slow", {"pause": 0.4})
        violation = await wait_for_violation(standin, "late_response")
        assert (violation.status, violation.code, violation.message) == (404, 10062, "Unknown interaction")
        # In time is fine.
        assert (await driver.slash("echo slow", {"pause": 0.0})).text == "slow"


async def test_expired_token_refuses_webhooks():
    async with StandIn(token_lifetime=0.2) as standin, standin.connect(EchoBot()) as driver:
        reply = await driver.slash("echo followup", {"pause": 0.4})
        assert reply.response_type == 5
        assert reply.rejections and reply.rejections[0]["code"] == 50027
        violation = await wait_for_violation(standin, "expired_token")
        assert (violation.status, violation.message) == (401, "Invalid Webhook Token")


async def test_webhook_before_any_response_and_unknown_interaction(standin):
    record = live_interaction(standin)
    app = standin.world.application_id
    status, body = await post(standin, f"/webhooks/{app}/{record.token}?wait=true", {"content": "early"})
    assert (status, body["code"]) == (404, 10015)
    status, body = await post(standin, f"/interactions/{record.id}/not-the-token/callback", {"type": 5})
    assert (status, body["code"]) == (404, 10062)


async def test_a_too_long_reply_through_the_real_client(driver):
    ok = await driver.slash("echo toolong", {"size": 2000})
    assert len(ok.original.payload["content"]) == 2000
    refused = await driver.slash("echo toolong", {"size": 2001})  # a refusal answers the reply at once
    assert refused.rejections[0]["errors"]["data"]["content"]["_errors"][0]["code"] == "BASE_TYPE_MAX_LENGTH"
    assert not refused.messages
    assert [v.kind for v in driver.standin.violations] == ["limits"]


def embed(**fields) -> dict:
    return {"title": "t", "description": "d"} | fields


def row(*buttons) -> dict:
    return {"type": 1, "components": list(buttons)}


def button(custom_id: str = "b", label: str = "B") -> dict:
    return {"type": 2, "style": 1, "custom_id": custom_id, "label": label}


MESSAGE_LIMITS = [
    ("content", {"content": "x" * 2001}, ("content",)),
    ("embeds", {"embeds": [embed()] * 11}, ("embeds",)),
    ("title", {"embeds": [embed(title="x" * 257)]}, ("embeds", "0", "title")),
    ("description", {"embeds": [embed(description="x" * 4097)]}, ("embeds", "0", "description")),
    ("fields", {"embeds": [embed(fields=[{"name": "n", "value": "v"}] * 26)]}, ("embeds", "0", "fields")),
    ("field name", {"embeds": [embed(fields=[{"name": "x" * 257, "value": "v"}])]},
     ("embeds", "0", "fields", "0", "name")),
    ("field value", {"embeds": [embed(fields=[{"name": "n", "value": "x" * 1025}])]},
     ("embeds", "0", "fields", "0", "value")),
    ("footer", {"embeds": [embed(footer={"text": "x" * 2049})]}, ("embeds", "0", "footer", "text")),
    ("author", {"embeds": [embed(author={"name": "x" * 257})]}, ("embeds", "0", "author", "name")),
    ("6000 total", {"embeds": [embed(description="x" * 4000), embed(description="x" * 2000)]}, ("embeds",)),
    ("rows", {"components": [row(button(f"b{i}")) for i in range(6)]}, ("components",)),
    ("buttons per row", {"components": [row(*[button(f"b{i}") for i in range(6)])]},
     ("components", "0", "components")),
    ("custom_id", {"components": [row(button("x" * 101))]}, ("components", "0", "components", "0", "custom_id")),
    ("label", {"components": [row(button(label="x" * 81))]}, ("components", "0", "components", "0", "label")),
    ("duplicate custom_id", {"components": [row(button("same"), button("same"))]},
     ("components", "0", "components", "1", "custom_id")),
]

MESSAGE_AT_LIMITS = {
    "content": "x" * 2000,
    "embeds": [embed(title="x" * 256, description="x" * 4096, footer={"text": "x" * 100},
                     author={"name": "x" * 256}, fields=[{"name": "n", "value": "x" * 1024}])]
    + [embed()] * 9,
    "components": [row(*[button(f"{r}-{i}", "x" * 80) for i in range(5)]) for r in range(5)],
}


@pytest.mark.parametrize(("what", "body", "path"), MESSAGE_LIMITS, ids=[m[0] for m in MESSAGE_LIMITS])
async def test_message_limits(standin, what, body, path):
    channel = standin.world.channel()
    status, answer = await post(standin, f"/channels/{channel.id}/messages", body, bot_auth=True)
    assert (status, answer["code"], answer["message"]) == (400, 50035, "Invalid Form Body")
    node = answer["errors"]
    for key in path:
        node = node[key]
    assert node["_errors"][0]["code"]
    assert [v.kind for v in standin.violations] == ["limits"]
    assert not [m for m in standin.messages.values() if m.channel_id == channel.id]


async def test_a_message_right_at_every_limit_is_accepted(standin):
    channel = standin.world.channel()
    status, answer = await post(standin, f"/channels/{channel.id}/messages", MESSAGE_AT_LIMITS, bot_auth=True)
    assert status == 200, answer
    assert not standin.violations


async def test_empty_message(standin):
    status, answer = await post(standin, f"/channels/{standin.world.channel().id}/messages", {"content": ""},
                                bot_auth=True)
    assert (status, answer["code"]) == (400, 50006)


def choices(n: int, name: str = "c", value: str = "v") -> dict:
    return {"type": 8, "data": {"choices": [{"name": name, "value": value}] * n}}


def text_input(**fields) -> dict:
    return {"type": 4, "custom_id": "f", "style": 1, "label": "Field"} | fields


def modal(title: str = "Form", rows: int = 1, **input_fields) -> dict:
    return {"type": 9, "data": {"custom_id": "m", "title": title,
                                "components": [row(text_input(custom_id=f"f{i}", **input_fields))
                                               for i in range(rows)]}}


CALLBACK_LIMITS = [
    ("26 choices", AUTOCOMPLETE, choices(26), ("data", "choices")),
    ("choice name", AUTOCOMPLETE, choices(1, name="x" * 101), ("data", "choices", "0", "name")),
    ("empty choice name", AUTOCOMPLETE, choices(1, name=""), ("data", "choices", "0", "name")),
    ("choice value", AUTOCOMPLETE, choices(1, value="x" * 101), ("data", "choices", "0", "value")),
    ("modal title", APPLICATION_COMMAND, modal(title="x" * 46), ("data", "title")),
    ("modal rows", APPLICATION_COMMAND, modal(rows=6), ("data", "components")),
    ("input label", APPLICATION_COMMAND, modal(label="x" * 46), ("data", "components", "0", "components", "0",
                                                                  "label")),
    ("input style", APPLICATION_COMMAND, modal(style=3), ("data", "components", "0", "components", "0", "style")),
    ("input max_length", APPLICATION_COMMAND, modal(max_length=4001),
     ("data", "components", "0", "components", "0", "max_length")),
    ("input value", APPLICATION_COMMAND, modal(max_length=5, value="x" * 6),
     ("data", "components", "0", "components", "0", "value")),
    ("message content", MESSAGE_COMPONENT, {"type": 7, "data": {"content": "x" * 2001}}, ("data", "content")),
    ("wrong callback type", AUTOCOMPLETE, {"type": 4, "data": {"content": "hi"}}, ("type",)),
]


@pytest.mark.parametrize(("what", "type_", "body", "path"), CALLBACK_LIMITS, ids=[c[0] for c in CALLBACK_LIMITS])
async def test_callback_limits(standin, what, type_, body, path):
    record = live_interaction(standin, type_)
    status, answer = await post(standin, callback_path(record), body)
    assert (status, answer["code"]) == (400, 50035)
    node = answer["errors"]
    for key in path:
        node = node[key]
    assert node["_errors"]
    assert not record.responded  # a refused response does not use up the interaction
    assert len(standin.violations) == 1


async def test_callbacks_at_the_limits_are_accepted(standin):
    for type_, body in [(AUTOCOMPLETE, choices(25, name="x" * 100, value="x" * 100)),
                        (APPLICATION_COMMAND, modal(title="x" * 45, rows=5, label="x" * 45, max_length=4000))]:
        status, answer = await post(standin, callback_path(live_interaction(standin, type_)), body)
        assert status == 200, answer
    assert not standin.violations


async def test_attachment_size_limit():
    async with StandIn(attachment_size_limit=100) as standin:
        record = live_interaction(standin)
        form = aiohttp.FormData()
        form.add_field("payload_json", json.dumps({"type": 4, "data": {"content": "file"}}),
                       content_type="application/json")
        form.add_field("files[0]", b"x" * 101, filename="big.bin")
        async with aiohttp.ClientSession() as session, \
                session.post(standin.api_base + callback_path(record), data=form) as response:
            assert response.status == 413
            assert (await response.json())["code"] == 40005
        assert [v.kind for v in standin.violations] == ["attachment_size"]


async def test_validators_see_every_body_and_can_refuse(driver):
    seen = []

    def no_shouting(kind, method, path, body):
        seen.append(kind)
        content = (body.get("data") or {}).get("content") if isinstance(body, dict) else None
        return ["no shouting"] if content and content.startswith("LOUD") else []

    driver.standin.add_validator(no_shouting)
    assert (await driver.slash("echo say", {"text": "quiet"})).text == "quiet (en-US)"
    refused = await driver.slash("echo say", {"text": "LOUD"})
    assert refused.rejections[0]["errors"]["_validator"]["_errors"][0]["message"] == "no shouting"
    assert not refused.messages
    assert seen == ["callback", "callback"]
    assert [v.kind for v in driver.standin.violations] == ["validator"]
