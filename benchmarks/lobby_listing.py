"""What a match's change costs the server's lobby: its listing of the matches in play, told to every guest there.

Usage: python benchmarks/lobby_listing.py [--guests 150] [--matches 1,25,100] [--changes 2000]

Every change of a match in play (each move: a move may end a round, and the listing shows the stars) asks the
lobby to tell its guests at no match what is in play, once per turn of the loop. The listing is worked out once;
each guest is given theirs (their own seat marked where it is held for them) and sent it unless it is the very
one they have. This script runs the server's own ``Listing`` over real tables (matches of 12 discs, two moves in)
and guests that drop what they are sent, in this process, and times a change three ways:

- **nothing listed changed** (a move in the middle of a round: the usual case);
- **a round ended** (the stars of one match change: every guest is sent the new listing);
- **nothing changed, one guest's seat held** (a player away from their match, in the lobby: their own listing,
  sent again on every change, the time their seat is held for counting down).

Each is timed at each number of matches, and printed per change, per guest, and as the ratio to the same at the
first number of matches: a change should cost each guest the same however many matches are in play.
"""

from __future__ import annotations

import argparse
import asyncio
import itertools
import time
from collections.abc import Callable
from dataclasses import dataclass, replace

from soluna_tui.link.messages import LobbyListing, Reply
from soluna_tui.rules import Match, MatchOptions
from soluna_tui.server.gate import client_key
from soluna_tui.server.lobby.decision_values import Moment
from soluna_tui.server.lobby.listing import InPlay, Listing, in_play, listing_for
from soluna_tui.server.lobby.tables import Table
from soluna_tui.server.lobby.visitors import Visitor, identities
from soluna_tui.server.storage import SeatRecord, StoredMatch

HERE = "here"
NOW = 10_000.0
KINDS = ("nothing listed changed", "a round ended", "one guest's seat held")


@dataclass(eq=False)
class Guest:
    """A guest in the lobby, at no match: what it is sent is counted and dropped."""

    name: str
    address: str
    fingerprint: str | None
    told: int = 0

    def send(self, message: Reply) -> None:
        self.told += 1


def a_match(number: int) -> StoredMatch:
    match = Match(MatchOptions(discs=12), (f"p{2 * number}", f"p{2 * number + 1}"), seed=number)
    for _ in range(2):
        match.play(match.position.legal_moves[0], match.to_move)
    seats = tuple(SeatRecord(name, name, f"SHA256:{name}", False, "scrypt$hash", server=HERE, addresses=("10.0.0.9",))
                  for name in match.players)
    return StoredMatch(f"M{number:03}", 5, match.options.to_dict(), seats, match.to_dict(), 1.0, 2.0)


def lobby(tables: list[Table], guests: list[Guest]) -> Listing:
    visitors = {guest: Visitor(guest.name, rated=True, name_chosen=True, secret="KQXPMR") for guest in guests}
    last: list[InPlay] = []
    changes = itertools.count()

    def matches() -> InPlay:  # a change's moment, 0.1 s after the last's: a held seat's time runs on
        moment = Moment(NOW + next(changes) / 10, HERE, frozenset({HERE}))
        last[:] = [in_play(tables, {}, moment, *last)]
        return last[0]

    def build(guest: Guest, visitor: Visitor, matches: InPlay) -> LobbyListing:  # as the lobby's own, no offers
        return listing_for(identities(guest, visitor), guest.fingerprint, client_key(guest.address), matches, None)

    # Every change sent at once: what the sending costs (the lobby holds the shared listing back SHARED_EVERY).
    return Listing(visitors, matches, build, shared_every=0.0)  # type: ignore[arg-type]  # guests as needed


def timed(change: Callable[[], None], send: Callable[[], None], changes: int) -> float:
    """Seconds of this thread's CPU a change and the listing it asks for take, the median of five batches."""
    batches = []
    for _ in range(5):
        started = time.thread_time()
        for _ in range(changes // 5):
            change()
            send()
        batches.append((time.thread_time() - started) / (changes // 5))
    return sorted(batches)[2]


def measure(guests_wanted: int, matches_wanted: int, changes: int) -> dict[str, float]:
    stored = [a_match(number) for number in range(matches_wanted)]
    tables = [Table(each) for each in stored]
    guests = [Guest(f"g{number:03}", f"10.1.{number // 250}.{number % 250}", f"SHA256:g{number:03}")
              for number in range(guests_wanted)]
    listing = lobby(tables, guests)
    send = listing._send  # what ``changed()`` runs once the turn of the loop is over
    send()
    figures = {KINDS[0]: timed(lambda: None, send, changes)}
    first = tables[0]
    rounds = [first.match, replace_stars(first)]

    def round_ends() -> None:
        rounds.reverse()
        first.match = rounds[0]

    figures[KINDS[1]] = timed(round_ends, send, changes)
    away = replace(stored[-1].seats[0], server=None, held_until=NOW + 60)
    tables[-1].seats = (away, *stored[-1].seats[1:])
    held = Guest(away.name, "10.0.0.9", away.fingerprint)
    listing._visitors[held] = Visitor(held.name, rated=True, name_chosen=True, secret="KQXPMR")  # type: ignore[index]
    send()
    figures[KINDS[2]] = timed(lambda: None, send, changes)
    return figures


def replace_stars(table: Table) -> Match:
    """The table's match with its first round won: the stars listed change."""
    match = Match.from_dict(table.match.to_dict())
    while not match.round.is_over:
        match.play(match.position.legal_moves[0], match.to_move)
    return match


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--guests", type=int, default=150, help="guests in the lobby, at no match")
    parser.add_argument("--matches", default="1,25,100", help="comma-separated: matches in play in each run")
    parser.add_argument("--changes", type=int, default=2000, help="changes timed of each kind")
    args = parser.parse_args()
    counts = [int(each) for each in args.matches.split(",")]
    if not 1 <= args.guests <= 5000 or not all(1 <= each <= 1000 for each in counts) or args.changes < 5:
        parser.error("1-5000 guests, 1-1000 matches, at least 5 changes")
    print(f"lobby_listing.py: {args.guests} guests in the lobby, {args.changes} changes of each kind; "
          f"CPU of this thread, the median of five batches")
    async def measured() -> dict[int, dict[str, float]]:  # on a running loop, as the lobby sends
        return {count: measure(args.guests, count, args.changes) for count in counts}

    results = asyncio.run(measured())
    first = counts[0]
    print(f"  {'change':<24} {'matches':>7} {'a change':>10} {'a guest':>9} {'x ' + str(first) + ' match':>9}")
    for kind in KINDS:
        for count in counts:
            seconds = results[count][kind]
            print(f"  {kind:<24} {count:>7} {seconds * 1e3:>7.3f} ms {seconds / args.guests * 1e6:>6.2f} us "
                  f"{seconds / results[first][kind]:>9.2f}")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
