"""Runs in the child.

The session app's lobby half: what the lobby's screens wish (play the computer, create, join or
watch a match, the leaderboard, a record, a name) and the server's answers to them (who this
player is, the matches in play, a match created and waiting, a refusal).

Each wish is a ``LobbyWish`` message the app hands to ``grant``; each answer a message from the
server the app hands to the handler ``handlers`` names for its type.
"""

from __future__ import annotations

import time
from collections.abc import Callable
from typing import Any

from ..link.messages import (
    AnswerChallenge,
    AskFinishedMatch,
    AskLeaderboard,
    AskRecord,
    CancelMatch,
    CancelSeek,
    ChallengePerson,
    Challenges,
    ChallengeSent,
    ChooseName,
    ComputerResume,
    CreateMatch,
    FinishedMatch,
    JoinMatch,
    KeepChoices,
    LeaderboardPage,
    LobbyListing,
    MatchTerms,
    Message,
    OnlineChanges,
    OnlinePeople,
    Paired,
    PlayerRecord,
    Question,
    SecretNeeded,
    Seek,
    Seeking,
    Waiting,
    WatchMatch,
    Welcome,
    WithdrawChallenge,
)
from ..rules import Match, SolunaError
from ..screens.replay import ReplayScreen
from .linked_app import NOTICE_SECONDS, LinkedApp
from .screens.challenges import ChallengesScreen, challenge_words
from .screens.choose_name import ChooseNameScreen
from .screens.leaderboard import LeaderboardScreen
from .screens.lobby import LobbyScreen
from .screens.lobby_wish import LobbyWish
from .screens.record import RecordScreen
from .screens.seeking import SeekingScreen
from .screens.waiting import WaitingScreen


class LobbyHalf:
    """The lobby's wishes, told the server, and the server's answers, shown (``app`` holds what both halves read)."""

    def __init__(self, app: LinkedApp) -> None:
        self.app = app
        #: A keyed player is offered to choose their name once a visit (Escape means not now).
        self._name_offered = False
        #: The terms of the quick match asked for last; whether a match created next is a pair's (a quick match
        #: found, a challenge accepted: the opponent joins by themselves).
        self._seeking_terms = MatchTerms({})
        self._pairing = False
        #: A quick match asked for and not answered yet, and the server's news meanwhile (for its dialog).
        self._seek_asked = False
        self._news_before_seeking: str | None = None
        #: What each wish of the lobby's screens does.
        self._wishes: dict[type[LobbyWish], Callable[[Any], None]] = {
            LobbyScreen.PlayComputer: self._play_computer, LobbyScreen.ResumeComputer: self._resume_computer,
            LobbyScreen.CreateMatch: self._create, LobbyScreen.JoinMatch: self._join,
            LobbyScreen.WatchMatch: self._watch, LobbyScreen.ShowLeaderboard: self._show_leaderboard,
            LeaderboardScreen.PageWanted: self._leaderboard_page, LobbyScreen.ShowRecord: self._show_record,
            RecordScreen.ReplayWanted: self._replay_wanted, LobbyScreen.ChoicesChanged: self._keep_choices,
            LobbyScreen.ChooseName: self._offer_name_choice, ChooseNameScreen.Chosen: self._name_chosen,
            LobbyScreen.QuickMatch: self._quick_match, LobbyScreen.Challenge: self._challenge,
            LobbyScreen.ShowChallenges: self._show_challenges, ChallengesScreen.Answer: self._answer_challenge,
            ChallengesScreen.Withdraw: self._withdraw_challenge,
        }
        #: The challenges to and from this player, as the server last said.
        self.challenges: Challenges = Challenges(())

    @property
    def handlers(self) -> dict[type[Message], Callable[[Any], None]]:
        """What each of the server's answers to the lobby does."""
        return {
            Welcome: self._welcome, LobbyListing: self._heard_listing, Waiting: self._heard_waiting,
            SecretNeeded: self._heard_secret_needed, LeaderboardPage: self._heard_leaderboard_page,
            PlayerRecord: self._heard_record, FinishedMatch: self._replay_finished,
            OnlinePeople: self._heard_online, OnlineChanges: self._heard_online,
            Seeking: self._heard_seeking, Paired: self._heard_paired, ChallengeSent: self._heard_challenge_sent,
            Challenges: self._heard_challenges,
        }

    def grant(self, wish: LobbyWish) -> None:
        """What a screen of the lobby's wished for, done (most by asking the server)."""
        self._wishes[type(wish)](wish)

    def refused(self, text: str) -> None:
        """The server could not do what the lobby asked (a join, a watch, a creation, a resume)."""
        app = self.app
        self._pairing = self._seek_asked = False
        if app.remote is None:
            app.following = None
        app.lobby.refused(text)
        if app.screen is not app.lobby:
            app.notify(text, severity="error", timeout=NOTICE_SECONDS)

    # ---- what the server says ------------------------------------------------------------

    def _welcome(self, message: Welcome) -> None:
        """Who the server says this player is (on arrival, and as the answer to a name chosen)."""
        app = self.app
        asked = app.asker(message)
        app.secret = message.secret
        app.hold_seconds = message.hold_seconds
        app.clocks, app.ranked_after = message.clocks, message.ranked_after
        app.ranked_opponents, app.pair_rated_per_day = message.ranked_opponents, message.pair_rated_per_day
        app.lobby.show_clocks(message.clocks)
        if message.choices is not None:  # after the clocks: the clock kept is one of them
            app.lobby.show_choices(message.choices)
        if message.name:
            app.player_name = message.name
        app.rated = message.rated is True
        app.lobby.show_player(app.player_name, message.rated)
        app.lobby.show_services(message.quick_match, message.challenges)
        app.lobby.show_browser_link(message.browser_link)
        if asked is not None and isinstance(asked.screen, ChooseNameScreen):
            if message.name_chosen:
                if app.screen is asked.screen:
                    asked.screen.dismiss(None)
                app.lobby.say(f"You are {app.player_name} on every visit with this key.")
        elif app.rated and not message.name_chosen and not self._name_offered:
            self._name_offered = True
            app.push_screen(ChooseNameScreen(app.player_name))

    def _heard_listing(self, message: LobbyListing) -> None:
        app = self.app
        app.matches_in_play, app.listed_at = message.matches, time.monotonic()
        app.lobby.show_matches(app.matches_in_play)
        app.lobby.show_computer_offer(message.computer)

    def _heard_online(self, message: OnlinePeople | OnlineChanges) -> None:
        """Who is online: the whole list, or what changed in it; the lobby draws it from the app's book."""
        online = self.app.online
        if isinstance(message, OnlinePeople):
            online.take(message)
        else:
            online.apply(message)
        self.app.lobby.show_online(online.people, online.total, online.you, news=isinstance(message, OnlineChanges))

    def _heard_waiting(self, message: Waiting) -> None:
        app = self.app
        paired, self._pairing = self._pairing, False
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

    # ---- quick matches and challenges ----------------------------------------------------------

    def _quick_match(self, wish: LobbyScreen.QuickMatch) -> None:
        self.app.lobby.say("Looking for an opponent...")
        self._seeking_terms, self._pairing = wish.terms, True
        self._seek_asked, self._news_before_seeking = True, None
        self._ask_for_the_lobby(Seek(wish.terms))

    def heard_news(self, text: str) -> None:
        """The server's news while a quick match is asked for and not answered yet (who waits on the same settings
        unpaired, and why, can come before the answer that opens the dialog): kept for the dialog."""
        if self._seek_asked:
            self._news_before_seeking = text

    def _heard_seeking(self, message: Seeking) -> None:
        """No one on these terms yet: waiting, until paired or Escape (with the news that came first, if any)."""
        self._pairing = self._seek_asked = False
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
        self._seek_asked = False
        app.following = message.code
        for screen in reversed(app.screen_stack):
            if isinstance(screen, SeekingScreen):
                screen.dismiss(False)
            elif isinstance(screen, ChallengesScreen):
                screen.dismiss(None)
        app.lobby.say(f"Paired with {message.opponent}: the match begins.")

    def _challenge(self, wish: LobbyScreen.Challenge) -> None:
        self._ask_for_the_lobby(ChallengePerson(wish.person, wish.terms))

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
        for line in message.challenges:
            if line.id in message.new:
                app.notify(f"{challenge_words(line)}. In the lobby, c answers it.",
                           title="Challenge", timeout=NOTICE_SECONDS)

    def _show_challenges(self, wish: LobbyScreen.ShowChallenges) -> None:
        self.app.push_screen(ChallengesScreen(self.challenges.challenges))

    def _answer_challenge(self, wish: ChallengesScreen.Answer) -> None:
        if wish.accept:
            self._pairing = True
            self.app.clear_notifications()  # the notices of challenges: answered, or to be answered later
            self.app.lobby.say("Accepting the challenge...")
        self._ask_for_the_lobby(AnswerChallenge(wish.challenge, wish.accept))

    def _withdraw_challenge(self, wish: ChallengesScreen.Withdraw) -> None:
        self.app.send(WithdrawChallenge(wish.challenge))

    def _heard_secret_needed(self, message: SecretNeeded) -> None:
        app = self.app
        app.asker(message)
        app.following = None
        app.lobby.ask_secret(message.code)

    def _heard_leaderboard_page(self, message: LeaderboardPage) -> None:
        asked = self.app.asker(message)
        if asked is not None and isinstance(asked.screen, LeaderboardScreen):
            asked.screen.show_page(message)

    def _heard_record(self, message: PlayerRecord) -> None:
        asked = self.app.asker(message)
        if asked is not None and isinstance(asked.screen, RecordScreen):
            asked.screen.show_record(message)

    def _replay_finished(self, message: FinishedMatch) -> None:
        """A finished match the player asked for: replayed and judged here (the server runs no solver)."""
        asked = self.app.asker(message)
        if asked is None or not isinstance(asked.screen, RecordScreen):
            return  # the record it was asked from has closed
        try:
            match = Match.from_dict(message.match)
        except SolunaError as error:
            asked.screen.say(f"That match could not be read: {error}.", error=True)
            return
        when = time.strftime("%Y-%m-%d %H:%M UTC", time.gmtime(message.finished_at))
        details = [f"Server match #{message.id}: {message.result.words}, finished {when}"]
        asked.screen.say("")
        self.app.push_screen(ReplayScreen(match, details, ascii_mode=self.app.ascii_mode, ended=message.result))

    # ---- what the player asks for ----------------------------------------------------------

    def _ask_for_the_lobby(self, question: Question) -> None:
        self.app.ask(question, self.app.lobby, self.refused)

    def _play_computer(self, wish: LobbyScreen.PlayComputer) -> None:
        self.app.start_match(wish.setup)

    def _resume_computer(self, wish: LobbyScreen.ResumeComputer) -> None:
        self._ask_for_the_lobby(ComputerResume(wish.secret))

    def _create(self, wish: LobbyScreen.CreateMatch) -> None:
        self._pairing = False
        self._ask_for_the_lobby(CreateMatch(wish.options.to_dict(), wish.hints, wish.clock))

    def _join(self, wish: LobbyScreen.JoinMatch) -> None:
        self.app.following = wish.code
        self._ask_for_the_lobby(JoinMatch(wish.code, wish.hints, wish.secret))

    def _watch(self, wish: LobbyScreen.WatchMatch) -> None:
        self.app.following = wish.code
        self._ask_for_the_lobby(WatchMatch(wish.code))

    def _show_leaderboard(self, wish: LobbyScreen.ShowLeaderboard) -> None:
        screen = LeaderboardScreen(self.app.player_name)
        self.app.push_screen(screen)
        self.app.ask(AskLeaderboard(0), screen, screen.refused)

    def _leaderboard_page(self, wish: LeaderboardScreen.PageWanted) -> None:
        self.app.ask(AskLeaderboard(wish.offset), wish.control, wish.control.refused)

    def _show_record(self, wish: LobbyScreen.ShowRecord) -> None:
        screen = RecordScreen()
        self.app.push_screen(screen)
        self.app.ask(AskRecord(), screen, screen.refused)

    def _replay_wanted(self, wish: RecordScreen.ReplayWanted) -> None:
        self.app.ask(AskFinishedMatch(wish.match_id), wish.control, wish.control.refused)

    def _keep_choices(self, wish: LobbyScreen.ChoicesChanged) -> None:
        """A player with a key finds the lobby's settings so on their next visit (a guest's last the visit, but the
        server hears them too: whether the player hides from the list of who is online)."""
        self.app.send(KeepChoices(wish.choices))

    def _offer_name_choice(self, wish: LobbyScreen.ChooseName) -> None:
        self.app.push_screen(ChooseNameScreen(self.app.player_name))

    def _name_chosen(self, wish: ChooseNameScreen.Chosen) -> None:
        screen = next(each for each in reversed(self.app.screen_stack) if isinstance(each, ChooseNameScreen))
        self.app.ask(ChooseName(wish.name), screen, screen.show_error)
