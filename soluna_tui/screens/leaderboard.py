"""Over SSH, the rated players by rating, a page of 20 at a time, this player's own row highlighted."""

from __future__ import annotations

from rich.text import Text
from textual.app import ComposeResult
from textual.binding import Binding
from textual.containers import Vertical
from textual.message import Message
from textual.screen import ModalScreen
from textual.widgets import DataTable, Static

from ..link.messages import LeaderboardPage, LeaderboardRow, Standing
from ..widgets.key_footer import KeyFooter
from .help import HELP_BINDING

PAGE = 20
COLUMNS = ("Rank", "Name", "Rating", "Played", "Won")


class LeaderboardScreen(ModalScreen[None]):
    """Attributes down: the app gives each page the server sends (``show_page``); ``PageWanted`` goes up."""

    BINDINGS = [
        Binding("escape", "close", "Back"),
        Binding("pagedown,right", "page(1)", "Next page", priority=True),
        Binding("pageup,left", "page(-1)", "Previous page", priority=True),
        HELP_BINDING,
    ]

    class PageWanted(Message):
        def __init__(self, offset: int) -> None:
            super().__init__()
            self.offset = offset

    def __init__(self, player_name: str) -> None:
        super().__init__()
        self.player_name = player_name
        self.first = 0
        self.total = 0
        self.rows: tuple[LeaderboardRow, ...] = ()
        self.you: Standing | None = None

    def compose(self) -> ComposeResult:
        with Vertical(id="leaderboard", classes="dialog"):
            yield Static("Asking the server...", id="leaderboard-you", markup=False)
            yield Static("", id="leaderboard-pages", markup=False)  # above the table: seen on a short terminal
            yield DataTable(cursor_type="row", zebra_stripes=True, id="leaderboard-table")
        yield KeyFooter()

    def on_mount(self) -> None:
        self.query_one("#leaderboard").border_title = "Leaderboard"
        table = self.query_one(DataTable)
        table.add_columns(*COLUMNS)
        table.focus()

    def show_page(self, page: LeaderboardPage) -> None:
        """A page from the server."""
        self.first, self.total, self.rows, self.you = page.offset, page.total, page.rows, page.you
        table = self.query_one(DataTable)
        table.clear()
        mine = None
        for index, row in enumerate(self.rows):
            own = self._is_you(row)
            style = "bold reverse" if own else ""
            mine = index if own else mine
            table.add_row(*(Text(str(value), style=style)
                            for value in (row.rank, row.name, row.rating, row.played, row.won)))
        if mine is not None:
            table.move_cursor(row=mine)
        self.query_one("#leaderboard-you", Static).update(self._you_line())
        last = self.first + len(self.rows)
        pages = (f"Players {self.first + 1}-{last} of {self.total}. PgUp/PgDn or Left/Right: other pages."
                 if self.rows else "No rated player yet: connect with an SSH key and finish a match.")
        self.query_one("#leaderboard-pages", Static).update(pages)

    def _is_you(self, row: LeaderboardRow) -> bool:
        return self.you is not None and self.you.rank is not None and row.rank == self.you.rank

    def _you_line(self) -> str:
        if self.you is None:
            return "You play as a guest: connect with an SSH key to be rated and ranked."
        if self.you.rank is None:
            return f"{self.player_name}: not ranked yet (finish a rated match)."
        return f"{self.player_name}: rank {self.you.rank}, rating {self.you.rating}."

    def action_page(self, step: int) -> None:
        offset = self.first + step * PAGE
        if 0 <= offset < self.total:
            self.query_one("#leaderboard-pages", Static).update("Asking the server...")
            self.post_message(self.PageWanted(offset))

    def action_close(self) -> None:
        self.dismiss(None)
