"""Seasons' result picture: both scores, big, and the margin, drawn on the result card (bot/render/results)."""

from __future__ import annotations

from collections.abc import Mapping

from PIL import ImageDraw

from engine.core import Result
from engine.seasons.summary import DummbotScore, PlayerScore

from ....i18n import t
from ....render import text as picture_text
from ....render.results import GOLD, LOST, MUTED, TEXT, WIDTH, WON


def result_picture(draw: ImageDraw.ImageDraw, lang: str, result: Result,
                   parts: Mapping[str, PlayerScore | DummbotScore], won: bool) -> None:
    """Both scores, big, and the margin."""
    player, dummbot = result.player_score, result.opponent_score
    big, label = picture_text.font(84, lang), picture_text.font(24, lang)
    for x, name, score, lit in ((220, "result.picture.player", player, won),
                                (580, "result.picture.dummbot", dummbot, not won)):
        draw.text((x, 170), t(lang, name), font=label, fill=MUTED, anchor="mm")
        draw.text((x, 250), str(score if score is not None else "—"), font=big, fill=GOLD if lit else TEXT,
                  anchor="mm")
    draw.text((WIDTH / 2, 250), "—", font=label, fill=MUTED, anchor="mm")
    if isinstance(player, int) and isinstance(dummbot, int):
        margin = player - dummbot
        text = f"{margin:+d}".replace("-", "−")
        draw.text((WIDTH / 2, 350), text, font=picture_text.font(44, lang), fill=WON if won else LOST, anchor="mm")
