"""Runs in the child.

Over SSH, in a match between two players: the opponent asks to take their last move back.

One key each, as the game's other questions: ``y`` accepts (the move is taken back on every screen), ``n`` or
Escape declines. The server is the judge: the dialog closes by itself when the request lapses (the opponent's
request answered elsewhere, or gone with a move), and an answer to a request gone meanwhile is refused there.
"""

from __future__ import annotations

from ...screens.confirm import ConfirmScreen


class TakebackRequestScreen(ConfirmScreen):
    """Returns ``True`` to accept the takeback, ``False`` to decline it."""

    DIALOG_ID = "takeback-request"

    def __init__(self, asker: str, move: str) -> None:
        super().__init__(f"{asker} asks to take their last move ({move}) back.", "Accept (y)", "Decline (n)",
                         "Takeback?")
