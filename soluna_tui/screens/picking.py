"""Picking a tower up and putting it down: shared by the game and the puzzle screens."""

from __future__ import annotations

from collections.abc import Mapping

from textual.binding import Binding

from ..rules import Move, NotationError, Position, Tower
from ..widgets.board import JUMP_KEYS, Board
from ..widgets.tower import TowerLook

#: The keys of picking, for a screen's ``BINDINGS``. One binding serves picking up and placing,
#: and "Put back" stays in the footer (dimmed when nothing is in hand), so the footer keeps
#: its keys and only dims or lights them: rebuilding it made every pick twice as slow.
PICKING_BINDINGS = [
    Binding("enter,space", "press_focused", "Pick up/place"),
    Binding("escape", "put_back", "Put back"),
]


def tower_looks(
    position: Position,
    *,
    mover_slot: int | None = None,
    target: Tower | None = None,
    last: Tower | None = None,
    hinted: frozenset[int] = frozenset(),
    notes: Mapping[int, tuple[str, str]] | None = None,
) -> list[TowerLook]:
    """How each tower looks: the lifted one, the lit targets (or just ``target``), the rest dimmed.

    ``last`` marks the tower the latest move made; ``notes`` are (text, win|loss) per slot.
    """
    mover = position.towers[mover_slot] if mover_slot is not None else None
    looks = []
    last_marked = False
    for slot, tower in enumerate(position.towers):
        is_target = False
        if mover is not None and slot != mover_slot:
            is_target = tower == target if target is not None else position.why_illegal(Move(mover, tower)) is None
        is_last = mover is None and tower == last and not last_marked
        last_marked = last_marked or is_last
        note, kind = (notes or {}).get(slot, ("", ""))
        looks.append(
            TowerLook(
                tower=tower,
                picked=slot == mover_slot,
                target=is_target,
                dimmed=mover is not None and slot != mover_slot and not is_target,
                last=is_last,
                hinted=slot in hinted,
                note=note,
                note_kind=kind,
            )
        )
    return looks


def read_typed_move(text: str, position: Position) -> Move:
    """A move typed at the prompt: notation (``2S>1S``, with every alias the notation reads) or the
    keys shown on the towers (``3>6``), mixed if need be; ``NotationError`` when it cannot be read.
    Whether the move is legal is left to the caller, which says why not as picking does."""
    sides = text.split(">")
    if len(sides) != 2 or not sides[0].strip() or not sides[1].strip():
        raise NotationError("a move is A>B: 2S>1S in notation, or 3>6 by the keys on the towers")
    mover, mover_slot = _typed_tower(sides[0], position)
    target, target_slot = _typed_tower(sides[1], position)
    if mover_slot is not None and mover_slot == target_slot:
        raise NotationError(f"{sides[0].strip()}>{sides[1].strip()} puts a tower on itself: name two towers")
    return Move(mover, target)


def _typed_tower(text: str, position: Position) -> tuple[Tower, int | None]:
    """One side of a typed move: a tower's key (its slot too) or a tower in notation."""
    written = text.strip()
    key = written.casefold()
    if len(key) == 1 and key in JUMP_KEYS:
        slot = JUMP_KEYS.index(key)
        if slot >= len(position):
            raise NotationError(f"no tower has the key {written}: the keys are {JUMP_KEYS[0]} to "
                                f"{JUMP_KEYS[len(position) - 1]}")
        return position.towers[slot], slot
    return Tower.parse(written), None


class PickingMixin:
    """Enter/Space/click picks a tower up, then puts it on a lit target; Escape puts it back.

    The screen provides ``board``, ``picking_position`` (where the player may move now),
    ``may_pick()`` (and says why not), ``commit(move)``, ``redraw(focus_slot)`` and ``say``.
    """

    picked_slot: int | None = None

    def may_pick(self) -> bool:
        raise NotImplementedError

    @property
    def picking_position(self) -> Position:
        raise NotImplementedError

    def commit(self, move: Move) -> None:
        raise NotImplementedError

    def redraw(self, focus_slot: int | None = None) -> None:
        raise NotImplementedError

    def say(self, text: str, kind: str = "warning") -> None:
        raise NotImplementedError

    @property
    def picked_tower(self) -> Tower | None:
        return None if self.picked_slot is None else self.picking_position.towers[self.picked_slot]

    def action_press_focused(self) -> None:
        """Enter or Space: pick the focused tower up, or put the one in hand on it."""
        slot = self.board.focused_slot
        if slot is None:
            self.board.focus_slot(0)
            return
        self.press(slot)

    def picking_check(self, action: str, may_play: bool) -> bool | None:
        """``check_action`` for the picking keys: Enter while the player may play, Escape too
        (dimmed while nothing is in hand); both hidden while the player may not play."""
        if action == "press_focused":
            return may_play
        if action == "put_back":
            if not may_play:
                return False
            return True if self.picked_slot is not None else None
        return True

    def action_put_back(self) -> None:
        if self.picked_slot is not None:
            slot = self.picked_slot
            self.picked_slot = None
            self.redraw(focus_slot=slot)

    def on_board_chosen(self, event: Board.Chosen) -> None:
        # A named handler, not @on: the decorator only works in classes Textual builds itself.
        self.press(event.slot)

    def press(self, slot: int) -> None:
        """Enter, Space or a click on a tower: pick it up, or put the picked tower on it."""
        if not self.may_pick():
            return
        position = self.picking_position
        tower = position.towers[slot]
        if self.picked_slot is None:
            if self._can_go_somewhere(tower):
                self.picked_slot = slot
                self.redraw()
            return
        if slot == self.picked_slot:
            self.action_put_back()
            return
        self._play_if_legal(Move(self.picked_tower, tower))

    def play_typed(self, text: str) -> bool:
        """Play a move typed at the prompt, refused in the same words as picking; True if played."""
        if not self.may_pick():
            return False
        position = self.picking_position
        try:
            move = read_typed_move(text, position)
        except NotationError as error:
            self.say(f"Cannot read {text.strip()!r}: {error}.", "error")
            return False
        if move.mover not in position:
            self.say(f"There is no {move.mover} tower to move.", "error")
            return False
        if not self._can_go_somewhere(move.mover):
            return False
        return self._play_if_legal(move)

    def _can_go_somewhere(self, tower: Tower) -> bool:
        """Whether ``tower`` has a legal move; if not, say why it cannot be picked up."""
        if any(move.mover == tower for move in self.picking_position.legal_moves):
            return True
        self.say(f"{tower} cannot go anywhere: no other tower is {tower.height} high "
                 f"or has a {tower.symbol.word} on top.")
        return False

    def _play_if_legal(self, move: Move) -> bool:
        reason = self.picking_position.why_illegal(move)
        if reason is not None:
            self.say(f"Not there: {reason}.", "error")
            return False
        self.picked_slot = None
        self.commit(move)
        return True
