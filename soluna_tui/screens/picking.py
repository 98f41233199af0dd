"""Picking a tower up and putting it down on a screen: the keys and the board's clicks, wired
to a ``Picker`` (the decisions live there); shared by the game and the puzzle screens."""

from __future__ import annotations

from typing import TYPE_CHECKING

from textual.binding import Binding

from ..play.looks import JUMP_KEYS
from ..play.picker import Outcome, Picker, Pressed
from ..rules import Arrangement, PlacedMove, Tower
from ..widgets.board import Board

#: The keys of picking, for a screen's ``BINDINGS``. One binding serves picking up and placing,
#: and "Cancel" (put the tower in hand back) stays in the footer (dimmed when nothing is in hand),
#: so the footer keeps its keys and only dims or lights them: rebuilding it made every pick twice
#: as slow. Short words: with undo and redo both on offer, every key still fits 80 columns.
PICKING_BINDINGS = [
    Binding("enter,space", "press_focused", "Pick/place"),
    Binding("escape", "put_back", "Cancel"),
]


class PickingMixin:
    """Enter/Space/click picks a tower up, then puts it on a lit target; Escape puts it back.

    The screen provides ``board``, ``picking_arrangement`` (the table the player may move on now),
    ``may_pick()`` (and says why not), ``commit(placed)``, ``redraw(cursor)`` and ``say``.
    """

    picker: Picker

    if TYPE_CHECKING:  # provided by the screen (declared here only for the type checker)

        @property
        def board(self) -> Board: ...

    def may_pick(self) -> bool:
        raise NotImplementedError

    @property
    def picking_arrangement(self) -> Arrangement:
        raise NotImplementedError

    def commit(self, placed: PlacedMove) -> None:
        raise NotImplementedError

    def redraw(self, cursor: int | None = None) -> None:
        raise NotImplementedError

    def say(self, text: str, kind: str = "warning") -> None:
        raise NotImplementedError

    @property
    def picked_slot(self) -> int | None:
        return self.picker.picked_slot

    @property
    def picked_tower(self) -> Tower | None:
        return self.picker.picked_tower(self.picking_arrangement)

    def action_press_focused(self) -> None:
        """Enter or Space: pick up the tower under the cursor, or put the one in hand on it."""
        slot = self.board.cursor
        if slot is not None:
            self.press(slot)

    def picking_check(self, action: str, may_play: bool) -> bool | None:
        """``check_action`` for the picking keys: Enter while the player may play, Escape while
        a tower is in hand; dimmed otherwise, never hidden, so the footer keeps the same keys
        from turn to turn (a rebuild on every turn was about a quarter of what a move cost a screen)."""
        if action == "press_focused":
            return True if may_play else None
        if action == "put_back":
            return True if may_play and self.picked_slot is not None else None
        return True

    def action_put_back(self) -> None:
        outcome = self.picker.put_back()
        if outcome is not None:
            self.act_on(outcome)

    def on_board_chosen(self, event: Board.Chosen) -> None:
        # A named handler, not @on: the decorator only works in classes Textual builds itself.
        self.press(event.slot)

    def on_board_vacant(self, event: Board.Vacant) -> None:
        self.say(f"Nothing stands at {JUMP_KEYS[event.slot]} now: its tower was moved onto another.")

    def press(self, slot: int) -> None:
        """Enter, Space or a click on a tower: pick it up, or put the picked tower on it."""
        if self.may_pick():
            self.act_on(self.picker.press(self.picking_arrangement, slot))

    def play_typed(self, text: str) -> bool:
        """Play a move typed at the prompt, refused in the same words as picking; True if played."""
        if not self.may_pick():
            return False
        outcome = self.picker.typed(self.picking_arrangement, text)
        self.act_on(outcome)
        return outcome.pressed is Pressed.MOVE

    def act_on(self, outcome: Outcome) -> None:
        """Show what a press came to: the tower lifted or put back, the move played, or why not."""
        if outcome.pressed is Pressed.MOVE and outcome.placed is not None:
            self.commit(outcome.placed)
        elif outcome.pressed is Pressed.REFUSED:
            self.say(outcome.reason, outcome.kind)
        elif outcome.pressed is Pressed.PUT_BACK:
            self.redraw(cursor=outcome.slot)
        else:
            self.redraw()
