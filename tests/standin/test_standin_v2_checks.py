"""The stand-in refuses the Components V2 messages Discord refuses (issue 35, point 5), on every route a message
takes — channel create and edit, interaction response, UPDATE_MESSAGE, followup, webhook edit — with Discord's
error shape (400, code 50035, the error tree), and takes the ones Discord takes. Each rule: one payload Discord
would refuse, one it accepts (tests/support/standin/layout.py cites the documentation)."""

from __future__ import annotations

import json
import time

import aiohttp
import pytest

from bot.standin import permissions as p
from tests.support.standin import MESSAGE_COMPONENT, StandIn, World
from tests.support.standin.server import message_errors
from tests.support.standin.world import deny

V2 = 1 << 15
EPHEMERAL = 1 << 6


def text(content: str = "Spring, year 1") -> dict:
    return {"type": 10, "content": content}


def button(custom_id: str = "solo:1:3:roll", **more) -> dict:
    return {"type": 2, "style": 1, "label": "Roll", "custom_id": custom_id} | more


def select(custom_id: str = "solo:1:3:face") -> dict:
    return {"type": 3, "custom_id": custom_id, "options": [{"label": "1 water", "value": "w1"}]}


def row(*children: dict) -> dict:
    return {"type": 1, "components": list(children)}


def section(*texts: dict, accessory: dict | None = None) -> dict:
    comp = {"type": 9, "components": list(texts)}
    return comp | ({"accessory": accessory} if accessory is not None else {})


def gallery(*names: str) -> dict:
    return {"type": 12, "items": [{"media": {"url": f"attachment://{n}"}} for n in names]}


def container(*children: dict) -> dict:
    return {"type": 17, "accent_color": 0x3BA55C, "components": list(children)}


def v2(*components: dict, **more) -> dict:
    return {"flags": V2, "components": list(components)} | more


def codes(errors: dict) -> set[str]:
    """Every error code in Discord's nested error tree."""
    found = set()
    for key, value in errors.items():
        if key == "_errors":
            found |= {e["code"] for e in value}
        elif isinstance(value, dict):
            found |= codes(value)
    return found


# -- each rule: refused, accepted -----------------------------------------------------------------------------

RULES = [
    ("content with the flag", v2(container(text()), content="hi"), v2(container(text()), content=None),
     "MESSAGE_CANNOT_USE_LEGACY_FIELDS_WITH_COMPONENTS_V2"),
    ("embeds with the flag", v2(container(text()), embeds=[{"title": "t"}]), v2(container(text()), embeds=[]),
     "MESSAGE_CANNOT_USE_LEGACY_FIELDS_WITH_COMPONENTS_V2"),
    ("stickers with the flag", v2(text(), sticker_ids=["1"]), v2(text()),
     "MESSAGE_CANNOT_USE_LEGACY_FIELDS_WITH_COMPONENTS_V2"),
    ("a poll with the flag", v2(text(), poll={"question": {"text": "?"}}), v2(text()),
     "MESSAGE_CANNOT_USE_LEGACY_FIELDS_WITH_COMPONENTS_V2"),
    ("41 components, nested ones counted", v2(container(*[text(str(i)) for i in range(40)])),
     v2(container(*[text(str(i)) for i in range(39)])), "BASE_TYPE_MAX_LENGTH"),
    ("a section's accessory counts", v2(container(*[text(str(i)) for i in range(37)], section(text(), accessory=button()))),
     v2(container(*[text(str(i)) for i in range(36)], section(text(), accessory=button()))), "BASE_TYPE_MAX_LENGTH"),
    ("4,001 characters of text in all", v2(container(text("a" * 2000), section(text("b" * 2001), accessory=button()))),
     v2(container(text("a" * 2000), section(text("b" * 2000), accessory=button()))), "BASE_TYPE_MAX_LENGTH"),
    ("an empty text display", v2(text("")), v2(text("x")), "BASE_TYPE_BAD_LENGTH"),
    ("a section with 4 texts", v2(section(text(), text(), text(), text(), accessory=button())),
     v2(section(text(), text(), text(), accessory=button())), "BASE_TYPE_BAD_LENGTH"),
    ("a section with no text", v2(section(accessory=button())), v2(section(text(), accessory=button())),
     "BASE_TYPE_BAD_LENGTH"),
    ("a section with no accessory", v2(section(text())), v2(section(text(), accessory=button())),
     "BASE_TYPE_REQUIRED"),
    ("a select as a section's accessory", v2(section(text(), accessory=select())),
     v2(section(text(), accessory={"type": 11, "media": {"url": "https://example.com/a.png"}})),
     "UNION_TYPE_CHOICES"),
    ("an action row in a section", v2(section(row(button()), accessory=button("b"))),
     v2(section(text(), accessory=button("b")), row(button())), "UNION_TYPE_CHOICES"),
    ("a container in a container", v2(container(container(text()))), v2(container(section(text(), accessory=button()))),
     "UNION_TYPE_CHOICES"),
    ("a thumbnail at the top", v2({"type": 11, "media": {"url": "https://example.com/a.png"}}),
     v2(section(text(), accessory={"type": 11, "media": {"url": "https://example.com/a.png"}})),
     "UNION_TYPE_CHOICES"),
    ("a button outside a row or section", v2(container(button())), v2(container(row(button()))),
     "UNION_TYPE_CHOICES"),
    ("a text display in an action row", v2(row(text())), v2(row(button())), "UNION_TYPE_CHOICES"),
    ("6 buttons in a row", v2(row(*[button(f"b{i}") for i in range(6)])), v2(row(*[button(f"b{i}") for i in range(5)])),
     "BASE_TYPE_MAX_LENGTH"),
    ("a select beside a button", v2(row(select(), button())), v2(row(select()), row(button())),
     "COMPONENT_LAYOUT_WIDTH_EXCEEDED"),
    ("a gallery of 11", v2(gallery(*[f"{i}.png" for i in range(11)])), v2(gallery(*[f"{i}.png" for i in range(10)])),
     "BASE_TYPE_BAD_LENGTH"),
    ("an empty gallery", v2(gallery()), v2(gallery("0.png")), "BASE_TYPE_BAD_LENGTH"),
    ("a picture no file is named for", v2(gallery("board.png")), v2(gallery("0.png")),
     "UNFURLED_MEDIA_ITEM_ATTACHMENT_NOT_FOUND"),
    ("a File component by link", v2({"type": 13, "file": {"url": "https://example.com/x.json"}}),
     v2({"type": 13, "file": {"url": "attachment://0.png"}}), "UNFURLED_MEDIA_ITEM_INVALID_URL"),
    ("a custom_id twice, one nested", v2(container(section(text(), accessory=button("solo:1:3:x")), row(button("solo:1:3:x")))),
     v2(container(section(text(), accessory=button("solo:1:3:x")), row(button("solo:1:3:y")))),
     "COMPONENT_CUSTOM_ID_DUPLICATED"),
    ("V2 components without the flag", {"components": [container(text())]}, v2(container(text())),
     "UNION_TYPE_CHOICES"),
]


@pytest.mark.parametrize(("rule", "refused", "accepted", "code"), RULES, ids=[r[0] for r in RULES])
def test_each_rule_refuses_what_discord_refuses_and_takes_the_rest(rule, refused, accepted, code):
    files = [type("F", (), {"filename": f"{i}.png"})() for i in range(10)]
    assert code in codes(message_errors(refused, files=files)), rule
    assert message_errors(accepted, files=files) == {}, rule


# -- through the stand-in, on every route ---------------------------------------------------------------------

async def call(standin: StandIn, method: str, path: str, body: dict, *, files: dict[str, bytes] | None = None,
               bot: bool = False) -> tuple[int, dict]:
    """A request as discord.py makes it (multipart with `payload_json` when there are files)."""
    headers = {"Authorization": f"Bot {standin.bot_token}"} if bot else {}
    if files:
        form = aiohttp.FormData()
        form.add_field("payload_json", json.dumps(body), content_type="application/json")
        for i, (name, data) in enumerate(files.items()):
            form.add_field(f"files[{i}]", data, filename=name, content_type="application/octet-stream")
        kwargs: dict = {"data": form}
    else:
        kwargs = {"json": body}
    async with aiohttp.ClientSession() as session, \
            session.request(method, standin.api_base + path, headers=headers, **kwargs) as response:
        raw = await response.text()
        return response.status, (json.loads(raw) if raw else {})


def refused_with(answer: tuple[int, dict], code: str) -> bool:
    status, body = answer
    return status == 400 and body["code"] == 50035 and body["message"] == "Invalid Form Body" \
        and code in codes(body["errors"])


def interaction(standin: StandIn, type_: int = 2, message=None):
    world = standin.world
    record = standin.new_interaction(type_, {"name": "seasons", "type": 1} if type_ == 2 else
                                     {"custom_id": "solo:1:3:roll", "component_type": 2},
                                     user=world.user(), channel=world.channel("table"), message=message)
    record.created = time.monotonic()  # as if just dispatched: answered by hand, no bot involved
    return record


async def test_channel_create_and_edit():
    async with StandIn() as standin:
        cid = standin.world.channel("table").id
        path = f"/channels/{cid}/messages"
        assert refused_with(await call(standin, "POST", path, v2(text(), content="hi"), bot=True),
                            "MESSAGE_CANNOT_USE_LEGACY_FIELDS_WITH_COMPONENTS_V2")
        status, made = await call(standin, "POST", path, v2(container(text(), gallery("board.png"))),
                                  files={"board.png": b"png"}, bot=True)
        assert status == 200 and made["flags"] & V2
        media = made["components"][0]["components"][1]["items"][0]["media"]
        assert media["attachment_id"] == made["attachments"][0]["id"]  # resolved as Discord stores it
        edit = f"{path}/{made['id']}"
        # The flag stays: an edit that drops it, or brings content back without it, is refused.
        assert refused_with(await call(standin, "PATCH", edit, {"flags": 0, "components": [text()]}, bot=True),
                            "COMPONENTS_V2_FLAG_REMOVED")
        assert refused_with(await call(standin, "PATCH", edit, {"content": "plain again"}, bot=True),
                            "MESSAGE_CANNOT_USE_LEGACY_FIELDS_WITH_COMPONENTS_V2")
        # The board stays while the edit keeps its attachment; an edit that drops it cannot show it.
        kept = {"components": [container(text("Summer"), gallery("board.png"))],
                "attachments": [{"id": made["attachments"][0]["id"]}]}
        assert (await call(standin, "PATCH", edit, kept, bot=True))[0] == 200
        dropped = kept | {"attachments": []}
        assert refused_with(await call(standin, "PATCH", edit, dropped, bot=True),
                            "UNFURLED_MEDIA_ITEM_ATTACHMENT_NOT_FOUND")
        replaced = dropped | {"attachments": [{"id": 0, "filename": "board.png"}]}
        assert (await call(standin, "PATCH", edit, replaced, files={"board.png": b"new"}, bot=True))[0] == 200
        # A V2 message left with nothing to show is an empty message.
        status, body = await call(standin, "PATCH", edit, {"components": []}, bot=True)
        assert (status, body["code"]) == (400, 50006)
        # A legacy message becomes V2 only by clearing its content in the same edit.
        status, legacy = await call(standin, "POST", path, {"content": "hello"}, bot=True)
        to_v2 = f"{path}/{legacy['id']}"
        assert refused_with(await call(standin, "PATCH", to_v2, v2(text()), bot=True),
                            "MESSAGE_CANNOT_USE_LEGACY_FIELDS_WITH_COMPONENTS_V2")
        status, now = await call(standin, "PATCH", to_v2, v2(text(), content=None), bot=True)
        assert status == 200 and now["flags"] & V2 and now["content"] == ""
        assert [v.kind for v in standin.violations] == ["limits"] * 4 + ["empty_message", "limits"]


async def test_interaction_response_update_followup_and_webhook_edit():
    async with StandIn() as standin:
        app = standin.world.application_id
        record = interaction(standin)
        callback = f"/interactions/{record.id}/{record.token}/callback"
        too_many = v2(container(*[text(str(i)) for i in range(40)]))
        assert refused_with(await call(standin, "POST", callback, {"type": 4, "data": too_many}),
                            "BASE_TYPE_MAX_LENGTH")
        answer = v2(container(text(), row(button())))
        assert (await call(standin, "POST", callback, {"type": 4, "data": answer}))[0] in (200, 204)
        original = standin.messages[record.original_id]
        hook = f"/webhooks/{app}/{record.token}"
        assert refused_with(await call(standin, "POST", hook, v2(text("x" * 4001))), "BASE_TYPE_MAX_LENGTH")
        assert (await call(standin, "POST", hook, v2(text("x" * 4000))))[0] == 204
        assert refused_with(await call(standin, "PATCH", f"{hook}/messages/@original", {"embeds": [{"title": "t"}]}),
                            "MESSAGE_CANNOT_USE_LEGACY_FIELDS_WITH_COMPONENTS_V2")
        assert (await call(standin, "PATCH", f"{hook}/messages/@original", {"components": [text("later")]}))[0] == 200
        # A press on the V2 message, answered by UPDATE_MESSAGE: the message is V2 without the flag repeated.
        press = interaction(standin, MESSAGE_COMPONENT, message=original)
        update = f"/interactions/{press.id}/{press.token}/callback"
        assert refused_with(await call(standin, "POST", update, {"type": 7, "data": {"content": "pressed"}}),
                            "MESSAGE_CANNOT_USE_LEGACY_FIELDS_WITH_COMPONENTS_V2")
        assert (await call(standin, "POST", update, {"type": 7, "data": {"components": [text("pressed")]}}))[0] == 204
        assert standin.messages[original.id].payload["components"][0]["content"] == "pressed"


# -- permissions ------------------------------------------------------------------------------------------------

async def test_v2_text_needs_no_embed_links_and_its_picture_needs_attach_files():
    world = World.default()
    table = world.channel("table")
    deny(table, world.guilds[0].role("automaton"), p.EMBED_LINKS)
    async with StandIn(world) as standin:
        record = interaction(standin)
        callback = f"/interactions/{record.id}/{record.token}/callback"
        status, body = await call(standin, "POST", callback, {"type": 4, "data": {"embeds": [{"title": "t"}]}})
        assert (status, body["code"]) == (403, 50013)  # as before: an embed needs Embed Links
        assert (await call(standin, "POST", callback, {"type": 4, "data": v2(container(text()))}))[0] in (200, 204)
    world = World.default()
    deny(world.channel("table"), world.guilds[0].role("automaton"), p.ATTACH_FILES)
    async with StandIn(world) as standin:
        record = interaction(standin)
        callback = f"/interactions/{record.id}/{record.token}/callback"
        board = v2(container(text(), gallery("board.png")))
        status, body = await call(standin, "POST", callback, {"type": 4, "data": board}, files={"board.png": b"png"})
        assert (status, body["code"], body["errors"]["needed"]) == (403, 50013, "Attach Files")
        assert (await call(standin, "POST", callback, {"type": 4, "data": v2(container(text()))}))[0] in (200, 204)


# -- live controls ----------------------------------------------------------------------------------------------

async def test_live_controls_per_channel_and_game_with_the_most_at_any_moment():
    async with StandIn() as standin:
        table = standin.world.channel("table")
        path = f"/channels/{table.id}/messages"

        async def post(body: dict) -> str:
            status, made = await call(standin, "POST", path, body, bot=True)
            assert status == 200, made
            return str(made["id"])

        first = await post(v2(container(text(), section(text(), accessory=button("solo:1:3:roll")))))
        assert (standin.live_controls(table), standin.live_controls("table", game=1)) == (1, 1)
        second = await post(v2(container(text(), row(select("solo:1:4:face")))))
        other_game = await post(v2(row(button("solo:2:9:end"))))
        assert standin.live_controls(table) == 3 and standin.live_controls(table, game=1) == 2
        assert standin.live_controls(table, game=2) == 1
        # The older reply of game 1 keeps its text and loses its controls.
        assert (await call(standin, "PATCH", f"{path}/{first}", {"components": [container(text())]}, bot=True))[0] == 200
        assert standin.live_controls(table, game=1) == 1
        # Disabled controls and link buttons are not live; a deleted message takes its controls away.
        disabled = {"components": [container(text(), row(select("solo:1:4:face") | {"disabled": True}))]}
        assert (await call(standin, "PATCH", f"{path}/{second}", disabled, bot=True))[0] == 200
        await post(v2(row({"type": 2, "style": 5, "label": "Rules", "url": "https://example.com"})))
        assert standin.live_controls(table, game=1) == 0
        async with aiohttp.ClientSession() as session, session.delete(
                f"{standin.api_base}{path}/{other_game}", headers={"Authorization": f"Bot {standin.bot_token}"}):
            pass
        assert standin.live_controls(table) == 0
        # An ephemeral reply's controls are the player's alone: not counted.
        record = interaction(standin)
        callback = f"/interactions/{record.id}/{record.token}/callback"
        ephemeral = v2(row(button("solo:1:5:undo"))) | {"flags": V2 | EPHEMERAL}
        assert (await call(standin, "POST", callback, {"type": 4, "data": ephemeral}))[0] in (200, 204)
        assert standin.live_controls(table) == 0
        # The most at any moment: three in the channel, two of game 1, one of game 2.
        assert (standin.most_live_controls(table), standin.most_live_controls(table, game=1),
                standin.most_live_controls(table, game=2)) == (3, 2, 1)
        assert standin.most_live_controls("lobby") == 0


# -- a real discord.py client: a legacy reply turned into a V2 one --------------------------------------------

async def test_a_legacy_reply_becomes_v2_only_when_the_edit_clears_its_content(standin):
    import discord
    from discord import ui

    from bench.echo import EchoBot

    def layout(words: str) -> ui.LayoutView:
        view = ui.LayoutView(timeout=None)
        view.add_item(ui.Container(ui.TextDisplay(words)))
        return view

    class Legacy(ui.View):
        def __init__(self) -> None:
            super().__init__(timeout=None)

        @ui.button(label="Keep content", custom_id="v2:keep")
        async def keep(self, interaction: discord.Interaction, _: ui.Button) -> None:
            await interaction.response.edit_message(view=layout("kept"))

        @ui.button(label="Clear content", custom_id="v2:clear")
        async def clear(self, interaction: discord.Interaction, _: ui.Button) -> None:
            await interaction.response.edit_message(content=None, embed=None, view=layout("cleared"))

    bot = EchoBot()

    async def say(self: object, interaction: discord.Interaction, text: str, hidden: bool = False) -> None:
        await interaction.response.send_message(text, embed=discord.Embed(title="old"), view=Legacy())

    bot.tree.get_command("echo").get_command("say")._callback = say
    async with standin.connect(bot) as driver:
        reply = await driver.slash("echo say", {"text": "legacy"})
        refused = await driver.press("v2:keep", message=reply.original)
        assert refused.rejections and refused.rejections[0]["code"] == 50035
        assert set(refused.rejections[0]["errors"]["data"]) == {"content", "embeds"}
        assert [v.kind for v in standin.violations] == ["limits"]
        standin.violations.clear()
        cleared = await driver.press("v2:clear", message=reply.original)
        assert cleared.text == "cleared" and cleared.original.v2


async def test_a_v2_message_pings_from_its_text_displays_unless_allowed_mentions_says_none():
    async with StandIn() as standin:
        player = standin.world.user("player")
        path = f"/channels/{standin.world.channel('table').id}/messages"
        words = container(section(text(f"Your turn, <@{player.id}>"), accessory=button()))
        status, loud = await call(standin, "POST", path, v2(words), bot=True)
        assert status == 200 and [u["id"] for u in loud["mentions"]] == [str(player.id)]
        status, quiet = await call(standin, "POST", path, v2(words, allowed_mentions={"parse": []}), bot=True)
        assert status == 200 and quiet["mentions"] == []
        assert set(standin.pinged()) == {int(loud["id"])}
