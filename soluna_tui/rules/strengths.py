"""The computer's strength scale, 1 to 10: how far ahead each strength sees, and its calibrated rating.

A strength plays from a depth-limited view of perfect play. Before each move it draws how many
plies ahead it looks, ``depth``, and sees how every move ends that ends within ``depth`` plies (a win
in 3, a trap that loses in 4); of the other moves it sees nothing. It takes the fastest win it sees,
else any move whose end it cannot see, else (every move a loss it sees) the longest resistance. So
its mistakes are a person's: a deep win missed, a trap a few moves long walked into, never a win
in 1 missed nor one handed over (from strength 2 up).

Every outcome within ``reach`` plies is always seen; one ``n > reach`` plies away with the chance
``exp((reach - n) / tail)``: a win in 3 nearly always, a win in 9 seldom. Strength 1 sees nothing
(any legal move), 2 exactly two plies (the old "greedy"), 10 everything, and when lost it sets the
traps its opponent is likeliest to fall into (``swindle.py``).

The reaches make each strength win about a third of its rounds against the next one up, and the
ratings are on the SSH server's openskill scale; both come from ``benchmarks/players.py``
(12 discs, openers alternating), which prints this table again, with each strength's accuracy: the
share of its moves that kept the best outcome, as the round review judges a player's. "Match my
strength" picks the strength whose accuracy is nearest a player's (``nearest_in_accuracy``).
"""

from __future__ import annotations

import functools
import math
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from typing import TYPE_CHECKING, Protocol

from .errors import OptionError
from .position import MAX_DISCS

if TYPE_CHECKING:
    from .solver import Verdict


class Model(Protocol):
    """What a swindler assumes of its opponent: the chance of each move, given every move's verdict."""

    def chances(self, verdicts: Sequence[Verdict]) -> tuple[float, ...]: ...


@dataclass(frozen=True, slots=True)
class Strength:
    """One step of the scale: how far it sees, and its rating (``mu``, ``sigma``, and as players see it)."""

    number: int
    #: The name it had before the scale (``random``, ``greedy``, ``perfect``), or ``""``.
    name: str
    reach: float
    tail: float
    mu: float
    sigma: float
    #: ``1000 + 20 (mu - 3 sigma)``, as the server shows a player's rating (a test checks it).
    rating: int
    #: The share of its moves that kept the best outcome, against the strengths one and two steps away.
    accuracy: float

    @property
    def level(self) -> str:
        """How a match, a save and ``--vs`` name it: the old name where there is one, else the number."""
        return self.name or str(self.number)

    @property
    def label(self) -> str:
        """``5`` or ``10 (perfect)``: the number, and the old name where there is one."""
        return f"{self.number} ({self.name})" if self.name else str(self.number)

    @property
    def words(self) -> str:
        """``level 5``, ``level 10 (perfect)``: how every screen, list and text names a level."""
        return f"level {self.label}"

    @property
    def rated(self) -> str:
        """``10 (perfect), rated 1706``."""
        return f"{self.label}, rated {self.rating}"

    @property
    def summary(self) -> str:
        """``5 (rated 1466): sees about 5 plies ahead``: a level as a list of levels shows it."""
        return f"{self.rated}: {self.description}"

    @property
    def is_perfect(self) -> bool:
        return self.reach == math.inf

    @property
    def uses_solver(self) -> bool:
        """Whether its moves need the solver (strengths 1 and 2 see too little to need it)."""
        return self.reach > 2

    @property
    def horizon(self) -> int:
        """The deepest outcome, in plies, it sees at least half the time (a round lasts at most 23)."""
        if self.is_perfect:
            return MAX_DISCS - 1
        return math.floor(self.reach + math.log(2)) if self.tail else int(self.reach)

    @property
    def description(self) -> str:
        if self.is_perfect:
            return "never errs, sets traps"
        if self.reach == 0:
            return "any legal move"
        if not self.tail:
            return "looks one move ahead"
        return f"sees about {self.horizon} plies ahead"

    def sees(self, plies: int) -> float:
        """The chance it sees how a move ends, when that move ends in ``plies`` plies."""
        if plies <= self.reach:
            return 1.0
        return math.exp((self.reach - plies) / self.tail) if self.tail else 0.0

    def depths(self, deepest: int) -> tuple[float, ...]:
        """The chance it looks 0, 1, ... ``deepest`` plies ahead (the last: that far or further)."""
        return _depths(self, deepest)

    def chances(self, verdicts: Sequence[Verdict]) -> tuple[float, ...]:
        """The chance it plays each move, given every legal move's verdict for the player making it."""
        return _chances(self, tuple(verdicts))


@functools.lru_cache(maxsize=1024)
def _depths(strength: Strength, deepest: int) -> tuple[float, ...]:
    sees = strength.sees
    return tuple(sees(depth) - (sees(depth + 1) if depth < deepest else 0.0) for depth in range(deepest + 1))


@functools.lru_cache(maxsize=1 << 16)
def _chances(model: Strength | Blend, verdicts: tuple[Verdict, ...]) -> tuple[float, ...]:
    """Kept: positions alike in their moves' verdicts are many, and measures ask again and again."""
    return chances_by_depth(verdicts, model.depths)


def chances_by_depth(verdicts: Sequence[Verdict], depths: Callable[[int], tuple[float, ...]]) -> tuple[float, ...]:
    """Each move's chance for a player looking ``depth`` plies ahead with the chance ``depths(deepest)[depth]``."""
    if not verdicts:
        return ()
    found = [0.0] * len(verdicts)
    for depth, weight in enumerate(depths(max(verdict.plies for verdict in verdicts))):
        if weight > 0:
            picked = seen_choice(verdicts, depth)
            for index in picked:
                found[index] += weight / len(picked)
    return tuple(found)


def seen_choice(verdicts: Sequence[Verdict], depth: int) -> list[int]:
    """The moves a player seeing ``depth`` plies ahead chooses among (by index): see the module."""
    wins = [verdict.plies for verdict in verdicts if verdict.wins and verdict.plies <= depth]
    if wins:
        fastest = min(wins)
        return [index for index, verdict in enumerate(verdicts) if verdict.wins and verdict.plies == fastest]
    unseen = [index for index, verdict in enumerate(verdicts) if verdict.plies > depth]
    if unseen:
        return unseen
    longest = max(verdict.plies for verdict in verdicts)
    return [index for index, verdict in enumerate(verdicts) if verdict.plies == longest]


@dataclass(frozen=True, slots=True)
class Blend:
    """An opponent of unknown strength: each move, one of ``strengths``, each as likely as its weight."""

    strengths: tuple[Strength, ...]
    weights: tuple[float, ...]

    def depths(self, deepest: int) -> tuple[float, ...]:
        return _blended_depths(self, deepest)

    def chances(self, verdicts: Sequence[Verdict]) -> tuple[float, ...]:
        return _chances(self, tuple(verdicts))


@functools.lru_cache(maxsize=256)
def _blended_depths(blend: Blend, deepest: int) -> tuple[float, ...]:
    every = [strength.depths(deepest) for strength in blend.strengths]
    total = sum(blend.weights)
    return tuple(sum(weight * chance for weight, chance in zip(blend.weights, column, strict=True)) / total
                 for column in zip(*every, strict=True))


_TAIL = 1.0
#: Calibrated by ``benchmarks/players.py``: the reaches by hand, the ratings as it printed them (2000 rounds a
#: pairing), the accuracies from a run of 600 rounds a pairing (about 12,000 moves a strength).
STRENGTHS = (
    Strength(1, "random", 0.0, 0.0, 15.20, 0.12, 1297, 0.619),
    Strength(2, "greedy", 2.0, 0.0, 17.41, 0.10, 1342, 0.668),
    Strength(3, "", 2.8, _TAIL, 19.40, 0.09, 1383, 0.725),
    Strength(4, "", 3.8, _TAIL, 21.52, 0.09, 1425, 0.769),
    Strength(5, "", 4.8, _TAIL, 23.56, 0.09, 1466, 0.817),
    Strength(6, "", 5.7, _TAIL, 25.85, 0.09, 1512, 0.853),
    Strength(7, "", 6.6, _TAIL, 28.20, 0.09, 1559, 0.905),
    Strength(8, "", 7.5, _TAIL, 30.37, 0.09, 1602, 0.940),
    Strength(9, "", 8.5, _TAIL, 32.78, 0.10, 1650, 0.972),
    Strength(10, "perfect", math.inf, 0.0, 35.69, 0.13, 1706, 1.0),
)
RANDOM, GREEDY, PERFECT = STRENGTHS[0], STRENGTHS[1], STRENGTHS[-1]
#: How matches name the levels, weakest first (``Strength.level``).
LEVELS = tuple(strength.level for strength in STRENGTHS)
#: Names a level was once saved under, still read: the old "trap" is the top strength's way when lost.
OLD_NAMES = {"trap": PERFECT}
#: Whom the top strength sets its traps for when it knows nothing of its opponent: any of 2 to 9, the
#: stronger the likelier (weight: the number). None of them misses a win in 1, so the top strength
#: never hands one over while it has another move.
TYPICAL_OPPONENT = Blend(STRENGTHS[1:-1], tuple(float(strength.number) for strength in STRENGTHS[1:-1]))

_BY_NAME = {**{strength.level: strength for strength in STRENGTHS},
            **{str(strength.number): strength for strength in STRENGTHS}, **OLD_NAMES}


def strength_of(level: str) -> Strength:
    """The strength a level names (``7``, ``greedy``, ``10``, the old ``trap``...), else ``OptionError``."""
    found = _BY_NAME.get(level.strip().lower()) if isinstance(level, str) else None
    if found is None:
        raise OptionError(f"unknown computer level {level!r}: use 1 to 10 ({', '.join(LEVELS)})"[:160])
    return found


def level_words(level: str) -> str:
    """A level as matches name it (``perfect``, ``5``) in the words every screen uses: ``level 10 (perfect)``,
    ``level 5``; one no strength has (a damaged file's), as it is."""
    try:
        return strength_of(level).words
    except OptionError:
        return f"level {level}"


def check_level(level: str) -> str:
    """The level as matches name it (``"10"`` and ``"trap"`` are ``"perfect"``), else ``OptionError``."""
    return strength_of(level).level
#: The discs the strengths were calibrated on: only there is a match against one rated (over SSH).
CALIBRATED_DISCS = 12
#: Over SSH, a strength's matches move a player's rating while its rating is at least the player's less this.
LEVEL_BELOW = 100
#: "Match my strength" reads a player's last this many matches against the computer (without hints).
MATCHED_FROM = 5
#: The level it chooses with none to go by: a gentle start, one step above greedy.
FIRST_MATCHED = STRENGTHS[2]


def nearest_in_accuracy(accuracy: float) -> Strength:
    """The strength whose own accuracy is nearest ``accuracy`` (a share, 0 to 1; the weaker of two as near)."""
    return min(STRENGTHS, key=lambda strength: (abs(strength.accuracy - accuracy), strength.number))
