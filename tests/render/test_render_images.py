"""The reply pictures: valid small PNGs, deterministic, and showing the state they were given."""

from __future__ import annotations

import copy
import dataclasses
import io
import math

import pytest
from PIL import Image, ImageChops, ImageDraw, ImageFont

from bot.games.seasons.front import board as sb
from bot.games.seasons.front.board import board as seasons_board
from bot.games.volfyirion.front import board as vb
from bot.games.volfyirion.front.board import board as volfyirion_board
from bot.render import picture
from engine.seasons import cards as seasons_cards
from engine.seasons.summary import SeasonsSummary
from engine.volfyirion import RULES as VOLFYIRION
from engine.volfyirion import cards as volfyirion_cards
from engine.volfyirion.summary import VolfyirionSummary

PNG_SIGNATURE = b"\x89PNG\r\n\x1a\n"


DUMMBOT = {"crystals": 14, "hand_size": 3, "summoned": ["1", "12", "EK3"], "score": 27}


def seasons_summary(**changes) -> SeasonsSummary:
    """A Seasons summary read from the JSON form older releases stored (the fields the picture shows)."""
    summary = {"year": 2, "month": 5, "season": "spring", "difficulty": "wizard", "dice": "bot", "dummbot": DUMMBOT}
    summary.update(changes)
    return SeasonsSummary.from_json(summary)


def volf_summary(**changes) -> VolfyirionSummary:
    return VolfyirionSummary.from_json(volf_json(**changes))


def volf_json(**changes) -> dict:
    summary = {
        "turn": 7,
        "difficulty": "normal",
        "cities": [
            {
                "name": "Tylaris",
                "defence": 8,
                "destroyed": False,
                "troop": "Elite Trooper",
                "building": "Barracks",
            },
            {"name": "Kyr", "defence": 9, "destroyed": False, "troop": None, "building": None},
            {"name": "Alantar", "defence": 10, "destroyed": False, "troop": None, "building": "Mint"},
        ],
        "rage_pile": {"size": 4, "top": "Feasible Solution"},
        "token": "lair",
        "wonders": [
            {"name": "Pure Qoam", "cost": 3, "sealed": False},
            {"name": "Emerald Horn", "cost": 6, "sealed": True},
        ],
        "phase": "turn",
    }
    summary.update(changes)
    return summary


def decode(png: bytes) -> Image.Image:
    image = Image.open(io.BytesIO(png))
    image.load()
    return image.convert("RGB")


def assert_good_png(png: bytes) -> Image.Image:
    assert png[:8] == PNG_SIGNATURE
    assert len(png) < 100_000
    image = decode(png)
    assert image.size == (picture.WIDTH, picture.HEIGHT)
    assert 700 <= image.width <= 900 and 400 <= image.height <= 500
    return image


def changed_box(a: bytes, b: bytes) -> tuple[int, int, int, int] | None:
    return ImageChops.difference(decode(a), decode(b)).getbbox()


# --- Seasons --------------------------------------------------------------------------------------------


def test_seasons_board_is_a_small_png_of_the_right_size():
    assert_good_png(seasons_board(seasons_summary()))


def test_seasons_board_is_deterministic():
    summary = seasons_summary()
    first = seasons_board(summary)
    assert seasons_board(copy.deepcopy(summary)) == first
    assert seasons_board(summary) == first


def token_spot(month: int) -> tuple[int, int]:
    """A point inside the season token's white rim when it stands on ``month`` (the wheel's own geometry)."""
    centre = 10 + sb.WHEEL / 2
    angle = math.radians(-75 + (month - 1) * 30)
    radius = (212 + 104) / 2 - 18
    x, y = centre + radius * math.cos(angle), centre + radius * math.sin(angle)
    return round(x), round(y - 17)


@pytest.mark.parametrize("month", range(1, 13))
def test_season_token_stands_on_the_current_month(month):
    season = sb._season_of(month)
    image = decode(seasons_board(seasons_summary(month=month, season=season)))
    here = image.getpixel(token_spot(month))
    assert min(here) > 230, here  # the token's white face
    other = month % 12 + 1
    assert min(image.getpixel(token_spot(other))) < 230  # and nowhere else


def test_moving_the_token_changes_only_the_wheel():
    before = seasons_board(seasons_summary(month=5))
    after = seasons_board(seasons_summary(month=6))
    box = changed_box(before, after)
    assert box is not None
    assert box[2] <= 10 + sb.WHEEL  # the Dummbot side did not move


def test_year_crystals_hand_and_score_all_show():
    base = seasons_board(seasons_summary())
    assert changed_box(base, seasons_board(seasons_summary(year=3))) is not None
    for key, value in (("crystals", 3), ("hand_size", 0), ("score", 101)):
        bot = dict(DUMMBOT, **{key: value})
        box = changed_box(base, seasons_board(seasons_summary(dummbot=bot)))
        assert box is not None and box[0] >= 440, key  # drawn on the Dummbot side


def test_summoned_cards_use_given_names_and_prestige():
    summary = seasons_summary()
    plain = seasons_board(summary)
    named = seasons_board(summary, cards={"1": {"name": "Something Else", "prestige": 1}})
    box = changed_box(plain, named)
    assert box is not None and box[0] >= 440


def test_unknown_card_ids_fall_back_to_ids_only():
    bot = {"crystals": 0, "hand_size": 0, "summoned": ["ZZ9", "not-a-card"], "score": 0}
    assert_good_png(seasons_board(seasons_summary(dummbot=bot)))


@pytest.mark.parametrize("count", [0, 1, 20, 21, 40])
def test_any_number_of_summoned_cards_fits(count):
    ids = [str(n) for n in range(1, 51)][:count]
    bot = {"crystals": 999, "hand_size": 30, "summoned": ids, "score": 12345}
    assert_good_png(seasons_board(seasons_summary(dummbot=bot)))


def test_seasons_board_reads_the_json_form_and_an_older_shorter_one():
    summary = seasons_summary(month=2, season="winter")
    assert seasons_board(summary.to_json()) == seasons_board(summary)  # the export's ``state`` draws the same
    older = {"year": 2, "month": 2, "difficulty": "wizard", "dice": "bot", "dummbot": DUMMBOT}
    assert seasons_board(older) == seasons_board(summary)  # no season: the month's
    assert_good_png(seasons_board({"year": 9, "month": 0, "difficulty": "wizard", "dice": "bot", "dummbot": {}}))


# --- Volfyirion -----------------------------------------------------------------------------------------


def city_panel_point(index: int) -> tuple[int, int]:
    """Inside city panel ``index``, left of its shield and clear of the destroyed-city cross."""
    return 15 + index * 260 + 6, 48 + 110


def is_grey(pixel: tuple[int, int, int]) -> bool:
    return max(pixel) - min(pixel) <= 4


def test_volfyirion_board_is_a_small_png_of_the_right_size():
    assert_good_png(volfyirion_board(volf_summary()))


def test_volfyirion_board_is_deterministic():
    summary = volf_summary()
    first = volfyirion_board(summary)
    assert volfyirion_board(copy.deepcopy(summary)) == first


@pytest.mark.parametrize("index", [0, 1, 2])
def test_destroyed_city_is_greyed(index):
    standing = decode(volfyirion_board(volf_summary()))
    cities = copy.deepcopy(volf_json()["cities"])
    cities[index]["destroyed"] = True
    ruined = decode(volfyirion_board(volf_summary(cities=cities)))
    point = city_panel_point(index)
    assert not is_grey(standing.getpixel(point))
    assert is_grey(ruined.getpixel(point))
    for other in {0, 1, 2} - {index}:
        assert ruined.getpixel(city_panel_point(other)) == standing.getpixel(city_panel_point(other))


def with_troop_defence(defence: int, summary: VolfyirionSummary | None = None) -> VolfyirionSummary:
    """The summary (``volf_summary()`` unless given) with its first city's Troop adding ``defence``."""
    summary = summary or volf_summary()
    first = dataclasses.replace(summary.cities[0], troop_defence=defence)
    return dataclasses.replace(summary, cities=(first, *summary.cities[1:]))


def test_troop_defence_shows_as_the_summary_counts_it():
    low = volfyirion_board(with_troop_defence(1))
    high = volfyirion_board(with_troop_defence(6))
    box = changed_box(low, high)
    assert box is not None and box[2] <= 15 + 250  # only the first city changed


def test_dragon_token_moves_between_lair_and_pile():
    on_lair = decode(volfyirion_board(volf_summary(token="lair")))
    on_pile = decode(volfyirion_board(volf_summary(token="rage_pile")))
    lair_spot = (90, 262 + 100 + 24)  # inside the token's red disc, below its black wings
    assert on_lair.getpixel(lair_spot) == vb.DRAGON
    assert on_pile.getpixel(lair_spot) != vb.DRAGON
    box = ImageChops.difference(on_lair, on_pile).getbbox()
    assert box is not None and box[1] >= 262 and box[2] <= 430  # only the Lair and the pile


def test_rage_pile_size_top_card_and_sealed_wonders_show():
    base = volfyirion_board(volf_summary())
    bigger = volfyirion_board(volf_summary(rage_pile={"size": 9, "top": "Feasible Solution"}))
    hidden_top = volfyirion_board(volf_summary(rage_pile={"size": 4, "top": None}))
    wonders = [
        {"name": "Pure Qoam", "cost": 3, "sealed": True},
        {"name": "Emerald Horn", "cost": 6, "sealed": True},
    ]
    sealed = volfyirion_board(volf_summary(wonders=wonders))
    for other in (bigger, hidden_top, sealed):
        assert changed_box(base, other) is not None
    box = changed_box(base, sealed)
    assert box[0] >= 444 and box[1] >= 262  # only the Wonders panel


def test_turn_number_shows():
    box = changed_box(volfyirion_board(volf_summary(turn=7)), volfyirion_board(volf_summary(turn=8)))
    assert box is not None and box[3] <= 48


def test_long_names_and_long_lists_are_cut_to_fit():
    long = "An Extraordinarily Long Name That Cannot Possibly Fit"
    cities = [
        {"name": long, "defence": 8 + i, "destroyed": i == 1, "troop": long, "building": long}
        for i in range(5)
    ]
    wonders = [{"name": f"{long} {i}", "cost": i, "sealed": i % 2 == 0} for i in range(20)]
    summary = volf_summary(
        cities=cities, wonders=wonders, rage_pile={"size": 60, "top": long}, token="rage_pile"
    )
    assert_good_png(volfyirion_board(summary))


def test_volfyirion_board_draws_an_empty_table():
    """No city, no Wonder, an empty pile: drawn, and a top card without a pile is not shown."""
    empty = volf_summary(cities=[], wonders=[], rage_pile={"size": 0, "top": "Ghost"})
    assert_good_png(volfyirion_board(empty))
    assert volfyirion_board(empty) == volfyirion_board(
        volf_summary(cities=[], wonders=[], rage_pile={"size": 0, "top": None}))


def test_fit_truncates_with_an_ellipsis():
    font = ImageFont.load_default(size=16)
    assert picture.fit("Kyr", font, 200) == "Kyr"
    cut = picture.fit("A very long card name indeed", font, 60)
    assert cut.endswith("…") and font.getlength(cut) <= 60


def test_no_cjk_text_reaches_the_picture(monkeypatch):
    picture.clear_caches()  # a picture or layer drawn before would not be drawn again
    drawn: list[str] = []
    original = ImageDraw.ImageDraw.text

    def spy(self, xy, text, *args, **kwargs):
        drawn.append(str(text))
        return original(self, xy, text, *args, **kwargs)

    monkeypatch.setattr(ImageDraw.ImageDraw, "text", spy)
    seasons_board(
        seasons_summary(
            dummbot={"crystals": 1, "hand_size": 1, "summoned": [str(n) for n in range(1, 21)], "score": 0}
        )
    )
    volfyirion_board(volf_summary(token="rage_pile"))
    assert drawn
    assert all(ord(ch) < 0x3000 for text in drawn for ch in text)


# --- with the real engines (a broken engine fails these: nothing skips) -----------------------------------


def test_a_real_volfyirion_summary_renders():
    rules = VOLFYIRION
    summary = rules.new_game(rules.normalize_options({}), 7).state.summary()
    assert_good_png(volfyirion_board(summary))


def test_v4_4_troop_defence_comes_from_the_catalog():
    elite = volfyirion_cards.CATALOG.find("Elite Trooper")
    assert elite is not None and elite.defence
    summary = volf_summary()
    assert summary.cities[0].troop_defence == elite.defence and summary.cities[0].defence_now == 8 + elite.defence
    assert volfyirion_board(with_troop_defence(elite.defence)) == volfyirion_board(summary)
    assert volfyirion_board(with_troop_defence(elite.defence + 1)) != volfyirion_board(summary)


def test_prestige_comes_from_the_catalog_when_not_given():
    cards = seasons_cards
    ids = ["1", "12", "EK3"]
    given = {
        i: {
            "name": cards.CATALOG[i].name_en,
            "prestige": cards.CATALOG[i].prestige,
            "type": cards.CATALOG[i].type,
        }
        for i in ids
    }
    bot = {"crystals": 1, "hand_size": 1, "summoned": ids, "score": 0}
    assert seasons_board(seasons_summary(dummbot=bot)) == seasons_board(
        seasons_summary(dummbot=bot), cards=given
    )


def test_a_japanese_name_never_reaches_the_picture():
    assert picture.fit("破壊者ケアン", ImageFont.load_default(size=16), 100) == "?"
    assert picture.fit("Kairn 破壊者", ImageFont.load_default(size=16), 100) == "Kairn"
    given = {"1": {"name": "大気の護符", "prestige": 6}}
    assert_good_png(seasons_board(seasons_summary(), cards=given))


# --- issue 12: layers drawn once and reused, a faster PNG writer: the same pixels -----------------------


@pytest.mark.parametrize("lang", ["en", "ja"])
@pytest.mark.parametrize("count", [0, 3, 6, 25])
def test_cached_layers_give_the_pixels_of_a_fresh_render(monkeypatch, lang, count):
    bot = {"crystals": 14, "hand_size": 3, "summoned": [str(n) for n in range(1, count + 1)], "score": 27}
    summary = seasons_summary(dummbot=bot)
    picture.clear_caches()
    cold = seasons_board(summary, lang=lang)  # tiles, header and wheel drawn now, then pasted
    assert sb._tile_layer.cache_info().currsize == min(count, 19)
    assert seasons_board(summary, lang=lang) == cold  # the same parts: the picture remembered, nothing drawn
    assert picture.PICTURES.hits == 1 and sb._tile_layer.cache_info().hits == 0
    picture.PICTURES.clear()
    warm = seasons_board(summary, lang=lang)  # drawn again from every layer
    assert sb._tile_layer.cache_info().hits == min(count, 19)
    assert sb._header_top.cache_info().hits == sb._header_bottom.cache_info().hits == 1 and sb._season_wheel.cache_info().hits == 1
    monkeypatch.setattr(picture, "USE_LAYERS", False)
    fresh = seasons_board(summary, lang=lang)  # every tile, the header and the whole wheel drawn on the board
    assert decode(cold).tobytes() == decode(fresh).tobytes() == decode(warm).tobytes()


def layered_wheel(month: int, year: int, season: str) -> Image.Image:
    """The reduced wheel as the board shows it: the shared ring with this month's part pasted on it."""
    wheel = sb._reduced_ring().copy()
    patch, corner = sb._season_wheel(month, year, season, False)
    wheel.paste(patch, corner)
    return wheel


def test_the_wheel_from_its_shared_ring_is_the_wheel_drawn_whole():
    for month in range(1, 13):
        for year in (1, 2, 3):
            season = sb._season_of(month)
            layered = layered_wheel(month, year, season)
            assert layered.tobytes() == sb._wheel_in_full(month, year, season, False).tobytes(), (month, year)
    assert sb._wheel_ring.cache_info().currsize == 1


def test_a_picture_is_remembered_by_the_parts_it_shows(monkeypatch):
    picture.clear_caches()
    draws = []
    original = sb._board
    monkeypatch.setattr(sb, "_board", lambda *args: draws.append(1) or original(*args))
    first = seasons_board(seasons_summary())
    assert seasons_board(copy.deepcopy(seasons_summary())) == first and len(draws) == 1
    assert seasons_board(seasons_summary(discards=["12"])) == first and len(draws) == 1  # not shown
    changed = seasons_board(seasons_summary(dummbot=dict(DUMMBOT, crystals=15)))
    assert changed != first and len(draws) == 2
    assert seasons_board(seasons_summary(), lang="ja") != first and len(draws) == 3  # another language
    assert seasons_board(seasons_summary(), cards={"1": {"name": "X", "prestige": 2}}) != first
    assert len(draws) == 4


async def test_a_burst_of_pictures_is_drawn_one_at_a_time_on_the_picture_thread():
    import asyncio
    import threading

    lock = threading.Lock()
    running, most, threads = [0], [0], set()

    def render(summary):
        with lock:
            running[0] += 1
            most[0] = max(most[0], running[0])
            threads.add(threading.current_thread().name)
        try:
            return seasons_board(summary)
        finally:
            with lock:
                running[0] -= 1

    pngs = await asyncio.gather(*(picture.drawn(render, seasons_summary(month=m)) for m in range(1, 13)))
    assert len({bytes(p) for p in pngs}) == 12  # every month its own picture
    assert most[0] == picture.PICTURE_THREADS == 1
    assert all(name.startswith("picture") for name in threads)


@pytest.mark.parametrize("lang", ["en", "ja"])
def test_cached_city_panels_give_the_pixels_of_a_fresh_render(monkeypatch, lang):
    cities = copy.deepcopy(volf_json()["cities"])
    cities[1] = {"name": "Kyr", "defence": 9, "destroyed": True, "troop": None, "building": None}
    summary = volf_summary(token="rage_pile", cities=cities)
    picture.clear_caches()
    cold = volfyirion_board(summary, lang=lang)
    assert vb._city_layer.cache_info().currsize == 3
    picture.PICTURES.clear()  # not the whole picture remembered: its layers
    warm = volfyirion_board(summary, lang=lang)
    assert vb._city_layer.cache_info().hits == 3
    for layer in (vb._header_layer, vb._lair_layer, vb._rage_pile_layer, vb._wonders_layer):
        assert layer.cache_info().hits == 1
    given = volfyirion_board(with_troop_defence(5, summary), lang=lang)  # another key: drawn anew
    assert vb._city_layer.cache_info().currsize == 4  # only the city with the troop changes
    monkeypatch.setattr(picture, "USE_LAYERS", False)
    fresh = volfyirion_board(summary, lang=lang)
    fresh_given = volfyirion_board(with_troop_defence(5, summary), lang=lang)
    assert decode(cold).tobytes() == decode(fresh).tobytes() == decode(warm).tobytes()
    assert decode(given).tobytes() == decode(fresh_given).tobytes()
    for token in ("lair", "rage_pile"):  # the other panels' layers too
        odd = volf_summary(token=token, wonders=[{"name": "Pure Qoam", "cost": 3, "sealed": False}],
                           rage_pile={"size": 0, "top": None})
        monkeypatch.setattr(picture, "USE_LAYERS", True)
        layered = volfyirion_board(odd, lang=lang)
        monkeypatch.setattr(picture, "USE_LAYERS", False)
        assert decode(layered).tobytes() == decode(volfyirion_board(odd, lang=lang)).tobytes()
