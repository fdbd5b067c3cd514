"""The picture worker does no work for what did not change (issue 12): of the pictures asked for one message
while the worker is busy only the newest is drawn, a picture the message already shows is not uploaded again,
and the static layers are drawn at start and while no picture waits, so a game's first picture draws none.
Counted, not timed: the worker is held on an event while the pictures are asked for."""

from __future__ import annotations

import asyncio
import threading

import pytest

from bench.bench_images import start_summaries
from bot.games.seasons.front import board as sb
from bot.games.volfyirion.front import board as vb
from bot.pictures import PictureQueue
from bot.render import picture
from engine.seasons.summary import SeasonsSummary
from engine.volfyirion.summary import VolfyirionSummary
from tests.support.pictures import all_prepared


async def test_a_picture_the_message_already_shows_is_not_uploaded_again():
    queue = PictureQueue()
    uploads: list[bytes] = []

    async def deliver(png: bytes) -> None:
        uploads.append(png)

    try:
        assert queue.submit(lambda: b"board one", deliver, key=("message", 1))
        await queue.idle()
        assert queue.submit(lambda: b"board one", deliver, key=("message", 1))  # nothing changed
        assert queue.submit(lambda: b"board one", deliver, key=("message", 2))  # another message: it shows none
        await queue.idle()
        assert uploads == [b"board one", b"board one"] and queue.unchanged == 1 and queue.rendered == 3
        assert queue.submit(lambda: b"board two", deliver, key=("message", 1))  # changed: uploaded
        await queue.idle()
        assert uploads[-1] == b"board two" and queue.delivered == 3 and queue.pending == 0
    finally:
        await queue.drain()


async def test_a_superseded_picture_is_never_drawn_and_other_messages_keep_theirs():
    queue = PictureQueue()
    release, loop, drawing = threading.Event(), asyncio.get_running_loop(), asyncio.Event()
    drawn: list[str] = []
    delivered: list[tuple[str, bytes]] = []

    def render(name: str, hold: bool = False):
        def draw() -> bytes:
            if hold:
                loop.call_soon_threadsafe(drawing.set)
                release.wait(60)
            drawn.append(name)
            return name.encode()
        return draw

    def to(message: str):
        async def deliver(png: bytes) -> None:
            delivered.append((message, png))
        return deliver

    try:
        queue.submit(render("a0", hold=True), to("a"), key="a")
        await drawing.wait()  # "a0" is being drawn: a newer picture of "a" now queues anew
        for n in range(1, 4):
            queue.submit(render(f"a{n}"), to("a"), key="a")
            queue.submit(render(f"b{n}"), to("b"), key="b")
        queue.submit(render("none"), to("c"))  # no key: never replaced
        assert queue.superseded == 4 and queue.pending == 4
        release.set()
        await queue.idle()
        assert drawn == ["a0", "a3", "b3", "none"]  # in the order first asked, each the newest of its message
        assert delivered == [("a", b"a0"), ("a", b"a3"), ("b", b"b3"), ("c", b"none")]
        assert queue.pending == 0
    finally:
        release.set()
        await queue.drain()


async def test_the_static_layers_are_drawn_at_start_and_while_idle_and_a_first_picture_draws_none():
    sb.board(_seasons_start(), lang="ja")  # a Japanese picture: the static layers are prepared in Japanese too
    assert picture.languages() == ["en", "ja"]
    picture.clear_caches()  # a process that has drawn nothing yet
    steps = len(list(picture.prepare_steps()))  # listed, not drawn
    queue = PictureQueue()  # the first layers go to the picture thread now, before any picture
    try:
        await picture.drawn(bytes)  # (queued behind them on the one picture thread)
        assert sb._wheel_ring.cache_info().currsize == sb._reduced_ring.cache_info().currsize == 1
        assert sb._season_wheel.cache_info().currsize == 1 and vb._lair_layer.cache_info().currsize >= 2
        assert queue.submit(lambda: b"x", _nowhere)  # the worker starts; the rest is drawn while it idles
        await queue.idle()
        while not picture.is_prepared():  # each hop on the picture thread lets the worker draw a step
            await picture.drawn(bytes)
        assert queue.prepared == steps > 100 and not list(picture.prepare_steps())
        assert sb._season_wheel.cache_info().currsize == 36
        assert sb._tile_layer.cache_info().currsize == 2 * len(sb._catalog_ids()) > 0  # each card, each language
    finally:
        await queue.drain()
    static = (sb._wheel_ring, sb._reduced_ring, sb._season_wheel, sb._tile_layer, vb._lair_layer,
              vb._start_city_layer, vb._city_base, vb._city_slot, vb._wonder_tile)
    misses = [layer.cache_info().misses for layer in static]
    picture.clear_caches(static=False)  # what one game leaves behind is forgotten; the static layers stay
    for lang in ("en", "ja"):
        sb.board(_seasons_start(), lang=lang)
        sb.board(dict(_seasons_start().to_json(), month=5, year=2, season="spring",
                      dummbot={"crystals": 3, "hand_size": 2, "summoned": ["1", "12", "EK3"], "score": 9}),
                 lang=lang)
        vb.board(_volfyirion_start(), lang=lang)
        vb.board(_volfyirion_mid_game(), lang=lang)
    assert [layer.cache_info().misses for layer in static] == misses  # nothing static drawn again
    assert vb._city_layer.cache_info().currsize == 2 * 2  # the two cities that changed, composed, each language


def test_prepared_layers_give_the_pixels_of_a_fresh_render(monkeypatch):
    sb.board(_seasons_start(), lang="ja")
    picture.clear_caches()
    assert picture.prepare() > 100 and picture.is_prepared()
    summaries = [(sb.board, _seasons_start()),
                 (sb.board, dict(_seasons_start().to_json(), month=8, year=3, season="summer",
                                 dummbot={"crystals": 3, "hand_size": 2, "summoned": ["1", "12", "EK3"]})),
                 (vb.board, _volfyirion_start()), (vb.board, _volfyirion_mid_game())]
    for lang in ("en", "ja"):
        layered = [board(summary, lang=lang) for board, summary in summaries]
        monkeypatch.setattr(picture, "USE_LAYERS", False)
        fresh = [board(summary, lang=lang) for board, summary in summaries]
        monkeypatch.setattr(picture, "USE_LAYERS", True)
        assert [_pixels(png) for png in layered] == [_pixels(png) for png in fresh]


async def _nowhere(png: bytes) -> None:
    return None


def _pixels(png: bytes) -> bytes:
    import io

    from PIL import Image

    return Image.open(io.BytesIO(png)).convert("RGB").tobytes()


def _seasons_start() -> SeasonsSummary:
    return SeasonsSummary.from_json(start_summaries()[0])  # the bench's own start positions: what it measures, these test


def _volfyirion_start() -> VolfyirionSummary:
    return VolfyirionSummary.from_json(start_summaries()[1])


def test_the_static_layers_are_prepared_again_in_a_language_first_drawn_after_them(monkeypatch):
    monkeypatch.setattr(picture, "_LANGS", {"en"})  # a process that has drawn English pictures only
    picture.clear_caches()
    picture.prepare()
    assert picture.is_prepared() and not list(picture.prepare_steps())
    tiles = sb._tile_layer.cache_info().currsize
    assert tiles == len(sb._catalog_ids())  # English only: the Japanese font is not loaded for them
    sb.board(_seasons_start(), lang="ja")  # the first Japanese picture
    assert not picture.is_prepared() and picture.languages() == ["en", "ja"]
    picture.prepare()
    assert sb._tile_layer.cache_info().currsize == 2 * tiles and picture.is_prepared()


def _volfyirion_mid_game() -> VolfyirionSummary:
    summary = start_summaries()[1]
    summary["cities"][0] = dict(summary["cities"][0], troop="Elite Trooper", building="Barracks")
    summary["cities"][2] = dict(summary["cities"][2], destroyed=True)
    summary["wonders"] = [{"name": "Sharp Qoam", "cost": 2, "sealed": True},
                          {"name": "Living Knife", "cost": 3, "sealed": False}]
    return VolfyirionSummary.from_json(summary)


async def test_a_newer_picture_of_a_game_replaces_its_older_one_for_another_message():
    """``group`` (a game): under load the newest board goes out, to the newest reply; the older reply keeps its
    text. Whether a picture is unchanged is still judged per message."""
    queue = PictureQueue()
    release, loop, drawing = threading.Event(), asyncio.get_running_loop(), asyncio.Event()
    delivered: list[tuple[str, bytes]] = []

    def hold() -> bytes:
        loop.call_soon_threadsafe(drawing.set)
        release.wait(60)
        return b"other game"

    def to(message: str):
        async def deliver(png: bytes) -> None:
            delivered.append((message, png))
        return deliver

    try:
        queue.submit(hold, to("x"), key="x")
        await drawing.wait()
        queue.submit(lambda: b"move 1", to("m1"), key="m1", group=("game", 7))
        queue.submit(lambda: b"move 2", to("m2"), key="m2", group=("game", 7))
        queue.submit(lambda: b"move 3", to("m3"), key="m3", group=("game", 7))
        queue.submit(lambda: b"other", to("o1"), key="o1", group=("game", 8))
        assert queue.superseded == 2 and queue.pending == 3
        release.set()
        await queue.idle()
        assert delivered == [("x", b"other game"), ("m3", b"move 3"), ("o1", b"other")]
        # The same board for a new message of the game is uploaded: "unchanged" is per message.
        queue.submit(lambda: b"move 3", to("m4"), key="m4", group=("game", 7))
        await queue.idle()
        assert delivered[-1] == ("m4", b"move 3") and queue.unchanged == 0
    finally:
        release.set()
        await queue.drain()


async def test_prepared_draws_every_static_layer_left_on_the_picture_thread(monkeypatch):
    """What the benches wait for: a bot that has finished starting has every static layer drawn."""
    picture.clear_caches()  # a process that has drawn nothing yet
    assert not picture.is_prepared() and list(picture.prepare_steps())
    queue = PictureQueue()
    try:
        await all_prepared()
        assert picture.is_prepared() and not list(picture.prepare_steps())
        monkeypatch.setattr(picture, "prepare", lambda *a: pytest.fail("prepared again"))
        await all_prepared()  # nothing left: returns at once, drawing nothing
    finally:
        await queue.drain()
