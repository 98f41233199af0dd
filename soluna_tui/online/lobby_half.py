"""Runs in the child.

The session app's lobby half: what the lobby's menu and settings wish (play the computer, create, join or watch a
match, a name, the settings kept) and the server's answers to them (who this player is, the matches in play, a
match created and waiting, a secret asked for, a refusal). Its neighbours serve the lobby's other panes: quick
matches and challenges (``pairing_half.py``), who is online (``people_half.py``), the leaderboard and records
(``records_half.py``), the lobby's talk (``talk_half.py``), browsers signed in (``browsers_half.py``).

Each half says what each of its wishes does (``wishes``: the app hands it each ``LobbyWish`` of those types) and what
each of the server's messages does (``handlers``).
"""

from __future__ import annotations

import time
from collections.abc import Callable
from typing import Any

from ..link.messages import (
    CancelMatch,
    ChooseName,
    ComputerResume,
    CreateMatch,
    JoinMatch,
    KeepChoices,
    LobbyListing,
    Message,
    Question,
    SecretNeeded,
    Waiting,
    WatchMatch,
    Welcome,
)
from ..local.table import LocalTable
from .linked_app import NOTICE_SECONDS, LinkedApp
from .match_half import computer_comeback
from .screens import lobby_wish
from .screens.choose_name import ChooseNameScreen
from .screens.waiting import WaitingScreen


class LobbyHalf:
    """The lobby's wishes, told the server, and the server's answers, shown (``app`` holds what both halves read)."""

    def __init__(self, app: LinkedApp) -> None:
        self.app = app
        #: A keyed player is offered to choose their name once a visit (Escape means not now).
        self._name_offered = False
        #: Whether this player's key holds a name it chose (the name dialog then renames, keeping the old a while).
        self._holds_a_chosen_name = False
        #: Whether a match created next is a pair's (a quick match found, a challenge accepted: the opponent joins by
        #: themselves), and whether a quick match is asked for and not answered yet (the pairing half sets both;
        #: a refusal of any of the lobby's questions ends both).
        self.pairing = False
        self.seek_asked = False

    @property
    def wishes(self) -> dict[type[lobby_wish.LobbyWish], Callable[[Any], None]]:
        """What each of the menu's and the settings' wishes does."""
        return {
            lobby_wish.PlayComputer: self._play_computer, lobby_wish.ResumeComputer: self._resume_computer,
            lobby_wish.CreateMatch: self._create, lobby_wish.JoinMatch: self._join, lobby_wish.WatchMatch: self._watch,
            lobby_wish.ChoicesChanged: self._keep_choices, lobby_wish.ChooseName: self._offer_name_choice,
            ChooseNameScreen.Chosen: self._name_chosen,
        }

    @property
    def handlers(self) -> dict[type[Message], Callable[[Any], None]]:
        """What each of the server's answers to the lobby does."""
        return {Welcome: self._welcome, LobbyListing: self._heard_listing, Waiting: self._heard_waiting,
                SecretNeeded: self._heard_secret_needed}

    def ask(self, question: Question) -> None:
        """Ask the server something for the lobby (a refusal is shown there)."""
        self.app.ask(question, self.app.lobby, self.refused)

    def refused(self, text: str) -> None:
        """The server could not do what the lobby asked (a join, a watch, a creation, a resume)."""
        app = self.app
        self.pairing = self.seek_asked = False
        if app.remote is None:
            app.following = None
        app.lobby.top.refused(text)
        if app.screen is not app.lobby:
            app.notify(text, severity="error", timeout=NOTICE_SECONDS)

    # ---- what the server says ------------------------------------------------------------

    def _welcome(self, message: Welcome) -> None:
        """Who the server says this player is (on arrival, and as the answer to a name chosen)."""
        app = self.app
        asked = app.asker(message)
        app.secret = message.secret
        game = app.game
        if game is not None and isinstance(game.table, LocalTable) and game.table.comeback != (
                comeback := computer_comeback(app.secret)):
            # A match against the computer begun before this came (Enter as the lobby showed, the welcome on its
            # way): the secret it is kept under, in its tally now.
            game.table.comeback = comeback
            game.table.changed()
        app.hold_seconds = message.hold_seconds
        app.clocks, app.ranked_after = message.clocks, message.ranked_after
        app.ranked_opponents, app.pair_rated_per_day = message.ranked_opponents, message.pair_rated_per_day
        settings = app.lobby.settings
        settings.show_clocks(message.clocks)
        if message.choices is not None:  # after the clocks: the clock kept is one of them
            settings.show_choices(message.choices)
        if message.name:
            app.player_name = message.name
        app.rated = message.rated is True
        app.lobby.show_welcome(app.player_name, message.rated, message.quick_match, message.challenges,
                               message.browser_link)
        if asked is not None and isinstance(asked.screen, ChooseNameScreen):
            if message.name_chosen:
                self._holds_a_chosen_name = True
                if app.screen is asked.screen:
                    asked.screen.dismiss(None)
                app.lobby.say(f"You are {app.player_name} on every visit with this key.")
        elif app.rated and message.name_chosen:
            self._holds_a_chosen_name = True
        elif app.rated and not message.name_chosen and not self._name_offered:
            self._name_offered = True
            app.push_screen(ChooseNameScreen(app.player_name))

    def _heard_listing(self, message: LobbyListing) -> None:
        app = self.app
        app.matches_in_play, app.listed_at = message.matches, time.monotonic()
        app.lobby.show_matches(app.matches_in_play)
        app.lobby.show_computer_offer(message.computer)

    def _heard_waiting(self, message: Waiting) -> None:
        app = self.app
        paired, self.pairing = self.pairing, False
        if app.asker(message) is not None:  # the lobby's "Create a match" (or a pair's), still wanted
            app.following = message.code
            app.lobby.say(f"Match {message.code} created: waiting for {'your' if paired else 'an'} opponent.")
            app.push_screen(WaitingScreen(message.code, paired), self._waiting_closed)

    def _waiting_closed(self, cancelled: bool | None) -> None:
        if cancelled:
            app = self.app
            app.following = None
            app.send(CancelMatch())
            app.lobby.say("Match cancelled.")

    def _heard_secret_needed(self, message: SecretNeeded) -> None:
        app = self.app
        app.asker(message)
        app.following = None
        app.lobby.top.ask_secret(message.code)

    # ---- what the player asks for ----------------------------------------------------------

    def _play_computer(self, wish: lobby_wish.PlayComputer) -> None:
        self.app.start_match(wish.setup)

    def _resume_computer(self, wish: lobby_wish.ResumeComputer) -> None:
        self.ask(ComputerResume(wish.secret))

    def _create(self, wish: lobby_wish.CreateMatch) -> None:
        self.pairing = False
        self.ask(CreateMatch(wish.options.to_dict(), wish.hints, wish.clock))

    def _join(self, wish: lobby_wish.JoinMatch) -> None:
        self.app.following = wish.code
        self.ask(JoinMatch(wish.code, wish.hints, wish.secret))

    def _watch(self, wish: lobby_wish.WatchMatch) -> None:
        self.app.following = wish.code
        self.ask(WatchMatch(wish.code))

    def _keep_choices(self, wish: lobby_wish.ChoicesChanged) -> None:
        """A player with a key finds the lobby's settings so on their next visit (a guest's last the visit, but the
        server hears them too: whether the player hides from the list of who is online)."""
        self.app.send(KeepChoices(wish.choices))

    def _offer_name_choice(self, wish: lobby_wish.ChooseName) -> None:
        self.app.push_screen(ChooseNameScreen(self.app.player_name, renaming=self._holds_a_chosen_name))

    def _name_chosen(self, wish: ChooseNameScreen.Chosen) -> None:
        screen = next(each for each in reversed(self.app.screen_stack) if isinstance(each, ChooseNameScreen))
        self.app.ask(ChooseName(wish.name), screen, screen.show_error)
