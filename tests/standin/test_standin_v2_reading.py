"""Reading Components V2 messages (issue 35, point 5): the driver's text, controls and media, nested in
containers and sections, and the console printing them as today's replies read — sent by a real discord.py
`LayoutView` through the stand-in."""

from __future__ import annotations

import io

import discord
from discord import ui

from bench.echo import EchoBot
from bot.console import main

BOARD = b"\x89PNG\r\n\x1a\n" + b"\0" * 24  # a file named board.png: the stand-in only keeps the bytes


class Board(ui.LayoutView):
    """A game reply's shape (DESIGN: one container, text, a section with its button, the board, controls, footer)."""

    def __init__(self, words: dict[str, str]) -> None:
        super().__init__(timeout=None)
        section = ui.Section(ui.TextDisplay(words["line"]),
                             accessory=ui.Button(label=words["roll"], custom_id="v2:roll"))
        select: ui.Select[ui.LayoutView] = ui.Select(
            custom_id="v2:face", placeholder=words["face"],
            options=[discord.SelectOption(label=words["water"], value="water1"),
                     discord.SelectOption(label="star", value="star")])

        async def chosen(interaction: discord.Interaction) -> None:
            await interaction.response.send_message(f"chose {','.join(select.values)}")

        select.callback = chosen  # type: ignore[method-assign]
        undo = ui.Button(label=words["undo"], custom_id="v2:undo")

        async def undone(interaction: discord.Interaction) -> None:  # the message keeps text, loses controls
            done = ui.LayoutView(timeout=None)
            done.add_item(ui.Container(ui.TextDisplay(f"## {words['title']}"), ui.TextDisplay(words["undo"])))
            await interaction.response.edit_message(view=done, attachments=[])

        undo.callback = undone  # type: ignore[method-assign]
        self.add_item(ui.Container(
            ui.TextDisplay(f"## {words['title']}\n**{words['now']}**"),
            section,
            ui.Separator(),
            ui.MediaGallery(discord.MediaGalleryItem("attachment://board.png")),
            ui.ActionRow(undo,
                         ui.Button(label=words["help"], custom_id="v2:help")),
            ui.ActionRow(select),
            ui.TextDisplay(f"-# {words['footer']}"),
            accent_colour=0x3BA55C,
        ))


WORDS = {
    "en": {"title": "Spring, year 1", "now": "Dummbot rolls", "line": "Roll Dummbot's die", "roll": "Roll",
           "face": "Dummbot's die", "water": "1 water", "undo": "Undo", "help": "Help",
           "footer": "Seasons #3 · action 7 · /game undo"},
    "ja": {"title": "春・1年目", "now": "ダムボットの番です", "line": "ダムボットのダイスを振ります", "roll": "振る",
           "face": "ダムボットのダイス", "water": "水1", "undo": "取り消す", "help": "ヘルプ",
           "footer": "シーズンズ #3・手番 7・/game undo"},
}


def v2_bot(config: object = None) -> discord.Client:
    """EchoBot whose `/echo say` answers with the V2 board in the text's language (`text:ja` or `text:en`),
    and whose `/echo noop` answers with a V2 message that is plain text only."""
    bot = EchoBot()
    group = bot.tree.get_command("echo")

    async def say(self: object, interaction: discord.Interaction, text: str, hidden: bool = False) -> None:
        await interaction.response.send_message(view=Board(WORDS[text]), file=discord.File(io.BytesIO(BOARD),
                                                                                            "board.png"))

    group.get_command("say")._callback = say
    return bot


async def test_the_driver_reads_nested_text_controls_and_the_board(standin):
    async with standin.connect(v2_bot()) as driver:
        reply = await driver.slash("echo say", {"text": "en"})
        assert standin.violations == []
        message = reply.original
        assert message.v2 and message.payload.get("content") in (None, "")
        # Every Text Display, the container's and the section's, in reading order.
        assert reply.text.splitlines() == ["## Spring, year 1", "**Dummbot rolls**", "Roll Dummbot's die",
                                           "-# Seasons #3 · action 7 · /game undo"]
        assert message.text == reply.text
        # Buttons and selects wherever they sit: the section's accessory first, then the rows.
        assert [c["custom_id"] for c in reply.buttons] == ["v2:roll", "v2:undo", "v2:help", "v2:face"]
        # The gallery's attachment://board.png is the message's attachment.
        assert [f.filename for f in reply.media] == ["board.png"] and reply.media[0].data == BOARD
        assert (standin.live_controls("table"), standin.most_live_controls("table")) == (1, 1)
        pressed = await driver.press("v2:face", values=["star"])
        assert pressed.record.payload["data"]["values"] == ["star"] and pressed.text == "chose star"
        # Undo answers with UPDATE_MESSAGE: the reply keeps its text and loses its controls (and its picture).
        undone = await driver.press("v2:undo", message=message)
        assert undone.response_type == 7 and undone.original.id == message.id
        assert undone.text.splitlines() == ["## Spring, year 1", "Undo"] and undone.buttons == [] and undone.media == []
        assert (standin.live_controls("table"), standin.most_live_controls("table")) == (0, 1)
        assert standin.violations == []


def run_console(script: str, *args: str) -> str:
    out = io.StringIO()
    assert main(list(args), bot_factory=v2_bot, stdin=io.StringIO(script), stdout=out) == 0
    return out.getvalue()


def test_the_console_prints_a_v2_reply_as_replies_read(tmp_path):
    out = run_console("/echo say text:en\npress 1\n", "--files", str(tmp_path), "--lang", "en")
    lines = out.splitlines()
    start = lines.index("## Spring, year 1")
    assert lines[start:start + 8] == [
        "## Spring, year 1",
        "Dummbot rolls",  # markdown stripped, as today
        "Roll Dummbot's die  [1] Roll",  # the section's button beside the line it acts on
        "────────",
        "🖼 board.png",
        "[2] Undo  [3] Help",
        "[4] ▾ Dummbot's die (1 water = water1 | star)",
        "Seasons #3 · action 7 · /game undo",  # the small text's `-# ` is gone
    ]
    assert f"📎 {tmp_path / 'board.png'} ({len(BOARD)} bytes)" in out  # saved as today's attachments
    assert (tmp_path / "board.png").read_bytes() == BOARD


def test_the_console_prints_a_v2_reply_in_japanese_and_selects_by_label(tmp_path):
    out = run_console("/echo say text:ja\nselect 4 水1\nselect 1\n", "--files", str(tmp_path), "--lang", "ja")
    assert "ダムボットのダイスを振ります  [1] 振る" in out and "[4] ▾ ダムボットのダイス (水1 = water1 | star)" in out
    assert "シーズンズ #3・手番 7・/game undo" in out and "-# " not in out
    assert "chose water1" in out  # chosen by the label the player reads
    # `select 1` on a button is the console's own words, in Japanese.
    assert "[1]は［振る］ボタンで、メニューではありません" in out


def test_json_keeps_the_v2_payload():
    import json

    out = run_console("/echo say text:en\n", "--json")
    message = json.loads(out.splitlines()[0])
    assert message["flags"] & (1 << 15)
    assert message["components"][0]["type"] == 17
    assert [f["filename"] for f in message["files"]] == ["board.png"]
