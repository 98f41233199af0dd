"""The one-line prompt for typing a move: ``2S>1S`` in notation, or ``3>6`` by the towers' keys."""

from __future__ import annotations

from textual.binding import Binding
from textual.widgets import Input


class MovePrompt(Input):
    """Hidden until the screen opens it; Enter plays what is typed, Escape closes it.

    Enter and Escape call the owning screen's ``play_typed_move`` and ``close_move_prompt``
    actions directly rather than posting a message: in a burst of keys (a paste, one SSH
    packet: ``:3>6`` Enter ``4``) the key after Enter must already find the move played
    and the prompt closed.
    """

    BINDINGS = [
        Binding("enter", "screen.play_typed_move", "Play the move"),
        Binding("escape", "screen.close_move_prompt", "Close"),
    ]

    def __init__(self, *, id: str | None = None) -> None:
        super().__init__(placeholder="a move: 2S>1S, or 3>6 by the towers' keys", compact=True, id=id)
        self.display = False

    @property
    def is_open(self) -> bool:
        return self.display

    def open(self) -> None:
        """Show the prompt, empty (the screen gives it the focus)."""
        self.value = ""
        self.display = True

    def close(self) -> None:
        self.display = False
        self.value = ""
