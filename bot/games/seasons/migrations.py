"""Seasons' part of the store's schema steps (``SeasonsGame.store_steps``), numbered as the store's."""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import TYPE_CHECKING

if TYPE_CHECKING:
    from ..plugin import StoreStep

# SQLite's step 3: games recorded before the rules' edition 2 (the player's turn before Dummbot's die, time moves
# both ways, …) keep the rules they were played under, so they replay to the state their players saw.
# (PostgreSQL came later: its first step already is the shape this left.)
_EDITION_1 = """
    UPDATE games SET options = json_set(options, '$.edition', 1)
    WHERE kind = 'seasons' AND json_extract(options, '$.edition') IS NULL
    """

STEPS: Mapping[str, Mapping[int, Sequence[StoreStep]]] = {"sqlite": {3: (_EDITION_1,)}}
