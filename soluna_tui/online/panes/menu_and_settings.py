"""The top of the lobby (``#lobby-top``): its menu, and beside it the settings, a match code and a secret.

This pane turns a choice in the menu (or Enter in the code or the secret field) into what the player wishes, with
the settings as they stand: a ``LobbyWish`` posted to the app, which grants it (``lobby_wish.py``), and what the
lobby's status says meanwhile (asked of the screen at once, ``LobbyHost``). What it offers follows what the screen
hands down: who the player is, what the server offers and keeps for them, and the matches in play (a held seat is
offered first).
"""

from __future__ import annotations

import re
from typing import Protocol

from textual import on
from textual.app import ComposeResult
from textual.widgets import Input, OptionList

from ...link.messages import ComputerOffer, ListedMatch
from ...rules.strengths import level_words
from ...widgets.cached_lines import Row
from ..screens import lobby_wish
from ..screens.browsers import ShowBrowsers
from .lobby_menu import RESUME, LobbyMenu, menu_entries
from .lobby_settings import LobbySettings
from .matches_in_play import held_seat


def describe_computer_match(offer: ComputerOffer) -> str:
    stars = offer.stars
    return (f"your match against the computer at {level_words(offer.level)}: round {offer.round}, "
            f"stars {stars[0]}-{stars[1]}")


def secret_words(code: str | None) -> str:
    """What the status says while the secret field asks for the seat at ``code`` (or the computer match)."""
    what = "your seat" if code else "your match against the computer"
    return f"To take back {what}, type the secret that was shown beside the board while you played, then Enter."


class LobbyHost(Protocol):
    """What the pane asks of the screen it stands in, at once (a message would come after the next key): words in
    the status line under the settings, and the matches in play to choose one to watch from."""

    def say(self, text: str, kind: str = "info") -> None: ...

    def watch_from_list(self) -> None: ...


class MenuAndSettings(Row):
    """The menu and the settings, and what the player wishes with them."""

    def __init__(self, host: LobbyHost, player_name: str, *, ascii_mode: bool = False) -> None:
        super().__init__(id="lobby-top")
        self._host = host
        self.menu = LobbyMenu()
        self.settings = LobbySettings(ascii_mode=ascii_mode)
        #: Who the player is: their name, and whether they are rated (came with a key; ``None`` until the server
        #: has said).
        self.player_name = player_name
        self.rated: bool | None = None
        #: What the server offers (pairing players, passing challenges on, a browser signed in as this player) and
        #: keeps for this player (a match against the computer); the matches in play, as last listed.
        self.quick_match = self.challenging = self.browser_link = False
        self.computer_offer: ComputerOffer | None = None
        self.matches: tuple[ListedMatch, ...] = ()
        #: The code typed in the code field was just asked for (a join or a watch): a refusal goes back to it.
        self._code_asked = False

    def compose(self) -> ComposeResult:
        yield self.menu
        yield self.settings

    def update_menu(self) -> None:
        """The menu, with a match to come back to (a held seat, a computer match) first."""
        if self.children:
            self.menu.offer(menu_entries(
                held_seat=held_seat(self.matches) is not None, computer_match=self.computer_offer is not None,
                rated=self.rated, browser_link=self.browser_link, quick_match=self.quick_match))

    # ---- what the server says --------------------------------------------------------------

    def ask_secret(self, code: str | None) -> None:
        """The server wants proof of who is coming back (no key, or another one): the secret field, for the seat
        at ``code`` (``None``: the match against the computer)."""
        self.settings.ask_secret(code or RESUME[0])
        self._host.say(secret_words(code))

    def refused(self, text: str) -> None:
        """The server could not do what was asked from here: why, and, for a code typed, the code field
        again with the code selected, so that typing replaces it."""
        self._host.say(text, "error")
        if self._code_asked:
            self._code_asked = False
            self.settings.ask_code(select=True)

    def match_begun(self) -> None:
        """The player is in a match now (joined, watching, resumed): the code and the secret are used up."""
        self._code_asked = False
        self._host.say("")
        self.settings.forget()

    # ---- what the player chose -----------------------------------------------------------

    @on(OptionList.OptionSelected, "#lobby-menu")
    async def _menu_chosen(self, event: OptionList.OptionSelected) -> None:
        settings = self.settings
        settings.tell_choices()  # the settings just chosen with, before the time to settle is up
        choice = event.option.id
        if choice == "return":
            self._return_to_seat()
        elif choice == "resume":
            self._resume()
        elif choice == "computer":
            self.app.post_message(lobby_wish.PlayComputer(settings.computer_setup(self.player_name, self.rated)))
        elif choice == "create":
            self._host.say("Creating a match...")
            self.app.post_message(lobby_wish.CreateMatch(settings.options(), settings.value("hints"),
                                                 settings.value("clock")))
        elif choice == "join":
            self._join()
        elif choice == "watch":
            self._watch()
        elif choice == "leaderboard":
            self.app.post_message(lobby_wish.ShowLeaderboard())
        elif choice == "record":
            self.app.post_message(lobby_wish.ShowRecord())
        elif choice == "tournaments":
            self.app.post_message(lobby_wish.ShowTournaments())
        elif choice == "name":
            self.app.post_message(lobby_wish.ChooseName())
        elif choice == "quick":
            self.app.post_message(lobby_wish.QuickMatch(settings.terms(self.rated)))
        elif choice == "browser":
            self.show_browsers()
        elif choice == "quit":
            await self.run_action("app.quit")

    def show_browsers(self) -> None:
        """Play in a browser: a browser signed in now finds the settings as they are."""
        self.settings.tell_choices()
        self.app.post_message(ShowBrowsers())

    def _return_to_seat(self) -> None:
        entry = held_seat(self.matches)
        if entry is not None:
            self.take_seat_or_watch(entry)

    def take_seat_or_watch(self, entry: ListedMatch) -> None:
        """A match in play chosen: this player's held seat taken back, or the match watched."""
        if entry.yours:
            self._host.say("Returning to your seat...")
            self.app.post_message(lobby_wish.JoinMatch(entry.code, self.settings.value("hints")))
        else:
            self._host.say("Watching...")
            self.app.post_message(lobby_wish.WatchMatch(entry.code))

    def _resume(self) -> None:
        offer = self.computer_offer
        if offer is None:
            return
        if offer.needs_secret:
            self.ask_secret(None)
            return
        self._host.say(f"Resuming {describe_computer_match(offer)}...")
        self.app.post_message(lobby_wish.ResumeComputer())

    @on(Input.Submitted, "#code")
    def _join(self) -> None:
        code = self.settings.code()
        if code is None:
            self._host.say("Type the four-letter code of the match, then Enter.")
            self.settings.ask_code()
            return
        self._code_asked = True
        self._host.say(f"Joining {code}...")
        self.app.post_message(lobby_wish.JoinMatch(code, self.settings.value("hints")))

    def _watch(self) -> None:
        code = self.settings.code()
        if code is not None:
            self._code_asked = True
            self._host.say(f"Watching {code}...")
            self.app.post_message(lobby_wish.WatchMatch(code))
        elif self.matches:
            self._host.say("Choose a match to watch, then Enter (or type its code).")
            self._host.watch_from_list()
        else:
            self._host.say("No match is being played right now; with a code, type it first.")

    @on(Input.Submitted, "#secret")
    def _secret_submitted(self) -> None:
        settings = self.settings
        secret = settings.secret()
        if len(re.sub(r"[^A-Za-z]", "", secret)) < 6:
            self._host.say("The secret is six letters, as shown beside the board while you played.")
            return
        if settings.secret_for == RESUME[0]:
            self._host.say("Resuming your match against the computer...")
            self.app.post_message(lobby_wish.ResumeComputer(secret))
        elif settings.secret_for is not None:
            self._host.say("Returning to your seat...")
            self.app.post_message(lobby_wish.JoinMatch(settings.secret_for, settings.value("hints"), secret))
