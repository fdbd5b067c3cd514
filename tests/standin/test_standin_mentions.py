"""Issue 35: the stand-in computes whom a message would notify as Discord does — mentions in `content` and in
Text Displays, never in embeds, filtered by `allowed_mentions` — and refuses the `allowed_mentions` Discord
refuses."""

from __future__ import annotations

from test_standin_enforcement import post

from tests.support.standin import StandIn
from tests.support.standin.mentions import Pings, pings

TEXT = "<@11> <@!12> <@&21> @everyone and @here"


def test_without_allowed_mentions_every_mention_in_the_text_pings() -> None:
    assert pings({"content": TEXT}) == Pings(frozenset({11, 12}), frozenset({21}), True)
    assert not pings({"content": "@everyonex, <@abc>, <#5>, `<@>`"})  # not mentions: a channel, no id, a word


def test_allowed_mentions_lets_through_only_what_it_names() -> None:
    assert not pings({"content": TEXT, "allowed_mentions": {"parse": []}})  # AllowedMentions.none()
    assert not pings({"content": TEXT, "allowed_mentions": {}})  # no parse: nothing parsed
    assert pings({"content": TEXT, "allowed_mentions": {"parse": ["users"]}}) == Pings(frozenset({11, 12}))
    assert pings({"content": TEXT, "allowed_mentions": {"parse": ["everyone"]}}) == Pings(everyone=True)
    only = pings({"content": TEXT, "allowed_mentions": {"users": ["12", "99"], "roles": ["21"]}})
    assert only == Pings(frozenset({12}), frozenset({21}))  # 99 is not in the text: not notified


def test_text_displays_ping_and_embeds_never_do() -> None:
    v2 = {"flags": 1 << 15, "components": [{"type": 17, "components": [
        {"type": 9, "components": [{"type": 10, "content": "<@31>"}],
         "accessory": {"type": 2, "style": 1, "label": "<@32>", "custom_id": "x"}}]}]}
    assert pings(v2) == Pings(frozenset({31}))  # a button's label is no mention
    assert not pings(v2 | {"allowed_mentions": {"parse": []}})
    assert not pings({"embeds": [{"description": TEXT, "fields": [{"name": "a", "value": "<@11>"}]}]})


def test_a_reply_pings_the_author_unless_allowed_mentions_says_otherwise() -> None:
    reply = {"content": "ok", "message_reference": {"message_id": "1"}}
    assert pings(reply) == Pings(replied_user=True)
    assert not pings(reply | {"allowed_mentions": {"parse": []}})
    assert pings(reply | {"allowed_mentions": {"replied_user": True}}) == Pings(replied_user=True)


async def test_a_posted_message_carries_its_mentions_and_the_stand_in_keeps_whom_it_pinged(standin: StandIn):
    world = standin.world
    player = world.user("player")
    lobby = world.channel("lobby")
    path = f"/channels/{lobby.id}/messages"
    status, body = await post(standin, path, {"content": f"<@{player.id}> @here"}, bot_auth=True)
    assert status == 200 and [u["id"] for u in body["mentions"]] == [str(player.id)] and body["mention_everyone"]
    assert standin.pinged() == {int(body["id"]): Pings(frozenset({player.id}), everyone=True)}
    quiet = {"content": f"<@{player.id}> @here", "allowed_mentions": {"parse": []}}
    status, body = await post(standin, path, quiet, bot_auth=True)
    assert status == 200 and body["mentions"] == [] and not body["mention_everyone"]
    assert int(body["id"]) not in standin.pinged()


async def test_the_allowed_mentions_discord_refuses_are_refused(standin: StandIn):
    path = f"/channels/{standin.world.channel('lobby').id}/messages"
    both = {"content": "x", "allowed_mentions": {"parse": ["users"], "users": ["1"]}}
    unknown = {"content": "x", "allowed_mentions": {"parse": ["channels"]}}
    too_many = {"content": "x", "allowed_mentions": {"roles": [str(i) for i in range(101)]}}
    for body, field in ((both, "parse"), (unknown, "parse"), (too_many, "roles")):
        status, answer = await post(standin, path, body, bot_auth=True)
        assert (status, answer["code"]) == (400, 50035)
        assert field in answer["errors"]["allowed_mentions"]
    assert [v.kind for v in standin.violations] == ["limits"] * 3
    standin.violations.clear()
