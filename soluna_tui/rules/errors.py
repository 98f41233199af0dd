"""Errors of the rules package: all are ``ValueError`` subclasses with one-line messages."""

from __future__ import annotations


class SolunaError(ValueError):
    """Base class of every error the rules package raises on purpose."""


class NotationError(SolunaError):
    """Text that is not valid notation for a symbol, tower, position or move."""


class PositionError(SolunaError):
    """Towers that cannot form a position: no tower, or more discs than the game has."""


class IllegalMoveError(SolunaError):
    """A well-formed move that the current position does not allow."""


class OutOfTurnError(SolunaError):
    """An action taken by the wrong player, or at a moment it does not apply."""


class RoundOverError(OutOfTurnError):
    """A move attempted after the round has been decided."""


class MatchOverError(OutOfTurnError):
    """An action attempted after the match has been decided."""


class OptionError(SolunaError):
    """A match option outside its allowed range."""


class MatchFormatError(SolunaError):
    """A serialised match that is malformed, from another program or from a newer version."""


class SearchAborted(Exception):
    """The solver stopped before finishing because its budget ran out or it was cancelled.

    Not a ``ValueError``: nothing was wrong with the input, the work was just cut short.
    Everything solved before the stop stays in the solver's cache.
    """
