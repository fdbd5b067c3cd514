"""The stand-in's multipart reader (bot/standin/multipart.py): what aiohttp's own reader finds, without its cost;
a body that breaks the grammar is refused."""

from __future__ import annotations

import asyncio
import json

import aiohttp
import pytest
from aiohttp.streams import StreamReader
from aiohttp.test_utils import make_mocked_request

from bot.standin import multipart


def _form(*fields: tuple[str, bytes | str, str | None, str | None]) -> tuple[bytes, str]:
    """A body as discord.py builds one (aiohttp.FormData), and its Content-Type header."""
    form = aiohttp.FormData()
    for name, value, filename, content_type in fields:
        form.add_field(name, value, filename=filename, content_type=content_type)
    writer = form()
    return asyncio.run(writer.as_bytes()), writer.content_type


async def _aiohttp_parts(body: bytes, content_type: str) -> list[tuple]:
    """What aiohttp's reader (the stand-in's former one) finds in the body."""
    protocol = type("Protocol", (), {"_reading_paused": False, "pause_reading": lambda self: None,
                                     "resume_reading": lambda self, resume_parser=True: None})()
    stream = StreamReader(protocol, 2**16, loop=asyncio.get_running_loop())
    stream.feed_data(body)
    stream.feed_eof()
    request = make_mocked_request("POST", "/", headers={"Content-Type": content_type}, payload=stream)
    found = []
    async for part in await request.multipart():
        found.append((part.name, part.filename, part.headers.get("Content-Type"), bytes(await part.read())))
    return found


FIELDS = [
    ("payload_json", json.dumps({"embeds": [{"title": "盤面"}], "attachments": [{"id": 0}]}), None,
     "application/json"),
    ("files[0]", bytes(range(256)) * 40 + b"\r\n--not-the-boundary\r\n", "board.png", "application/octet-stream"),
    ("files[1]", b"", "盤面 (1).png", "image/png"),
]


def test_reads_what_aiohttp_reads() -> None:
    body, content_type = _form(*FIELDS)
    boundary = multipart.boundary_of(content_type)
    assert boundary is not None
    ours = [(p.name, p.filename, p.content_type, p.data) for p in multipart.parts(body, boundary)]
    assert ours == asyncio.run(_aiohttp_parts(body, content_type))
    assert [p[0] for p in ours] == ["payload_json", "files[0]", "files[1]"]
    assert ours[1][3] == FIELDS[1][1]  # a line in the data that looks like a delimiter is data


def test_boundary_quoted_preamble_padding_and_epilogue() -> None:
    body = (b"preamble to ignore\r\n--b\"q\r\n"
            b'Content-Disposition: form-data; name="payload_json"\r\n\r\n{"a": 1}\r\n'
            b"--b\"q \t\r\n"
            b'Content-Disposition: form-data; name="files[0]"; filename*=utf-8\'\'%E7%9B%A4.png\r\n'
            b"Content-Type: image/png\r\n\r\nPNG\r\n--b\"q--\r\nepilogue")
    boundary = multipart.boundary_of('multipart/form-data; boundary="b\\"q"')
    assert boundary == b'b"q'
    found = multipart.parts(body, boundary)
    assert [(p.name, p.filename, p.content_type, p.data) for p in found] == [
        ("payload_json", None, None, b'{"a": 1}'), ("files[0]", "盤.png", "image/png", b"PNG")]


def test_not_multipart_form_data() -> None:
    assert multipart.boundary_of("application/json") is None
    with pytest.raises(multipart.MalformedMultipart):
        multipart.boundary_of("multipart/form-data")
    with pytest.raises(multipart.MalformedMultipart):
        multipart.boundary_of("multipart/form-data; boundary=" + "x" * 71)


@pytest.mark.parametrize("body", [
    b'--b\r\nContent-Disposition: form-data; name="a"\r\n\r\nno close delimiter\r\n',
    b'--b\r\nContent-Disposition: form-data; name="a"\r\nno blank line',
    b'--b\r\nContent-Disposition: attachment; name="a"\r\n\r\nx\r\n--b--',
    b'--b\r\nno colon here\r\n\r\nx\r\n--b--',
    b'--bjunk\r\nContent-Disposition: form-data; name="a"\r\n\r\nx\r\n--b--',
])
def test_malformed_bodies_are_refused(body: bytes) -> None:
    with pytest.raises(multipart.MalformedMultipart):
        multipart.parts(body, b"b")


async def test_the_standin_refuses_a_malformed_body(standin) -> None:
    """As Discord does: 400 Invalid Form Body, recorded as the bot's violation, nothing stored."""
    before = dict(standin.synced)
    async with aiohttp.ClientSession() as session, session.put(
        f"{standin.api_base}/applications/{standin.world.application_id}/commands",
        data=b"--b\r\nContent-Disposition: form-data; name=\"payload_json\"\r\n\r\n[]\r\nnothing closes",
        headers={"Content-Type": "multipart/form-data; boundary=b", "Authorization": f"Bot {standin.bot_token}"},
    ) as response:
        assert response.status == 400
        assert (await response.json())["code"] == 50035
    assert [v.kind for v in standin.violations] == ["multipart"]
    assert standin.synced == before
