"""What every game engine shares: value types, the error type, randomness, catalogs, records."""

from .catalog import Catalog, Entry, is_cjk, split_list
from .errors import RuleError, SoloError
from .model import JSON, Action, Event, Params, State, Step, Waiting
from .record import GameRecord, Rules
from .result import OUTCOMES, Result
from .rng import Rng
from .text import closest, fold, one_edit

__all__ = [
    "JSON",
    "OUTCOMES",
    "Action",
    "Catalog",
    "Entry",
    "Event",
    "GameRecord",
    "Params",
    "Result",
    "Rng",
    "RuleError",
    "Rules",
    "SoloError",
    "State",
    "Step",
    "Waiting",
    "closest",
    "fold",
    "is_cjk",
    "one_edit",
    "split_list",
]
