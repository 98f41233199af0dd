"""Over SSH, the rated players by rating, a page of 20 at a time, this player's own row highlighted.

Only players with a few rated matches are listed (the server says how many: ``LeaderboardPage.minimum``),
and the screen says so, with how far this player has to go."""

from __future__ import annotations

from typing import ClassVar

from rich.text import Text
from textual.app import ComposeResult
from textual.binding import Binding, BindingType
from textual.containers import Vertical
from textual.screen import ModalScreen
from textual.widgets import DataTable, Static

from ...link.messages import LeaderboardPage, LeaderboardRow
from ...rules.wording import plural
from ...screens.help import HELP_BINDING
from ...screens.quiet_focus import QuietFocus
from ...screens.styled_as_mounted import StyledAsMounted
from ...widgets.key_footer import KeyFooter
from .lobby_wish import LobbyWish
from .player_card import CardWanted

PAGE = 20
COLUMNS = ("Rank", "Name", "Rating", "Played", "Won")
ASKING = "Asking the server..."


class LeaderboardScreen(QuietFocus, StyledAsMounted, ModalScreen[None]):
    """Attributes down: the app gives each page the server sends (``show_page``), or its refusal
    (``refused``), whenever it comes: before the screen has drawn its table, it is kept and shown
    once the table is ready. ``PageWanted`` goes up."""

    BINDINGS: ClassVar[list[BindingType]] = [
        Binding("escape", "close", "Back"),
        Binding("pagedown,right", "page(1)", "Next page", priority=True),
        Binding("pageup,left", "page(-1)", "Previous page", priority=True),
        Binding("i", "card", "Card"),
        HELP_BINDING,
    ]

    class PageWanted(LobbyWish):
        def __init__(self, screen: LeaderboardScreen, offset: int) -> None:
            super().__init__()
            self.screen = screen
            self.offset = offset

        @property
        def control(self) -> LeaderboardScreen:
            return self.screen

    def __init__(self, player_name: str) -> None:
        super().__init__()
        self.player_name = player_name
        #: The last page the server sent, shown (or to be shown once the table has its columns).
        self.page = LeaderboardPage(0, 0, ())
        self._asked_for_a_page = True
        #: The pages line: what it says, and whether it is a refusal.
        self._pages_line = ("", False)
        self._ready = False

    def compose(self) -> ComposeResult:
        with Vertical(id="leaderboard", classes="dialog"):
            yield Static(ASKING, id="leaderboard-you", markup=False)
            yield Static("", id="leaderboard-pages", markup=False)  # above the table: seen on a short terminal
            yield DataTable[Text](cursor_type="row", zebra_stripes=True, id="leaderboard-table")
        yield KeyFooter()

    def on_mount(self) -> None:
        self.query_one("#leaderboard").border_title = "Leaderboard"
        table: DataTable[Text] = self.query_one(DataTable)
        table.add_columns(*COLUMNS)
        table.focus()
        self._ready = True
        if not self._asked_for_a_page:
            self._draw_page()
        self._draw_pages_line()

    def show_page(self, page: LeaderboardPage) -> None:
        """A page from the server."""
        self.page, self._asked_for_a_page = page, False
        first, last = page.offset + 1, page.offset + len(page.rows)
        self._pages_line = ((f"Players {first}-{last} of {page.total}{self._listed()}. PgUp/PgDn or Left/Right: "
                             "other pages.") if page.rows
                            else f"No player ranked yet{self._listed()}: connect with an SSH key and finish "
                                 "matches.", False)
        if self._ready:
            self._draw_page()
            self._draw_pages_line()

    def refused(self, text: str) -> None:
        """The server could not give the page: why, in the pages line."""
        self._pages_line = (text, True)
        if self._ready:
            self._draw_pages_line()

    def _draw_page(self) -> None:
        table: DataTable[Text] = self.query_one(DataTable)
        table.clear()
        mine = None
        for index, row in enumerate(self.page.rows):
            own = self._is_you(row)
            style = "bold reverse" if own else ""
            mine = index if own else mine
            table.add_row(*(Text(str(value), style=style)
                            for value in (row.rank, row.name, row.rating, row.played, row.won)))
        if mine is not None:
            table.move_cursor(row=mine)
        self.query_one("#leaderboard-you", Static).update(self._you_line())

    def _draw_pages_line(self) -> None:
        text, error = self._pages_line
        line = self.query_one("#leaderboard-pages", Static)
        line.update(text)
        line.set_class(error, "-error")

    def _is_you(self, row: LeaderboardRow) -> bool:
        you = self.page.you
        return you is not None and you.rank is not None and row.rank == you.rank

    def _listed(self) -> str:
        """Who the board lists, when not every rated player: `` (with at least 5 rated matches)``."""
        minimum = self.page.minimum
        return f" (with at least {self._condition()})" if minimum > 1 or self.page.opponents else ""

    def _condition(self) -> str:
        """``5 rated matches``, and ``against 3 established opponents`` where the server asks for them."""
        matches = plural(self.page.minimum, "rated match", "rated matches")
        opponents = self.page.opponents
        return matches + (f" against {plural(opponents, 'established opponent')}" if opponents else "")

    def _you_line(self) -> str:
        you = self.page.you
        if you is None:
            return "You play as a guest: connect with an SSH key to be rated and ranked."
        if you.rank is None:
            if you.rating is not None:
                return f"{self.player_name}: rating {you.rating}, not ranked until {self._condition()}."
            return f"{self.player_name}: not ranked yet (finish a rated match)."
        return f"{self.player_name}: rank {you.rank}, rating {you.rating}."

    def action_page(self, step: int) -> None:
        offset = self.page.offset + step * PAGE
        if 0 <= offset < self.page.total:
            self._pages_line = (ASKING, False)
            self._draw_pages_line()
            self.post_message(self.PageWanted(self, offset))

    def action_card(self) -> None:
        """``i``: the card of the player on the row chosen."""
        table: DataTable[Text] = self.query_one(DataTable)
        rows = self.page.rows
        if 0 <= table.cursor_row < len(rows) and (person := rows[table.cursor_row].person) is not None:
            self.post_message(CardWanted(person, rows[table.cursor_row].name))

    def action_close(self) -> None:
        self.dismiss(None)
