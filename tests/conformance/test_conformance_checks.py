"""Each conformance check can fail: deliberately broken payloads are caught."""

from __future__ import annotations

import copy

import pytest

from tests.openapi import SchemaValidator, check_command_payload, load_spec, openapi_validator

CALLBACK = "/api/v10/interactions/1/token/callback"
ORIGINAL = "/api/v10/webhooks/1/token/messages/@original"
FOLLOWUP = "/api/v10/webhooks/1/token"
CHANNEL = "/api/v10/channels/1/messages"
COMMANDS = "/api/v10/applications/1/commands"


@pytest.fixture(scope="module")
def validator() -> SchemaValidator:
    return SchemaValidator(load_spec())


GOOD_BODIES = [
    ("POST", CALLBACK, {"type": 4, "data": {"content": "hi", "flags": 64}}),
    ("POST", CALLBACK, {"type": 5, "data": {"flags": 64}}),
    ("POST", CALLBACK, {"type": 6}),
    ("POST", CALLBACK, {"type": 7, "data": {"content": "updated", "components": []}}),
    ("POST", CALLBACK, {"type": 8, "data": {"choices": [{"name": "a", "value": "a"}]}}),
    ("POST", CALLBACK, {"type": 9, "data": {"custom_id": "m", "title": "T", "components": [
        {"type": 1, "components": [{"type": 4, "custom_id": "f", "style": 1, "label": "F"}]}]}}),
    ("PATCH", ORIGINAL, {"content": "edited", "embeds": [{"title": "t"}]}),
    ("POST", FOLLOWUP, {"content": "followup", "flags": 64}),
    ("POST", CHANNEL, {"content": "card", "embeds": [{"title": "Result", "fields": [{"name": "a", "value": "b"}]}]}),
]


@pytest.mark.parametrize(("method", "path", "body"), GOOD_BODIES)
def test_good_bodies_pass(validator, method, path, body):
    assert validator.request_errors(method, path, body) == []


BROKEN_BODIES = [
    ("content too long", "POST", CALLBACK, {"type": 4, "data": {"content": "x" * 2001}}, "maxLength"),
    ("unknown callback type", "POST", CALLBACK, {"type": 42}, "matches no branch"),
    ("embeds not a list", "POST", CALLBACK, {"type": 4, "data": {"embeds": "no"}}, "is not array"),
    ("modal without title", "POST", CALLBACK, {"type": 9, "data": {"custom_id": "m", "components": []}},
     "title"),
    ("26 choices", "POST", CALLBACK, {"type": 8, "data": {"choices": [{"name": "a", "value": "a"}] * 26}},
     "maxItems"),
    ("11 embeds", "PATCH", ORIGINAL, {"embeds": [{"title": "t"}] * 11}, "maxItems"),
    ("flags as text", "POST", FOLLOWUP, {"content": "x", "flags": "64"}, "is not"),
    ("embed title too long", "POST", CHANNEL, {"embeds": [{"title": "x" * 257}]}, "maxLength"),
    ("button label too long", "POST", CHANNEL, {"components": [{"type": 1, "components": [
        {"type": 2, "style": 1, "custom_id": "b", "label": "x" * 81}]}]}, "maxLength"),
]


@pytest.mark.parametrize(("what", "method", "path", "body", "expected"), BROKEN_BODIES,
                         ids=[b[0] for b in BROKEN_BODIES])
def test_broken_bodies_fail(validator, what, method, path, body, expected):
    problems = validator.request_errors(method, path, body)
    assert problems and expected in " ".join(problems), problems


def test_the_most_specific_path_wins(validator):
    spec = validator.spec
    original = spec["paths"]["/webhooks/{webhook_id}/{webhook_token}/messages/@original"]["patch"]
    expected = original["requestBody"]["content"]["application/json"]["schema"]
    assert validator.request_schema("PATCH", ORIGINAL) is expected
    assert validator.request_schema("GET", "/api/v10/nowhere") is None


def command(**fields) -> dict:
    base = {"name": "seasons", "description": "Play Seasons", "type": 1, "options": [
        {"type": 1, "name": "start", "description": "Start a game", "options": [
            {"type": 3, "name": "difficulty", "description": "How hard", "required": True,
             "choices": [{"name": "Wizard", "value": "wizard", "name_localizations": {"ja": "魔法使い"}}]},
            {"type": 3, "name": "face", "description": "The die face", "required": False, "autocomplete": True},
        ]}]}
    return base | fields


def leaf(payload: dict) -> dict:
    return payload["options"][0]["options"][0]


def test_a_good_command_passes():
    payload = [command(), command(name="ゲーム", name_localizations={"hi": "खेल", "th": "เกม"}),
               {"type": 2, "name": "Show Score", "description": ""}]
    assert check_command_payload(payload) == []


def broken(change) -> list[dict]:
    payload = copy.deepcopy(command())
    change(payload)
    return [payload]


BROKEN_COMMANDS = [
    ("uppercase name", lambda c: c.update(name="Seasons"), "lowercase"),
    ("space in name", lambda c: c.update(name="my seasons"), "does not match"),
    ("33 characters", lambda c: c.update(name="s" * 33), "does not match"),
    ("uppercase translation", lambda c: c.update(name_localizations={"fr": "Saisons"}), "lowercase"),
    ("option name", lambda c: leaf(c).update(name="Difficulty!"), "does not match"),
    ("empty description", lambda c: c.update(description=""), "1-100"),
    ("101-character description", lambda c: leaf(c).update(description="x" * 101), "1-100"),
    ("translated description", lambda c: c.update(description_localizations={"ja": "x" * 101}), "1-100"),
    ("26 options", lambda c: c["options"][0].update(options=[
        {"type": 5, "name": f"o{i}", "description": "d"} for i in range(26)]), "26 options"),
    ("26 choices", lambda c: leaf(c).update(choices=[{"name": f"c{i}", "value": f"{i}"} for i in range(26)]),
     "26 choices"),
    ("choice name", lambda c: leaf(c)["choices"][0].update(name="x" * 101), "choice name"),
    ("choice value", lambda c: leaf(c)["choices"][0].update(value="x" * 101), "choice value"),
    ("required after optional", lambda c: c["options"][0]["options"].reverse(), "required option after"),
    ("duplicate options", lambda c: c["options"][0]["options"].append(leaf(c)), "not unique"),
    ("autocomplete with choices", lambda c: leaf(c).update(autocomplete=True), "autocomplete with choices"),
    ("8000 characters, counted at the longest locale", lambda c: c["options"][0].update(options=[
        {"type": 3, "name": f"o{i}", "description": "d", "description_localizations": {"ja": "x" * 100},
         "choices": [{"name": "n" * 100, "value": "v" * 100} for _ in range(25)]} for i in range(2)]),
     "> 8000"),
]


@pytest.mark.parametrize(("what", "change", "expected"), BROKEN_COMMANDS, ids=[b[0] for b in BROKEN_COMMANDS])
def test_broken_commands_fail(what, change, expected):
    problems = check_command_payload(broken(change))
    assert any(expected in p for p in problems), problems


def test_the_8000_count_is_exact():
    # name 7 + description 12 + start 5 + "Start a game" 12 + options ... computed by hand for a small command.
    payload = {"type": 1, "name": "seasons", "description": "Play Seasons", "name_localizations": {"ja": "季節"},
               "options": [{"type": 3, "name": "face", "description": "d", "description_localizations":
                            {"ja": "面を選ぶ"}, "choices": [{"name": "one", "value": "1"}]}]}
    from tests.support.conformance import _characters

    assert _characters(payload) == 7 + 12 + 4 + 4 + 3 + 1


def test_the_stand_in_validator_adds_the_command_rules():
    validate = openapi_validator(load_spec())
    assert validate("commands", "PUT", COMMANDS, [command()]) == []
    problems = validate("commands", "PUT", COMMANDS, [command(name="Seasons")])
    assert any("lowercase" in p for p in problems)
    assert validate("callback", "POST", CALLBACK, {"type": 4, "data": {"content": "x" * 2001}})
