"""The rules engine: game state, outcome of a stroke, judging, scoring (docs/rules.md).

Pure functions decide (``judge``, ``apply``, ``is_fulfilled``, ``fouls_of`` …);
``Match`` keeps a history of immutable states for undo/redo.
"""

from .clauses import CLAUSES
from .errors import RulesError, RulesInputError
from .judge import (
    CALL_STATUSES,
    apply,
    called_ball,
    fouls_of,
    is_fulfilled,
    is_game_over,
    judge,
    needs,
    route_followed,
    step,
)
from .match import JudgedStroke, Match
from .outcome import Event, Outcome
from .settings import Settings
from .state import LAST_BALL, NORMAL, GameState, Result
from .verdict import Penalty, Verdict

__all__ = [
    "CALL_STATUSES",
    "CLAUSES",
    "Event",
    "GameState",
    "JudgedStroke",
    "LAST_BALL",
    "Match",
    "NORMAL",
    "Outcome",
    "Penalty",
    "Result",
    "RulesError",
    "RulesInputError",
    "Settings",
    "Verdict",
    "apply",
    "called_ball",
    "fouls_of",
    "is_fulfilled",
    "is_game_over",
    "judge",
    "needs",
    "route_followed",
    "step",
]
