"""Tug's picture: the rope, its knot moved toward whoever leads (PNG, drawn off the command path)."""

from __future__ import annotations

import io

from PIL import Image, ImageDraw

from tests.thirdgame.engine import TURNS, TugSummary

WIDTH, HEIGHT = 240, 60
PLAYER, AUTOMATON, ROPE = (59, 130, 246), (239, 68, 68), (180, 140, 90)


def board(summary: TugSummary, lang: str = "en") -> bytes:
    image = Image.new("RGB", (WIDTH, HEIGHT), (250, 250, 250))
    draw = ImageDraw.Draw(image)
    draw.rectangle((0, 0, 20, HEIGHT), fill=PLAYER)
    draw.rectangle((WIDTH - 20, 0, WIDTH, HEIGHT), fill=AUTOMATON)
    draw.line((20, HEIGHT // 2, WIDTH - 20, HEIGHT // 2), fill=ROPE, width=4)
    # The knot starts in the middle and moves a step toward the leader for each point of the lead.
    step = (WIDTH - 60) // (4 * TURNS)
    knot = WIDTH // 2 - (summary.player - summary.automaton) * step
    draw.ellipse((knot - 8, HEIGHT // 2 - 8, knot + 8, HEIGHT // 2 + 8), fill=(60, 60, 60))
    out = io.BytesIO()
    image.save(out, format="PNG")
    return out.getvalue()
