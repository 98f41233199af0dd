"""The rules of Soluna, pure Python: positions, moves, rounds, matches, perfect play.

Nothing here imports the user interface; the app, the CLI and the SSH server all
build on this package.
"""

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
from .players import LEVELS, choose_move, choose_to_open
from .position import MAX_DISCS, Move, Position, Tower
from .round import Round, RoundOutcome, other
from .solver import Analysis, Budget, MoveVerdict, Solver, Verdict, shared_solver
from .symbols import Symbol

__all__ = [
    "Analysis", "Arrangement", "Budget", "DEFAULT_DISCS", "IllegalMoveError", "LEVELS", "MAX_DISCS", "MIN_DISCS",
    "Match", "MatchFormatError", "MatchOptions", "MatchOverError", "Move", "MoveVerdict", "NextLayout",
    "NextOpener", "NotationError", "OptionError", "OutOfTurnError", "PlacedMove", "Position", "PositionError", "Round",
    "RoundOutcome", "RoundOverError", "SearchAborted", "SolunaError", "Solver", "Symbol", "Tower", "Verdict",
    "arrange", "choose_move", "choose_to_open", "disc_set", "drop", "every_drop", "layout_from_faces", "other",
    "parse_move_record", "shared_solver",
]
