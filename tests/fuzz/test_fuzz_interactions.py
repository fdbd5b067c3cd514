"""Bad interaction payloads through the stand-in: the bot keeps running, answers every interaction it can
(privately, in the user's language, from the locale files, without a Python error), and a refused input
changes no game. `make test` runs a few hundred seeded cases; `make soak` thousands over several seeds.

Bugs it found have minimal tests at the end of this file (all fixed by now, kept as regression tests); an open
bug gets a strict xfail there and an entry in fuzz_known.py, so the runs still check everything else.
"""

from __future__ import annotations

import asyncio
import contextlib
import os
import time

import pytest
from fuzz_arena import Arena, Outcome, Summary, arena
from fuzz_known import known_bug as known
from fuzz_oracle import internal_error_text, text_problems
from fuzz_payloads import message_with_button

from tests.support.standin import (
    APPLICATION_COMMAND,
    AUTOCOMPLETE,
    AUTOCOMPLETE_RESULT,
    MESSAGE_COMPONENT,
    MODAL_SUBMIT,
    NoReply,
)

SHORT_SEED = 20261129
SHORT_CASES = 250
SOAK_SEEDS = [int(s) for s in os.environ.get("FUZZ_SEEDS", "1,2,3,4,5,6,7,8").split(",")]
SOAK_CASES = int(os.environ.get("FUZZ_CASES", "600"))


def known_bug(outcome: Outcome) -> str | None:
    return known(outcome.case.data, outcome.problems)


def _check(summary: Summary, minimum: int) -> None:
    assert summary.cases >= minimum, summary.report()
    assert summary.failures == [], summary.report()
    # The run must reach the bot's deep paths, not only its first refusals.
    assert summary.outcomes["refused"] > minimum // 4, summary.report()
    for kind in ("command", "press", "form", "autocomplete"):
        assert any(label.startswith(kind) for label in summary.labels), (kind, summary.report())


async def test_fuzz_interactions_short(tmp_path):
    async with arena(tmp_path / "fuzz.sqlite3") as place:
        summary = await place.run(SHORT_SEED, SHORT_CASES, known=known_bug)
    _check(summary, SHORT_CASES)


@pytest.mark.soak
async def test_fuzz_interactions_soak(tmp_path, capsys):
    total = Summary()
    started = time.monotonic()
    for seed in SOAK_SEEDS:
        async with arena(tmp_path / f"fuzz-{seed}.sqlite3") as place:
            summary = await place.run(seed, SOAK_CASES, known=known_bug)
        with capsys.disabled():
            print(f"\n[fuzz seed {seed}] {summary.report()}")
        for name in ("outcomes", "labels", "dropped", "internal"):
            getattr(total, name).update(getattr(summary, name))
        total.cases += summary.cases
        total.failures += summary.failures
    with capsys.disabled():
        print(f"\n[fuzz total, {time.monotonic() - started:.0f} s] {total.report()}")
    _check(total, SOAK_CASES * len(SOAK_SEEDS))


# -- the invariants themselves fail when they should ---------------------------------------------------------


def test_the_oracle_sees_raw_keys_placeholders_tracebacks_and_wrong_language():
    assert text_problems("refuse.no_game", "en-US", [], refused=True)
    assert text_problems("You can't use {action} now", "en-US", [], refused=True)
    assert text_problems("Traceback (most recent call last):\n KeyError: 'x'", "en-US", [], refused=True)
    english = "There is no game here. Start one with `/seasons start` or `/volfyrion start`."
    assert text_problems(english, "en-US", [], refused=True) == []
    assert text_problems(english, "ja", [], refused=True)  # an English refusal for a Japanese user
    assert (
        text_problems(
            "I could not read the value “{0}”. Nothing was changed.", "en-US", ["{0}"], refused=True
        )
        == []
    )  # echoing what the user typed is fine


class _StubReply:
    """Just what Arena._judge reads from a reply."""

    def __init__(self, text: str, *, ephemeral: bool, answered: bool = True) -> None:
        self.text, self.ephemeral, self.answered = text, ephemeral, answered
        self.response_type, self.choices = 4, None


def test_the_judge_sees_a_change_on_refusal_a_missing_answer_and_an_internal_error():
    from fuzz_payloads import Case

    judge = Arena._judge
    refusal = "There is no game here. Start one with `/seasons start` or `/volfyrion start`."
    case = Case(
        0,
        "press.forged",
        MESSAGE_COMPONENT,
        {"custom_id": "x"},
        "player",
        "table",
        "en-US",
        discord_valid=True,
    )
    assert judge(None, case, _StubReply(refusal, ephemeral=True), []).problems == []
    assert (
        "a refused input changed games [1]"
        in judge(None, case, _StubReply(refusal, ephemeral=True), [1]).problems
    )
    assert judge(None, case, None, []).problems == ["no answer"]
    internal = "Something went wrong on my side; nothing was changed. Please try again."
    assert judge(None, case, _StubReply(internal, ephemeral=True), []).problems
    malformed = Case(
        0, "press.real.as_select", MESSAGE_COMPONENT, {}, "player", "table", "en-US", malformed=True
    )
    assert judge(None, malformed, None, []).kind == "dropped"
    assert judge(None, malformed, None, [2]).problems


# -- bugs the fuzz found and the owner fixed (d7fedb5), kept as regression tests ----------------------------


async def test_a_string_option_sent_as_a_user_does_not_echo_a_python_repr(tmp_path):
    async with arena(tmp_path / "bug.sqlite3") as place:
        data = {
            "id": "1",
            "name": "volfyrion",
            "type": 1,
            "options": [
                {"name": "acquire", "type": 1, "options": [{"name": "card", "type": 6, "value": "123"}]}
            ],
        }
        reply = await place.driver._run(
            APPLICATION_COMMAND, data, "haruka", "session", "en-US", None, 0.05, 5.0
        )
        assert reply.ephemeral
        assert text_problems(reply.text, "en-US", ["123"], refused=True) == [], reply.text


@pytest.mark.parametrize("components", ["not a list", [1, 2], [{"type": 1, "components": "x"}], [[[]]]])
async def test_a_form_with_garbage_components_is_refused(tmp_path, components):
    async with arena(tmp_path / "bug.sqlite3") as place:
        data = {"custom_id": "solo:2:1:form_reveal", "components": components}
        before = await place.snapshot()
        try:
            reply = await place.driver._run(MODAL_SUBMIT, data, "player", "table", "en-US", None, 0.05, 1.0)
        except NoReply:
            reply = None
        assert await place.snapshot() == before
        assert reply is not None and reply.ephemeral, "no answer"


# -- bugs the fuzz found and the owner fixed (b37f456, 223f66a), kept as regression tests --------------------


def _leaderboard(option: str, value: str) -> dict:
    return {
        "id": "1",
        "name": "game",
        "type": 1,
        "options": [
            {"name": "leaderboard", "type": 1, "options": [{"name": option, "type": 3, "value": value}]}
        ],
    }


@pytest.mark.parametrize(("option", "value"), [("difficulty", "legendary"), ("game", "chess")])
async def test_leaderboard_outside_its_choices_is_refused_clearly(tmp_path, option, value):
    async with arena(tmp_path / "bug.sqlite3") as place:
        reply = await place.driver._run(
            APPLICATION_COMMAND, _leaderboard(option, value), "player", "table", "en-US", None, 0.05, 5.0
        )
        assert "word." not in reply.text, reply.text
        assert reply.text.strip() != internal_error_text("en").strip(), reply.text


async def test_not_now_names_the_waiting_step_in_words(tmp_path):
    async with arena(tmp_path / "bug.sqlite3") as place:  # #table: Seasons, bot dice, rolled: waiting to take
        for locale in ("en-US", "ja"):
            reply = await place.driver.slash(
                "seasons roll", {}, user="player", channel="table", locale=locale
            )
            assert reply.ephemeral
            assert "seasons.waiting." not in reply.text, reply.text
            assert text_problems(reply.text, locale, ["roll"], refused=True) == [], reply.text


async def test_autocomplete_for_an_unknown_command_is_not_answered_with_a_message(tmp_path):
    async with arena(tmp_path / "bug.sqlite3") as place:
        data = {
            "id": "1",
            "name": "oldgame",
            "type": 1,
            "options": [{"name": "card", "type": 3, "value": "kai", "focused": True}],
        }
        reply = await place.driver._run(AUTOCOMPLETE, data, "player", "table", "en-US", None, 0.05, 1.0)
        assert place.standin.violations == [], place.standin.violations
        assert reply.response_type == AUTOCOMPLETE_RESULT and reply.choices == []


@pytest.mark.parametrize("kind", ["press", "form"])
async def test_a_game_id_beyond_sqlite_integers_is_refused(tmp_path, kind):
    async with arena(tmp_path / "bug.sqlite3") as place:
        custom_id = (
            "solo:9999999999999999999:0:form_reveal" if kind == "form" else "solo:9999999999999999999:0:roll"
        )
        if kind == "form":
            data = {
                "custom_id": custom_id,
                "components": [{"type": 1, "components": [{"type": 4, "custom_id": "cards", "value": "12"}]}],
            }
            case_type, message = MODAL_SUBMIT, None
        else:
            # the button really is on the message, so the bot's own "is it on the message?" check passes
            base = next(
                m
                for m in place.standin.messages.values()
                if m.channel_id == place.standin.world.channel("table").id and m.payload.get("components")
            )
            message = message_with_button(base, custom_id, 10**15 + 1)
            place.standin.messages[message.id] = message
            data, case_type = {"custom_id": custom_id, "component_type": 2}, MESSAGE_COMPONENT
        before = await place.snapshot()
        try:
            reply = await place.driver._run(case_type, data, "player", "table", "en-US", message, 0.05, 1.0)
        except NoReply:
            reply = None
        assert await place.snapshot() == before
        assert reply is not None and reply.ephemeral, "no answer"


async def test_help_for_a_game_outside_its_choices_is_refused(tmp_path):
    async with arena(tmp_path / "bug.sqlite3") as place:
        data = {
            "id": "1",
            "name": "game",
            "type": 1,
            "options": [
                {"name": "help", "type": 1, "options": [{"name": "game", "type": 3, "value": "chess"}]}
            ],
        }
        reply = await place.driver._run(
            APPLICATION_COMMAND, data, "player", "table", "en-US", None, 0.05, 5.0
        )
        assert "help.chess" not in reply.text, reply.text
        assert text_problems(reply.text, "en-US", ["chess"], refused=False) == []
        assert place.standin.violations == []


@pytest.mark.parametrize(
    "data",
    [{"custom_id": "solo:1:0:roll"}, {"custom_id": 12345, "component_type": 2}],
    ids=["no_component_type", "int_custom_id"],
)
async def test_a_malformed_component_payload_does_not_take_the_bot_offline(tmp_path, data):
    async with arena(tmp_path / "bug.sqlite3") as place:
        message = next(m for m in place.standin.messages.values() if m.payload.get("components"))
        with contextlib.suppress(NoReply):
            await place.driver._run(MESSAGE_COMPONENT, data, "player", "table", "en-US", message, 0.05, 0.5)
        await asyncio.sleep(0.1)
        assert place.alive(), "the bot's gateway connection ended"
        reply = await place.driver.slash("game help", {}, user="player", channel="table")
        assert reply.ephemeral


async def test_a_command_without_its_required_option_is_refused_privately(tmp_path):
    """Discord never sends this, but a stale command sync would: the answer is private and changes nothing."""
    async with arena(tmp_path / "fuzz.sqlite3") as place:
        before = await place.snapshot()
        data = {
            "id": "1",
            "name": "seasons",
            "type": 1,
            "options": [{"name": "time", "type": 1, "options": []}],
        }
        reply = await place.driver._run(APPLICATION_COMMAND, data, "player", "table", "ja", None, 0.05, 5.0)
        assert reply.ephemeral and reply.text
        assert text_problems(reply.text, "ja", [], refused=True) == []
        assert await place.snapshot() == before
