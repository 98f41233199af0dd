"""Picking a tower up and putting it down, as a state machine: a press in, an outcome out.

The game and the puzzle screens hold a ``Picker`` and act on what each press comes to
(redraw, play the move, say why not); the picker itself only remembers the place in hand.
Places are the table's (``rules.Arrangement``): a tower keeps its place and its key for the
whole round, and a place whose tower was moved away is empty.
"""

from __future__ import annotations

from dataclasses import dataclass
from enum import Enum

from ..rules import Arrangement, Move, NotationError, PlacedMove, Position, PositionError, Tower
from ..rules.notation import short_quote
from .looks import JUMP_KEYS


class Pressed(Enum):
    """What a press on a tower (or a typed move) came to."""

    PICKED = "picked"
    PUT_BACK = "put back"
    MOVE = "move"
    REFUSED = "refused"


@dataclass(frozen=True)
class Outcome:
    """A press's outcome: the move chosen with its places (``MOVE``), the place put back
    (``PUT_BACK``), or the refusal in words with its kind (``warning``: nothing wrong was tried;
    ``error``: a wrong move)."""

    pressed: Pressed
    placed: PlacedMove | None = None
    slot: int | None = None
    reason: str = ""
    kind: str = "warning"

    @property
    def move(self) -> Move | None:
        return None if self.placed is None else self.placed.move


class EmptyPlaceError(NotationError):
    """A typed key names a place whose tower has been moved away."""


class Picker:
    """The tower in hand, if any, on one position at a time."""

    def __init__(self) -> None:
        self.picked_slot: int | None = None

    def picked_tower(self, table: Arrangement) -> Tower | None:
        return None if self.picked_slot is None else table[self.picked_slot]

    def drop(self) -> None:
        """Forget the tower in hand (the position changed under it, a new puzzle...)."""
        self.picked_slot = None

    def forget_gone(self, table: Arrangement) -> None:
        """Drop the tower in hand if its place is empty on ``table`` (it changed elsewhere)."""
        if self.picked_slot is not None and (self.picked_slot >= len(table) or table[self.picked_slot] is None):
            self.picked_slot = None

    def put_back(self) -> Outcome | None:
        """Escape: the tower in hand goes back to its place; ``None`` when nothing is in hand."""
        if self.picked_slot is None:
            return None
        slot, self.picked_slot = self.picked_slot, None
        return Outcome(Pressed.PUT_BACK, slot=slot)

    def press(self, table: Arrangement, slot: int) -> Outcome:
        """Enter, Space or a click on the place ``slot``: pick its tower up, put it back, or put the
        tower in hand on it."""
        tower = table[slot]
        if tower is None:
            return refused("That place is empty: its tower was moved onto another.")
        position = table.position
        held = self.picked_tower(table)
        if held is None:
            refusal = stuck(position, tower)
            if refusal is not None:
                return refusal
            self.picked_slot = slot
            return Outcome(Pressed.PICKED, slot=slot)
        if slot == self.picked_slot:
            return self.put_back() or Outcome(Pressed.PUT_BACK, slot=slot)
        return self._choose(table, Move(held, tower), self.picked_slot, slot)

    def typed(self, table: Arrangement, text: str) -> Outcome:
        """A move typed at the prompt, refused in the same words as picking refuses it."""
        try:
            move, mover_slot, target_slot = read_typed_move(text, table)
        except EmptyPlaceError as error:
            return refused(f"{error}.", "error")
        except (NotationError, PositionError) as error:  # the text is on the prompt's line: not said again
            return refused(_sentence(str(error)), "error")
        position = table.position
        if move.mover not in position:
            return refused(f"There is no {move.mover} tower to move.", "error")
        return stuck(position, move.mover) or self._choose(table, move, mover_slot, target_slot, typed=True)

    def _choose(self, table: Arrangement, move: Move, mover_slot: int | None, target_slot: int | None,
                typed: bool = False) -> Outcome:
        """The move played, or why not: "Not there" where a tower in hand met the wrong one; a typed move's
        reason alone, to read whole in the lines the prompt leaves."""
        reason = table.position.why_illegal(move)
        if reason is not None:
            return refused(_sentence(reason) if typed else f"Not there: {reason}.", "error")
        self.picked_slot = None
        return Outcome(Pressed.MOVE, placed=table.resolve(move, mover_slot, target_slot))


def picking_key(action: str, may_play: bool, picked: bool) -> bool | None:
    """What the picking keys are now (``check_action``): Enter lit while the player may play, Escape while a tower
    is in hand (``picked``) too; dimmed otherwise, never hidden, so the footer keeps the same keys from turn to
    turn (a rebuild on every turn was about a quarter of what a move cost a screen). Other keys: lit."""
    if action == "press_focused":
        return True if may_play else None
    if action == "put_back":
        return True if may_play and picked else None
    return True


def refused(reason: str, kind: str = "warning") -> Outcome:
    return Outcome(Pressed.REFUSED, reason=reason, kind=kind)


def stuck(position: Position, tower: Tower) -> Outcome | None:
    """The refusal for picking up a tower with no legal move, or ``None`` when it has one."""
    if any(move.mover == tower for move in position.legal_moves):
        return None
    return refused(f"{tower} cannot go anywhere: no other tower is {tower.height} high "
                   f"or has a {tower.symbol.word} on top.")


def read_typed_move(text: str, table: Arrangement) -> tuple[Move, int | None, int | None]:
    """A move typed at the prompt: notation (``2S>1S``, with every alias the notation reads) or the
    keys shown on the towers (``3>6``), mixed if need be, with the places the keys name;
    ``NotationError`` when it cannot be read (``EmptyPlaceError`` for a key whose place is empty).
    Whether the move is legal is left to the caller, which says why not as picking does."""
    sides = text.split(">")
    if len(sides) != 2 or not sides[0].strip() or not sides[1].strip():
        raise NotationError("a move is A>B: 2S>1S in notation, or 3>6 by the keys on the towers")
    mover, mover_slot = _typed_tower(sides[0], table)
    target, target_slot = _typed_tower(sides[1], table)
    if mover_slot is not None and mover_slot == target_slot:
        raise NotationError(f"{sides[0].strip()}>{sides[1].strip()} puts a tower on itself: name two towers")
    return Move(mover, target), mover_slot, target_slot


def _typed_tower(text: str, table: Arrangement) -> tuple[Tower, int | None]:
    """One side of a typed move: a tower's key (its place too) or a tower in notation."""
    written = text.strip()
    key = written.casefold()
    slot = JUMP_KEYS.index(key) if len(key) == 1 and key in JUMP_KEYS else None
    beyond = slot is not None and slot >= len(table)
    no_key = slot is None and written.isascii() and written.isdigit()  # a number alone means a key
    if beyond or no_key:
        raise NotationError(f"no tower has the key {short_quote(written)}: the keys are {JUMP_KEYS[0]} to "
                            f"{JUMP_KEYS[len(table) - 1]}")
    if slot is not None:
        tower = table[slot]
        if tower is None:
            raise EmptyPlaceError(f"Nothing stands at {written} now: its tower was moved onto another")
        return tower, slot
    return Tower.parse(written), None


def _sentence(reason: str) -> str:
    """A reason as a refusal says it: its first letter upper case, a full stop after it."""
    return f"{reason[:1].upper()}{reason[1:]}."
