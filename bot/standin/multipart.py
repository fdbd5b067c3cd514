"""The ``multipart/form-data`` bodies discord.py sends with files (``payload_json`` and ``files[n]``), read in
one pass over the whole body.

aiohttp's reader parses each part's headers through the ``email`` package, and a new boundary every request
defeats its cache: for the stand-in, which plays Discord in the bot's own process, that cost more than the rest
of a picture's edit. Discord's CPU is not the bot's, so the benches should not pay it. The grammar is RFC 7578
(RFC 2046's delimiters); a body that does not follow it is refused as Discord refuses one.
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from urllib.parse import unquote


class MalformedMultipart(ValueError):
    """The body is not a multipart/form-data body with the boundary its header gives."""


@dataclass(frozen=True)
class Part:
    name: str | None
    filename: str | None
    content_type: str | None
    data: bytes


# One parameter of a header such as Content-Disposition: name=token or name="quoted \"string\"".
_PARAM = re.compile(r';\s*([^\s=;]+)\s*=\s*("(?:[^"\\]|\\.)*"|[^;]*)')
_ESCAPED = re.compile(r"\\(.)")


def boundary_of(content_type: str) -> bytes | None:
    """The boundary of a ``multipart/form-data`` Content-Type header; None for any other type."""
    kind, _, _ = content_type.partition(";")
    if kind.strip().lower() != "multipart/form-data":
        return None
    value = _params(content_type).get("boundary")
    if not value or len(value) > 70:  # RFC 2046: 1 to 70 characters
        raise MalformedMultipart("no usable boundary")
    return value.encode("latin-1")


def parts(body: bytes, boundary: bytes) -> list[Part]:
    """Every part of ``body``, in order."""
    # A delimiter is CRLF "--" boundary; the first one may open the body without its CRLF.
    chunks = (b"\r\n" + body).split(b"\r\n--" + boundary)
    found: list[Part] = []
    for chunk in chunks[1:]:  # chunks[0] is the preamble
        if chunk.startswith(b"--"):  # the close delimiter: what follows is the epilogue
            return found
        chunk = chunk.lstrip(b" \t")  # transport padding
        if not chunk.startswith(b"\r\n"):
            raise MalformedMultipart("a delimiter not followed by a line break")
        end = chunk.find(b"\r\n\r\n")
        if end < 0:
            raise MalformedMultipart("a part without the blank line after its headers")
        found.append(_part(chunk[2:end], chunk[end + 4:]))
    raise MalformedMultipart("no close delimiter")


def _part(head: bytes, data: bytes) -> Part:
    headers: dict[str, str] = {}
    for line in head.decode("utf-8", "replace").split("\r\n") if head else ():
        name, colon, value = line.partition(":")
        if not colon:
            raise MalformedMultipart(f"a header line without a colon: {line[:80]!r}")
        headers[name.strip().lower()] = value.strip()
    disposition = headers.get("content-disposition", "")
    if disposition.partition(";")[0].strip().lower() != "form-data":
        raise MalformedMultipart("a part that is not form-data")
    params = _params(disposition)
    filename = params.get("filename")
    extended = params.get("filename*")
    if extended is not None:  # RFC 5987: charset'language'percent-encoded
        charset, _, rest = extended.partition("'")
        filename = unquote(rest.partition("'")[2], encoding=charset or "utf-8", errors="replace")
    return Part(params.get("name"), filename, headers.get("content-type"), data)


def _params(header: str) -> dict[str, str]:
    found: dict[str, str] = {}
    for key, value in _PARAM.findall(header):
        value = value.strip()
        if len(value) >= 2 and value[0] == value[-1] == '"':
            value = _ESCAPED.sub(r"\1", value[1:-1])
        found[key.lower()] = value
    return found
