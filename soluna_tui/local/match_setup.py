"""Who plays a match and under which options: what the new-match screen and ``soluna play`` decide."""

from __future__ import annotations

import random
from dataclasses import dataclass, field, replace
from typing import Any

from ..rules import Match, MatchOptions, OptionError
from ..rules.clock import ClockSetting, ClockSettingError
from ..rules.json_fields import read_field, read_items
from ..rules.strengths import check_level, level_words

NAME_LIMIT = 16
#: Against the computer you sit in seat 1 (index 0) and the computer in seat 2.
COMPUTER_SEAT = 1


def clean_name(name: str, fallback: str) -> str:
    """A display name: printable characters only, trimmed, at most ``NAME_LIMIT`` long."""
    printable = "".join(char for char in name if char.isprintable() and char not in "[]\\")
    return " ".join(printable.split())[:NAME_LIMIT].strip() or fallback


@dataclass(frozen=True)
class MatchSetup:
    """Two players on this terminal, or one against the computer (which sits in seat 2)."""

    options: MatchOptions = field(default_factory=MatchOptions)
    names: tuple[str, str] = ("Player 1", "Player 2")
    computer_level: str | None = None
    seed: int | None = None
    #: Perfect-play help during the match: hints, analysis mode, opener advice.
    hints: bool = True
    #: A review of every round when it ends (skippable).
    review: bool = True
    #: The computer's level was chosen by "Match my strength" (offered so again next time).
    matched: bool = False
    #: Over SSH, rated against the level's rating (``server/lobby/computer.py``): no hints and no take-backs.
    rated: bool = False
    #: Each player's time for the match and the seconds added a move (``None``: no clock).
    clock: ClockSetting | None = None

    def __post_init__(self) -> None:
        if self.computer_level is not None:  # as matches name it: "10" and the old "trap" are "perfect"
            object.__setattr__(self, "computer_level", check_level(self.computer_level))
        if len(self.names) != 2:
            raise OptionError("a match has two players")
        cleaned = tuple(clean_name(name, f"Player {seat + 1}") for seat, name in enumerate(self.names))
        object.__setattr__(self, "names", cleaned)

    @classmethod
    def against_computer(cls, level: str, options: MatchOptions | None = None, name: str = "You",
                         seed: int | None = None, clock: ClockSetting | None = None, **flags: bool) -> MatchSetup:
        """``flags``: ``hints``, ``review``, ``matched``, ``rated``."""
        return cls(options or MatchOptions(), (name, "Computer"), level, seed, **flags, clock=clock)

    @property
    def vs_computer(self) -> bool:
        return self.computer_level is not None

    def is_computer(self, player: int) -> bool:
        return self.vs_computer and player == COMPUTER_SEAT

    @property
    def human_seat(self) -> int | None:
        """The seat of the one person against the computer (``None`` for two players)."""
        return 1 - COMPUTER_SEAT if self.vs_computer else None

    @property
    def mode_label(self) -> str:
        if not self.vs_computer:
            return "two players"
        words = level_words(self.computer_level or "")
        return f"{words}, rated" if self.rated else words

    def new_match(self) -> Match:
        """A fresh match; without a chosen seed, a random one (recorded in the match)."""
        seed = self.seed if self.seed is not None else random.SystemRandom().randrange(2**32)
        return Match(self.options, self.names, seed)

    def with_seed(self, seed: int | None) -> MatchSetup:
        return replace(self, seed=seed)

    def to_dict(self) -> dict[str, Any]:
        document = {"names": list(self.names), "computer_level": self.computer_level, "seed": self.seed,
                    "options": self.options.to_dict(), "hints": self.hints, "review": self.review}
        # Written only when set: a setup without them reads the same in versions before them.
        document.update({key: True for key in ("matched", "rated") if getattr(self, key)})
        if self.clock is not None:
            document["clock"] = {"seconds": self.clock.seconds, "increment": self.clock.increment}
        return document

    @classmethod
    def from_dict(cls, document: Any) -> MatchSetup:
        where, error = "match setup", OptionError
        level = read_field(document, "computer_level", str, type(None), where=where, error=error, default=None)
        names = read_items(document, "names", str, where=where, error=error, count=2)
        seed = read_field(document, "seed", int, type(None), where=where, error=error, default=None)
        options = read_field(document, "options", dict, where=where, error=error)
        teaching = {key: read_field(document, key, bool, where=where, error=error, default=True)
                    for key in ("hints", "review")}
        flags = {key: read_field(document, key, bool, where=where, error=error, default=False)
                 for key in ("matched", "rated")}
        clock = _read_clock(read_field(document, "clock", dict, type(None), where=where, error=error, default=None))
        return cls(MatchOptions(**options), (names[0], names[1]), level, seed, **teaching, **flags, clock=clock)


def _read_clock(document: dict[str, Any] | None) -> ClockSetting | None:
    """A setup's clock as ``to_dict`` writes it (``OptionError`` if it is not one)."""
    if document is None:
        return None
    try:
        times = [document[key] for key in ("seconds", "increment")]
        if any(isinstance(each, bool) or not isinstance(each, int | float) for each in times):
            raise TypeError
        return ClockSetting(float(times[0]), float(times[1]))
    except ClockSettingError as problem:
        raise OptionError(f"the match's clock is malformed: {problem}") from None
    except (KeyError, TypeError):
        raise OptionError("the match's clock is malformed") from None


def computer_rng(match: Match) -> random.Random:
    """The computer's dice for the current turn: fixed by seed, round and ply, so undo replays alike."""
    return random.Random(f"soluna-computer/{match.seed}/{match.round_number}/{match.round.ply}")
