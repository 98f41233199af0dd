"""Over SSH, this player's record: rating, rank, won and lost, and the recent matches (Enter replays one)."""

from __future__ import annotations

import time
from typing import ClassVar

from textual import on
from textual.app import ComposeResult
from textual.binding import Binding, BindingType
from textual.containers import Vertical
from textual.screen import ModalScreen
from textual.widgets import OptionList, Static
from textual.widgets.option_list import Option

from ...link.messages import PlayerRecord, RecentMatch, SideResult
from ...rules.wording import plural
from ...screens.help import HELP_BINDING
from ...screens.quiet_focus import QuietFocus
from ...screens.styled_as_mounted import StyledAsMounted
from ...widgets.key_footer import KeyFooter
from .lobby_wish import LobbyWish


def describe_recent(entry: RecentMatch) -> str:
    """One recent match: when it ended, against whom, how (``lost on time``, ``won by resignation``), the stars,
    and the rating after it (if rated)."""
    when = time.strftime("%Y-%m-%d %H:%M", time.gmtime(entry.finished_at))
    if entry.ended is not None:
        result = entry.ended.side_words(won=entry.result is SideResult.WON)
    else:
        result = entry.result.value + (" by forfeit" if entry.forfeit else "")
    stars = entry.stars
    line = f"{when}  vs {entry.opponent}: {result}, stars {stars[0]}-{stars[1]}"
    if entry.rating is not None:
        before, after = entry.rating
        line += f", rating {after} ({after - before:+d})"
    return line


def summary_of(record: PlayerRecord) -> str:
    """The record's first lines: who, rated or not, and the matches won and lost (against people, then the
    computer): a keyed player's rated ones (their unrated matches are in the recent ones only), a guest's all."""
    if not record.rated:
        head = f"{record.name}: a guest, unrated (connect with an SSH key to keep a rating)."
    elif record.rating is None:
        head = f"{record.name}: no rating yet (a rated match gives one)."
    else:
        rank = f"rank {record.rank}" if record.rank is not None else "not ranked yet"
        head = f"{record.name}: rating {record.rating}, {rank}."
    counted = plural(record.played, "rated match", "rated matches") if record.rated else plural(
        record.played, "match", "matches")
    lines = f"{head}\n{counted} played: {record.won} won, {record.lost} lost."
    won, lost = record.computer
    if won or lost:
        lines += f"\nRated against the computer: {won} won, {lost} lost."
    return lines


class RecordScreen(QuietFocus, StyledAsMounted, ModalScreen[None]):
    """Attributes down: the app gives the server's answer (``show_record``), or a refusal (``refused``),
    whenever it comes: before the screen has drawn itself, it is kept and shown once ready.
    ``ReplayWanted`` goes up."""

    BINDINGS: ClassVar[list[BindingType]] = [Binding("escape", "close", "Back"), HELP_BINDING]

    class ReplayWanted(LobbyWish):
        def __init__(self, screen: RecordScreen, match_id: int) -> None:
            super().__init__()
            self.screen = screen
            self.match_id = match_id

        @property
        def control(self) -> RecordScreen:
            return self.screen

    def __init__(self) -> None:
        super().__init__()
        #: The server's answer, shown (or to be shown once the screen is ready); ``None`` until it comes.
        self.record: PlayerRecord | None = None
        #: The status line: what it says, and whether it is a refusal.
        self._status = ("", False)
        self._ready = False

    @property
    def recent(self) -> tuple[RecentMatch, ...]:
        return self.record.recent if self.record is not None else ()

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
        self._ready = True
        if self.record is not None:
            self._draw_record(self.record)
        self._draw_status()

    def show_record(self, record: PlayerRecord) -> None:
        self.record = record
        self._status = ("" if record.recent else "No finished match yet.", False)
        if self._ready:
            self._draw_record(record)
            self._draw_status()

    def _draw_record(self, record: PlayerRecord) -> None:
        self.query_one("#record-summary", Static).update(summary_of(record))
        listing = self.query_one("#record-recent", OptionList)
        listing.clear_options()
        listing.add_options([Option(describe_recent(entry)) for entry in record.recent])
        if record.recent:
            listing.highlighted = 0
        listing.display = bool(record.recent)

    def say(self, text: str, error: bool = False) -> None:
        self._status = (text, error)
        if self._ready:
            self._draw_status()

    def refused(self, text: str) -> None:
        """The server could not answer (a match not on record...): why, in one line."""
        self.say(text, error=True)

    def _draw_status(self) -> None:
        text, error = self._status
        status = self.query_one("#record-status", Static)
        status.update(text)
        status.set_class(error, "-error")

    @on(OptionList.OptionSelected, "#record-recent")
    def _chosen(self, event: OptionList.OptionSelected) -> None:
        event.stop()
        if event.option_index < len(self.recent):
            self.say("Fetching the match...")
            self.post_message(self.ReplayWanted(self, self.recent[event.option_index].id))

    def action_close(self) -> None:
        self.dismiss(None)
