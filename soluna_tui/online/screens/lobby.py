"""The first screen over SSH: play the computer, create a match, join one by code, watch one, quit.

The screen is laid out in panes (``online/panes/``), by the features the server's lobby has:
the menu and the settings beside it (``MenuAndSettings``: what the player wishes, posted for the
app to grant), and under them the lists (``LobbyLists``): the matches in play, or (``o``) who is
online, or the lobby's talk (``C``, opened by the app) while its chat line is open, with the count
of lines come since it was last read. The screen hands each pane what the app's halves tell it,
draws the status line the panes speak through (``LobbyHost``), the lobby's title
(who is online, the challenges to answer: ``c``) and the keys. Match codes of matches in play are
never shown (not even when the secret is asked for): a code is what lets a player back into a held
seat. The "Online list" setting keeps this player out of the list of who is online.
"""

from __future__ import annotations

from collections.abc import Iterator
from typing import ClassVar

from textual import on
from textual.app import ComposeResult, SystemCommand
from textual.binding import Binding, BindingType
from textual.screen import Screen
from textual.widget import Widget
from textual.widgets import Static

from ...compat.textual_internals import retitle
from ...link.messages import ChallengeLine, ComputerOffer, ListedMatch, OnlinePerson
from ...screens.confirm import ConfirmScreen
from ...screens.quiet_focus import QuietFocus
from ...screens.styled_as_mounted import StyledAsMounted
from ...terminal.sizes import NARROW_CLASS
from ...widgets.cached_lines import Panel, Words
from ...widgets.choice import Choice
from ...widgets.key_footer import KeyFooter
from ...widgets.text_lines import wrap
from ..panes.lobby_lists import MATCHES_TITLE, TALK_TITLE, LobbyLists
from ..panes.lobby_menu import QUICK
from ..panes.lobby_pace import ONLINE_EVERY, UNREAD_EVERY, LobbyPace
from ..panes.matches_in_play import MatchesInPlay
from ..panes.menu_and_settings import MenuAndSettings
from ..panes.people_online import PeopleOnline
from .lobby_wish import Challenge, ShowChallenges, ShowSeeks, ShowTournaments
from .seeking import terms_words

__all__ = ["MATCHES_TITLE", "QUICK", "TALK_TITLE", "LobbyScreen"]

#: The status's width in the lobby's box (78 columns less its frame and padding), until it is laid out.
LOBBY_TEXT_WIDTH = 74
#: The status lines that fit under the tallest menu at 80x24 with the welcome shown; a longer status hides the
#: welcome while it shows (styles/lobby.tcss), so that the footer never cuts it.
LONG_STATUS_LINES = 4


class LobbyScreen(QuietFocus, StyledAsMounted, Screen[None]):
    """Where an SSH player starts, and comes back to after each match."""

    BINDINGS: ClassVar[list[BindingType]] = [
        Binding("tab", "app.focus_next", "Next field"),
        Binding("shift+tab", "app.focus_previous", "Previous field", show=False),
        # Up and Down move between the settings and fields as Tab does (the lists keep them for their rows).
        Binding("down", "app.focus_next", "Next field", show=False),
        Binding("up", "app.focus_previous", "Previous field", show=False),
        Binding("escape", "menu", "Menu"),
        # One key, two lists in one place: the one not shown is offered (``check_action``).
        Binding("o", "list_online", "Who is online"),
        Binding("o", "list_matches", "Matches"),
        # Offered while there are challenges to or from this player (counted in the lobby's title).
        Binding("c", "challenges", "Challenges"),
        Binding("b", "browser", "Play in a browser", show=False),
        Binding("t", "tournaments", "Tournaments", show=False),
        Binding("s", "seeks", "Open seeks", show=False),
    ]
    #: The lobby's own keys by name, in the palette too, where a tap reaches them (the footer shows one of them at
    #: most, the menu at 80x24 has no line to spare, and ``s`` was shown nowhere but the help): by action, what it
    #: does; its title and key are its binding's. Each offered while its key is (``check_action``).
    PALETTE: ClassVar[dict[str, str]] = {
        "seeks": "Quick matches waiting for an opponent: accept one on its terms",
        "tournaments": "Each tournament's page, to join one or follow it",
        "challenges": "The challenges to and from you",
        "browser": "A code that signs a browser in as you",
    }

    def __init__(self, player_name: str, *, ascii_mode: bool = False) -> None:
        super().__init__()
        self.ascii_mode = ascii_mode
        #: The panes (kept here: what the app's halves tell them is drawn on every change, and a query walks the
        #: screen), and the talk's panel in the lists' place.
        self.top = MenuAndSettings(self, player_name, ascii_mode=ascii_mode)
        self.settings = self.top.settings
        self.lists = LobbyLists(ascii_mode=ascii_mode)
        self.chat_panel = self.lists.chat_panel
        #: The matches in play, as the server lists them; who is online, as it lists them (and how many it counts:
        #: ``None`` until it has said); the challenges to and from this player.
        self.matches: tuple[ListedMatch, ...] = ()
        self.online: tuple[OnlinePerson, ...] = ()
        self.online_total: int | None = None
        self.challenges: tuple[ChallengeLine, ...] = ()
        #: When the lobby draws what changed (at once, when it shows again, or news at its moments).
        self.pace = LobbyPace(self)
        #: The lobby's title as last drawn.
        self._border = ""

    def compose(self) -> ComposeResult:
        with Panel(id="lobby", classes="dialog"):
            yield Words(self._welcome_text(), id="lobby-welcome", markup=False)
            yield self.top
            # Under the fields it answers (a code's hint, a refusal), where an 80x24 terminal
            # still shows it with the matches list full below.
            yield Words("", id="lobby-status", markup=False)
            yield from self.lists.compose()
        yield KeyFooter()

    def on_mount(self) -> None:
        self._show_titles()
        self.show_matches(self.matches)
        self.show_computer_offer(self.top.computer_offer)
        self.show_welcome(self.top.player_name, self.top.rated, self.top.quick_match, self.top.challenging,
                          self.top.browser_link)
        self.action_menu()

    # ---- attributes down -----------------------------------------------------------------

    def _welcome_text(self) -> str:
        top = self.top
        ways = [*(["find an opponent"] if top.quick_match else []),
                *(["challenge someone online (o)"] if top.challenging else [])]
        if ways:
            text = (f"Welcome, {top.player_name}. Play the computer or someone here: {', '.join(ways)}, or share "
                    "a match's code.")
        else:
            text = (f"Welcome, {top.player_name}. Play the computer, or someone else: one of you creates a match "
                    "and tells the other its four-letter code.")
        if top.rated is False:
            # One line: with a held seat to return to, the lobby must still fit 80x24 with its status line.
            text += "\nYou play as a guest, unrated: an SSH key keeps your name and rating."
        elif top.rated:
            text += f"\nYou play rated, as {top.player_name}: your SSH key keeps this name and your rating."
        return text

    def show_welcome(self, name: str, rated: bool | None, quick_match: bool, challenges: bool,
                     browser_link: bool) -> None:
        """Who the server says this player is (the name shown to others; whether they are rated, ``None`` from a
        server that does not say) and what it offers: pairing players ("Find me an opponent"), passing challenges
        on, signing a browser in as this player ("Play in a browser", ``b``)."""
        top = self.top
        top.player_name, top.rated = name, rated
        top.quick_match, top.challenging, top.browser_link = quick_match, challenges, browser_link
        if self.composed:
            self.query_one("#lobby-welcome", Static).update(self._welcome_text())
        self.settings.show_services(rated, quick_match, challenges)
        top.update_menu()
        self.refresh_bindings()

    @property
    def composed(self) -> bool:
        """Whether the widgets exist. Not ``is_mounted``: that is still False in ``on_mount``, so the
        first listing (which arrives as the session starts) was kept and never drawn. Its children, not a
        query: this is asked on every change of who is online, and a query walks the whole screen."""
        return bool(self.children)

    @property
    def in_view(self) -> bool:
        """Whether the lobby shows: in front, or under dialogs that let it show through (not under a match)."""
        for screen in reversed(self.app.screen_stack):
            if screen is self:
                return True
            if screen.styles.background.a == 1:
                return False
        return False

    def on_screen_resume(self) -> None:
        self.pace.shown_again()

    def show_matches(self, matches: tuple[ListedMatch, ...]) -> None:
        """The matches in play, as the server lists them."""
        self.matches = self.top.matches = matches
        self.pace.draw(self._draw_matches)

    def _draw_matches(self) -> None:
        if not self.lists.listing_online and not self.lists.talking:  # else hidden: only the menu may change
            self.lists.show(self.matches)
        self.top.update_menu()

    def show_computer_offer(self, offer: ComputerOffer | None) -> None:
        """A match against the computer kept for this player: first in the menu, until it is resumed."""
        self.top.computer_offer = offer
        self.pace.draw(self.top.update_menu)

    def show_online(self, people: tuple[OnlinePerson, ...], total: int, you: int | None, news: bool = False) -> None:
        """Who is online, as the server lists them (``total`` counted in all; ``you``, this player's number):
        drawn if listed here, else when the player asks for them; ``news``, a change: at its moment."""
        self.online, self.online_total = people, total
        self.lists.people.show_people(people, total, you)
        if news:
            self.pace.draw_news(self._draw_online, ONLINE_EVERY)
        else:
            self.pace.draw(self._draw_online)

    def _draw_online(self) -> None:
        self._show_titles()
        if self.lists.listing_online:
            self.lists.show(self.matches)

    def show_challenges(self, challenges: tuple[ChallengeLine, ...]) -> None:
        """The challenges to and from this player: counted in the lobby's title, and ``c`` lists them."""
        self.challenges = challenges
        self.pace.draw(self._show_titles)
        self.refresh_bindings()

    def show_talk(self, talking: bool) -> None:
        """Table talk (its panel, opened by the app) in the lists' place, or (``False``) the list again."""
        self.lists.talking = talking
        self.query_one("#lobby").set_class(talking, "-talking")  # the welcome makes way for the talk's lines
        self._show_titles()
        self.lists.show(self.matches)

    def show_talk_unread(self, count: int) -> None:
        """How many lines of the lobby's talk came since it was last read (said over the lists, at the lobby's
        moments for it: see ``lobby_pace``)."""
        self.lists.talk_unread = count
        self.pace.draw_news(self._show_titles, UNREAD_EVERY)

    def _show_titles(self) -> None:
        """How many are online, and the challenges, in the lobby's title (drawn again only when it changed: the
        border's top line, not the whole lobby); the list's title under it."""
        counted = self.online_total
        dot = "-" if self.ascii_mode else "·"
        border = "Soluna" if counted is None else f"Soluna {dot} {counted} online"
        if self.challenges:
            waiting = len(self.challenges)
            border += f" {dot} {waiting} challenge{'s' * (waiting > 1)} (c)"
        if border != self._border:
            retitle(self.query_one("#lobby"), border)
            self._border = border
        self.lists.show_title(self.lists.listing_online and self.settings.value("hidden"))

    @on(Choice.Changed, "#hidden")
    def _hidden_changed(self) -> None:
        """The Online list setting: said in the title of who is online."""
        if self.composed:
            self._show_titles()

    # ---- the status line -------------------------------------------------------------------

    def match_begun(self) -> None:
        """The player is in a match now (joined, watching, resumed): the status, the code and the secret are done."""
        self.top.match_begun()

    def say(self, text: str, kind: str = "info") -> None:
        status = self.query_one("#lobby-status", Static)
        status.update(text)
        status.set_class(kind == "error", "-error")
        # A status of more lines than the list's room under the menu at 80x24: the welcome makes way for it.
        width = status.content_size.width or LOBBY_TEXT_WIDTH
        self.query_one("#lobby").set_class(len(wrap(text, width, LONG_STATUS_LINES + 1, "")) > LONG_STATUS_LINES,
                                           "-long-status")
        if self.app.has_class(NARROW_CLASS):  # a phone's lobby scrolls: the answer is brought into view
            self.call_after_refresh(self._show_status)

    def _show_status(self) -> None:
        """The field in hand in view, then the status (under the settings): where both cannot show, the status."""
        if self.focused is not None:
            self.focused.scroll_visible(animate=False, immediate=True)
        self.query_one("#lobby-status").scroll_visible(animate=False, immediate=True)

    # ---- the player's keys and choices -----------------------------------------------------

    def check_action(self, action: str, parameters: tuple[object, ...]) -> bool | None:
        if action == "list_online":
            return not self.lists.listing_online
        if action == "list_matches":
            return self.lists.listing_online
        if action == "challenges":
            return bool(self.challenges)
        if action == "browser":
            return self.top.browser_link
        if action == "seeks":  # the board is of quick matches: where the server pairs players
            return self.top.quick_match
        return True

    def palette_commands(self) -> Iterator[SystemCommand]:
        """The lobby's commands for the palette (``PALETTE``), those its keys offer now."""
        bindings = {binding.action: binding for binding in self.BINDINGS if isinstance(binding, Binding)}
        for action, help_text in self.PALETTE.items():
            if self.check_action(action, ()):
                binding = bindings[action]
                yield SystemCommand(binding.description, f"{help_text} ({binding.key})",
                                    getattr(self, f"action_{action}"))

    def action_menu(self) -> None:
        self.top.menu.focus()

    def set_focus(self, widget: Widget | None, scroll_visible: bool = True, from_app_focus: bool = False) -> None:
        """The focus moved by a key (Tab, the arrows, Escape): on a phone, whose lobby scrolls, a widget it cannot
        show whole is centred as Textual centres it, but at once and measured once laid out. Textual's own slides
        there, measured when the focus moves: as the lobby opened, before the server's clocks lengthened a
        setting, that scrolled the lobby a line away under a finger about to tap. (A tap focuses without
        scrolling.)"""
        moved = widget is not self.focused
        super().set_focus(widget, scroll_visible=False, from_app_focus=from_app_focus)
        # Not the first focus, as the lobby is built: it opens at its top, the welcome shown.
        if moved and scroll_visible and widget is not None and self.focused is widget and self.is_mounted:
            self.call_after_refresh(self._show_focused, widget)

    def _show_focused(self, widget: Widget) -> None:
        """``widget``, still focused, centred where the lobby cannot show it whole (its top kept in view)."""
        if self.focused is widget and widget.is_attached and not self.can_view_entire(widget):
            self.scroll_to_center(widget, animate=False, origin_visible=True, immediate=True)

    def action_list_online(self) -> None:
        """Who is online, in the matches' place, the list focused: arrows choose someone, Enter challenges them."""
        self._list_online(True)
        self.lists.focus_people()

    def action_list_matches(self) -> None:
        self._list_online(False)
        matches = self.lists.matches
        if self.focused is matches and not matches.display:  # no match in play to choose: the menu again
            self.action_menu()

    def _list_online(self, online: bool) -> None:
        self.lists.listing_online = online
        self._show_titles()
        self.lists.show(self.matches)
        self.refresh_bindings()

    def action_challenges(self) -> None:
        self.post_message(ShowChallenges())

    def action_tournaments(self) -> None:
        self.post_message(ShowTournaments())

    def action_seeks(self) -> None:
        self.post_message(ShowSeeks())

    def action_browser(self) -> None:
        self.top.show_browsers()

    def watch_from_list(self) -> None:
        """Watch a match, with no code typed: the matches in play to choose from, focused."""
        if self.lists.listing_online:
            self._list_online(False)
        self.lists.matches.focus()

    @on(MatchesInPlay.Chosen)
    def _match_chosen(self, event: MatchesInPlay.Chosen) -> None:
        self.top.take_seat_or_watch(event.entry)

    @on(PeopleOnline.Chosen)
    def _person_chosen(self, event: PeopleOnline.Chosen) -> None:
        """Enter on someone online: challenge them, on the terms the settings say (asked first)."""
        person = event.person
        if event.yourself:
            self.say("That is you: choose someone else to challenge.")
        elif not self.top.challenging:
            self.say("This server passes no challenges on: create a match and give its code instead.")
        else:
            terms = self.settings.terms(self.top.rated)

            def challenge(sure: bool | None) -> None:
                if sure:
                    self.say(f"Challenging {person.name}...")
                    self.post_message(Challenge(person.id, person.name, terms))

            self.app.push_screen(ConfirmScreen(f"Challenge {person.name} to a match: {terms_words(terms)}?",
                                               "Challenge", "Not now", title="Challenge"), challenge)
