"""Forms of Labels as Discord checks them (issue 35, point 5): a Label's label and description, exactly one of the
components a Label may hold, a select's 1–25 options and its min/max values, a radio group's 2–10 options, unique
custom_ids — and the bot's own ``Form`` (bot/buttons.py) passes every check with every kind of field; its
submission as Discord's client sends it reads back as the strings a game's form parsing takes."""

from __future__ import annotations

import pytest
from test_standin_enforcement import callback_path, live_interaction, post

from bot.buttons import CHECKBOX, RADIO, SELECT, FieldSpec, Form, form_values
from bot.standin.driver import Driver
from tests.support.standin import APPLICATION_COMMAND
from tests.support.standin.limits import modal_errors


def labelled(component: dict, label: str = "Field", **extra) -> dict:
    return {"type": 18, "label": label, "component": component} | extra


def select(n: int = 3, **extra) -> dict:
    return {"type": 3, "custom_id": "s", "options": [{"label": f"o{i}", "value": f"v{i}"} for i in range(n)]} | extra


def form(*components: dict, title: str = "Form") -> dict:
    return {"custom_id": "m", "title": title, "components": list(components)}


REFUSED = [
    ("label 46", form(labelled(select(), label="x" * 46)), ("components", "0", "label")),
    ("description 101", form(labelled(select(), description="x" * 101)), ("components", "0", "description")),
    ("a button in a label", form(labelled({"type": 2, "style": 1, "custom_id": "b", "label": "B"})),
     ("components", "0", "component")),
    ("an empty label", form({"type": 18, "label": "L"}), ("components", "0", "component")),
    ("26 options", form(labelled(select(26, max_values=1))), ("components", "0", "component", "options")),
    ("no option", form(labelled(select(0))), ("components", "0", "component", "options")),
    ("max over the options", form(labelled(select(3, max_values=4))), ("components", "0", "component", "max_values")),
    ("min over max", form(labelled(select(3, min_values=3, max_values=2))),
     ("components", "0", "component", "min_values")),
    ("a one-option radio", form(labelled({"type": 21, "custom_id": "r", "options": [{"label": "a", "value": "a"}]})),
     ("components", "0", "component", "options")),
    ("same custom_id twice", form(labelled(select()), labelled(select())), ("components", "1", "component",
                                                                           "custom_id")),
    ("six fields", form(*[labelled(select(custom_id=f"s{i}")) for i in range(6)]), ("components",)),
    ("a title of 46", form(labelled(select()), title="x" * 46), ("title",)),
]


@pytest.mark.parametrize(("what", "data", "path"), REFUSED, ids=[r[0] for r in REFUSED])
def test_what_discord_refuses_in_a_form(what, data, path):
    node = modal_errors(data)
    for key in path:
        node = node[key]
    assert node["_errors"], what


FIELDS = [
    FieldSpec("known", "Known", kind=SELECT, required=False, min_values=0, max_values=2, default="1, 3",
              description="Cards known to be there", options=tuple((f"Card {i}", str(i), None) for i in range(30))),
    FieldSpec("confirm", "Sure?", kind=CHECKBOX, required=False, default="true"),
    FieldSpec("paid", "Paid with", kind=RADIO, options=(("Battle", "battle", None), ("Knowledge", "knowledge", None))),
    FieldSpec("cards", "Or type them", required=False, long=True),
]


async def test_the_bots_form_passes_and_its_submission_reads_as_strings(standin):
    data = Form(title="Reveal", form_id="solo:1:2:form_reveal", fields=FIELDS).to_dict()
    assert modal_errors(data) == {}
    status, answer = await post(standin, callback_path(live_interaction(standin, APPLICATION_COMMAND)),
                                {"type": 9, "data": data})
    assert status == 200, answer
    known = data["components"][0]["component"]
    assert len(known["options"]) == 25 and [o["value"] for o in known["options"] if o["default"]] == ["1", "3"]
    # Submitted as Discord's client sends it: a Label (18) holding its component's answer.
    submitted = Driver._modal_answers(None, data, {"known": "Card 4, 7", "paid": "Knowledge"})  # type: ignore[arg-type]
    assert submitted[0] == {"type": 18, "id": 0, "component": {"type": 3, "custom_id": "known",
                                                                "values": ["4", "7"]}}
    assert submitted[1]["component"] == {"type": 23, "custom_id": "confirm", "value": True}  # kept as it was
    assert submitted[2]["component"] == {"type": 21, "custom_id": "paid", "value": "knowledge"}
    assert form_values({"components": submitted}) == {"known": "4, 7", "confirm": "true", "paid": "knowledge",
                                                      "cards": ""}
