"""What a typed line asks for: a command (``board``, ``tower 7``...) or a move, by the towers' numbers
(``3>7``, ``3 onto 7``) or in notation (``1M>1M``), mixed if need be.

Reading a line decides nothing about the match: a move is read against the table (its places), and whether
it is legal is said in the words picking uses (``play/picker.py``).
"""

from __future__ import annotations

import re
from dataclasses import dataclass

from ..play.picker import EmptyPlaceError, stuck
from ..rules import Arrangement, Move, NotationError, PlacedMove, PositionError, Tower
from ..rules.notation import short_quote

#: The words between two towers that mean "onto", beside ``>``.
ONTO = re.compile(r"\s*(?:>|\bonto\b|\bon\b|\bto\b)\s*", re.IGNORECASE)


@dataclass(frozen=True)
class Command:
    """A command word and what follows it (``tower 7``: ``tower``, ``7``)."""

    word: str
    argument: str = ""


class MoveRefused(ValueError):
    """A move that cannot be read, or is not allowed now: the one line that says why, and what would work."""


def read_command(line: str, words: frozenset[str], aliases: dict[str, str]) -> Command | None:
    """The command ``line`` names, if its first word is one of ``words`` (or an alias of one); else ``None``."""
    head, _, rest = line.strip().partition(" ")
    word = head.casefold()
    word = aliases.get(word, word)
    if word not in words:
        return None
    return Command(word, rest.strip())


def looks_like_a_move(line: str) -> bool:
    """Whether ``line`` is written as a move (two sides around ``>`` or ``onto``), right or wrong."""
    return len(ONTO.split(line.strip(), maxsplit=1)) == 2


def not_understood(line: str) -> str:
    """The answer to a line that is neither a command nor a move: what would work."""
    first = line.split()[0]
    if first.isascii() and first.isdigit():
        onto = "2" if first == "1" else "1"
        return (f"A move is two towers, like {first}>{onto} (tower {first} onto tower {onto}); "
                f"tower {first} tells of tower {first}.")
    return f"I do not know {short_quote(first)!r}: type a move like 3>7 or 1M>1M, or help for the commands."


def read_place(text: str, table: Arrangement) -> int:
    """A tower's number (from 1) as a place (from 0); ``NotationError`` saying which numbers there are."""
    written = text.strip()
    if not (written.isascii() and written.isdigit()) or not 1 <= int(written) <= len(table):
        raise NotationError(f"there is no tower {short_quote(written)}: the towers are numbered 1 to {len(table)}")
    return int(written) - 1


def _side(text: str, table: Arrangement) -> tuple[Tower, int | None]:
    """One side of a typed move: a tower's number (its place too) or a tower in notation."""
    written = text.strip()
    if written.isascii() and written.isdigit():
        slot = read_place(written, table)
        tower = table[slot]
        if tower is None:
            raise EmptyPlaceError(f"tower {slot + 1} is gone: it was moved onto another tower this round")
        return tower, slot
    return Tower.parse(written), None


def read_move(line: str, table: Arrangement) -> PlacedMove:
    """The move ``line`` asks for on ``table``, with its places; ``MoveRefused`` with a sentence saying why not
    (unreadable, a tower that is not there, a tower that cannot go there)."""
    sides = ONTO.split(line.strip(), maxsplit=1)
    if len(sides) != 2 or not sides[0].strip() or not sides[1].strip():
        raise MoveRefused("A move is two towers: 3>7 puts tower 3 onto tower 7; 1M>1M names them in notation.")
    try:
        mover, mover_slot = _side(sides[0], table)
        target, target_slot = _side(sides[1], table)
    except (NotationError, PositionError) as error:
        raise MoveRefused(f"{_sentence(str(error))} Type board to hear the towers.") from None
    if mover_slot is not None and mover_slot == target_slot:
        raise MoveRefused(f"That puts tower {mover_slot + 1} on itself: name two towers, like 3>7.")
    move = Move(mover, target)
    position = table.position
    if mover not in position:
        raise MoveRefused(f"There is no {mover} tower to move. Type board to hear the towers.")
    refusal = stuck(position, mover)
    if refusal is not None:
        raise MoveRefused(f"{refusal.reason} Type moves to hear the moves there are.")
    reason = position.why_illegal(move)
    if reason is not None:
        where = f" Type tower {mover_slot + 1} to hear where it can go." if mover_slot is not None else \
            " Type moves to hear the moves there are."
        raise MoveRefused(f"{_sentence(reason)}{where}")
    return table.resolve(move, mover_slot, target_slot)


def _sentence(reason: str) -> str:
    """A reason as a refusal says it: its first letter upper case, a full stop after it."""
    reason = reason.rstrip(".")
    return f"{reason[:1].upper()}{reason[1:]}."
