"""A match: rounds until one player has the stars to win, under a rule preset."""

from __future__ import annotations

import json
import random
from dataclasses import asdict, dataclass, replace
from enum import StrEnum
from typing import Any

from .errors import MatchFormatError, MatchOverError, OptionError, OutOfTurnError, SolunaError
from .json_fields import is_one_of, read_field
from .layout import DEFAULT_DISCS, check_disc_count, drop
from .places import PlacedMove, parse_move_record
from .position import Move, Position
from .round import PLAYERS, Round, RoundOutcome, other

MIN_STARS, MAX_STARS, DEFAULT_STARS = 1, 7, 4
FORMAT_NAME = "soluna-match"
#: Version 2 keeps each move with its places (``2:1S>1:1S``); version 1 (moves without places) still reads.
FORMAT_VERSION = 2
READABLE_VERSIONS = (1, 2)
#: No list or string in a match document is longer (a match has a few dozen rounds of a few dozen moves).
MAX_DOCUMENT_ITEMS = 10_000


class NextLayout(StrEnum):
    """Where each round after the first starts."""

    SAME = "same"  # the physical rules: round 1's symbols again
    NEW = "new"  # the online rules: a fresh drop every round


class NextOpener(StrEnum):
    """Who opens each round after the first."""

    LOSER_CHOOSES = "loser-chooses"  # the physical rules
    LOSER_OPENS = "loser-opens"  # the online rules


@dataclass(frozen=True, slots=True)
class MatchOptions:
    """Every option of the rules (docs/rules.md); the defaults are the box (physical) rules."""

    stars_to_win: int = DEFAULT_STARS
    discs: int = DEFAULT_DISCS
    next_layout: NextLayout = NextLayout.SAME
    next_opener: NextOpener = NextOpener.LOSER_CHOOSES
    first_opener: int = 0

    def __post_init__(self) -> None:
        stars = self.stars_to_win
        if isinstance(stars, bool) or not isinstance(stars, int) or not MIN_STARS <= stars <= MAX_STARS:
            raise OptionError(f"stars to win must be {MIN_STARS} to {MAX_STARS}, not {stars!r}")
        check_disc_count(self.discs)
        try:
            object.__setattr__(self, "next_layout", NextLayout(self.next_layout))
            object.__setattr__(self, "next_opener", NextOpener(self.next_opener))
        except ValueError as error:
            raise OptionError(str(error)) from None
        if not is_one_of(self.first_opener, PLAYERS):
            raise OptionError(f"the first opener must be player 0 or 1, not {self.first_opener!r}")

    @classmethod
    def preset(cls, name: str, **overrides: Any) -> MatchOptions:
        """The ``box`` (same layout, loser chooses) or ``online`` (new layout, loser opens) rules."""
        try:
            layout, opener = PRESETS[name]
        except KeyError:
            raise OptionError(f"unknown rules preset {name!r}: use {' or '.join(PRESETS)}") from None
        return cls(next_layout=layout, next_opener=opener, **overrides)

    @property
    def preset_name(self) -> str:
        """``box``, ``online``, or ``custom`` for a mix of the two."""
        for name, rules in PRESETS.items():
            if rules == (self.next_layout, self.next_opener):
                return name
        return "custom"

    def to_dict(self) -> dict[str, Any]:
        return {key: getattr(value, "value", value) for key, value in asdict(self).items()}


PRESETS: dict[str, tuple[NextLayout, NextOpener]] = {
    "box": (NextLayout.SAME, NextOpener.LOSER_CHOOSES),
    "online": (NextLayout.NEW, NextOpener.LOSER_OPENS),
}


def layout_for(seed: int, discs: int, round_number: int) -> Position:
    """The drop a match with this seed uses for round ``round_number`` (1-based), fresh each round."""
    return drop(discs, random.Random(f"soluna/{seed}/{round_number}"))


class Match:
    """Rounds, stars and options; the single authority on what may happen next."""

    def __init__(
        self,
        options: MatchOptions | None = None,
        players: tuple[str, str] = ("Player 1", "Player 2"),
        seed: int | None = None,
    ) -> None:
        self.options = options or MatchOptions()
        if len(players) != 2 or not all(isinstance(name, str) for name in players):
            raise OptionError("a match has exactly two players, each with a name")
        self.players: tuple[str, str] = (players[0], players[1])
        self.seed = random.SystemRandom().randrange(2**32) if seed is None else seed
        self.forfeited_by: int | None = None
        self.rounds: list[Round] = [Round(self.layout_for(1), self.options.first_opener)]

    # ---- state ---------------------------------------------------------------------------

    @property
    def round(self) -> Round:
        """The round being played (or just finished)."""
        return self.rounds[-1]

    @property
    def round_number(self) -> int:
        return len(self.rounds)

    @property
    def position(self) -> Position:
        return self.round.position

    @property
    def to_move(self) -> int:
        return self.round.to_move

    def layout_for(self, round_number: int) -> Position:
        """The layout round ``round_number`` starts from under this match's options."""
        if round_number == 1 or self.options.next_layout is NextLayout.NEW:
            return layout_for(self.seed, self.options.discs, round_number)
        return self.rounds[0].start

    @property
    def outcomes(self) -> list[RoundOutcome]:
        """The outcome of every decided round, in order."""
        return [outcome for outcome in (played.outcome for played in self.rounds) if outcome]

    @property
    def stars(self) -> tuple[int, int]:
        """Stars each player has won."""
        won = [outcome.winner for outcome in self.outcomes]
        return (won.count(0), won.count(1))

    @property
    def winner(self) -> int | None:
        """The match winner, once someone has the stars (or the other forfeited)."""
        if self.forfeited_by is not None:
            return other(self.forfeited_by)
        for player, stars in enumerate(self.stars):
            if stars >= self.options.stars_to_win:
                return player
        return None

    @property
    def is_over(self) -> bool:
        return self.winner is not None

    @property
    def between_rounds(self) -> bool:
        """The round is decided and the match goes on: the next round must be started."""
        return self.round.is_over and not self.is_over

    @property
    def opener_chooser(self) -> int | None:
        """The player who must choose who opens the next round, when that choice is pending."""
        if self.between_rounds and self.options.next_opener is NextOpener.LOSER_CHOOSES:
            return self._round_loser()
        return None

    def _round_loser(self) -> int:
        outcome = self.round.outcome
        if outcome is None:
            raise OutOfTurnError("the round is not over: nobody chooses the next opener yet")
        return outcome.loser

    def next_opener(self, chosen: int | None = None) -> int:
        """Who opens the next round: the rules decide, or ``chosen`` where the loser chooses."""
        loser = self._round_loser()
        if self.options.next_opener is NextOpener.LOSER_OPENS:
            if chosen not in (None, loser):
                raise OutOfTurnError(f"under these rules the loser ({self.players[loser]}) opens")
            return loser
        if not is_one_of(chosen, PLAYERS):
            raise OutOfTurnError("the loser of the round must choose who opens the next one")
        return chosen

    # ---- actions -------------------------------------------------------------------------

    def _check_not_over(self, action: str) -> None:
        if self.is_over:
            raise MatchOverError(f"cannot {action}: the match is over")

    def play(self, move: Move | PlacedMove, player: int | None = None) -> Position:
        """Play a move in the current round (checked against ``player`` when given), from and onto its
        places when it names them."""
        self._check_not_over(f"play {move}")
        return self.round.play(move, player)

    def undo(self) -> PlacedMove:
        """Take back the last move of the current round (even a round- or match-winning one)."""
        if self.forfeited_by is not None:
            raise MatchOverError("cannot undo: the match was forfeited")
        return self.round.undo()

    def redo(self) -> PlacedMove:
        self._check_not_over("redo")
        return self.round.redo()

    @property
    def can_undo(self) -> bool:
        return self.forfeited_by is None and self.round.can_undo

    @property
    def can_redo(self) -> bool:
        return not self.is_over and self.round.can_redo

    def start_next_round(self, opener: int | None = None, chooser: int | None = None) -> Round:
        """Begin the next round; under loser-chooses, ``opener`` is the loser's choice.

        ``chooser``, when given, must be the loser: a remote player cannot choose for them.
        """
        self._check_not_over("start another round")
        if not self.round.is_over:
            raise OutOfTurnError("cannot start the next round: this one is still being played")
        if chooser is not None and chooser != self.opener_chooser:
            raise OutOfTurnError("only the loser of the round chooses who opens the next one")
        next_round = Round(self.layout_for(self.round_number + 1), self.next_opener(opener))
        self.rounds.append(next_round)
        return next_round

    def forfeit(self, player: int) -> None:
        """``player`` abandons the match: the opponent wins it (a remote player who never came back)."""
        if not is_one_of(player, PLAYERS):
            raise OutOfTurnError(f"no player {player!r}")
        self._check_not_over("forfeit")
        self.forfeited_by = player

    def rematch(self, seed: int | None = None) -> Match:
        """A fresh match between the same players under the same options; the loser opens it."""
        opener = other(self.winner) if self.winner is not None else self.options.first_opener
        return Match(replace(self.options, first_opener=opener), self.players, seed)

    def branch(self, round_number: int, ply: int, players: tuple[str, str] | None = None) -> Match:
        """A copy of this match as it stood after ``ply`` moves of round ``round_number``: later moves
        and rounds gone, nothing to redo, no forfeit; every move keeps its places. A side line plays on
        from it without touching this match; ``players``: the sides' names there, if not the match's."""
        if not 1 <= round_number <= self.round_number:
            raise OutOfTurnError(f"no round {round_number}: the match has {self.round_number}")
        played = self.rounds[round_number - 1]
        if not 0 <= ply <= played.ply:
            raise OutOfTurnError(f"round {round_number} has no position after {ply} moves")
        document = self.to_dict()
        rounds = document["rounds"][:round_number]
        rounds[-1].update(moves=rounds[-1]["moves"][:ply], redo=[])
        document.update(rounds=rounds, forfeited_by=None)
        if players is not None:
            document.update(players=list(players))
        return Match.from_dict(document)

    # ---- serialisation -------------------------------------------------------------------

    def to_dict(self) -> dict[str, Any]:
        """A JSON-ready document of the whole match, from which ``from_dict`` rebuilds it."""
        return {
            "format": FORMAT_NAME,
            "version": FORMAT_VERSION,
            "players": list(self.players),
            "seed": self.seed,
            "options": self.options.to_dict(),
            "forfeited_by": self.forfeited_by,
            "rounds": [
                {
                    "start": str(played.start),
                    "opener": played.opener,
                    "moves": [str(placed) for placed in played.placed_moves],
                    "redo": [str(placed) for placed in played.redo_moves],
                }
                for played in self.rounds
            ],
        }

    def to_json(self) -> str:
        return json.dumps(self.to_dict(), ensure_ascii=False)

    @classmethod
    def from_json(cls, text: str) -> Match:
        """Rebuild a match from ``to_json`` output; ``MatchFormatError`` if it is not one."""
        try:
            document = json.loads(text)
        except (json.JSONDecodeError, UnicodeDecodeError) as error:
            raise MatchFormatError(f"not valid JSON ({error})") from None
        except RecursionError:
            raise MatchFormatError("not a match: nested too deeply") from None
        return cls.from_dict(document)

    @classmethod
    def from_dict(cls, document: Any) -> Match:
        """Rebuild and replay a match document, checking every move and round against the rules."""
        try:
            return _read_match(document)
        except MatchFormatError:
            raise
        except SolunaError as error:
            raise MatchFormatError(f"match document breaks the rules: {error}") from None
        except (KeyError, TypeError, ValueError, AttributeError) as error:
            raise MatchFormatError(f"malformed match document ({type(error).__name__}: {error})") from None


def _field(document: Any, key: str, *kinds: type, where: str = "match") -> Any:
    """``document[key]`` when it is there with one of ``kinds`` (the check every document reader shares)."""
    return read_field(document, key, *kinds, where=where, error=MatchFormatError, longest=MAX_DOCUMENT_ITEMS)


def _read_match(document: Any) -> Match:
    if not isinstance(document, dict) or document.get("format") != FORMAT_NAME:
        raise MatchFormatError("not a Soluna match document")
    version = _field(document, "version", int)
    if version not in READABLE_VERSIONS:
        raise MatchFormatError(f"match document version {version} is not supported (expected {FORMAT_VERSION})")
    players = _field(document, "players", list)
    options = MatchOptions(**_field(document, "options", dict))
    match = Match(options, tuple(players), _field(document, "seed", int))
    rounds = _field(document, "rounds", list)
    if not rounds:
        raise MatchFormatError("a match has at least one round")
    for number, saved in enumerate(rounds, start=1):
        where = f"round {number}"
        opener = _field(saved, "opener", int, where=where)
        if number > 1:
            match.start_next_round(opener)
        played = match.round
        if _field(saved, "start", str, where=where) != str(played.start) or opener != played.opener:
            raise MatchFormatError(f"{where} does not start as this match's seed and options say")
        for text in _field(saved, "moves", list, where=where):
            played.play(parse_move_record(text))
        redo = [parse_move_record(text) for text in _field(saved, "redo", list, where=where)]
        for move in redo:
            played.play(move)
        for _ in redo:
            played.undo()
        if number < len(rounds) and not played.is_over:
            raise MatchFormatError(f"{where} is unfinished but another round follows it")
    forfeited_by = _field(document, "forfeited_by", int, type(None))
    if forfeited_by is not None:
        match.forfeit(forfeited_by)
    return match
