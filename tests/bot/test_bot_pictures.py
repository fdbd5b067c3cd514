"""Pictures off the command's critical path (issue 12): the reply goes first and its picture follows by an
edit; a burst of pictures waits in one bounded queue and never in front of a command. Counted, not timed: the
pictures are held on an event while the commands are answered."""

from __future__ import annotations

import asyncio
import contextlib
import threading

from console_session import console_session
from play import has_board, pictured, seasons_command

from bot.pictures import PictureQueue
from bot.standin.driver import media_urls
from conftest import BOT_SEED
from engine.seasons.autoplay import play_game as seasons_game

BURST = 6
ONE_MESSAGE_BURST = 5  # pictures asked for one message while the worker is busy


@contextlib.contextmanager
def held_pictures(ui):
    """Every board picture waits for ``release`` (on the picture thread); ``started`` counts the waits, and
    ``drawing`` is set once one waits."""
    release, lock, started = threading.Event(), threading.Lock(), [0]
    drawing, loop, draw = asyncio.Event(), asyncio.get_running_loop(), ui.board

    def held(summary, *args):
        with lock:
            started[0] += 1
        loop.call_soon_threadsafe(drawing.set)
        release.wait(60)
        return draw(summary, *args)

    ui.board = held
    try:
        yield release, started, drawing
    finally:
        release.set()
        ui.board = draw


async def test_a_burst_of_pictures_does_not_hold_up_a_command_and_each_picture_follows_its_reply(driver):
    pictures = driver.bot.controller.pictures
    actions, steps = seasons_game("wizard", "table", BOT_SEED, extras=False)
    start = await driver.slash("seasons start", {"difficulty": "wizard", "dice": "table"})
    await pictured(start)
    first = next(i for i, step in enumerate(steps[1:])
                 if not any(e.key.endswith(("season_changed", "new_year")) for e in step.events))
    for action in actions[:first]:  # up to an action whose reply is compact (no picture)
        await pictured(await driver.slash(*seasons_command(action)))
    with held_pictures(driver.bot.controller.uis["seasons"]) as (release, started, _drawing):
        burst = [await driver.slash("game status", {}) for _ in range(BURST)]
        assert all(r.answered and not has_board(r) for r in burst)  # answered, their pictures not drawn yet
        assert pictures.pending == BURST
        queued = pictures.submitted
        name, options = seasons_command(actions[first])
        command = await driver.slash(name, options)
        # Answered while every picture of the burst is still waiting: nothing drawn, nothing delivered.
        assert command.answered and "Dummbot" in command.text
        assert pictures.submitted == queued and pictures.pending == BURST and started[0] <= 1
        release.set()
        for reply in burst:
            await pictured(reply)
    assert pictures.pending == 0 and pictures.dropped == pictures.failed == 0
    assert not has_board(command)
    # Each picture went to its own reply, showing that reply's state (the same summary: the same picture).
    boards = {f.data for r in burst for f in r.files if f.filename == "board.png"}
    assert len(boards) == 1


async def test_the_queue_is_bounded_and_keeps_order(caplog):
    queue = PictureQueue(maxsize=2)
    release = threading.Event()
    loop = asyncio.get_running_loop()
    drawing = asyncio.Event()
    delivered: list[int] = []

    def render(n: int):
        def draw() -> bytes:
            loop.call_soon_threadsafe(drawing.set)
            release.wait(60)
            return bytes([n])
        return draw

    async def deliver(png: bytes) -> None:
        delivered.append(png[0])

    try:
        assert queue.submit(render(1), deliver)
        await drawing.wait()  # the worker took the first one: two more fit in the queue, the next does not
        assert queue.submit(render(2), deliver) and queue.submit(render(3), deliver)
        with caplog.at_level("WARNING", logger="bot.pictures"):
            assert not queue.submit(render(4), deliver)
            assert not queue.submit(render(5), deliver) and not queue.submit(render(6), deliver)
        assert queue.dropped == 3 and queue.pending == 3
        # One warning for the run of drops, not one per picture.
        assert [r.getMessage() for r in caplog.records if "dropped" in r.getMessage()] == [
            "picture queue full (2): 1 picture(s) dropped since the last warning (1 in all)"]
        release.set()
        await queue.drain()
        assert delivered == [1, 2, 3] and queue.pending == 0
    finally:
        release.set()
        await queue.drain()


async def test_a_picture_that_cannot_be_delivered_is_counted_and_the_next_one_still_goes():
    queue = PictureQueue()
    delivered: list[bytes] = []

    async def broken(png: bytes) -> None:
        raise RuntimeError("the message was deleted")

    async def deliver(png: bytes) -> None:
        delivered.append(png)

    queue.submit(lambda: b"1", broken)
    queue.submit(lambda: b"2", deliver)
    await queue.drain()
    assert queue.failed == 1 and delivered == [b"2"] and queue.pending == 0


async def test_the_console_prints_a_reply_with_the_picture_that_followed_it(tmp_path):
    async with console_session(tmp_path / "console.sqlite3") as session:
        pictures = session.console.driver.bot.controller.pictures
        items = await session.type("/volfyrion start difficulty:normal")
        assert pictures.submitted == 1 and pictures.pending == 0  # waited for, not raced
        shown = [url for item in items for url in media_urls(item.get("components") or [])]
        assert shown == ["attachment://board.png"]  # the reply's gallery
        assert [f["filename"] for item in items for f in item.get("files") or []] == ["board.png"]


async def test_of_a_burst_of_pictures_for_one_message_only_the_newest_is_drawn_and_uploaded(driver, monkeypatch):
    controller = driver.bot.controller
    pictures = controller.pictures
    await driver.slash("volfyrion start", {"difficulty": "normal"})
    await pictures.idle()
    with held_pictures(controller.uis["volfyirion"]) as (release, _started, drawing):
        first = await driver.slash("game status", {})
        await drawing.wait()  # the worker is drawing this reply's picture: it holds the picture thread
        submit, drawn, asked = pictures.submit, [], []

        def burst(render, deliver, key=None, group=None):
            asked.append((render, deliver, key))
            for n in range(ONE_MESSAGE_BURST):
                def numbered(n: int = n) -> bytes:
                    drawn.append(n)
                    return render()
                assert submit(numbered, deliver, key=key, group=group)
            return True

        monkeypatch.setattr(pictures, "submit", burst)
        second = await driver.slash("game status", {})
        monkeypatch.setattr(pictures, "submit", submit)
        assert second.answered and not has_board(second) and len(asked) == 1
        assert pictures.superseded == ONE_MESSAGE_BURST - 1 and pictures.pending == 2  # one drawing, one waiting
        release.set()
        await pictures.idle()
    await first.until(has_board)
    await second.until(has_board)
    assert drawn == [ONE_MESSAGE_BURST - 1]  # the newest of the burst, and only it, was drawn
    assert pictures.rendered == 3 and pictures.delivered == 3 and pictures.pending == 0  # start, first, second
    assert len([e for e in second.edits if e]) == 1  # one upload for the whole burst

    # The same picture asked for again for that message: drawn (remembered), not uploaded again.
    render, deliver, key = asked[0]
    assert submit(render, deliver, key=key)
    await pictures.idle()
    assert pictures.unchanged == 1 and pictures.rendered == 4 and pictures.delivered == 3
    assert len([e for e in second.edits if e]) == 1
