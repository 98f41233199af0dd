"""Runs in the child.

The session app's pairing half, for the lobby's seeks and challenges: a quick match asked for ("Find me an
opponent", on the settings' terms) and its dialog while no one is found, someone online challenged (Enter on them in
the list of who is online), the challenges to and from this player (counted in the lobby's title; ``c`` lists them
to answer or withdraw), and a pair found.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from ..link.messages import (
    AcceptSeek,
    AnswerChallenge,
    CancelSeek,
    ChallengePerson,
    Challenges,
    ChallengeSent,
    MatchTerms,
    Message,
    OpenSeeks,
    Paired,
    Seek,
    Seeking,
    WatchSeeks,
    WithdrawChallenge,
)
from .linked_app import NOTICE_SECONDS
from .lobby_half import LobbyHalf
from .screens import lobby_wish
from .screens.challenges import ChallengesScreen, challenge_words
from .screens.seeking import SeekingScreen
from .screens.seeks_board import SeeksBoardScreen


class PairingHalf:
    """Quick matches and challenges, asked of the server for the lobby (``lobby``: its questions and refusals)."""

    def __init__(self, lobby: LobbyHalf) -> None:
        self.lobby = lobby
        self.app = lobby.app
        #: The terms of the quick match asked for last, and the server's news while it is not answered yet (for
        #: its dialog).
        self._seeking_terms = MatchTerms({})
        self._news_before_seeking: str | None = None
        #: The challenges to and from this player, as the server last said.
        self.challenges: Challenges = Challenges(())
        #: The open seeks board on screen, until closed.
        self._board: SeeksBoardScreen | None = None

    @property
    def wishes(self) -> dict[type[lobby_wish.LobbyWish], Callable[[Any], None]]:
        return {lobby_wish.QuickMatch: self._quick_match, lobby_wish.Challenge: self._challenge,
                lobby_wish.ShowChallenges: self._show_challenges, ChallengesScreen.Answer: self._answer_challenge,
                ChallengesScreen.Withdraw: self._withdraw_challenge, lobby_wish.ShowSeeks: self._show_seeks,
                SeeksBoardScreen.Accept: self._accept_seek}

    @property
    def handlers(self) -> dict[type[Message], Callable[[Any], None]]:
        return {Seeking: self._heard_seeking, Paired: self._heard_paired, ChallengeSent: self._heard_challenge_sent,
                Challenges: self._heard_challenges, OpenSeeks: self._heard_open_seeks}

    # ---- quick matches ---------------------------------------------------------------------

    def _quick_match(self, wish: lobby_wish.QuickMatch) -> None:
        self.app.lobby.say("Looking for an opponent...")
        self._seeking_terms, self.lobby.pairing = wish.terms, True
        self.lobby.seek_asked, self._news_before_seeking = True, None
        self.lobby.ask(Seek(wish.terms))

    def heard_news(self, text: str) -> None:
        """The server's news while a quick match is asked for and not answered yet (who waits on the same settings
        unpaired, and why, can come before the answer that opens the dialog): kept for the dialog."""
        if self.lobby.seek_asked:
            self._news_before_seeking = text

    def _heard_seeking(self, message: Seeking) -> None:
        """No one on these terms yet: waiting, until paired or Escape (with the news that came first, if any)."""
        self.lobby.pairing = self.lobby.seek_asked = False
        news, self._news_before_seeking = self._news_before_seeking, None
        if self.app.asker(message) is not None:
            seeking = SeekingScreen(self._seeking_terms)
            if news is not None:
                seeking.show_news(news)
            self.app.push_screen(seeking, self._seeking_closed)

    def _seeking_closed(self, cancelled: bool | None) -> None:
        if cancelled:
            self.app.send(CancelSeek())
            self.app.lobby.say("You stopped looking for an opponent.")

    def _heard_paired(self, message: Paired) -> None:
        """Paired (a quick match found, this player's challenge accepted): the match follows; the waiting goes."""
        app = self.app
        self.lobby.seek_asked = False
        app.following = message.code
        for screen in reversed(app.screen_stack):
            if isinstance(screen, SeekingScreen):
                screen.dismiss(False)
            elif isinstance(screen, ChallengesScreen):
                screen.dismiss(None)
        app.lobby.say(f"Paired with {message.opponent}: the match begins.")
        app.ring()

    # ---- challenges ------------------------------------------------------------------------

    def _challenge(self, wish: lobby_wish.Challenge) -> None:
        self.lobby.ask(ChallengePerson(wish.person, wish.terms))

    def _heard_challenge_sent(self, message: ChallengeSent) -> None:
        self.app.asker(message)
        self.app.lobby.say(f"Challenge sent: {message.name} sees it now. c lists your challenges.")

    def _heard_challenges(self, message: Challenges) -> None:
        """The challenges to and from this player: counted in the lobby's title, listed if open, and a notice for
        each new one, wherever the player is in the lobby."""
        app = self.app
        self.challenges = message
        app.lobby.show_challenges(message.challenges)
        for screen in app.screen_stack:
            if isinstance(screen, ChallengesScreen):
                screen.show(message.challenges)
        if any(line.id in message.new and line.incoming for line in message.challenges):
            app.ring()
        for line in message.challenges:
            if line.id in message.new:
                app.notify(f"{challenge_words(line)}. In the lobby, c answers it.",
                           title="Challenge", timeout=NOTICE_SECONDS)

    def _show_challenges(self, wish: lobby_wish.ShowChallenges) -> None:
        self.app.push_screen(ChallengesScreen(self.challenges.challenges))

    def _answer_challenge(self, wish: ChallengesScreen.Answer) -> None:
        if wish.accept:
            self.lobby.pairing = True
            self.app.clear_notifications()  # the notices of challenges: answered, or to be answered later
            self.app.lobby.say("Accepting the challenge...")
        self.lobby.ask(AnswerChallenge(wish.challenge, wish.accept))

    # ---- the open seeks board ----------------------------------------------------------------

    def _show_seeks(self, wish: lobby_wish.ShowSeeks) -> None:
        """The board, told every open seek while it is open."""
        if self._board is not None and self._board in self.app.screen_stack:
            return
        self._board = SeeksBoardScreen()
        self.app.push_screen(self._board, self._seeks_closed)
        self.app.send(WatchSeeks(True))

    def _seeks_closed(self, result: None) -> None:
        self._board = None
        self.app.send(WatchSeeks(False))

    def _heard_open_seeks(self, message: OpenSeeks) -> None:
        if self._board is not None and self._board.is_mounted:
            self._board.show(message)
        elif self._board is not None:
            self._board.board = message

    def _accept_seek(self, wish: SeeksBoardScreen.Accept) -> None:
        """Accept a seek: paired at once, as a quick match is (the match follows), or told why not on the board."""
        board = self._board
        if board is None:
            return
        self.lobby.pairing = True
        self.app.ask(AcceptSeek(wish.key, self.app.lobby.settings.value("hints")), board, board.say)

    def _withdraw_challenge(self, wish: ChallengesScreen.Withdraw) -> None:
        self.app.send(WithdrawChallenge(wish.challenge))
