"""bot/collector.py: the collector as ``python -m bot`` sets it (issue 12)."""

from __future__ import annotations

import gc
import weakref

from bot import collector


def test_tune_spaces_young_collections_and_keeps_the_older_generations() -> None:
    saved = gc.get_threshold()
    try:
        gc.set_threshold(700, 11, 12)
        collector.tune()
        assert gc.get_threshold() == (collector.YOUNG, 11, 12)
    finally:
        gc.set_threshold(*saved)


def test_settle_collects_garbage_cycles_then_freezes_what_lives() -> None:
    class Node:
        def __init__(self) -> None:
            self.me = self

    alive, garbage = Node(), Node()
    gone = weakref.ref(garbage)
    del garbage  # a cycle: only the collector frees it
    try:
        collector.settle()
        assert gc.get_freeze_count() > 0
        frozen_ids = {id(o) for o in gc.get_objects()}  # frozen objects are no longer in any generation
        assert id(alive) not in frozen_ids
        assert gone() is None
    finally:
        gc.unfreeze()
    assert id(alive) in {id(o) for o in gc.get_objects()}
