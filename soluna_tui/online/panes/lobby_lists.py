"""The lobby's lists, in one place under the settings: the matches in play, or (``o``) who is online, or the
lobby's talk while its chat line is open (``C``); over them, the title of the one shown.

What each shows is handed down by the screen; this pane chooses which one shows, its title, and the line saying it
is empty (not an empty list: at 80x24 every line of the lobby counts). It is not a container: its widgets stand
in the lobby's panel itself (the screen composes them), as they did before there were panes. A container more
laid the lobby out a level deeper on every change of who is online, and cost each change 5% more CPU.
"""

from __future__ import annotations

from rich.cells import cell_len
from textual.app import ComposeResult
from textual.widget import Widget

from ...link.messages import ListedMatch
from ...widgets.cached_lines import Words
from ...widgets.chat_panel import ChatPanel
from .matches_in_play import MatchesInPlay
from .people_online import PeopleOnline

MATCHES_TITLE = "Matches in play"
TALK_TITLE = "Talk in the lobby"


def unread_words(count: int) -> str:
    """The lobby's talk not read yet, as its title says it."""
    return f"{count} new line{'s' if count != 1 else ''} of talk (C reads)"


class LobbyLists:
    """The matches in play, who is online, or the lobby's talk, one at a time, under their title."""

    def __init__(self, *, ascii_mode: bool = False) -> None:
        self.ascii_mode = ascii_mode
        self.matches = MatchesInPlay()
        self.people = PeopleOnline(ascii_mode=ascii_mode)
        #: Table talk, in the lists' place while its chat line is open (the talk draws into it on every line heard,
        #: so it is kept here: a query walks the screen).
        self.chat_panel = ChatPanel(shown_with_lines=False, id="lobby-chat")
        #: The title over the list shown, and the line saying it is empty.
        self._title_line = Words(MATCHES_TITLE, id="lobby-matches-title", markup=False)
        self._none = Words("", id="lobby-none", markup=False)
        #: Which list shows: who is online (else the matches in play), or the talk over either.
        self.listing_online = False
        self.talking = False
        #: The lobby's lines of talk come since it was last read.
        self.talk_unread = 0
        #: The title as last drawn.
        self._title = MATCHES_TITLE
        #: Where the focus was when the player asked for who is online before the server had said: the list takes
        #: the focus when it comes, if it is still there.
        self._focus_people_from: tuple[Widget | None] | None = None

    def compose(self) -> ComposeResult:
        """The widgets, for the screen to compose in its panel."""
        yield self._title_line
        yield self.matches
        yield self.people
        yield self.chat_panel
        yield self._none

    def title(self, hidden: bool) -> str:
        """The title of the list shown (``hidden``: this player keeps out of who is online)."""
        dot = "-" if self.ascii_mode else "·"
        title = MATCHES_TITLE
        if self.talking:
            title = TALK_TITLE
        elif self.listing_online:
            title = f"Who is online ({self.people.total or 0})"
            if hidden:
                title += ": you are hidden (the Online list setting)"
        if self.talk_unread and not self.talking:
            title += f" {dot} {unread_words(self.talk_unread)}"
        return title

    def show_title(self, hidden: bool) -> None:
        """The line over the lists, drawn again only when it changed (a count changes as players come and go, in
        every lobby), and laid out again only when either title is too long for one line (else that line alone is
        repainted, not the whole lobby)."""
        title, drawn = self.title(hidden), self._title
        if title == drawn:
            return
        self._title = title
        line = self._title_line
        width = line.content_region.width
        line.update(title, layout=not width or max(cell_len(title), cell_len(drawn)) > width)

    def show(self, matches: tuple[ListedMatch, ...]) -> None:
        """The list asked for in its place (the matches in play, or who is online), or the line saying it is
        empty."""
        matches_list, people = self.matches, self.people
        if self.listing_online:
            people.draw()
        elif not self.talking:
            matches_list.show(matches)
        shown = people if self.listing_online else matches_list
        focused = matches_list.screen.focused
        if focused in (matches_list, people) and focused is not shown:
            shown.focus()
        entries = people.people if self.listing_online else matches
        matches_list.display = not self.listing_online and bool(matches) and not self.talking
        people.display = self.listing_online and bool(people.people) and not self.talking
        none = self._none
        empty = "Nobody else is listed right now." if self.listing_online else "None right now."
        if none.content != empty:  # its update lays out the whole lobby, on every change of who is online
            none.update(empty)
        none.display = not entries and not self.talking
        if self._focus_people_from is not None and (people.display or not self.listing_online):
            if people.display and people.screen.focused is self._focus_people_from[0]:
                people.focus()
            self._focus_people_from = None

    def focus_people(self) -> None:
        """Who is online focused, now if listed, else when the server's word comes (if the focus is still where
        it is now)."""
        if self.people.display:
            self.people.focus()
        else:  # the list comes with the server's word (the player pressed o at once): focused then, if still here
            self._focus_people_from = (self.people.screen.focused,)
