"""Picking a tower up and putting it down on a screen: the keys, the board's clicks and the prompt
to type a move on, wired to a ``Picker`` (the decisions live there); shared by the game and the
puzzle screens."""

from __future__ import annotations

from typing import TYPE_CHECKING, Any, cast

from textual import events
from textual.binding import Binding

from ..play.looks import JUMP_KEYS
from ..play.picker import Outcome, Picker, Pressed, picking_key
from ..rules import Arrangement, PlacedMove, Tower
from ..widgets.board import Board
from ..widgets.move_prompt import MovePrompt

if TYPE_CHECKING:
    from textual.screen import Screen

#: The keys of picking, for a screen's ``BINDINGS``. One binding serves picking up and placing,
#: and "Cancel" (put the tower in hand back) stays in the footer (dimmed when nothing is in hand),
#: so the footer keeps its keys and only dims or lights them: rebuilding it made every pick twice
#: as slow. Short words: with undo and redo both on offer, every key still fits 80 columns.
PICKING_BINDINGS = [
    Binding("enter,space", "press_focused", "Pick/place"),
    Binding("escape", "put_back", "Cancel"),
]
#: ``:`` opens a line to type a move on (``MovePrompt``, which the screen composes).
TYPING_BINDING = Binding("colon", "open_move_prompt", "Type")


class PickingMixin:
    """Enter/Space/click picks a tower up, then puts it on a lit target; Escape puts it back.

    The screen provides ``board``, ``picking_arrangement`` (the table the player may move on now),
    ``may_pick()`` (and says why not), ``commit(placed)``, ``redraw(cursor)`` and ``say``.
    """

    picker: Picker
    #: Where the cursor was when the prompt opened (it comes back there when the prompt closes).
    _cursor_before_prompt = 0
    _prompt: MovePrompt | None = None

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
        """``check_action`` for the picking keys (``picking_key``)."""
        return picking_key(action, may_play, self.picked_slot is not None)

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

    # ---- typing a move (see MovePrompt) ----------------------------------------------------

    @property
    def _screen(self) -> Screen[Any]:
        """This mixin as the screen it is mixed into."""
        return cast("Screen[Any]", self)

    @property
    def move_prompt(self) -> MovePrompt:
        if self._prompt is None:
            self._prompt = self._screen.query_one(MovePrompt)
        return self._prompt

    def action_open_move_prompt(self) -> None:
        """``:``: a line to type a move on, in the status's place; the tower in hand, if any, is put back."""
        screen = self._screen
        with screen.app.batch_update():
            self._cursor_before_prompt = self.board.cursor or 0
            self.picker.drop()
            self.move_prompt.open()
            screen.set_focus(self.move_prompt, scroll_visible=False)
            self.redraw()

    def _close_prompt(self) -> None:
        """Close the prompt; the board takes the keys again (if the prompt had them)."""
        screen = self._screen
        had_focus = screen.focused is self.move_prompt
        self.move_prompt.close()
        if had_focus:
            screen.set_focus(self.board, scroll_visible=False)

    def on_paste(self, event: events.Paste) -> None:
        """A move pasted on the board (``2S>1S``, ``:3>6``) lands in the prompt, ready to play."""
        lines = event.text.strip().splitlines()
        if lines and self._screen.check_action("open_move_prompt", ()):
            event.stop()
            self.action_open_move_prompt()
            self.move_prompt.insert_text_at_cursor(lines[0].strip().removeprefix(":").strip())

    def action_close_move_prompt(self) -> None:
        """Escape in the prompt: close it, back to the towers."""
        with self._screen.app.batch_update():
            self._close_prompt()
            self.redraw(cursor=self._cursor_before_prompt)

    def action_play_typed_move(self) -> None:
        """Enter in the prompt: play the move typed, or say why not and keep the text to mend."""
        if self.move_prompt.is_open:
            self.play_typed(self.move_prompt.value)

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
