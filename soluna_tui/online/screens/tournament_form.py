"""Over SSH, a keyed player announces a tournament, where the server lets players do so (``--player-tournaments``):
its name, kind (Swiss or arena), length and when it starts; its matches are on the lobby's settings (rules, stars,
discs, clock, rated), said on the form. Enter asks the server (``Chosen`` goes up); its page answers, or a
refusal shows here."""

from __future__ import annotations

from typing import ClassVar

from textual.app import ComposeResult
from textual.binding import Binding, BindingType
from textual.containers import Vertical
from textual.screen import ModalScreen
from textual.widgets import Input, Static

from ...link.messages import MatchTerms
from ...screens.quiet_focus import QuietFocus
from ...screens.styled_as_mounted import StyledAsMounted
from ...widgets.choice import Choice
from ...widgets.key_footer import KeyFooter
from .lobby_wish import LobbyWish
from .seeking import terms_words

#: The longest name a tournament may have (the server says so too).
NAME_LONGEST = 40
KINDS = (("Swiss", "swiss"), ("arena", "arena"))
ROUNDS = tuple((f"{count} rounds", count) for count in (3, 4, 5, 6, 7, 9))
MINUTES = tuple((f"{count} minutes", count) for count in (15, 30, 45, 60, 90, 120))
STARTS_IN = (("5 minutes", 5.0), ("10 minutes", 10.0), ("15 minutes", 15.0), ("30 minutes", 30.0),
             ("1 hour", 60.0), ("2 hours", 120.0), ("1 day", 1440.0))


class TournamentFormScreen(QuietFocus, StyledAsMounted, ModalScreen[None]):
    """Tab moves between the fields, Left and Right change a choice, Enter announces, Escape goes back."""

    BINDINGS: ClassVar[list[BindingType]] = [
        Binding("enter", "announce", "Announce", priority=True),
        Binding("escape", "close", "Back"),
        Binding("tab", "app.focus_next", "Next field"),
    ]

    class Chosen(LobbyWish):
        def __init__(self, screen: TournamentFormScreen, name: str, kind: str, length: int, starts_in: float,
                     terms: MatchTerms) -> None:
            super().__init__()
            self.screen = screen
            self.name, self.kind, self.length, self.starts_in, self.terms = name, kind, length, starts_in, terms

        @property
        def control(self) -> TournamentFormScreen:
            return self.screen

    def __init__(self, terms: MatchTerms, *, ascii_mode: bool = False) -> None:
        super().__init__()
        self.terms = terms
        self.ascii_mode = ascii_mode

    def compose(self) -> ComposeResult:
        with Vertical(id="tournament-form", classes="dialog"):
            yield Input("", placeholder="Its name", max_length=NAME_LONGEST, compact=True, id="tournament-name")
            yield Choice("Kind", KINDS, "swiss", ascii_mode=self.ascii_mode, label_width=12, id="tournament-kind")
            yield Choice("Length", ROUNDS, 3, ascii_mode=self.ascii_mode, label_width=12, id="tournament-length")
            yield Choice("Starts in", STARTS_IN, 15.0, ascii_mode=self.ascii_mode, label_width=12,
                         id="tournament-starts")
            yield Static(f"Matches: {terms_words(self.terms)} (the lobby's settings).", id="tournament-form-terms",
                         markup=False)
            yield Static("", id="tournament-form-status", markup=False)
        yield KeyFooter()

    def on_mount(self) -> None:
        self.query_one("#tournament-form").border_title = "Announce a tournament"
        self.query_one(Input).focus()

    def on_choice_changed(self, event: Choice.Changed) -> None:
        """The kind chosen: its lengths (rounds or minutes)."""
        if event.choice.id == "tournament-kind":
            length = self.query_one("#tournament-length", Choice)
            length.relabel(ROUNDS if event.value == "swiss" else MINUTES)

    def action_announce(self) -> None:
        name = " ".join(self.query_one(Input).value.split())
        if not name:
            self.show_error("Give it a name first.")
            self.query_one(Input).focus()
            return
        self.say("Announcing...")
        self.post_message(self.Chosen(self, name, self.query_one("#tournament-kind", Choice).value,
                                      self.query_one("#tournament-length", Choice).value,
                                      self.query_one("#tournament-starts", Choice).value, self.terms))

    def say(self, text: str, error: bool = False) -> None:
        status = self.query_one("#tournament-form-status", Static)
        status.update(text)
        status.set_class(error, "-error")

    def show_error(self, text: str) -> None:
        self.say(text, error=True)

    def action_close(self) -> None:
        self.dismiss(None)
