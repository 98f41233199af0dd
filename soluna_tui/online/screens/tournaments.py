"""Over SSH, the server's tournaments (``t`` in the lobby, or its menu): upcoming, running, and lately finished; Enter
opens one's page (standings, pairings, the countdown; anyone may open it), ``n`` announces a new one where the server
lets players do so. The app hands it the list the server sends (``show``), or its refusal (``refused``)."""

from __future__ import annotations

import math
import time
from typing import ClassVar

from textual import on
from textual.app import ComposeResult
from textual.binding import Binding, BindingType
from textual.containers import Vertical
from textual.screen import ModalScreen
from textual.widgets import OptionList, Static

from ...link.messages import TournamentLine, Tournaments
from ...screens.help import HELP_BINDING
from ...screens.quiet_focus import QuietFocus
from ...screens.styled_as_mounted import StyledAsMounted
from ...widgets.key_footer import KeyFooter
from ...widgets.menu import Menu
from .lobby_wish import LobbyWish
from .seeking import terms_words

ASKING = "Asking the server..."


def countdown_words(seconds: float) -> str:
    """``4:59``, ``1:02:03``, ``3 days``: a time left, as the screens count it down (whole seconds, rounded up)."""
    left = max(0, math.ceil(seconds))
    if left >= 2 * 24 * 3600:
        return f"{left // (24 * 3600)} days"
    hours, rest = divmod(left, 3600)
    minutes, seconds_left = divmod(rest, 60)
    return f"{hours}:{minutes:02}:{seconds_left:02}" if hours else f"{minutes}:{seconds_left:02}"


def length_words(line: TournamentLine) -> str:
    """``Swiss, 5 rounds`` or ``arena, 30 minutes``."""
    if line.kind == "swiss":
        return f"Swiss, {line.length} round{'s' * (line.length != 1)}"
    return f"arena, {line.length} minute{'s' * (line.length != 1)}"


def when_words(line: TournamentLine, left: float) -> str:
    """Where the tournament stands, for its line: starts in, running, won by, cancelled."""
    if line.state == "upcoming":
        return f"starts in {countdown_words(left)}"
    if line.state == "running":
        return "running"
    if line.state == "cancelled":
        return "cancelled"
    return f"won by {line.winner}" if line.winner else "finished"


def tournament_words(line: TournamentLine, left: float) -> str:
    """One tournament as the list says it: name, kind, where it stands, entrants, whether this player is in."""
    entered = f"{line.entrants} entered" + (", you too" if line.joined else "")
    return f"{line.name} · {length_words(line)} · {when_words(line, left)} · {entered}"


def entry_words(line: TournamentLine) -> str:
    """Who may enter, and on what terms."""
    bars = ([f"rating {line.min_rating}+"] if line.min_rating is not None else []) + (
        [f"{line.min_rated_matches}+ rated matches"] if line.min_rated_matches else [])
    return terms_words(line.terms) + (f"; to enter: {', '.join(bars)}" if bars else "")


class TournamentsScreen(QuietFocus, StyledAsMounted, ModalScreen[None]):
    """Attributes down: the list (``show``); wishes up: ``Open`` (a tournament's page), ``Announce`` (the form)."""

    AUTO_FOCUS = "#tournaments-list"
    BINDINGS: ClassVar[list[BindingType]] = [
        Binding("enter", "open", "Open", show=True),
        Binding("n", "announce", "New tournament"),
        Binding("escape", "close", "Back"),
        HELP_BINDING,
    ]

    class Open(LobbyWish):
        def __init__(self, tournament: int) -> None:
            super().__init__()
            self.tournament = tournament

    class Announce(LobbyWish):
        """The player asked for the form that announces a tournament."""

    class ListWanted(LobbyWish):
        def __init__(self, screen: TournamentsScreen) -> None:
            super().__init__()
            self.screen = screen

        @property
        def control(self) -> TournamentsScreen:
            return self.screen

    def __init__(self) -> None:
        super().__init__()
        self.list = Tournaments(())
        self._received = time.monotonic()
        self._status = (ASKING, False)

    def compose(self) -> ComposeResult:
        with Vertical(id="tournaments", classes="dialog"):
            yield Menu(id="tournaments-list", markup=False)
            yield Static("", id="tournaments-terms", markup=False)
            yield Static("", id="tournaments-status", markup=False)
        yield KeyFooter()

    def on_mount(self) -> None:
        self.query_one("#tournaments").border_title = "Tournaments"
        self._draw()

    def show(self, tournaments: Tournaments) -> None:
        """The list, as the server says (the highlight stays on the tournament it was on)."""
        self.list, self._received = tournaments, time.monotonic()
        upcoming = sum(line.state == "upcoming" for line in tournaments.tournaments)
        if tournaments.tournaments:
            self._status = (f"{len(tournaments.tournaments)} listed, {upcoming} to come. Enter opens one: its "
                            "standings, pairings and countdown.", False)
        else:
            self._status = ("No tournament is announced here yet." + (" n announces one." if tournaments.may_create
                                                                       else ""), False)
        if self.is_mounted:
            self._draw()
        self.refresh_bindings()

    def refused(self, text: str) -> None:
        self._status = (text, True)
        if self.is_mounted:
            self._draw_status()

    def _draw(self) -> None:
        menu = self.query_one("#tournaments-list", Menu)
        was = self._highlighted()
        lines = self.list.tournaments
        now = self.list.now + time.monotonic() - self._received
        menu.set_options([tournament_words(line, line.starts_at - now) for line in lines])
        ids = [line.id for line in lines]
        if lines:
            menu.highlighted = ids.index(was.id) if was is not None and was.id in ids else 0
        menu.display = bool(lines)
        self._draw_terms()
        self._draw_status()

    def _draw_status(self) -> None:
        text, error = self._status
        status = self.query_one("#tournaments-status", Static)
        status.update(text)
        status.set_class(error, "-error")

    def _draw_terms(self) -> None:
        line = self._highlighted()
        self.query_one("#tournaments-terms", Static).update(entry_words(line) if line is not None else "")

    def _highlighted(self) -> TournamentLine | None:
        if not self.is_mounted:
            return None
        index = self.query_one("#tournaments-list", Menu).highlighted
        lines = self.list.tournaments
        return lines[index] if index is not None and index < len(lines) else None

    def check_action(self, action: str, parameters: tuple[object, ...]) -> bool | None:
        if action == "announce":
            return self.list.may_create
        return True

    @on(OptionList.OptionHighlighted, "#tournaments-list")
    def _moved(self, event: OptionList.OptionHighlighted) -> None:
        event.stop()
        self._draw_terms()

    @on(OptionList.OptionSelected, "#tournaments-list")
    def _chosen(self, event: OptionList.OptionSelected) -> None:
        event.stop()
        self.action_open()

    def action_open(self) -> None:
        line = self._highlighted()
        if line is not None:
            self.post_message(self.Open(line.id))

    def action_announce(self) -> None:
        if self.list.may_create:
            self.post_message(self.Announce())

    def action_close(self) -> None:
        self.dismiss(None)
