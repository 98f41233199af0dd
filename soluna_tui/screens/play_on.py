"""Asked before a side line: play on from an earlier position against the computer, or by hand."""

from __future__ import annotations

from collections.abc import Iterator

from textual.binding import Binding
from textual.widget import Widget
from textual.widgets import Static

from ..play.you_wording import possessive
from .choice_dialog import ChoiceDialog
from .help import HELP_BINDING


class PlayOnScreen(ChoiceDialog[bool]):
    """Returns ``True`` for the computer answering, ``False`` for both sides by hand; Escape, ``None``."""

    DIALOG_ID = "play-on"
    DIALOG_TITLE = "Play on from here"
    BINDINGS = [
        Binding("c", "choose(True)", "Computer", show=False),
        Binding("b", "choose(False)", "By hand", show=False),
        Binding("escape", "cancel", "Cancel"),
        HELP_BINDING,
    ]

    def __init__(self, where: str, mover: str, back_to: str, hints: bool, *, yours: bool = False) -> None:
        """``where``: the position (``Round 2, after move 5``); ``mover``: the name of the side to move
        (``yours``: the player here); ``back_to``: where Escape in the side line comes back to; ``hints``:
        whether it has them."""
        super().__init__()
        self.where = where
        self.side = possessive(mover, you=yours)
        self.yours = yours
        self.back_to = back_to
        self.hints = hints

    def body(self) -> Iterator[Widget]:
        helped = ", with hints (H) and analysis (A) if you like" if self.hints else ""
        yield Static(f"{self.where}: {self.side} move. A side line plays on from here without touching the "
                     f"match{helped}; Esc in it comes back to {self.back_to}.", markup=False)

    def choices(self) -> list[tuple[str, bool]]:
        playing = "" if self.yours else f": you play {self.side} side"
        return [(f"Against the computer, perfect play{playing} (c)", True),
                ("By hand: both sides on this keyboard (b)", False)]

    def action_cancel(self) -> None:
        self.dismiss(None)
