"""The first screen over SSH: play the computer, create a match, join one by code, watch one, quit.

The screen only gathers the player's choice and reports it with a message; the
app (which talks to the server) acts on it. Under the settings, the matches in play,
or (``o``) who is online: the people the server lists, drawn from the list the app
keeps (``show_online``), their count in the lobby's title. The "Online list"
setting keeps this player out of it. Match codes of matches in play are
never shown (not even when the secret is asked for): a code is what lets a player
back into a held seat. A held seat of this player's, or a match against the
computer kept for them, is offered here; coming back without the same key takes
the secret the game showed them. A match may be created with one of the clocks
the server offers (``show_clocks``). Table talk (``C``, opened by the app) takes
the lists' place while its chat line is open (``show_talk``); closed, the list's
title counts the lines come since (``show_talk_unread``).
"""

from __future__ import annotations

import random
import re
import time
from collections.abc import Callable, Sequence
from typing import Any, ClassVar

from rich.cells import cell_len
from textual import on
from textual.app import ComposeResult
from textual.binding import Binding, BindingType
from textual.screen import Screen
from textual.timer import Timer
from textual.widget import Widget
from textual.widgets import Input, Label, OptionList, Static
from textual.widgets.option_list import Option

from ...compat.textual_internals import retitle
from ...link.messages import ChallengeLine, ComputerOffer, ListedMatch, LobbyChoices, MatchTerms, OnlinePerson
from ...local.match_setup import MatchSetup
from ...rules import MAX_DISCS, MIN_DISCS, MatchOptions
from ...rules.clock import ClockSetting
from ...rules.match import DEFAULT_STARS, MAX_STARS, MIN_STARS
from ...rules.strengths import CALIBRATED_DISCS, FIRST_MATCHED, STRENGTHS, level_words
from ...screens.confirm import ConfirmScreen
from ...screens.quiet_focus import QuietFocus
from ...terminal.sizes import NARROW_CLASS
from ...widgets.cached_lines import Column, Panel, Row, Words
from ...widgets.chat_panel import ChatPanel
from ...widgets.choice import Choice
from ...widgets.key_footer import KeyFooter
from ...widgets.menu import Menu
from ...widgets.people_list import PeopleList
from ...widgets.text_lines import wrap
from .browsers import ShowBrowsers
from .lobby_wish import LobbyWish
from .seeking import terms_words

CODE_PATTERN = re.compile(r"[A-Z]{4}")
#: The status's width in the lobby's box (78 columns less its frame and padding), until it is laid out.
LOBBY_TEXT_WIDTH = 74
#: The status lines that fit under the tallest menu at 80x24 with the welcome shown; a longer status hides the
#: welcome while it shows (styles/lobby.tcss), so that the footer never cuts it.
LONG_STATUS_LINES = 4
RESUME = ("resume", "Resume computer match")
RETURN = ("return", "Return to your match")
#: Offered to a player with a key (rated), whose name is kept with it.
NAME = ("name", "Choose your name")
#: Offered where the server pairs players (``Welcome.quick_match``).
QUICK = ("quick", "Find me an opponent")
#: Offered to a player with a key over SSH where the server has a web door (``Welcome.browser_link``).
BROWSER = ("browser", "Play in a browser")
MENU = (
    ("computer", "Play the computer"),
    ("create", "Create a match"),
    ("join", "Join a match by code"),
    ("watch", "Watch a match"),
    ("leaderboard", "Leaderboard"),
    ("record", "Your record"),
    ("quit", "Quit"),
)
RULES = [("box (loser chooses)", "box"), ("online (loser opens)", "online")]
NO_CLOCK: tuple[str, ClockSetting | None] = ("none", None)
#: The settings, as their widgets' ids and ``LobbyChoices``' fields both say them.
SETTINGS = ("level", "rules", "stars", "discs", "opener", "hints", "clock", "hidden", "rated", "refuse_challenges")
MATCHES_TITLE = "Matches in play"
TALK_TITLE = "Talk in the lobby"
#: Seconds the settings stay as they are before they are told (holding a key down sends nothing).
CHOICES_SETTLE_SECONDS = 1.0
#: Seconds between the moments at which a lobby draws its news (changes of who is online, others' lines of talk):
#: each lobby has moments of its own, at a phase it chooses at random, and draws what came since the last one.
#: Every lobby hears a change in the same instant, and fifty of them drawing it then (or within a short spread
#: after it, which the next changes kept them to) held the moves of the matches in play behind them.
NEWS_EVERY = 1.0


def unread_words(count: int) -> str:
    """The lobby's talk not read yet, as its title says it."""
    return f"{count} new line{'s' if count != 1 else ''} of talk (C reads)"


def clock_values(clocks: Sequence[ClockSetting]) -> list[tuple[str, ClockSetting | None]]:
    """The clock choice: none, then each clock the server offers (``3 min + 2 s a move``)."""
    return [NO_CLOCK, *((clock.brief, clock) for clock in clocks)]


def describe(entry: ListedMatch) -> str:
    """One line about a match in play: who, which round, the stars, who watches, who is away
    (or, where this player's own seat is held, that Enter takes it back)."""
    players, stars = entry.players, entry.stars
    if entry.yours:
        return (f"Your seat: {players[0]} vs {players[1]}, round {entry.round}, "
                f"stars {stars[0]}-{stars[1]} (Enter returns)")
    text = f"{players[0]} vs {players[1]}: round {entry.round}, stars {stars[0]}-{stars[1]}"
    watchers = entry.watchers
    if watchers:
        text += f", {watchers} watching"
    away = [name for name, gone in zip(players, entry.away, strict=True) if gone]
    if away:
        text += f" ({' and '.join(away)} away)"
    return text


def describe_computer_match(offer: ComputerOffer) -> str:
    stars = offer.stars
    return (f"your match against the computer at {level_words(offer.level)}: round {offer.round}, "
            f"stars {stars[0]}-{stars[1]}")


class LobbyScreen(QuietFocus, Screen[None]):
    """Where an SSH player starts, and comes back to after each match."""

    #: How news from others is paced (``NEWS_EVERY``).
    news_every: ClassVar[float] = NEWS_EVERY

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
    ]

    class PlayComputer(LobbyWish):
        def __init__(self, setup: MatchSetup) -> None:
            super().__init__()
            self.setup = setup

    class CreateMatch(LobbyWish):
        def __init__(self, options: MatchOptions, hints: bool, clock: ClockSetting | None = None) -> None:
            super().__init__()
            self.options = options
            self.hints = hints
            self.clock = clock

    class JoinMatch(LobbyWish):
        """Join by code; ``secret`` proves a returning player without their key."""

        def __init__(self, code: str, hints: bool, secret: str | None = None) -> None:
            super().__init__()
            self.code = code
            self.hints = hints
            self.secret = secret

    class ResumeComputer(LobbyWish):
        def __init__(self, secret: str | None = None) -> None:
            super().__init__()
            self.secret = secret

    class WatchMatch(LobbyWish):
        def __init__(self, code: str) -> None:
            super().__init__()
            self.code = code

    class ShowLeaderboard(LobbyWish):
        """The player asked for the leaderboard."""

    class ShowRecord(LobbyWish):
        """The player asked for their record."""

    class ChooseName(LobbyWish):
        """A player with a key asked to choose the name kept with it."""

    class QuickMatch(LobbyWish):
        """Find me an opponent on these terms."""

        def __init__(self, terms: MatchTerms) -> None:
            super().__init__()
            self.terms = terms

    class Challenge(LobbyWish):
        """Challenge someone in the list of who is online (by the number the server tells them by)."""

        def __init__(self, person: int, name: str, terms: MatchTerms) -> None:
            super().__init__()
            self.person, self.name, self.terms = person, name, terms

    class ShowChallenges(LobbyWish):
        """The player asked for their challenges."""

    class ChoicesChanged(LobbyWish):
        """The settings changed and then stayed so a moment (or a menu item was chosen with them)."""

        def __init__(self, choices: LobbyChoices) -> None:
            super().__init__()
            self.choices = choices

    def __init__(self, player_name: str, *, ascii_mode: bool = False) -> None:
        super().__init__()
        self.player_name = player_name
        #: Whether this player is rated (came with a key); ``None`` until the server has said.
        self.rated: bool | None = None
        self.ascii_mode = ascii_mode
        self.matches: tuple[ListedMatch, ...] = ()
        #: The clocks the server offers for a two-player match.
        self.clocks: tuple[ClockSetting, ...] = ()
        #: The match against the computer the server keeps for this player, if any.
        self.computer_offer: ComputerOffer | None = None
        #: What the secret field is for: a match code, or ``RESUME`` (the computer match); ``None`` when hidden.
        self._secret_for: str | None = None
        #: The code typed in the code field was just asked for (a join or a watch): a refusal goes back to it.
        self._code_asked = False
        #: The settings as last told (``ChoicesChanged``) or set from the server, and those waiting to be set.
        self._choices_told: LobbyChoices | None = None
        self._choices_to_show: LobbyChoices | None = None
        #: Whether ``on_mount`` has run: every widget is there.
        self._ready = False
        self._settle: Timer | None = None
        #: When a setting last changed (``time.monotonic()``).
        self._changed_at = 0.0
        #: Who is online, as the server last said (the app keeps the list): the people, how many the server
        #: counts, and which is this player; and whether they are listed here instead of the matches.
        self.online: tuple[OnlinePerson, ...] = ()
        self.online_total: int | None = None  # until the server has said
        self.you: int | None = None
        self.listing_online = False
        #: Table talk shown in the lists' place (its chat line open), and its lines come since it was last read.
        #: The panel is kept here: the talk draws into it on every line heard, and a query walks the screen.
        self.chat_panel = ChatPanel(shown_with_lines=False, id="lobby-chat")
        self.talking = False
        self.talk_unread = 0
        #: The lobby's title and the list's, as last drawn.
        self._titles: tuple[str, str] = ("", MATCHES_TITLE)
        #: Where the focus was when the player asked for who is online before the server had said: the list takes
        #: the focus when it comes, if it is still there.
        self._focus_people_from: tuple[Widget | None] | None = None
        #: The matches in play as their list last drew them.
        self._matches_drawn: tuple[str, ...] = ()
        #: What changed while the lobby was out of view (under a match), drawn when it shows again.
        self._undrawn: dict[str, Callable[[], None]] = {}
        #: The news to draw at this lobby's next moment (``NEWS_EVERY``), its timer, and the moments' phase.
        self._news: dict[str, Callable[[], None]] = {}
        self._news_timer: Timer | None = None
        self._news_phase = random.uniform(0, self.news_every)
        #: Whether the server pairs players and passes challenges on; the challenges to and from this player.
        self.quick_match = self.challenging = False
        self.challenges: tuple[ChallengeLine, ...] = ()
        #: Whether this player may sign a browser in as themselves ("Play in a browser").
        self.browser_link = False

    def _choice(self, label: str, values: Sequence[tuple[str, Any]], value: Any, id: str) -> Choice:
        return Choice(label, values, value, ascii_mode=self.ascii_mode, label_width=16, id=id)

    def compose(self) -> ComposeResult:
        with Panel(id="lobby", classes="dialog"):
            yield Words(self._welcome_text(), id="lobby-welcome", markup=False)
            with Row(id="lobby-top"):
                yield Menu(*(Option(text, id=key) for key, text in MENU), id="lobby-menu")
                with Column(id="lobby-settings"):
                    yield self._choice("Computer level", [(strength.rated, strength.level) for strength in STRENGTHS],
                                       FIRST_MATCHED.level, "level")
                    yield self._choice("Rules", RULES, "box", "rules")
                    yield self._choice("Stars to win", [(str(n), n) for n in range(MIN_STARS, MAX_STARS + 1)],
                                       DEFAULT_STARS, "stars")
                    yield self._choice("Discs", [(str(n), n) for n in range(MIN_DISCS, MAX_DISCS + 1)], 12, "discs")
                    yield self._choice("Opens round 1", [("me", 0), ("the other player", 1)], 0, "opener")
                    yield self._choice("Hints", [("off (both must allow)", False), ("allowed", True)], False,
                                       "hints")
                    yield self._choice("Clock", clock_values(self.clocks), None, "clock")
                    yield self._choice("Online list", [("show me", False), ("hide me", True)], False, "hidden")
                    yield self._choice("Rated", [("yes (players with keys)", True), ("no", False)], True, "rated")
                    yield self._choice("Challenges", [("welcome", False), ("refuse all", True)], False,
                                       "refuse_challenges")
                    # Beside the menu, not under it: the tallest menu still leaves the matches in view at 80x24.
                    with Row(classes="form-row", id="lobby-code-row"):
                        yield Label("Match code", classes="form-label")
                        yield Input(placeholder="four letters, then Enter", max_length=4, restrict=r"[A-Za-z]*",
                                    compact=True, id="code")
                    with Row(classes="form-row", id="lobby-secret-row"):
                        yield Label("Your secret", classes="form-label")
                        yield Input(placeholder="six letters, then Enter", max_length=9, restrict=r"[A-Za-z -]*",
                                    compact=True, id="secret")
            # Under the fields it answers (a code's hint, a refusal), where an 80x24 terminal
            # still shows it with the matches list full below.
            yield Words("", id="lobby-status", markup=False)
            yield Words(MATCHES_TITLE, id="lobby-matches-title", markup=False)
            yield Menu(id="lobby-matches")
            yield PeopleList(ascii_mode=self.ascii_mode, id="lobby-online")
            yield self.chat_panel  # table talk (C), in the lists' place
            yield Words("", id="lobby-none", markup=False)
        yield KeyFooter()

    def on_mount(self) -> None:
        self._ready = True
        self.query_one("#lobby-secret-row").display = False
        self._show_titles()
        self.show_matches(self.matches)
        self.show_computer_offer(self.computer_offer)
        self._offer_clocks()
        self.show_services(self.quick_match, self.challenging)
        if self._choices_to_show is not None:
            self.show_choices(self._choices_to_show)
        self.action_menu()

    # ---- attributes down -----------------------------------------------------------------

    def _welcome_text(self) -> str:
        ways = [*(["find an opponent"] if self.quick_match else []),
                *(["challenge someone online (o)"] if self.challenging else [])]
        if ways:
            text = (f"Welcome, {self.player_name}. Play the computer or someone here: {', '.join(ways)}, or share "
                    "a match's code.")
        else:
            text = (f"Welcome, {self.player_name}. Play the computer, or someone else: one of you creates a match "
                    "and tells the other its four-letter code.")
        if self.rated is False:
            # One line: with a held seat to return to, the lobby must still fit 80x24 with its status line.
            text += "\nYou play as a guest, unrated: an SSH key keeps your name and rating."
        elif self.rated:
            text += f"\nYou play rated, as {self.player_name}: your SSH key keeps this name and your rating."
        return text

    def show_player(self, name: str, rated: bool | None) -> None:
        """Who the server says this player is: the name shown to others, and whether they are rated
        (``None``: a server that does not say)."""
        self.player_name, self.rated = name, rated
        if self.composed:
            self.query_one("#lobby-welcome", Static).update(self._welcome_text())
            self._update_menu()

    def show_clocks(self, clocks: tuple[ClockSetting, ...]) -> None:
        """The clocks this server offers a two-player match (none: the setting offers no clock only)."""
        self.clocks = clocks
        self._offer_clocks()

    def _offer_clocks(self) -> None:
        """The clock setting offers ``clocks`` (once it is mounted: the server's word may come first)."""
        for choice in self.query("#clock").results(Choice):
            if choice.values != clock_values(self.clocks):
                choice.relabel(clock_values(self.clocks))

    def show_choices(self, choices: LobbyChoices) -> None:
        """The settings as this player last left them (the server keeps them with a key): each one this
        lobby still offers (a clock this server no longer offers stays as it is)."""
        if not self._ready:  # not ``composed``: the settings, deeper down, may still be on their way
            self._choices_to_show = choices
            return
        self._choices_to_show = None
        for setting in SETTINGS:
            choice = self.query_one(f"#{setting}", Choice)
            value = getattr(choices, setting)
            if any(offered == value for _, offered in choice.values):
                choice.value = value
        self._choices_told = self.choices()

    def choices(self) -> LobbyChoices:
        """The settings as they stand."""
        return LobbyChoices(**{setting: self._value(setting) for setting in SETTINGS})

    @on(Choice.Changed)
    def _choice_changed(self, event: Choice.Changed) -> None:
        """Told once they stay as they are a moment: a key held down sends nothing meanwhile. A key notes
        the time only (a timer made and stopped on every key cost a setting key 3 ms); the one timer waits on."""
        if event.control.id == "hidden" and self._ready:
            self._show_titles()
        self._changed_at = time.monotonic()
        if self._settle is None:
            self._settle = self.set_timer(CHOICES_SETTLE_SECONDS, self._settled)

    def _settled(self) -> None:
        """The timer is up: tell the settings, unless a key came since it started (then wait the rest)."""
        self._settle = None
        waited = time.monotonic() - self._changed_at
        if waited < CHOICES_SETTLE_SECONDS:
            self._settle = self.set_timer(CHOICES_SETTLE_SECONDS - waited, self._settled)
            return
        self._tell_choices()

    def _tell_choices(self) -> None:
        if self._settle is not None:
            self._settle.stop()
            self._settle = None
        choices = self.choices()
        if choices != self._choices_told:
            self._choices_told = choices
            self.post_message(self.ChoicesChanged(choices))

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

    def _draw(self, part: Callable[[], None]) -> None:
        """Draw ``part`` of the lobby now if it shows, else when it shows again. Textual passes what changes on
        the screen under the one in front to that one, which then repaints whole: news of the lobby (who is
        online, the matches in play) repainted each player's match screen."""
        if not self.composed:
            return
        if self.in_view:
            part()
        else:
            self._undrawn[part.__name__] = part

    def draw_news(self, part: Callable[[], None]) -> None:
        """Draw ``part`` of the lobby, news from others, at this lobby's next moment (``NEWS_EVERY``)."""
        if not self.composed:
            return
        self._news[part.__name__] = part
        if self._news_timer is None:
            wait = (self._news_phase - time.monotonic()) % self.news_every
            self._news_timer = self.set_timer(wait, self._draw_the_news)

    def _draw_the_news(self) -> None:
        self._news_timer = None
        news, self._news = self._news, {}
        for part in news.values():
            self._draw(part)

    def on_screen_resume(self) -> None:
        undrawn, self._undrawn = self._undrawn, {}
        for part in undrawn.values():
            part()

    def show_matches(self, matches: tuple[ListedMatch, ...]) -> None:
        """The matches in play, as the server lists them."""
        self.matches = matches
        self._draw(self._draw_matches)

    def _draw_matches(self) -> None:
        if not self.listing_online and not self.talking:  # else their list is hidden: only the menu may change
            self._show_list()
        self._update_menu()

    def _fill_matches(self, listing: Menu) -> None:
        """The matches in play in their list, when it shows (the list changed behind who is online or the talk
        laid the lobby out again all the same), and only if what it says has changed."""
        lines = tuple(describe(entry) for entry in self.matches)
        if lines == self._matches_drawn:
            return
        self._matches_drawn = lines
        highlighted = listing.highlighted
        listing.fit_height(len(lines))
        listing.set_options(lines)
        if lines:
            listing.highlighted = min(highlighted or 0, len(lines) - 1)

    def show_online(self, people: tuple[OnlinePerson, ...], total: int, you: int | None, news: bool = False) -> None:
        """Who is online, as the server lists them (``total`` counted in all; ``you``, this player's number):
        drawn if listed here, else when the player asks for them; ``news``, a change: at its moment."""
        self.online, self.online_total, self.you = people, total, you
        (self.draw_news if news else self._draw)(self._draw_online)

    def _draw_online(self) -> None:
        self._show_titles()
        if self.listing_online:
            self._show_list()

    def _show_titles(self) -> None:
        """How many are online, in the lobby's title and over their list (and whether this player hides)."""
        counted = self.online_total
        dot = "-" if self.ascii_mode else "·"
        border = "Soluna" if counted is None else f"Soluna {dot} {counted} online"
        if self.challenges:
            waiting = len(self.challenges)
            border += f" {dot} {waiting} challenge{'s' * (waiting > 1)} (c)"
        title = MATCHES_TITLE
        if self.talking:
            title = TALK_TITLE
        elif self.listing_online:
            title = f"Who is online ({counted or 0})"
            if self._value("hidden"):
                title += ": you are hidden (the Online list setting)"
        if self.talk_unread and not self.talking:
            title += f" {dot} {unread_words(self.talk_unread)}"
        # Each drawn again only when it changed: a count changes as players come and go, in every lobby.
        drawn_border, drawn_title = self._titles
        if border != drawn_border:
            retitle(self.query_one("#lobby"), border)  # the border's top line, not the whole lobby
        if title != drawn_title:
            self._retitle_list(title, drawn_title)
        self._titles = border, title

    def _retitle_list(self, title: str, drawn: str) -> None:
        """The line over the lists: laid out again only when either title is too long for one line (a count
        that changes as players come and go otherwise repaints that line alone, not the whole lobby)."""
        line = self.query_one("#lobby-matches-title", Static)
        width = line.content_region.width
        line.update(title, layout=not width or max(cell_len(title), cell_len(drawn)) > width)

    def _show_list(self) -> None:
        """The list asked for in its place (the matches in play, or who is online), or the line saying it is
        empty: not an empty line, at 80x24 every line of the list counts."""
        matches = self.query_one("#lobby-matches", Menu)
        people = self.query_one("#lobby-online", PeopleList)
        if self.listing_online:
            people.show(self.online, self.you)
        elif not self.talking:
            self._fill_matches(matches)
        shown = people if self.listing_online else matches
        if self.focused in (matches, people) and self.focused is not shown:
            shown.focus()
        entries = self.online if self.listing_online else self.matches
        matches.display = not self.listing_online and bool(self.matches) and not self.talking
        people.display = self.listing_online and bool(self.online) and not self.talking
        none = self.query_one("#lobby-none", Static)
        empty = "Nobody else is listed right now." if self.listing_online else "None right now."
        if none.content != empty:  # its update lays out the whole lobby, on every change of who is online
            none.update(empty)
        none.display = not entries and not self.talking
        if self._focus_people_from is not None and (people.display or not self.listing_online):
            if people.display and self.focused is self._focus_people_from[0]:
                people.focus()
            self._focus_people_from = None

    def show_talk(self, talking: bool) -> None:
        """Table talk (its panel, opened by the app) in the lists' place, or (``False``) the list again."""
        self.talking = talking
        self._show_titles()
        self._show_list()

    def show_talk_unread(self, count: int) -> None:
        """How many lines of the lobby's talk came since it was last read (said over the lists)."""
        self.talk_unread = count
        self.draw_news(self._show_titles)

    def action_list_online(self) -> None:
        """Who is online, in the matches' place, the list focused: arrows choose someone, Enter challenges them."""
        self._list_online(True)
        people = self.query_one("#lobby-online", PeopleList)
        if people.display:
            people.focus()
        else:  # the list comes with the server's word (the player pressed o at once): focused then, if still here
            self._focus_people_from = (self.focused,)

    def action_list_matches(self) -> None:
        self._list_online(False)
        matches = self.query_one("#lobby-matches", OptionList)
        if self.focused is matches and not matches.display:  # no match in play to choose: the menu again
            self.action_menu()

    def _list_online(self, online: bool) -> None:
        self.listing_online = online
        self._show_titles()
        self._show_list()
        self.refresh_bindings()

    def check_action(self, action: str, parameters: tuple[object, ...]) -> bool | None:
        if action == "list_online":
            return not self.listing_online
        if action == "list_matches":
            return self.listing_online
        if action == "challenges":
            return bool(self.challenges)
        if action == "browser":
            return self.browser_link
        return True

    def show_computer_offer(self, offer: ComputerOffer | None) -> None:
        """A match against the computer kept for this player: first in the menu, until it is resumed."""
        self.computer_offer = offer
        self._draw(self._update_menu)

    @property
    def held_seat(self) -> ListedMatch | None:
        """The first match in play where this player's seat is held for them."""
        return next((entry for entry in self.matches if entry.yours), None)

    def _update_menu(self) -> None:
        """The menu, with a match to come back to (a held seat, a computer match) first."""
        if not self.composed:
            return
        entries = (((RETURN,) if self.held_seat is not None else ())
                   + ((RESUME,) if self.computer_offer is not None else ()) + MENU[:-1]
                   + ((NAME,) if self.rated else ()) + ((BROWSER,) if self.browser_link else ())
                   + ((QUICK,) if self.quick_match else ()) + MENU[-1:])
        menu = self.query_one("#lobby-menu", Menu)
        keys = [key for key, _ in entries]
        shown = [menu.get_option_at_index(index).id for index in range(menu.option_count)]
        if shown == keys:
            return
        highlighted = shown[menu.highlighted] if menu.highlighted is not None else None
        menu.clear_options()
        menu.add_options([Option(text, id=key) for key, text in entries])
        # A match to come back to, new in the menu, is most likely what the player came for: it is highlighted. Any
        # other entry coming (the server's word on quick matches, a name to choose) leaves the highlight where it was:
        # a key pressed meanwhile still chooses what the player saw.
        comeback = bool({RETURN[0], RESUME[0]} & (set(keys) - set(shown)))
        menu.highlighted = 0 if comeback or highlighted not in keys else keys.index(highlighted)

    def ask_secret(self, code: str | None) -> None:
        """The server wants proof of who is coming back (no key, or another one): show the secret field."""
        self._secret_for = code or RESUME[0]
        row = self.query_one("#lobby-secret-row")
        row.display = True
        field = self.query_one("#secret", Input)
        field.value = ""
        field.focus()
        what = "your seat" if code else "your match against the computer"
        self.say(f"To take back {what}, type the secret that was shown beside the board "
                 "while you played, then Enter.")

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

    def refused(self, text: str) -> None:
        """The server could not do what was asked from here: why, and, for a code typed, the code field
        again with the code selected, so that typing replaces it."""
        self.say(text, "error")
        if self._code_asked:
            self._code_asked = False
            field = self.query_one("#code", Input)
            field.focus()
            field.select_all()

    def match_begun(self) -> None:
        """The player is in a match now (joined, watching, resumed): the code and the secret are used up."""
        self._code_asked = False
        self.say("")
        self.forget_secret()
        if self.composed:
            self.query_one("#code", Input).value = ""

    # ---- what the player chose -----------------------------------------------------------

    def _value(self, widget_id: str) -> Any:
        return self.query_one(f"#{widget_id}", Choice).value

    def options(self) -> MatchOptions:
        return MatchOptions.preset(self._value("rules"), stars_to_win=self._value("stars"),
                                   discs=self._value("discs"), first_opener=self._value("opener"))

    def computer_setup(self) -> MatchSetup:
        """A match against the computer as the settings say. A guest's has hints (as on this terminal); a keyed
        player's follows the Hints setting, and with hints off on 12 discs it is rated against the level's rating
        (no hints, no take-backs)."""
        options = self.options()
        hints = not self.rated or self._value("hints")
        rated = not hints and options.discs == CALIBRATED_DISCS
        return MatchSetup.against_computer(self._value("level"), options, name=self.player_name, hints=hints,
                                           review=hints, rated=rated)

    def terms(self) -> MatchTerms:
        """A quick match's or a challenge's terms, as the settings say (a guest's are never rated)."""
        return MatchTerms(self.options().to_dict(), self._value("clock"), bool(self.rated and self._value("rated")),
                          self._value("hints"))

    def show_services(self, quick_match: bool, challenges: bool) -> None:
        """Whether the server pairs players ("Find me an opponent") and passes challenges on."""
        self.quick_match, self.challenging = quick_match, challenges
        if self.composed:
            self.query_one("#lobby-welcome", Static).update(self._welcome_text())
        if self._ready:
            self.query_one("#rated").display = bool(self.rated) and (quick_match or challenges)
            self.query_one("#refuse_challenges").display = challenges
        self._update_menu()

    def show_challenges(self, challenges: tuple[ChallengeLine, ...]) -> None:
        """The challenges to and from this player: counted in the lobby's title, and ``c`` lists them."""
        self.challenges = challenges
        self._draw(self._show_titles)
        self.refresh_bindings()

    def action_challenges(self) -> None:
        self.post_message(self.ShowChallenges())

    def show_browser_link(self, offered: bool) -> None:
        """Whether "Play in a browser" is offered (``b``, and the menu)."""
        self.browser_link = offered
        self._update_menu()
        self.refresh_bindings()

    def action_browser(self) -> None:
        self._tell_choices()  # a browser signed in now finds the settings as they are
        self.post_message(ShowBrowsers())

    @on(OptionList.OptionSelected, "#lobby-online")
    def _person_chosen(self, event: OptionList.OptionSelected) -> None:
        """Enter on someone online: challenge them, on the terms the settings say (asked first)."""
        if event.option_index >= len(self.online):
            return
        person = self.online[event.option_index]
        if person.id == self.you:
            self.say("That is you: choose someone else to challenge.")
        elif not self.challenging:
            self.say("This server passes no challenges on: create a match and give its code instead.")
        else:
            terms = self.terms()

            def challenge(sure: bool | None) -> None:
                if sure:
                    self.say(f"Challenging {person.name}...")
                    self.post_message(self.Challenge(person.id, person.name, terms))

            self.app.push_screen(ConfirmScreen(f"Challenge {person.name} to a match: {terms_words(terms)}?",
                                               "Challenge", "Not now", title="Challenge"), challenge)

    def code(self) -> str | None:
        """The code typed, upper-cased, when it is four letters."""
        code = self.query_one("#code", Input).value.strip().upper()
        return code if CODE_PATTERN.fullmatch(code) else None

    def action_menu(self) -> None:
        self.query_one("#lobby-menu").focus()

    @on(OptionList.OptionSelected, "#lobby-menu")
    async def _menu_chosen(self, event: OptionList.OptionSelected) -> None:
        self._tell_choices()  # the settings just chosen with, before the time to settle is up
        choice = event.option.id
        if choice == "return":
            self._return_to_seat()
        elif choice == "resume":
            self._resume()
        elif choice == "computer":
            self.post_message(self.PlayComputer(self.computer_setup()))
        elif choice == "create":
            self.say("Creating a match...")
            self.post_message(self.CreateMatch(self.options(), self._value("hints"), self._value("clock")))
        elif choice == "join":
            self._join()
        elif choice == "watch":
            self._watch()
        elif choice == "leaderboard":
            self.post_message(self.ShowLeaderboard())
        elif choice == "record":
            self.post_message(self.ShowRecord())
        elif choice == "name":
            self.post_message(self.ChooseName())
        elif choice == "quick":
            self.post_message(self.QuickMatch(self.terms()))
        elif choice == "browser":
            self.action_browser()

        elif choice == "quit":
            await self.run_action("app.quit")

    def _return_to_seat(self) -> None:
        entry = self.held_seat
        if entry is not None:
            self.say("Returning to your seat...")
            self.post_message(self.JoinMatch(entry.code, self._value("hints")))

    def _resume(self) -> None:
        offer = self.computer_offer
        if offer is None:
            return
        if offer.needs_secret:
            self.ask_secret(None)
            return
        self.say(f"Resuming {describe_computer_match(offer)}...")
        self.post_message(self.ResumeComputer())

    def _join(self) -> None:
        code = self.code()
        if code is None:
            self.say("Type the four-letter code of the match, then Enter.")
            self.query_one("#code").focus()
            return
        self._code_asked = True
        self.say(f"Joining {code}...")
        self.post_message(self.JoinMatch(code, self._value("hints")))

    def _watch(self) -> None:
        code = self.code()
        if code is not None:
            self._code_asked = True
            self.say(f"Watching {code}...")
            self.post_message(self.WatchMatch(code))
        elif self.matches:
            self.say("Choose a match to watch, then Enter (or type its code).")
            if self.listing_online:
                self._list_online(False)
            self.query_one("#lobby-matches").focus()
        else:
            self.say("No match is being played right now; with a code, type it first.")

    @on(Input.Submitted, "#code")
    def _code_submitted(self) -> None:
        self._join()

    @on(Input.Submitted, "#secret")
    def _secret_submitted(self) -> None:
        secret = self.query_one("#secret", Input).value.strip()
        if len(re.sub(r"[^A-Za-z]", "", secret)) < 6:
            self.say("The secret is six letters, as shown beside the board while you played.")
            return
        if self._secret_for == RESUME[0]:
            self.say("Resuming your match against the computer...")
            self.post_message(self.ResumeComputer(secret))
        elif self._secret_for is not None:
            self.say("Returning to your seat...")
            self.post_message(self.JoinMatch(self._secret_for, self._value("hints"), secret))

    def forget_secret(self) -> None:
        """The secret field goes once the player is back in a match (or has moved on)."""
        self._secret_for = None
        if self.composed:
            self.query_one("#secret", Input).value = ""
            self.query_one("#lobby-secret-row").display = False

    @on(OptionList.OptionSelected, "#lobby-matches")
    def _match_chosen(self, event: OptionList.OptionSelected) -> None:
        if event.option_index < len(self.matches):
            entry = self.matches[event.option_index]
            code = entry.code
            if entry.yours:
                self.say("Returning to your seat...")
                self.post_message(self.JoinMatch(code, self._value("hints")))
            else:
                self.say("Watching...")
                self.post_message(self.WatchMatch(code))
