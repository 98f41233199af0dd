"""Over SSH, a player who came with a key chooses the name they will be known by on every visit."""

from __future__ import annotations

from textual.app import ComposeResult
from textual.binding import Binding
from textual.containers import Vertical
from textual.screen import ModalScreen
from textual.widgets import Input, Static

from ...link.safe_names import NAME_KEPT_DAYS, visible_text
from ...local.match_setup import NAME_LIMIT, clean_name
from ...screens.quiet_focus import QuietFocus
from ...screens.styled_as_mounted import StyledAsMounted
from ...widgets.key_footer import KeyFooter
from .lobby_wish import LobbyWish


def typed_name(text: str) -> str:
    """A name as the server will take it: what draws nothing gone, printable, trimmed, short ("" if nothing is left)."""
    return clean_name(visible_text(text), "")


class ChooseNameScreen(QuietFocus, StyledAsMounted, ModalScreen[None]):
    """Enter asks the server (``Chosen`` goes up); the app closes the dialog once the server agrees, or
    shows its refusal here (``show_error``) for another try. Escape keeps the name for now."""

    BINDINGS = [
        # Before the field's own Enter (which the footer would not show): the footer says Enter chooses.
        Binding("enter", "choose", "Choose", priority=True),
        Binding("escape", "later", "Not now"),
    ]

    class Chosen(LobbyWish):
        def __init__(self, name: str) -> None:
            super().__init__()
            self.name = name

    def __init__(self, suggested: str, renaming: bool = False) -> None:
        """``renaming``: the key holds a name chosen before (``suggested``), which it keeps a while once changed."""
        super().__init__()
        self.suggested = typed_name(suggested)
        self.renaming = renaming

    def explanation(self) -> str:
        if self.renaming:
            return (f"Choose a new name. Once you change it, {self.suggested} stays yours for {NAME_KEPT_DAYS} days: "
                    f"nobody else can take it meanwhile. Enter chooses the new one; Escape keeps {self.suggested}.")
        return ("You came with an SSH key: choose the name others will know you by. It is kept with your key, "
                "with your rating, for every visit. Enter chooses it; Escape keeps this one for now.")

    def compose(self) -> ComposeResult:
        with Vertical(id="choose-name", classes="dialog"):
            yield Static(self.explanation(), markup=False)
            yield Input(self.suggested, max_length=NAME_LIMIT, compact=True, id="choose-name-input")
            yield Static("", id="choose-name-status", markup=False)
        yield KeyFooter()

    def on_mount(self) -> None:
        self.query_one("#choose-name").border_title = "Your name"
        self.query_one(Input).focus()

    def action_choose(self) -> None:
        """Ask the server for the name typed (cleaned as it will take it)."""
        name = typed_name(self.query_one(Input).value)
        if not name:
            self.show_error("Type a name (at most 16 letters, digits or spaces), then Enter.")
            return
        self.query_one(Input).value = name
        self.say(f"Asking for {name}...")
        self.post_message(self.Chosen(name))

    def say(self, text: str, error: bool = False) -> None:
        status = self.query_one("#choose-name-status", Static)
        status.update(text)
        status.set_class(error, "-error")

    def show_error(self, text: str) -> None:
        """The server's refusal (taken, reserved...): one line, and the field ready for another try."""
        self.say(text, error=True)
        self.query_one(Input).focus()

    def action_later(self) -> None:
        self.dismiss(None)
