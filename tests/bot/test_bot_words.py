"""Every message of both languages rendered with realistic parameters (issue 10, points 1, 4, 7 and 8).

The parameters are the engine's (the names and types it emits: ``cards`` is a count in
``seasons.event.game_end``, card ids are strings), so a count shown as a card, a placeholder left
unfilled or a raw code in a sentence fails here, key by key.
"""

from __future__ import annotations

import dataclasses
import inspect
import re
import string

import pytest

from bot import games
from bot.i18n import card_params, catalog_texts, event_lines, param_names, t
from bot.render import notices
from engine.core import Event
from engine.seasons.summary import SeasonsSummary
from engine.volfyirion.summary import Phase, VolfyirionSummary

FACE = {"energy": {"water": 2}, "crystals": 0, "star": 1, "draw": 0, "transmute": False, "dots": 2}
COUNT = 13  # Seasons has a card #13 (驚愕の箱, "Amazing Box"…): a count read as a card would show it.
SEASONS_CARD, SEASONS_CARDS = "12", ["38", "40"]
VOLF_CARD, VOLF_CARDS = "Elite Trooper", ["Stab", "Telron's Analysis"]

# The engine's parameters by name (numbers are counts unless said otherwise).
WORDS = {
    "season": "winter", "new_season": "spring", "difficulty": "wizard", "dice": "table", "element": "water",
    "how": "attack", "paid": "battle", "outcome": "won", "token": "lair", "bonus": "flat", "game": "seasons",
    "kind": "kairn", "kinds": "activate, summon, kairn, onys, cannot_pay, left", "method": "exact",
    "waiting": "seasons.waiting.die", "reason": "disk_full", "action": "played", "expected": "play, remove",
    "face": FACE, "first_face": FACE, "second_face": FACE | {"star": 0, "crystals": 6, "energy": {}, "dots": 3},
    "closest_faces": ["2 water, star, 2 dots", "draw, 3 dots"], "first_die": 1, "second_die": 5,
    "city": "Tylaris", "from_city": "Vahylea", "city8": "Tylaris", "city9": "Vahylea", "city10": "Alantar",
    "cities": ["Tylaris", "Vahylea"], "query": "Kairn the Dstroyr", "value": "abc",
    "word": "banana", "field": "steps", "option": "difficulty", "choices": "apprentice, wizard, archmage",
    "arg": "card", "user": "Ann", "owner": "<@1>", "game_id": 7, "ply": 41, "year": 2, "month": 4, "round": 2,
    "turn": 6, "mean": 80.2, "p10": 70, "p90": 91, "now": 40, "samples": 10000, "p_city": "32%", "p_lost": "5%",
    "sealed": "0.4", "attack": 9, "margin": "+12", "player": 98, "dummbot": 86, "player_score": 98,
    "dummbot_score": 86, "defences": "8, 9, 9", "version": 99, "steps": 3, "change": -2, "index": 1,
    "defence": 9, "printed": 9, "troop_defence": 0, "attack_before": 9, "attack_after": 0, "weakest": 8,
    "kp_before": 3, "kp_after": 0, "cost": 3, "max_cost": 3, "k": 1, "bonuses": 1, "hand": 0, "extra": 0,
    "wins": 1, "losses": 0, "abandoned": 0, "games": 1, "turns": 6, "rage_size": 1, "dummbot_crystals": 4,
    "building": "Barracks", "troop": "Guard", "new_card": "Guard", "side": "dummbot", "source": "die",
    "suggestions": ["16", "1"],
    "reason_card": "10", "crystals": 64, "prestige": 109,
    # S-1.4, S-2.4: the round's dice and what is known of Dummbot's hand.
    "dice_season": "winter", "first_closest": ["2 water, 1 crystal, 2 dots"], "second_closest": ["draw, 1 dot"],
    "known_cards": ["28", "41"], "missing_cards": ["41"], "outside_cards": ["45", "11"],
}


def engine_params(key: str, template: str) -> dict:
    """Realistic parameters for ``key``, under the names the engine uses."""
    inverse = {new: old for old, new in param_names(_base(key)).items()}
    volf = "volfyirion" in key
    params = {}
    for _, name, _, _ in string.Formatter().parse(template):
        if not name:
            continue
        engine_name = inverse.get(name, name)
        if engine_name == "back":  # a move back: the engine's signed steps or change
            params["steps" if "time" in key or "token" in key else "change"] = -1
            continue
        if engine_name == "card":
            value = VOLF_CARD if volf else SEASONS_CARD
        elif engine_name == "cards" and name == "cards":
            value = VOLF_CARDS if volf else SEASONS_CARDS
        elif key.startswith("result.how") and engine_name == "cities":
            value = 2
        elif engine_name in WORDS:
            value = WORDS[engine_name]
        else:
            value = COUNT
        params[engine_name] = value
    if key.endswith(".tie"):
        params |= {"player_score": 86, "dummbot_score": 86, "player": 86, "dummbot": 86}
    if key == "seasons.event.draw_from_hand.all":
        params |= {"count": 4, "hand_size": 4}
    if key.endswith(".none"):
        params |= {"n": 0, "available": 0, "destroyed_before": 0, "wonders": 0, "change": 0, "put_aside": 0}
        if key.startswith("seasons.reveal_not_in_hand"):
            params["unknown"] = 0
    if key == "seasons.reveal_not_in_hand":  # some of the hand drawn (all of it: the ``.all`` sentence)
        params |= {"count": 3, "hand_size": 5}
    if key == "seasons.reveal_not_in_hand.all":
        params["count"] = params["hand_size"]
    if key.endswith(".no_city"):
        params["city"] = None
    if key.startswith("volfyirion.event.setup_difficulty."):
        params["bonus"] = key.rsplit(".", 1)[1]
    if key == "card.understood":
        params["game"] = "seasons"
    if key == "action.volfyirion.putaside.card":
        params["card"] = VOLF_CARD
    return params


def _base(key: str) -> str:
    return key if key in catalog_texts()["en"] and not re.search(r"\.(back|none|all|tie|no_city|card|flat|official|"
                                                                  r"per_city)$", key) else key.rsplit(".", 1)[0]


KEYS = sorted(k for k in catalog_texts()["en"])


@pytest.mark.parametrize("lang", ["en", "ja"])
def test_every_message_renders_counts_as_numbers_and_cards_as_names(lang):
    assert problems_in(lang) == []


def problems_in(lang: str) -> list[str]:
    texts = catalog_texts()[lang]
    problems = []
    for key in KEYS:
        template = texts.get(key) or catalog_texts()["en"][key]
        params = engine_params(key, catalog_texts()["en"][key])
        text = t(lang, _base(key), **params)
        if re.search(r"\{[a-z_0-9]+[^}]*\}", text):
            problems.append(f"{key}: a placeholder left unfilled: {text}")
        if "#13" in text or "驚愕の箱" in text or "Amazing Box" in text:
            problems.append(f"{key}: a count shown as a card: {text}")
        for _, name, _, _ in string.Formatter().parse(template):
            engine_name = {v: k for k, v in param_names(_base(key)).items()}.get(name, name)
            value = params.get(engine_name)
            if name in card_params() and isinstance(value, str) and value.isdigit():
                if f"#{value}" not in text:
                    problems.append(f"{key}: the card {value} is not named: {text}")
            elif (isinstance(value, int) and not isinstance(value, bool) and value == COUNT and name != "game_id"
                  and "13" not in text):
                problems.append(f"{key}: the count {name} is not shown: {text}")
        codes = ("cannot_pay", "kairn", "onys", "montecarlo", "None", "seasons.waiting", "disk_full")
        for code in codes + (("exact",) if lang == "ja" else ()):  # "exact" is the English word for it
            if re.search(rf"(?<![`/\w]){code}(?![\w`])", text) and code not in (params.get("value"), params.get("query")):
                problems.append(f"{key}: raw code {code!r}: {text}")
    return problems


def test_s7_1_the_final_score_counts_cards_and_is_not_a_card():
    """The climax of issue 10: 「カード驚愕の箱 (#13)枚」 was the count 13 rendered as card #13."""
    params = {"dummbot_score": 173, "crystals": 64, "prestige": 109, "cards": 13}
    assert t("ja", "seasons.event.game_end", **params) == \
        "ダムボットの最終スコアは173点です（クリスタル64個＋カード13枚の勝利点109点）。"
    assert t("en", "seasons.event.game_end", **params) == \
        "Dummbot's final score: 173 (64 crystals + 109 prestige from 13 cards)."


def test_no_message_parameter_is_swallowed_by_the_formatters_own_arguments():
    """A placeholder named like an argument of ``t`` or ``notice`` (``kind``!) never reached the text."""
    taken = set(inspect.signature(t).parameters) | set(inspect.signature(notices.notice).parameters)
    taken -= {"params", "more"}
    for lang in ("en", "ja"):
        for key, template in catalog_texts()[lang].items():
            names = {n for _, n, _, _ in string.Formatter().parse(template) if n}
            assert not names & taken, (key, names & taken)
    # And an engine error that carries ``kind`` (the effect) is shown with its label, not swallowed.
    said = notices.notice("ja", "seasons.effect_needs_card", params={"kind": "kairn", "card": "16"})
    assert "破壊者ケアンを起動した（ダムボットのクリスタル−4個）" in said.description and "{" not in said.description


@pytest.mark.parametrize("lang", ["en", "ja"])
def test_edges_say_the_right_words(lang):
    """Issue 10 point 4: the last move, a move back, a tie or not, exactly the hand, singulars."""
    last = event_lines(lang, [Event("seasons.event.token_moved", steps=3, year=3, month=12, season="winter"),
                              Event("seasons.event.year_three_over")])
    assert "12" not in last[0] and ("end of year 3" in last[0] or "3年目の終わり" in last[0])
    back = t(lang, "seasons.event.token_moved", steps=-1, year=1, month=2, season="winter")
    assert "-1" not in back and ("back 1 space" in back or "1マス戻します" in back)
    lost = t(lang, "seasons.event.game_lost", player_score=80, dummbot_score=86)
    assert "tie" not in lost and "同点" not in lost and "引き分け" not in lost
    tied = t(lang, "seasons.event.game_lost", player_score=86, dummbot_score=86)
    assert "tie" in tied or "同点" in tied
    scores = t(lang, "result.seasons_scores", player=80, dummbot=86)
    assert "tie" not in scores and "同点" not in scores
    assert "tie" in t(lang, "result.seasons_scores", player=86, dummbot=86) or lang == "ja"
    all_four = t(lang, "seasons.event.draw_from_hand", count=4, hand_size=4)
    assert "random" not in all_four and "ランダム" not in all_four and ("all" in all_four or "すべて" in all_four)
    assert "ランダム" in t("ja", "seasons.event.draw_from_hand", count=4, hand_size=7)
    if lang == "en":
        assert "1 city standing" in t(lang, "result.how.attack", turn=5, cities=1)
        assert "2 cities standing" in t(lang, "result.how.attack", turn=5, cities=2)
        from bot.commands.game import counts_text

        assert counts_text(lang, 1, 1, 0, 0) == "1 game · 1 won"  # a zero count is not said
        assert counts_text(lang, 3, 1, 1, 1) == "3 games · 1 won · 1 lost · 1 abandoned"
        for key, template in catalog_texts()["en"].items():
            assert "(s)" not in template and "(ies)" not in template, key


def test_the_final_score_and_a_lost_game_say_so_in_the_state():
    """「現在の得点」 for the final score; the dragon's token line after a loss."""
    over = SeasonsSummary.from_json({"year": 3, "month": 12, "season": "autumn", "difficulty": "wizard", "dice": "table",
                                     "game_over": True,
                                     "dummbot": {"crystals": 64, "hand_size": 0, "summoned": ["12"], "score": 173}})
    names = [name for name, _, _ in games.get("seasons").state_fields("ja", over)]
    assert "ダムボットの最終スコア" in names and "ダムボットの現在のスコア" not in names
    values = {n: v for n, v, _ in games.get("seasons").state_fields("ja", over)}
    assert values["ダムボットの最終スコア"] == "173点" and values["ダムボットのクリスタル"] == "64個"
    lost = VolfyirionSummary.from_json({"turn": 9, "difficulty": "normal", "bonus": "flat", "token": "rage_pile",
                                        "phase": "finished", "rage_pile": {"size": 0, "top": None}, "cities": [],
                                        "wonders": []})
    text = " ".join(f"{n} {v}" for n, v, _ in games.get("volfyirion").state_fields("en", lost))
    assert "attacks at the end of this turn" not in text
    live = dataclasses.replace(lost, phase=Phase.TURN)
    assert "attacks at the end of this turn" in " ".join(v for _, v, _ in games.get("volfyirion").state_fields("en", live))


@pytest.mark.parametrize("lang", ["en", "ja"])
def test_bot_dice_are_described_by_a_face_players_can_find(lang):
    """Issue 10 point 8: 「ダイス1と5」 names no physical die; each die is told apart by a face only it has."""
    from engine.seasons.faces import dice_numbers, die_faces, face_text

    for season in ("winter", "spring", "summer", "autumn"):
        for a in dice_numbers(season):
            text = t(lang, "seasons.event.dice_chosen", season=season, first_die=a, second_die=a % 5 + 1)
            assert "ダイス1" not in text and "dice 1" not in text and "die 1 " not in text
            shown = [f for f in die_faces(season, a) if face_text(f, lang) in text]
            others = [f for d in dice_numbers(season) if d != a for f in die_faces(season, d)]
            assert any(f not in others for f in shown), (season, a, text)


def test_effect_choices_have_names_in_both_languages():
    """Issue 11 point 10 / issue 10 point 7: `/seasons effect` offered `cannot_pay`, `onys` as names in English."""
    from bot.games.seasons.front.commands import _effect_choices
    from engine.seasons import EFFECT_KINDS

    choices = _effect_choices()
    assert [c.value for c in choices] == list(EFFECT_KINDS)
    for choice in choices:
        english = choice.name
        assert english != choice.value and "_" not in english and english == t("en", f"seasons.effect.{choice.value}")
        japanese = catalog_texts()["ja"][choice._locale_name.extras["key"]]
        assert not re.search(r"[a-z_]{3,}", japanese)
