"""A die's dots are not points (issue 25, point 8; the Japanese style review, Turn 3 rule 2): the Japanese replies write a face's
dots 「ドットN」 and keep 点 for scores, and a face is read typed either way — 「ドット3」 as the bot writes it, 「3点」
as players typed it before (S-3.3) — in both languages of the console."""

from __future__ import annotations

import re

import pytest
from console_session import console_session, refusals, text_of

# Seed 1: winter's dice are the ones with "draw, 3 dots" and "draw, 1 dot"; "2 water, star, 3 dots" is a face of
# theirs (the README's session).
SHOWN = {"en": ("“draw, 3 dots”", "Dummbot's die: 2 water, star, 3 dots."),
         "ja": ("「ドロー、ドット3」", "ダムボットのダイスは「水2、星、ドット3」です。")}
TYPED = ("水2、星、3点", "水2、星、ドット3", "2 water, star, 3 dots", "水2 星 ドット 3")


@pytest.mark.parametrize("lang", ["en", "ja"])
async def test_s3_3_a_face_is_shown_with_its_dots_and_read_typed_either_way(tmp_path, lang):
    setup_face, die_line = SHOWN[lang]
    async with console_session(tmp_path / "g.sqlite3", lang=lang, seed=1) as session:
        start = text_of(await session.type("/seasons start difficulty:wizard dice:table"))
        assert setup_face in start
        for typed in TYPED:
            items = await session.type(f"/seasons die face:{typed}")
            said = text_of(items)
            assert refusals(items) == [] and die_line in said, typed
            if lang == "ja":
                assert not re.search(r"[^勝]\d点」|、\d点", said), said  # no face says its dots as points
            undone = await session.type("/game undo")
            assert refusals(undone) == []


async def test_s3_3_an_ambiguous_face_asks_for_its_dots_in_words_not_points(tmp_path):
    async with console_session(tmp_path / "g.sqlite3", lang="ja", seed=1) as session:
        await session.type("/seasons start difficulty:wizard dice:table")
        said = refusals(await session.type("/seasons die face:ドロー"))  # both winter dice have a draw face
        assert len(said) == 1 and "ドットの数も入力してください" in said[0] and "点" not in said[0], said
