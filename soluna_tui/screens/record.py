"""Over SSH, this player's record: rating, rank, won and lost, and the recent matches (Enter replays one)."""

from __future__ import annotations

import time

from textual import on
from textual.app import ComposeResult
from textual.binding import Binding
from textual.containers import Vertical
from textual.message import Message
from textual.screen import ModalScreen
from textual.widgets import OptionList, Static
from textual.widgets.option_list import Option

from ..rules.wording import plural
from ..link.messages import PlayerRecord, RecentMatch
from ..widgets.key_footer import KeyFooter
from .help import HELP_BINDING


def describe_recent(entry: RecentMatch) -> str:
    """One recent match: when it ended, against whom, how, and the stars."""
    when = time.strftime("%Y-%m-%d %H:%M", time.gmtime(entry.finished_at))
    result = entry.result.value + (" by forfeit" if entry.forfeit else "")
    stars = entry.stars
    return f"{when}  vs {entry.opponent}: {result}, stars {stars[0]}-{stars[1]}"


class RecordScreen(ModalScreen[None]):
    """Attributes down: the app gives the server's answer (``show_record``); ``ReplayWanted`` goes up."""

    BINDINGS = [Binding("escape", "close", "Back"), HELP_BINDING]

    class ReplayWanted(Message):
        def __init__(self, match_id: int) -> None:
            super().__init__()
            self.match_id = match_id

    def __init__(self) -> None:
        super().__init__()
        self.recent: tuple[RecentMatch, ...] = ()

    def compose(self) -> ComposeResult:
        with Vertical(id="record", classes="dialog"):
            yield Static("Asking the server...", id="record-summary", markup=False)
            yield Static("Recent matches (Enter replays one, each move judged)", id="record-recent-title")
            yield OptionList(id="record-recent")
            yield Static("", id="record-status", markup=False)
        yield KeyFooter()

    def on_mount(self) -> None:
        self.query_one("#record").border_title = "Your record"
        self.query_one("#record-recent").focus()

    def show_record(self, record: PlayerRecord) -> None:
        if record.rated:
            rank = f"rank {record.rank}" if record.rank is not None else "not ranked yet"
            head = f"{record.name}: rating {record.rating if record.rating is not None else '-'}, {rank}."
        else:
            head = f"{record.name}: a guest, unrated (connect with an SSH key to keep a rating)."
        summary = (f"{head}\n{plural(record.played, 'match', 'matches')} played: {record.won} won, "
                   f"{record.lost} lost.")
        self.query_one("#record-summary", Static).update(summary)
        self.recent = record.recent
        listing = self.query_one("#record-recent", OptionList)
        listing.clear_options()
        listing.add_options([Option(describe_recent(entry)) for entry in self.recent])
        if self.recent:
            listing.highlighted = 0
        listing.display = bool(self.recent)
        self.say("" if self.recent else "No finished match yet.")

    def say(self, text: str, error: bool = False) -> None:
        status = self.query_one("#record-status", Static)
        status.update(text)
        status.set_class(error, "-error")

    @on(OptionList.OptionSelected, "#record-recent")
    def _chosen(self, event: OptionList.OptionSelected) -> None:
        event.stop()
        if event.option_index < len(self.recent):
            self.say("Fetching the match...")
            self.post_message(self.ReplayWanted(self.recent[event.option_index].id))

    def action_close(self) -> None:
        self.dismiss(None)
