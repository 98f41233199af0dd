"""Over SSH, one tournament's page: where it stands (the countdown to its start, or an arena's end), the standings
(points, a Swiss's tie-breaks Buchholz and Sonneborn-Berger, paused players marked), and the pairings of every
round with their results, the latest first. ``j`` joins (or comes back once paused), ``w`` withdraws; anyone may
open it, entrant or not. The app hands it each page the server sends (``show``); it asks again every few seconds
while it shows (``PageWanted``), so the standings follow the results."""

from __future__ import annotations

import time
from typing import ClassVar

from rich.text import Text
from textual import events
from textual.app import ComposeResult
from textual.binding import Binding, BindingType
from textual.containers import Vertical, VerticalScroll
from textual.screen import ModalScreen
from textual.timer import Timer
from textual.widgets import DataTable, Static

from ...link.messages import TournamentGame, TournamentPage
from ...rules.wording import points
from ...screens.help import HELP_BINDING
from ...screens.quiet_focus import QuietFocus
from ...screens.styled_as_mounted import StyledAsMounted
from ...terminal.sizes import NARROW_CLASS
from ...widgets.key_footer import KeyFooter
from .lobby_wish import LobbyWish
from .tournaments import countdown_words, entry_words, length_words

#: Seconds between two pages asked while the page shows.
ASK_EVERY = 2.0
COLUMNS = ("#", "Name", "Points", "Played", "Buchholz", "S-B")
ARENA_COLUMNS = ("#", "Name", "Points", "Played")
#: A phone's standings: the tie-breaks kept, matches played left to the rounds below, a paused player "(p)".
NARROW_COLUMNS = ("#", "Name", "Pts", "Buch", "S-B")
NARROW_ARENA_COLUMNS = ("#", "Name", "Pts", "Played")


def points_words(points: float) -> str:
    """``2``, ``2.5``."""
    return f"{points:g}"


def game_words(game: TournamentGame) -> str:
    """``ann - bob: ann won``, ``cyd: bye``, ``dan - eve: in play``."""
    first, second = game.players
    if second is None:
        return f"{first}: bye"
    return f"{first} - {second}: {game.result or 'in play'}"


def rounds_words(page: TournamentPage) -> str:
    """Every pairing, by round, the latest round first (an arena's: in the order they were made, the latest first)."""
    if not page.games:
        return "No pairings yet."
    if page.tournament.kind == "arena":
        return "\n".join(game_words(game) for game in reversed(page.games))
    lines: list[str] = []
    for number in sorted({game.round for game in page.games}, reverse=True):
        lines.append(f"Round {number}")
        lines.extend(f"  {game_words(game)}" for game in page.games if game.round == number)
    return "\n".join(lines)


def state_words(page: TournamentPage, left: float | None) -> str:
    """Where the tournament stands, in a line, with its countdown."""
    line = page.tournament
    if line.state == "upcoming":
        return f"Starts in {countdown_words(left or 0)}, {line.entrants} entered."
    if line.state == "running":
        if line.kind == "arena":
            ends = f"ends in {countdown_words(left)}" if left is not None and left > 0 else "its last matches finish"
            return f"Running: {ends}."
        return f"Round {page.round} of {line.length} in play."
    if line.state == "cancelled":
        return "Cancelled."
    return f"Over: {over_words(page)}."


def over_words(page: TournamentPage) -> str:
    """Who won a tournament over, as the lobby's news says it (``tournament_view.winner_words``): one winner, a
    shared first place, or nobody (nobody scored a point: ``standings.first_place``)."""
    standings = page.standings
    if not any(standing.points for standing in standings):
        return "nobody scored a point"
    firsts = [standing.name for standing in standings if standing.rank == standings[0].rank]
    if len(firsts) > 1:
        return f"{' and '.join(firsts)} share first place, {points(standings[0].points)}"
    return f"{firsts[0]} won with {points(standings[0].points)}"


def you_words(page: TournamentPage, keyed: bool = True) -> str:
    """What this player may do: join, come back, withdraw (a guest: watch)."""
    line = page.tournament
    if line.state in ("finished", "cancelled"):
        return ""
    if not keyed:
        return "Guests watch: tournaments are for players with an SSH key."
    if page.paused:
        return "You are paused (a missed pairing, or withdrawn): j comes back, paired from the next pairing on."
    if line.joined:
        return "You are in: you are seated at each pairing, wherever you are in the lobby. w withdraws."
    return "j joins (with an SSH key): you are seated at each pairing automatically."


def no_join_words(page: TournamentPage | None, keyed: bool) -> str:
    """Why ``j`` does nothing here: the page not come yet, a guest, already in, the tournament over."""
    if page is None:
        return "Wait for the tournament's page."
    if page.tournament.state in ("finished", "cancelled"):
        return f"This tournament is {page.tournament.state}: nobody joins it now."
    if not keyed:
        return "Tournaments are for players with an SSH key: connect with one to enter."
    return "You are in already: you are seated at each pairing. w withdraws."


class TournamentScreen(QuietFocus, StyledAsMounted, ModalScreen[None]):
    """Attributes down: each page (``show``) or refusal (``refused``); wishes up: ``Join``, ``Withdraw``,
    ``PageWanted``."""

    AUTO_FOCUS = "#tournament-standings"
    BINDINGS: ClassVar[list[BindingType]] = [
        Binding("j", "join", "Join"),
        Binding("w", "withdraw", "Withdraw"),
        Binding("escape", "close", "Back"),
        HELP_BINDING,
    ]

    class Wish(LobbyWish):
        def __init__(self, screen: TournamentScreen) -> None:
            super().__init__()
            self.screen = screen

        @property
        def control(self) -> TournamentScreen:
            return self.screen

    class PageWanted(Wish):
        """The page again (the standings move)."""

    class Join(Wish):
        """Enter, or come back once paused."""

    class Withdraw(Wish):
        """Leave the tournament (once running: paused, in the standings still)."""

    def __init__(self, tournament: int, name: str = "", ask_every: float | None = ASK_EVERY,
                 keyed: bool = True) -> None:
        """``ask_every``: seconds between two pages asked (``None``: only once, as the snapshots draw it);
        ``keyed``: this player came with an SSH key (a guest only watches)."""
        super().__init__()
        self.tournament = tournament
        self.keyed = keyed
        self.title_name = name
        self.page: TournamentPage | None = None
        self.ask_every = ask_every
        self._received = time.monotonic()
        self._status = ("Asking the server...", False)
        self._ticking: Timer | None = None

    def compose(self) -> ComposeResult:
        with Vertical(id="tournament", classes="dialog"):
            yield Static("", id="tournament-state", markup=False)
            yield Static("", id="tournament-terms", markup=False)
            yield DataTable[Text](cursor_type="row", zebra_stripes=True, id="tournament-standings")
            with VerticalScroll(id="tournament-rounds-box"):
                yield Static("", id="tournament-rounds", markup=False)
            yield Static("", id="tournament-status", markup=False)
        yield KeyFooter()

    def on_mount(self) -> None:
        self.query_one("#tournament").border_title = self.title_name or "Tournament"
        self._draw()
        if self.ask_every is not None:
            self._ticking = self.set_interval(1.0, self._tick)

    def _tick(self) -> None:
        """Every second: the countdown; every ``ask_every``: the page again (until the tournament is over)."""
        if self.page is not None:
            self.query_one("#tournament-state", Static).update(state_words(self.page, self._left()))
        over = self.page is not None and self.page.tournament.state in ("finished", "cancelled")
        if self.ask_every is not None and not over and time.monotonic() - self._received >= self.ask_every:
            self._received = time.monotonic()
            self.post_message(self.PageWanted(self))

    def _left(self) -> float | None:
        page = self.page
        if page is None or page.next_at is None:
            return None
        return page.next_at - page.now - (time.monotonic() - self._received)

    def show(self, page: TournamentPage) -> None:
        """A page from the server (a refusal shown stays until the page says something new)."""
        before, self.page, self._received = self.page, page, time.monotonic()
        if not (self._status[1] and before is not None and _standing_of(before) == _standing_of(page)):
            self._status = (you_words(page, self.keyed), False)
        if self.is_mounted:
            self._draw()
        self.refresh_bindings()

    def refused(self, text: str) -> None:
        self._status = (text, True)
        if self.is_mounted:
            self._draw_status()

    def say(self, text: str) -> None:
        self._status = (text, False)
        if self.is_mounted:
            self._draw_status()

    def _draw(self) -> None:
        page = self.page
        if page is not None:
            line = page.tournament
            self.query_one("#tournament").border_title = f"{line.name} · {length_words(line)}"
            self.query_one("#tournament-state", Static).update(state_words(page, self._left()))
            self.query_one("#tournament-terms", Static).update(entry_words(line))
            self._draw_standings(page)
            self.query_one("#tournament-rounds", Static).update(rounds_words(page))
        self._draw_status()

    def _draw_standings(self, page: TournamentPage) -> None:
        table: DataTable[Text] = self.query_one(DataTable)
        swiss = page.tournament.kind == "swiss"
        narrow = self.app.has_class(NARROW_CLASS)
        table.clear(columns=True)
        if narrow:
            table.add_columns(*(NARROW_COLUMNS if swiss else NARROW_ARENA_COLUMNS))
        else:
            table.add_columns(*(COLUMNS if swiss else ARENA_COLUMNS))
        mine = None
        for index, standing in enumerate(page.standings):
            style = "bold reverse" if standing.you else ""
            mine = index if standing.you else mine
            name = standing.name + ((" (p)" if narrow else " (paused)") if standing.paused else "")
            cells = [str(standing.rank), name, points_words(standing.points)]
            if not (narrow and swiss):
                cells.append(str(standing.played))
            if swiss:
                cells += [points_words(value) for value in standing.tie_breaks[:2]] or ["", ""]
            table.add_row(*(Text(cell, style=style) for cell in cells))
        if mine is not None:
            table.move_cursor(row=mine)

    def _draw_status(self) -> None:
        text, error = self._status
        status = self.query_one("#tournament-status", Static)
        status.update(text)
        status.set_class(error, "-error")

    def check_action(self, action: str, parameters: tuple[object, ...]) -> bool | None:
        page = self.page
        if action == "join":
            return self.keyed and page is not None and page.tournament.state in ("upcoming", "running") and (
                not page.tournament.joined or page.paused)
        if action == "withdraw":
            return page is not None and page.tournament.state in ("upcoming", "running") and (
                page.tournament.joined and not page.paused)
        return True

    def on_key(self, event: events.Key) -> None:
        """``j`` where it joins nothing (a guest, already in, over) is answered: why, in the status line."""
        if event.key == "j" and not self.check_action("join", ()):
            event.stop()
            self.refused(no_join_words(self.page, self.keyed))

    def action_join(self) -> None:
        self.say("Joining...")
        self.post_message(self.Join(self))

    def action_withdraw(self) -> None:
        self.say("Withdrawing...")
        self.post_message(self.Withdraw(self))

    def action_close(self) -> None:
        self.dismiss(None)


def _standing_of(page: TournamentPage) -> tuple[str, bool, bool]:
    """What the page says this player may do turns on: the tournament's state, in it, paused."""
    return page.tournament.state, page.tournament.joined, page.paused
