"""What the benches wait for before they measure: a bot that has finished starting."""

from __future__ import annotations

from bot.render import picture
from bot.render.picture import drawn


async def all_prepared() -> None:
    """Until every static layer is drawn: a bot's picture worker draws them while idle in its first moments
    (about 0.2 s of the picture thread); this draws what is left now, on the picture thread."""
    if not picture.is_prepared():
        await drawn(picture.prepare)
