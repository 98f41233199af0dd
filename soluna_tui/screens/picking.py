"""Picking a tower up and putting it down on a screen with a board (the game, a puzzle, the guided round): the
keys, the board's clicks and the prompt to type a move on, wired to a ``Picker`` (the decisions live there).

``Picking`` is a part its screen owns (``self.picking = Picking(self)``), seeing the screen as a ``PickingHost``
(``game_host.py``); ``BoardScreen``, the base of those screens, hands it the picking keys and the board's
messages, one line each (Textual finds actions and handlers on the screen).
"""

from __future__ import annotations

from typing import TYPE_CHECKING, TypeVar

from textual.binding import Binding
from textual.screen import Screen

from ..play.looks import JUMP_KEYS
from ..play.picker import Outcome, Picker, Pressed, picking_key
from ..widgets.board import Board
from ..widgets.move_prompt import MovePrompt

if TYPE_CHECKING:
    from textual import events

    from ..rules import Tower
    from .game_host import PickingHost

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

ResultT = TypeVar("ResultT")


class Picking:
    """Enter/Space/click picks a tower up, then puts it on a lit target; Escape puts it back; ``:`` opens a
    line to type a move on."""

    def __init__(self, screen: PickingHost) -> None:
        self._screen = screen
        self.picker = Picker()
        #: Where the cursor was when the prompt opened (it comes back there when the prompt closes).
        self.cursor_before_prompt = 0
        self._prompt: MovePrompt | None = None

    @property
    def picked_slot(self) -> int | None:
        return self.picker.picked_slot

    @property
    def picked_tower(self) -> Tower | None:
        return self.picker.picked_tower(self._screen.picking_arrangement)

    def drop(self) -> None:
        """Forget the tower in hand (the position changed under it, a new match)."""
        self.picker.drop()

    def key_state(self, action: str, may_play: bool) -> bool | None:
        """``check_action`` for the picking keys (``picking_key``)."""
        return picking_key(action, may_play, self.picked_slot is not None)

    def press_focused(self) -> None:
        """Enter or Space: pick up the tower under the cursor, or put the one in hand on it."""
        slot = self._screen.board.cursor
        if slot is not None:
            self.press(slot)

    def put_back(self) -> None:
        """Escape: the tower in hand back in its place."""
        outcome = self.picker.put_back()
        if outcome is not None:
            self.act_on(outcome)

    def press(self, slot: int) -> None:
        """Enter, Space or a click on a tower: pick it up, or put the picked tower on it."""
        if self._screen.may_pick():
            self.act_on(self.picker.press(self._screen.picking_arrangement, slot))

    def say_vacant(self, slot: int) -> None:
        """A tower's key where no tower stands any more."""
        self._screen.say(f"Nothing stands at {JUMP_KEYS[slot]} now: its tower was moved onto another.")

    def play_typed(self, text: str) -> bool:
        """Play a move typed at the prompt, refused in the same words as picking; True if played."""
        if not self._screen.may_pick():
            return False
        outcome = self.picker.typed(self._screen.picking_arrangement, text)
        self.act_on(outcome)
        return outcome.pressed is Pressed.MOVE

    def act_on(self, outcome: Outcome) -> None:
        """Show what a press came to: the tower lifted or put back, the move played, or why not."""
        screen = self._screen
        if outcome.pressed is Pressed.MOVE and outcome.placed is not None:
            screen.commit(outcome.placed)
        elif outcome.pressed is Pressed.REFUSED:
            screen.say(outcome.reason, outcome.kind)
        elif outcome.pressed is Pressed.PUT_BACK:
            screen.redraw(cursor=outcome.slot)
        else:
            screen.redraw()

    # ---- typing a move (see MovePrompt) ----------------------------------------------------

    @property
    def move_prompt(self) -> MovePrompt:
        if self._prompt is None:
            self._prompt = self._screen.query_one(MovePrompt)
        return self._prompt

    def open_move_prompt(self) -> None:
        """``:``: a line to type a move on, in the status's place; the tower in hand, if any, is put back."""
        screen = self._screen
        with screen.app.batch_update():
            self.cursor_before_prompt = screen.board.cursor or 0
            self.picker.drop()
            self.move_prompt.open()
            screen.set_focus(self.move_prompt, scroll_visible=False)
            screen.redraw()

    def close_prompt(self) -> None:
        """Close the prompt; the board takes the keys again (if the prompt had them)."""
        screen = self._screen
        had_focus = screen.focused is self.move_prompt
        self.move_prompt.close()
        if had_focus:
            screen.set_focus(screen.board, scroll_visible=False)

    def close_move_prompt(self) -> None:
        """Escape in the prompt: close it, back to the towers."""
        with self._screen.app.batch_update():
            self.close_prompt()
            self._screen.redraw(cursor=self.cursor_before_prompt)

    def play_typed_move(self) -> None:
        """Enter in the prompt: play the move typed, or say why not and keep the text to mend."""
        if self.move_prompt.is_open:
            self.play_typed(self.move_prompt.value)

    def paste(self, event: events.Paste) -> None:
        """A move pasted on the board (``2S>1S``, ``:3>6``) lands in the prompt, ready to play."""
        lines = event.text.strip().splitlines()
        if lines and self._screen.check_action("open_move_prompt", ()):
            event.stop()
            self.open_move_prompt()
            self.move_prompt.insert_text_at_cursor(lines[0].strip().removeprefix(":").strip())


class BoardScreen(Screen[ResultT]):
    """A screen with a board to pick towers up on: its picking keys and the board's messages go to its
    ``Picking`` (which the screen makes, handing itself over as the ``PickingHost``)."""

    picking: Picking

    def action_press_focused(self) -> None:
        self.picking.press_focused()

    def action_put_back(self) -> None:
        self.picking.put_back()

    def action_open_move_prompt(self) -> None:
        self.picking.open_move_prompt()

    def action_close_move_prompt(self) -> None:
        self.picking.close_move_prompt()

    def action_play_typed_move(self) -> None:
        self.picking.play_typed_move()

    def on_board_chosen(self, event: Board.Chosen) -> None:
        self.picking.press(event.slot)

    def on_board_vacant(self, event: Board.Vacant) -> None:
        self.picking.say_vacant(event.slot)

    def on_paste(self, event: events.Paste) -> None:
        self.picking.paste(event)
