"""The rules of Soluna, pure Python: positions, moves, rounds, matches, perfect play.

Nothing here imports the user interface; the app, the CLI and the SSH server all
build on this package. The solver and the computer players (``solver.py``, ``players.py``) are
imported when one of their names is first asked for here: a match on one terminal draws its
first frame without them.
"""

from __future__ import annotations

import importlib
from typing import TYPE_CHECKING, Any

from .errors import (
    IllegalMoveError,
    MatchFormatError,
    MatchOverError,
    NotationError,
    OptionError,
    OutOfTurnError,
    PositionError,
    RoundOverError,
    SearchAborted,
    SolunaError,
)
from .layout import DEFAULT_DISCS, MIN_DISCS, disc_set, drop, every_drop, layout_from_faces
from .match import Match, MatchOptions, NextLayout, NextOpener
from .places import Arrangement, PlacedMove, arrange, parse_move_record
from .position import MAX_DISCS, Move, Position, Tower
from .round import Round, RoundOutcome, other
from .symbols import Symbol

if TYPE_CHECKING:
    from .players import LEVELS, choose_move, choose_to_open
    from .solver import Analysis, Budget, MoveVerdict, Solver, Verdict, shared_solver

#: The names this package lends from modules it imports when first asked for (PEP 562).
_LATER = {
    **dict.fromkeys(("LEVELS", "choose_move", "choose_to_open"), "players"),
    **dict.fromkeys(("Analysis", "Budget", "MoveVerdict", "Solver", "Verdict", "shared_solver"), "solver"),
}


def __getattr__(name: str) -> Any:
    """One of the solver's or the players' names, importing its module now."""
    module = _LATER.get(name)
    if module is None:
        raise AttributeError(f"module {__name__!r} has no attribute {name!r}")
    value = getattr(importlib.import_module(f".{module}", __name__), name)
    globals()[name] = value
    return value

__all__ = [
    "Analysis", "Arrangement", "Budget", "DEFAULT_DISCS", "IllegalMoveError", "LEVELS", "MAX_DISCS", "MIN_DISCS",
    "Match", "MatchFormatError", "MatchOptions", "MatchOverError", "Move", "MoveVerdict", "NextLayout",
    "NextOpener", "NotationError", "OptionError", "OutOfTurnError", "PlacedMove", "Position", "PositionError", "Round",
    "RoundOutcome", "RoundOverError", "SearchAborted", "SolunaError", "Solver", "Symbol", "Tower", "Verdict",
    "arrange", "choose_move", "choose_to_open", "disc_set", "drop", "every_drop", "layout_from_faces", "other",
    "parse_move_record", "shared_solver",
]
