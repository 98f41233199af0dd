"""A quick match asked for over SSH, waiting for an opponent on the chosen terms: how long so far, the server's
news while waiting (someone on the same settings this player is not paired with, and why), and Escape to stop
waiting. The app closes it once the server pairs this player (the match follows)."""

from __future__ import annotations

import time

from textual.app import ComposeResult
from textual.binding import Binding
from textual.containers import Vertical
from textual.screen import ModalScreen
from textual.widgets import Static

from ...link.messages import MatchTerms
from ...rules import MatchOptions, OptionError
from ...rules.wording import plural
from ...screens.help import HELP_BINDING
from ...screens.quiet_focus import QuietFocus
from ...screens.styled_as_mounted import StyledAsMounted
from ...widgets.key_footer import KeyFooter


def terms_words(terms: MatchTerms) -> str:
    """``box rules, 4 stars, 12 discs, 3+2 clock, rated``: a quick match's or a challenge's terms in a line."""
    try:
        options = MatchOptions(**terms.options)
    except (OptionError, TypeError):
        return "terms this version cannot read"
    clock = f"{terms.clock.label} clock" if terms.clock is not None else "no clock"
    rated = "rated" if terms.rated else "unrated"
    return (f"{options.preset_name} rules, {plural(options.stars_to_win, 'star')}, {options.discs} discs, {clock}, "
            f"{rated}")


def waited_words(seconds: float) -> str:
    """``0:07``, ``12:30``: how long so far."""
    minutes, seconds = divmod(max(0, int(seconds)), 60)
    return f"{minutes}:{seconds:02}"


class SeekingScreen(QuietFocus, StyledAsMounted, ModalScreen[bool]):
    """Escape stops waiting (returns True); the app dismisses it with False once paired."""

    BINDINGS = [Binding("escape", "cancel", "Stop waiting"), HELP_BINDING]

    def __init__(self, terms: MatchTerms) -> None:
        super().__init__()
        self.terms = terms
        self.started = time.monotonic()
        #: The server's latest news while waiting ("": none yet).
        self.news = ""

    def compose(self) -> ComposeResult:
        with Vertical(id="seeking", classes="dialog"):
            yield Static(f"Looking for an opponent on these terms:\n{terms_words(self.terms)}.", id="seeking-terms",
                         markup=False)
            yield Static(self._waited(), id="seeking-time", markup=False)
            yield Static("The match starts as soon as someone asks for the same. Escape stops waiting.",
                         id="seeking-text", markup=False)
            yield Static(self.news, id="seeking-news", markup=False)
        yield KeyFooter()

    def on_mount(self) -> None:
        self.query_one("#seeking").border_title = "Quick match"
        news = self.query_one("#seeking-news", Static)
        news.update(self.news)  # heard once composed, before now: its line was made empty
        news.display = bool(self.news)
        self.set_interval(1.0, self._tick)

    def show_news(self, text: str) -> None:
        """The server's latest news while waiting, under the dialog's text (it stays until the next); news that
        comes before the dialog is drawn shows as it is."""
        self.news = text
        if self.is_mounted:
            news = self.query_one("#seeking-news", Static)
            news.update(text)
            news.display = True

    def _waited(self) -> str:
        return f"Waiting {waited_words(time.monotonic() - self.started)}"

    def _tick(self) -> None:
        self.query_one("#seeking-time", Static).update(self._waited())

    def action_cancel(self) -> None:
        self.dismiss(True)
