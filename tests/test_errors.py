"""One error base (issue 24): the rules', the bot's and the store's refusals are one shape, a key and its params."""

from __future__ import annotations

import pickle

from bot.games.volfyirion.migrations import MigrationMismatch
from bot.sessions import REFUSALS, Refusal
from bot.store import StoreError
from engine.core import RuleError, SoloError


def test_every_refusal_is_a_solo_error_with_a_key_and_params():
    for err in (RuleError("seasons.card_unknown", query="x", suggestions=["16"]), Refusal("refuse.no_game", kind="any"),
                StoreError("store.channel_busy", channel_id=1), MigrationMismatch(game_id=1, detail="state differs")):
        assert isinstance(err, SoloError) and isinstance(err, REFUSALS)
        assert err.key and isinstance(err.params, dict)
    assert MigrationMismatch(game_id=1).key == "store.migration_mismatch"  # a subclass's own key
    assert StoreError().key == "store.error"


def test_a_solo_error_says_its_key_and_params_and_survives_a_round_trip():
    err = RuleError("seasons.bad_number", field="steps", value="0")
    assert str(err) == "seasons.bad_number(field='steps', value='0')" and str(Refusal("refuse.stale_game")) == \
        "refuse.stale_game"
    copy = pickle.loads(pickle.dumps(err))
    assert (copy.key, copy.params) == (err.key, err.params)
