"""Runs in the server process.

Player ratings: openskill's Plackett-Luce model over rated two-player matches.

A rating is a skill estimate ``mu`` and its uncertainty ``sigma``; players are ranked by the
conservative estimate ``mu - 3 sigma`` (so a newcomer's lucky win does not top the board), shown
as ``1000 + 20 (mu - 3 sigma)``: every newcomer starts at 1000 and climbs as wins accumulate.

What is rated, so that ratings cannot be farmed:

- only a match between two different players who both came with an SSH key (guests are unrated),
  and who never sat down at it from one address (an IPv4 address, or an IPv6 /64): one person's
  keys playing each other are unrated;
- only when someone won it: played out, by forfeit, on time or by resignation. A forfeit, a clock
  run out or a resignation counts only after real play, that is once both players have made a move
  (``rules.end_reason.REAL_PLAY_MOVES``); before, the match is aborted: nobody wins, nothing is rated (as on online
  game servers). Abandoned matches (both players gone) change nothing either;
- only once a round has been decided on the board (``decided_on_board``): a match that ends by a
  leave, a forfeit, a clock or a resignation before that keeps its result, unrated for both players;
- the same two players' matches move their ratings at most ``PAIR_RATED_PER_DAY`` times in any
  24 hours (the store counts them); past that they are unrated;
- the leaderboard lists a player with at least ``RANKED_AFTER`` rated matches, against at least
  ``RANKED_OPPONENTS`` different established players.

Established is trust that spreads from people the owner knows, never a count a ring can meet. A key is
established when the owner names it (``soluna serve --established KEY``; the migration that brought this
in also kept every player the leaderboard listed then), or once it has had rated matches against
``ESTABLISHED_BY`` different established keys (against as many as there are, while fewer). A rated match
is always between two addresses, but one person's keys can take turns on two addresses and play each
other in any pattern: no rule on the shape of the graph of rated matches tells such a ring from a
circle of friends (four keys that play only each other look like four regulars). So the trust has to
come from outside the ring: keys that play only each other, however many and from however many
addresses, are never established and never listed. To list a throwaway key a cheat needs
``ESTABLISHED_BY`` established keys of their own, each of which first had rated matches against
``ESTABLISHED_BY`` established players who are not theirs.

A keyed player's match against the computer (hints off, no take-backs, on the 12 discs the levels were
calibrated on) is rated against the level's calibrated rating, the level a fixed opponent: the player's
rating moves, the level's never does, so a rating means something before its player meets people.
The same rules hold: only once a round has been decided on the board; at most ``PAIR_RATED_PER_DAY``
against one level in 24 hours; and only while the level's rating is no more than ``LEVEL_BELOW``
below the player's (``level_refusal``), so beating a weak level again and again lifts a rating at
most a little above it. Such matches count toward no leaderboard threshold: ``played``, the
established opponents and the leaderboard's won and lost are matches between people.
"""

from __future__ import annotations

from dataclasses import dataclass
from functools import cache
from typing import Any

from ..rules import Match
from ..rules.strengths import LEVEL_BELOW, Strength

#: openskill's defaults: every newcomer's estimate and its uncertainty.
START_MU = 25.0
START_SIGMA = 25.0 / 3
#: How the conservative estimate is shown: newcomers at SHOWN_START, SHOWN_SCALE points per unit.
SHOWN_START = 1000
SHOWN_SCALE = 20
#: Rated matches a player has played before the leaderboard lists them (``soluna serve --ranked-after``).
RANKED_AFTER = 5
#: Different established players a player has had rated matches against before the leaderboard lists them.
RANKED_OPPONENTS = 3
#: Different established keys a key has had rated matches against when it becomes established itself.
ESTABLISHED_BY = 3
#: Rated matches between the same two players in any 24 hours; the pair's matches past it are unrated.
PAIR_RATED_PER_DAY = 5
#: The window ``PAIR_RATED_PER_DAY`` counts in, in seconds.
PAIR_WINDOW = 24 * 3600.0


@cache
def _model() -> Any:
    from openskill.models import PlackettLuce

    return PlackettLuce(mu=START_MU, sigma=START_SIGMA)


@dataclass(frozen=True, slots=True)
class Rating:
    """A skill estimate and its uncertainty."""

    mu: float = START_MU
    sigma: float = START_SIGMA

    @property
    def conservative(self) -> float:
        """The skill the player has with near certainty (``mu - 3 sigma``): what the board ranks by."""
        return self.mu - 3 * self.sigma

    @property
    def shown(self) -> int:
        """The number players see: 1000 for a newcomer."""
        return round(SHOWN_START + SHOWN_SCALE * self.conservative)

    def to_dict(self) -> dict[str, float]:
        return {"mu": self.mu, "sigma": self.sigma}

    @classmethod
    def from_dict(cls, document: dict[str, Any]) -> Rating:
        return cls(float(document["mu"]), float(document["sigma"]))


def is_rated(fingerprints: tuple[str | None, ...], winner: int | None, shared_address: bool = False,
             decided: bool = True) -> bool:
    """Two different keyed players, never from one address, a winner, and a round ``decided`` on the board:
    only such matches move ratings (up to the pair's daily number, which the store counts)."""
    return (len(fingerprints) == 2 and None not in fingerprints and fingerprints[0] != fingerprints[1]
            and winner is not None and not shared_address and decided)


def decided_on_board(match: Match) -> bool:
    """A round of ``match`` was won by play (its loser had no move), not only by a leave, forfeit or clock."""
    return bool(match.outcomes)


def rate(winner: Rating, loser: Rating) -> tuple[Rating, Rating]:
    """The winner's and the loser's ratings after one match between them."""
    model = _model()
    [[won], [lost]] = model.rate([[model.rating(winner.mu, winner.sigma)], [model.rating(loser.mu, loser.sigma)]],
                                 ranks=[0, 1])
    return Rating(won.mu, won.sigma), Rating(lost.mu, lost.sigma)


def win_chance(first: Rating, second: Rating) -> float:
    """How likely ``first`` is to beat ``second``, by the model."""
    model = _model()
    chances = model.predict_win([[model.rating(first.mu, first.sigma)], [model.rating(second.mu, second.sigma)]])
    return float(chances[0])


def level_rating(strength: Strength) -> Rating:
    """A computer level's calibrated rating (``rules/strengths.py``): a fixed opponent's."""
    return Rating(strength.mu, strength.sigma)


def level_refusal(player: Rating, strength: Strength, decided: bool, rated_today: int) -> str | None:
    """Why a finished match against ``strength`` does not move ``player``'s rating (one line), or ``None``: it
    does. ``decided``: a round was won on the board; ``rated_today``: the player's rated matches against this
    level in the last 24 hours."""
    if not decided:
        return "Unrated: no round was decided on the board."
    if strength.rating < player.shown - LEVEL_BELOW:
        return (f"Unrated: {strength.words}, rated {strength.rating}, is more than {LEVEL_BELOW} below your "
                f"rating ({player.shown}).")
    if rated_today >= PAIR_RATED_PER_DAY:
        return f"Unrated: {PAIR_RATED_PER_DAY} rated matches against {strength.words} in 24 hours already."
    return None


def rate_against_level(player: Rating, strength: Strength, won: bool) -> Rating:
    """The player's rating after a match against a level, whose own rating does not move."""
    level = level_rating(strength)
    if won:
        return rate(player, level)[0]
    return rate(level, player)[1]
