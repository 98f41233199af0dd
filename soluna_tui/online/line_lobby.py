"""Runs in the child.

The lobby of a session in lines, for a screen reader (``ssh -t -p PORT HOST screen-reader``), then a match in lines.

``LineLobby`` is what ``line_session.py`` drives, as ``terminal_door.py`` drives the local line mode: typed lines in
(``take``), short sentences out (``say``), and each message from the server (``heard``). It speaks the same link as
the full-screen app (``link/messages.py``), kept in the same books (``who_is_online.py``, ``play/chat_book.py``): the
lobby is a numbered menu (a quick match, a challenge by name, the challenges to answer, who is online, the matches
in play to watch by number, talk), every line of talk is told with its speaker, and a match between players is the
line mode's own core (``line_mode/line_game.py``) at a ``RemoteTable``, which announces every move the server
reports, to a player or a spectator. Nothing here draws or imports Textual.
"""

from __future__ import annotations

import re
from collections.abc import Callable
from dataclasses import replace
from pathlib import Path
from typing import Any

from ..line_mode.line_game import LineGame
from ..line_mode.runner import Runner
from ..line_mode.typed_lines import read_command
from ..link.messages import (
    AnswerChallenge,
    AskLeaderboard,
    AskRecord,
    CancelMatch,
    CancelSeek,
    ChallengeLine,
    ChallengePerson,
    Challenges,
    ChallengeSent,
    Chat,
    ChatLine,
    ChooseName,
    ClosingSoon,
    ComputerDropped,
    ComputerGameKept,
    ComputerOffer,
    ComputerResult,
    ComputerResume,
    ComputerSaved,
    CreateMatch,
    Doing,
    ErrorReply,
    Exit,
    JoinMatch,
    KeepChoices,
    LeaderboardPage,
    LeaveMatch,
    ListedMatch,
    LobbyChoices,
    LobbyListing,
    MatchGone,
    MatchState,
    MatchTerms,
    Message,
    Moved,
    Notice,
    OnlineChanges,
    OnlinePeople,
    OnlinePerson,
    Paired,
    PlayerRecord,
    Request,
    Say,
    SecretNeeded,
    Seek,
    Seeking,
    SyncMatch,
    Waiting,
    WatchMatch,
    Welcome,
    WithdrawChallenge,
)
from ..link.safe_talk import ChatRefused, chat_line
from ..local.files import SaveError
from ..local.match_setup import MatchSetup
from ..local.saves import SavedMatch
from ..local.table import LocalTable, Table
from ..play.chat_book import ChatBook, spoken_by
from ..rules import MAX_DISCS, MIN_DISCS, Match, MatchOptions, OptionError, SolunaError
from ..rules.match import DEFAULT_STARS, MAX_STARS, MIN_STARS
from ..rules.strengths import CALIBRATED_DISCS, FIRST_MATCHED, check_level, level_words, strength_of
from ..rules.wording import minutes, plural
from .remote_table import RemoteTable
from .screens.challenges import challenge_words
from .screens.record import describe_recent, summary_of
from .screens.seeking import terms_words
from .who_is_online import OnlineBook

#: The lobby's menu: each entry's number, the word that asks for it, and what it does.
MENU = (
    ("1", "computer", "computer: play the computer (computer 5: at level 5, of 1 to 10)."),
    ("2", "quick", "quick: a quick match, paired with the next player who asks on the same terms."),
    ("3", "challenge", "challenge NAME: challenge someone online to a match; create makes one to share by its "
                       "code, join ABCD joins one."),
    ("4", "challenges", "challenges: the challenges to and from you; accept, decline or withdraw them."),
    ("5", "who", "who: who is online, and what they are doing; leaderboard and record tell the rankings and "
                 "yours."),
    ("6", "matches", "matches: the matches in play, by number; watch 2 watches the second."),
    ("7", "talk", "talk: the lobby's last lines of talk; say TEXT says a line to the lobby."),
    ("8", "terms", "terms: the terms you offer (stars 2, discs 8 and rules online change them)."),
    ("9", "help", "help: this menu; remember opens Soluna in lines on every visit with your key, forget undoes it."),
    ("0", "quit", "quit: leave Soluna."),
)
#: Every word the lobby takes, and their short and spoken forms.
LOBBY_WORDS = frozenset({"quick", "challenge", "challenges", "who", "matches", "talk", "help", "quit", "watch",
                         "accept", "decline", "withdraw", "cancel", "say", "return", "menu", "terms", "stars", "discs",
                         "rules", "computer", "resume", "remember", "forget", "create", "join", "leaderboard",
                         "record", "name"})
LOBBY_ALIASES = {**{number: word for number, word, _ in MENU}, "?": "help", "q": "quit", "exit": "quit",
                 "bye": "quit", "online": "who", "w": "watch", "stop": "cancel", "chat": "talk", "m": "menu",
                 "c": "computer"}
#: Words that, in a match, go back to the lobby (``quit`` too: the session ends from the lobby).
BACK_TO_LOBBY = frozenset({"lobby", "leave", "quit", "q", "exit", "bye"})
#: A match's code, as ``join`` takes it.
CODE = re.compile(r"[A-Z]{4}")
#: The most of a name typed that is sent (the server says what is wrong with a name; a page pasted is not sent).
LONGEST_NAME_TYPED = 80
#: The recent matches ``record`` tells.
RECENT_TOLD = 5
#: The lines of talk ``talk`` reads back.
TALK_READ_BACK = 5
#: A quick match's or a challenge's terms when the server kept no settings for this player: the lobby's own.
DEFAULT_CHOICES = LobbyChoices(level=FIRST_MATCHED.level, rules="box", stars=DEFAULT_STARS, discs=12, opener=0,
                               hints=False)
#: News from the server worded for the full screen's keys, and the line mode's words for it.
FULL_SCREEN_WORDS = {"You are watching: n returns to the lobby.": "",
                     "press r to play again": "type rematch to play again"}
DOING_WORDS = {Doing.LOBBY: "in the lobby", Doing.WAITING: "waiting for an opponent", Doing.PLAYING: "playing",
               Doing.WATCHING: "watching", Doing.COMPUTER: "playing the computer"}


def in_lines(notice: str) -> str | None:
    """The server's news as the line mode says it: the full screen's keys in the line mode's words (``None``: news
    only the full screen needs)."""
    for keys, words in FULL_SCREEN_WORDS.items():
        notice = notice.replace(keys, words)
    return notice or None


def person_words(person: OnlinePerson, you: int | None) -> str:
    """``bob (1021), playing ann``, ``ann (you, guest), in the lobby``: someone online as the list says them."""
    standing = str(person.rating) if person.rating is not None else "" if person.keyed else "guest"
    facts = [fact for fact in ("you" if person.id == you else "", standing) if fact]
    about = f" ({', '.join(facts)})" if facts else ""
    whom = " and ".join(person.others)
    if whom:
        whom = f" at level {whom}" if person.doing is Doing.COMPUTER else f" {whom}"
    return f"{person.name}{about}, {DOING_WORDS.get(person.doing, str(person.doing))}{whom}"


def listed_words(number: int, listed: ListedMatch) -> str:
    """``2: ann against bob, round 1, stars 0 to 0, 1 watching``: a match in play as ``matches`` says it."""
    watchers = f", {listed.watchers} watching" if listed.watchers else ""
    yours = ", your seat: type return to go back to it" if listed.yours else ""
    return (f"{number}: {listed.players[0]} against {listed.players[1]}, round {listed.round}, "
            f"stars {listed.stars[0]} to {listed.stars[1]}{watchers}{yours}.")


class ComputerKeeper:
    """Where a match against the computer is kept over SSH: sent to the server, which keeps it for this player
    through a lost connection (and files and rates a rated one as it ended); nothing is written here."""

    def __init__(self, send: Callable[[Request], None]) -> None:
        self._send = send

    def save(self, saved: SavedMatch) -> None:
        self._send(ComputerSaved(saved.to_document()))

    def discard(self) -> None:
        self._send(ComputerDropped())

    def keep_finished(self, saved: SavedMatch, replacing: Path | None = None) -> Path | None:
        if saved.setup.rated and replacing is None:
            self._send(ComputerSaved(saved.to_document()))
        return None

    def withdraw_finished(self, path: Path) -> None:
        """Nothing was kept here, so nothing to take back."""


class LineLobby:
    """The lobby in lines, then the match begun (a ``LineCore`` for the door): ``send`` tells the server,
    ``say`` shows lines, ``runner`` does the match's slow work, ``active`` tells the server the player is there."""

    def __init__(self, name: str, send: Callable[[Request], None], say: Callable[[list[str]], None],
                 runner: Runner, active: Callable[[], None] = lambda: None) -> None:
        self.name = name
        self._send = send
        self._say_lines = say
        self._runner = runner
        self._active = active
        self.online = OnlineBook()
        self.talk = ChatBook()
        self.matches: tuple[ListedMatch, ...] = ()
        self.challenges: tuple[ChallengeLine, ...] = ()
        self.choices = DEFAULT_CHOICES
        self.rated = False
        self.hold_seconds = 300.0
        #: Whether a quick match is asked for and not yet paired; a match asked to be created, and the code of one
        #: created and waiting for its opponent.
        self.seeking = False
        self.creating = False
        self.waiting_code: str | None = None
        #: The code of the match this terminal follows or is about to follow; news of others is stale.
        self.following: str | None = None
        self.remote: RemoteTable | None = None
        self.game: LineGame | None = None
        #: A match against the computer the server keeps for this player, to resume; this session's secret.
        self.computer: ComputerOffer | None = None
        self.secret = ""
        self._keeper = ComputerKeeper(send)
        self._welcomed = False
        #: The number of the last name asked for (the server's welcome that answers it carries it back).
        self._name_asked = 0
        #: The player has left (``quit``): the door closes.
        self.finished = False
        self._handlers: dict[type[Message], Callable[[Any], None]] = {
            Welcome: self._welcome, LobbyListing: self._listing, OnlinePeople: self._people,
            OnlineChanges: self._people, Chat: self._chat, Challenges: self._challenges,
            ChallengeSent: self._challenge_sent, Seeking: self._seeking, Paired: self._paired, Waiting: self._waiting,
            MatchState: self._match_news, Moved: self._match_news, MatchGone: self._match_gone, Notice: self._notice,
            ErrorReply: self._error, ClosingSoon: self._closing_soon, Exit: self._exit,
            ComputerGameKept: self._resume_computer, ComputerResult: self._computer_result,
            SecretNeeded: self._secret_needed, PlayerRecord: self._record, LeaderboardPage: self._leaderboard,
        }

    # ---- the door's side -------------------------------------------------------------------------

    @property
    def prompt(self) -> str:
        if self.finished:
            return ""
        if self.game is not None:
            return self.game.prompt
        if self.waiting_code is not None:
            return f"Waiting for your opponent in {self.waiting_code}> "
        return "Looking for an opponent> " if self.seeking else "Lobby> "

    def start(self) -> None:
        """The server speaks first (its welcome): nothing to say until then."""

    def stop(self) -> None:
        self.finished = True
        if self.game is not None:
            self.game.stop()

    def take(self, line: str) -> None:
        """A line the player typed: in a match, the match's (but talk, and back to the lobby); else the lobby's."""
        if self.finished:
            return
        self._active()
        text = line.strip()
        if self.game is not None:
            word = text.split(maxsplit=1)[0].casefold() if text else ""
            if word == "say":
                self._talk(text[3:].strip())
            elif word in BACK_TO_LOBBY:
                self._back_to_lobby("")
            elif word == "talk":
                self._read_talk()
            else:
                self.game.take(line)
                if word in ("help", "?"):
                    self._say("Here also: say TEXT talks, talk reads the last lines, lobby goes back to the lobby.")
            return
        if not text:
            self._say("Type cancel to stop looking or waiting, or help." if self.seeking or self.waiting_code
                      else "Lobby: type a number or a word from the menu, or help.")
            return
        command = read_command(text, LOBBY_WORDS, LOBBY_ALIASES)
        if command is None:
            self._say(f"I do not know {text.split()[0][:20]!r}: type a number or a word from the menu, or help.")
            return
        getattr(self, f"_cmd_{command.word}")(command.argument)

    def heard(self, message: Message) -> None:
        """A message from the server (a kind the lobby does not use is let go)."""
        handler = self._handlers.get(type(message))
        if handler is not None:
            handler(message)

    def misheard(self) -> None:
        """The server sent news this terminal could not read: said, and the match asked for whole again."""
        self._say("The server sent news this terminal could not read.")
        if self.remote is not None:
            self.remote.ask_for_state()

    # ---- saying ----------------------------------------------------------------------------------

    def _say(self, *lines: str) -> None:
        shown = [line for line in lines if line]
        if shown:
            self._say_lines(shown)

    def _menu_lines(self) -> list[str]:
        return ["The lobby. Type a number or a word:", *(f"{number}. {words}" for number, _, words in MENU)]

    # ---- what the server says --------------------------------------------------------------------

    def _welcome(self, message: Welcome) -> None:
        self.name = message.name or self.name
        self.rated = bool(message.rated)
        self.hold_seconds = message.hold_seconds
        self.secret = message.secret or self.secret
        if message.choices is not None:
            self.choices = message.choices
        if self._welcomed:
            if message.answer_to is not None and message.answer_to == self._name_asked:  # the answer to a name chosen
                self._say(f"You are {self.name} on every visit with this key.")
            return
        self._welcomed = True
        keyed = "with your key" if self.rated else "as a guest"
        kept = " (kept with your key: forget opens the full screen next time)" if self.choices.screen_reader else ""
        offer = (f"You came with an SSH key: type name and the name to be known by on every visit with it (name "
                 f"{self.name} keeps this one)." if self.rated and not message.name_chosen else "")
        self._say(f"Welcome, {self.name}: Soluna in lines{kept}, {keyed}.", offer, *self._menu_lines())

    def _cmd_name(self, argument: str) -> None:
        if not self.rated:
            self._say("Only players who connect with an SSH key can keep a name: connect with ssh -i KEY to have one.")
            return
        if not argument:
            self._say(f"You are {self.name}. Type name and another name to be known by it on every visit.")
            return
        self._name_asked += 1  # its answer (a welcome under the new name) carries the number back
        self._send(ChooseName(argument[:LONGEST_NAME_TYPED], ask=self._name_asked))

    def _listing(self, message: LobbyListing) -> None:
        self.matches = message.matches
        offered, self.computer = self.computer, message.computer
        if message.computer is not None and offered is None and self.game is None:
            self._say(f"{self._offer_words(message.computer)} Type resume to go on with it.")

    def _offer_words(self, offer: ComputerOffer) -> str:
        secret = " (type resume and its secret: it was kept for another terminal)" if offer.needs_secret else ""
        return (f"Your match against the computer at {level_words(offer.level)} is kept: round {offer.round}, "
                f"stars {offer.stars[0]} to {offer.stars[1]}{secret}.")

    def _people(self, message: OnlinePeople | OnlineChanges) -> None:
        if isinstance(message, OnlinePeople):
            self.online.take(message)
        else:
            self.online.apply(message)

    def _chat(self, message: Chat) -> None:
        if message.refused is not None:
            self._say(f"Not said: {message.refused}")
        if not (message.whole or message.lines):
            return
        self.talk.take(message)
        if message.whole:
            return
        remote = self.remote
        code, watching = (remote.code, remote.watching) if remote is not None else (None, False)
        if message.code != code:
            return  # another room's (the lobby's while at a match, a match's left)
        kept = self.talk.lines(code, watching)  # without those of people muted
        players_see = remote is not None and not watching
        self._say(*(self._talk_words(line, players_see) for line in message.lines if line in kept))

    def _talk_words(self, line: ChatLine, players_see_spectators: bool) -> str:
        if line.yours:
            return f"You said: {line.text}"
        return f"{spoken_by(line, players_see_spectators)} says: {line.text}"

    def _challenges(self, message: Challenges) -> None:
        self.challenges = message.challenges
        new = [line for line in message.challenges if line.id in message.new and line.incoming]
        if new and self.game is None:
            self._say(*(f"{challenge_words(line)}. Type accept to play, or decline." for line in new))
        elif new:
            self._say(*(f"{challenge_words(line)}. Back in the lobby, accept plays it." for line in new))

    def _challenge_sent(self, message: ChallengeSent) -> None:
        self._say(f"Challenge sent: {message.name} is told now. Type challenges to see it, or withdraw it.")

    def _seeking(self, message: Seeking) -> None:
        self._say(f"Looking for an opponent on these terms: {terms_words(self._terms())}. "
                  "Type cancel to stop looking.")

    def _paired(self, message: Paired) -> None:
        self.seeking = False
        self.following = message.code
        self._say(f"Paired with {message.opponent}: the match begins.")

    def _waiting(self, message: Waiting) -> None:
        """A match made here: created to share its code, or a pair's (a quick match found, a challenge accepted),
        whose opponent sits down by themselves."""
        self.seeking = False
        self.following = message.code
        if self.creating:
            self.waiting_code = message.code
            self._say(f"Match {message.code} created. Tell your opponent its code: they type join {message.code} "
                      "(on the full screen, Join a match by code). Type cancel to cancel it.")
        else:
            self._say(f"An opponent is found: match {message.code} begins as they sit down.")
        self.creating = False

    def _secret_needed(self, message: SecretNeeded) -> None:
        self.following = None
        code = message.code or "CODE"
        self._say(f"That seat is held for the player who left it: type join {code} and its secret, like join {code} "
                  "KQXPMR, to come back to it.")

    def _notice(self, message: Notice) -> None:
        self._say(message.text)

    def _error(self, message: ErrorReply) -> None:
        self.seeking = self.creating = False
        if self.remote is None:
            self.following = None
        self._say(message.text)

    def _closing_soon(self, message: ClosingSoon) -> None:
        self._say(f"Nothing typed for {minutes(message.idle)}: this session closes in {minutes(message.seconds)} "
                  "unless you type a line (Enter will do).")

    def _exit(self, message: Exit) -> None:
        self.stop()

    # ---- a match -----------------------------------------------------------------------------------

    def _match_news(self, message: MatchState | Moved) -> None:
        code = message.code
        if code != self.following:
            return  # about a match this terminal has left meanwhile
        if message.notice is not None:
            message = replace(message, notice=in_lines(message.notice))
        remote, game = self.remote, self.game
        if remote is not None and game is not None and remote.code == code:
            over = remote.match.is_over
            if over and isinstance(message, MatchState):
                remote.on_change = None  # the rematch, if it is one, is told as a match of its own
                remote.update(message)
                if remote.match.is_over:
                    remote.on_change = game.changed_elsewhere
                    game.changed_elsewhere()
                else:
                    game.stop()
                    self._sit_at(remote)
                return
            remote.update(message)
            if remote.watching and isinstance(message, Moved):
                self._active()  # following a match that moves is not idleness
            return
        if not isinstance(message, MatchState):
            self._send(SyncMatch(code))  # a move before the whole match: ask for it
            return
        self.seeking, self.waiting_code = False, None
        self.remote = RemoteTable(message, self._send)
        if message.notice is not None:
            self.remote.notices.append(message.notice)
        self._sit_at(self.remote)

    def _sit_at(self, remote: RemoteTable) -> None:
        """The match at ``remote`` in lines, introduced with the server's news of it."""
        back = "lobby goes back to the lobby" + ("" if remote.watching else
                                                 f" (your seat is held for {minutes(self.hold_seconds)})")
        said = (f"{'Watching' if remote.watching else 'Playing'} match {remote.code}: say TEXT talks, talk reads the "
                f"last lines, {back}.")
        self.game = LineGame(remote, self._runner, self._say_lines, rematch=self._ask_rematch,
                             notice=" ".join([*remote.take_notices(), said]))
        self.game.start()

    def _ask_rematch(self, match: Match) -> None:
        """A rematch of a match between players is asked of the server: it begins once both asked."""
        if self.remote is not None:
            try:
                self.remote.ask_for_rematch()  # the server says what came of it
            except SolunaError as error:
                self._say(str(error))

    def _match_gone(self, message: MatchGone) -> None:
        if message.code == self.following and self.remote is not None:
            self._back_to_lobby(message.text, gone=True)
        else:
            self._say(message.text)

    def _back_to_lobby(self, notice: str, gone: bool = False) -> None:
        """Leave the match (a seat in a match still in play is held for the player), and say the lobby again."""
        remote, game = self.remote, self.game
        held = remote is not None and not gone and not remote.watching and not remote.match.is_over
        if game is not None:
            game.stop()
            game.table.on_change = None
            self._send(LeaveMatch())  # a match against the computer stays kept, offered in the lobby
        self.remote = self.game = None
        self.following = None
        way_back = (f"Your seat is held for {minutes(self.hold_seconds)}: type matches, then return, to take it "
                    "back." if held and remote is not None else "")
        self._say(notice, f"Back in the lobby. {way_back}".strip(),
                  "Type help for the menu, or quit to leave Soluna.")

    # ---- the lobby's commands ----------------------------------------------------------------------

    def _terms(self) -> MatchTerms:
        """A quick match's or a challenge's terms, as this player's kept settings say (a guest's never rated)."""
        choices = self.choices
        options = MatchOptions.preset(choices.rules, stars_to_win=choices.stars, discs=choices.discs,
                                      first_opener=choices.opener)
        return MatchTerms(options.to_dict(), choices.clock, self.rated and choices.rated, choices.hints)

    def _cmd_terms(self, argument: str) -> None:
        self._say(f"You offer: {terms_words(self._terms())}. Type stars 2, discs 8, or rules online or rules box "
                  "to change them.")

    def _cmd_stars(self, argument: str) -> None:
        self._set_term("stars", argument, MIN_STARS, MAX_STARS)

    def _cmd_discs(self, argument: str) -> None:
        self._set_term("discs", argument, MIN_DISCS, MAX_DISCS)

    def _cmd_rules(self, argument: str) -> None:
        rules = argument.casefold()
        if rules not in ("box", "online"):
            self._say("Type rules box (the loser of a round chooses who opens the next) or rules online (the loser "
                      "opens).")
            return
        self._keep(replace(self.choices, rules=rules))
        self._cmd_terms("")

    def _keep(self, choices: LobbyChoices) -> None:
        """The settings as they are now, kept with a key (the server hears a guest's too, and keeps nothing)."""
        self.choices = choices
        self._send(KeepChoices(choices))

    def _cmd_remember(self, argument: str) -> None:
        self._keep_lines(True)

    def _cmd_forget(self, argument: str) -> None:
        self._keep_lines(False)

    def _keep_lines(self, lines: bool) -> None:
        if not self.rated:
            self._say("Only a player who comes with an SSH key has settings kept: connect with a key (ssh -i).")
            return
        self._keep(replace(self.choices, screen_reader=lines))
        self._say("Kept with your key: Soluna opens in lines on every visit, even with plain ssh -p PORT HOST. "
                  "forget undoes it." if lines else
                  "Kept with your key: plain ssh -p PORT HOST opens the full screen again; ssh -t -p PORT HOST "
                  "screen-reader still opens these lines.")

    def _set_term(self, term: str, argument: str, least: int, most: int) -> None:
        if not (argument.isascii() and argument.isdigit() and least <= int(argument) <= most):
            self._say(f"Type {term} and a number from {least} to {most}, like {term} {least + 1}.")
            return
        number = int(argument)
        self._keep(replace(self.choices, stars=number) if term == "stars" else replace(self.choices, discs=number))
        self._cmd_terms("")

    def _cmd_computer(self, argument: str) -> None:
        try:
            level = check_level(argument) if argument else self.choices.level or FIRST_MATCHED.level
        except OptionError:
            self._say(f"There is no level {argument[:12]}: type computer and a level from 1 to 10, like computer 5.")
            return
        setup = self._computer_setup(level)
        table = self._computer_table(SavedMatch(setup, setup.new_match()))
        table.save()
        self._play_computer(table)

    def _computer_setup(self, level: str) -> MatchSetup:
        """A match against the computer on the terms offered. A guest's has hints; a keyed player's follows the
        Hints setting, and with hints off on 12 discs it is rated against the level's rating (as the full-screen
        lobby's settings make it)."""
        choices = self.choices
        options = MatchOptions.preset(choices.rules, stars_to_win=choices.stars, discs=choices.discs,
                                      first_opener=choices.opener)
        hints = not self.rated or choices.hints
        ranked = not hints and options.discs == CALIBRATED_DISCS
        return MatchSetup.against_computer(level, options, name=self.name, hints=hints, review=hints, rated=ranked)

    def _computer_table(self, saved: SavedMatch) -> LocalTable:
        table = LocalTable.from_saved(saved, self._keeper)
        setup = saved.setup
        if setup.rated and setup.computer_level is not None:
            table.notices.append(f"Rated against level {strength_of(setup.computer_level).rated}: no hints, no "
                                 "take-backs.")
        return table

    def _play_computer(self, table: LocalTable) -> None:
        self.following = None
        self.game = LineGame(table, self._runner, self._say_lines, rematch=self._computer_rematch,
                             notice="Type lobby to go back to the lobby: the server keeps this match for you.")
        self.game.start()

    def _computer_rematch(self, match: Match) -> Table:
        assert self.game is not None  # a rematch is asked for by the game
        setup = self.game.table.setup.with_seed(None)
        table = self._computer_table(SavedMatch(setup, match.rematch(setup.seed)))
        table.save()
        return table

    def _cmd_resume(self, argument: str) -> None:
        if self.computer is None:
            self._say("No match against the computer is kept for you.")
            return
        if self.computer.needs_secret and not argument:
            self._say("That match was kept for another terminal: type resume and its secret, like resume KQXPMR.")
            return
        self._send(ComputerResume(argument.upper() or None))

    def _resume_computer(self, message: ComputerGameKept) -> None:
        try:
            saved = SavedMatch.from_document(message.save)
        except SaveError as error:
            self._say(f"That match could not be resumed: {error}.")
            return
        self.secret = message.secret or self.secret
        self._play_computer(self._computer_table(saved))

    def _computer_result(self, message: ComputerResult) -> None:
        self._say(*(shift.line for shift in message.ratings), message.unrated or "")

    def _cmd_record(self, argument: str) -> None:
        self._send(AskRecord())

    def _record(self, message: PlayerRecord) -> None:
        recent = [f"{describe_recent(entry)}." for entry in message.recent[:RECENT_TOLD]]
        self._say(*summary_of(message).splitlines(), *(["Recent matches:", *recent] if recent else []))

    def _cmd_leaderboard(self, argument: str) -> None:
        if argument and not (argument.isascii() and argument.isdigit() and int(argument) >= 1):
            self._say("Type leaderboard, or leaderboard and a rank to start from, like leaderboard 21.")
            return
        self._send(AskLeaderboard(int(argument) - 1 if argument else 0))

    def _leaderboard(self, page: LeaderboardPage) -> None:
        matches = plural(page.minimum, "rated match", "rated matches")
        condition = matches + (f" against {plural(page.opponents, 'established opponent')}" if page.opponents else "")
        if not page.rows:
            head = f"Nobody is ranked {'there' if page.offset else 'yet'}: players are listed after {condition}."
        else:
            head = (f"The leaderboard, ranks {page.offset + 1} to {page.offset + len(page.rows)} of {page.total} "
                    f"(players with at least {condition}):")
        you = page.you
        if you is None:
            yours = "You play as a guest: connect with an SSH key to be rated and ranked."
        elif you.rank is not None:
            yours = f"You: rank {you.rank}, rating {you.rating}."
        elif you.rating is not None:
            yours = f"You: rating {you.rating}, not ranked until {condition}."
        else:
            yours = "You are not ranked yet: finish a rated match."
        more = (f"Type leaderboard {page.offset + len(page.rows) + 1} for the next ones."
                if page.offset + len(page.rows) < page.total else "")
        self._say(head, *(f"{row.rank}. {row.name}, rating {row.rating}, {row.played} played, {row.won} won."
                          for row in page.rows), yours, more)

    def _cmd_help(self, argument: str) -> None:
        self._say(*self._menu_lines(),
                  "Also: accept or decline a challenge, withdraw 1, watch 2, say TEXT, create, join ABCD, cancel "
                  "(stop looking or waiting), name NEW (with a key).")

    def _cmd_menu(self, argument: str) -> None:
        self._cmd_help(argument)

    def _cmd_quit(self, argument: str) -> None:
        self.stop()
        held = next((listed for listed in self.matches if listed.held is not None), None)
        if held is not None:
            self._say(f"Goodbye. Your seat in match {held.code} is held a while: connect again and type return.")
        else:
            self._say("Goodbye.")

    def _cmd_quick(self, argument: str) -> None:
        if self.seeking:
            self._say("You are looking for an opponent already: type cancel to stop.")
            return
        self.seeking = True
        self._say("Looking for an opponent...")
        self._send(Seek(self._terms()))

    def _cmd_create(self, argument: str) -> None:
        terms = self._terms()
        self.creating, self.seeking = True, False
        self._send(CreateMatch(terms.options, terms.hints, terms.clock))

    def _cmd_join(self, argument: str) -> None:
        code, _, secret = argument.upper().partition(" ")
        if not CODE.fullmatch(code):
            self._say("Which match? Type join and its four-letter code, like join ABCD.")
            return
        self.following = code
        self._send(JoinMatch(code, self.choices.hints, secret.replace(" ", "").replace("-", "") or None))

    def _cmd_cancel(self, argument: str) -> None:
        if self.waiting_code is not None:
            self.waiting_code = self.following = None
            self._send(CancelMatch())
            self._say("Match cancelled.")
            return
        if not self.seeking:
            self._say("You are not looking for an opponent, nor waiting for one.")
            return
        self.seeking = False
        self._send(CancelSeek())
        self._say("You stopped looking for an opponent.")

    def _others(self) -> list[OnlinePerson]:
        return [person for person in self.online.people if person.id != self.online.you]

    def _cmd_challenge(self, argument: str) -> None:
        names = ", ".join(person.name for person in self._others())
        if not argument:
            self._say("Whom? Type challenge and a name, like challenge bob. "
                      + (f"Online: {names}." if names else "Nobody else is online."))
            return
        wanted = argument.casefold()
        found = [person for person in self._others() if person.name.casefold() == wanted]
        if not found:
            self._say(f"Nobody called {argument[:40]} is online. " + (f"Online: {names}." if names else ""))
            return
        if len(found) > 1:
            self._say(f"{len(found)} people online are called {found[0].name}: the first is challenged.")
        self._send(ChallengePerson(found[0].id, self._terms()))

    def _cmd_challenges(self, argument: str) -> None:
        if not self.challenges:
            self._say("No challenges to or from you. Type challenge NAME to send one.")
            return
        self._say(*(f"{number}. {challenge_words(line)}." for number, line in enumerate(self.challenges, 1)),
                  "Type accept 1 or decline 1 for a challenge to you, withdraw 1 for one of yours.")

    def _challenge(self, argument: str, incoming: bool) -> ChallengeLine | None:
        """The challenge numbered ``argument`` (or the only one, or the newest to this player)."""
        if argument:
            if argument.isascii() and argument.isdigit() and 1 <= int(argument) <= len(self.challenges):
                line = self.challenges[int(argument) - 1]
                if line.incoming == incoming:
                    return line
            self._say(f"No challenge {'to' if incoming else 'from'} you numbered {argument[:8]}. "
                      "Type challenges for the list.")
            return None
        lines = [line for line in self.challenges if line.incoming == incoming]
        if not lines:
            self._say(f"No challenge {'to' if incoming else 'from'} you.")
            return None
        return lines[-1]

    def _cmd_accept(self, argument: str) -> None:
        line = self._challenge(argument, incoming=True)
        if line is not None:
            self._say(f"Accepting {line.name}'s challenge...")
            self._send(AnswerChallenge(line.id, True))

    def _cmd_decline(self, argument: str) -> None:
        line = self._challenge(argument, incoming=True)
        if line is not None:
            self._send(AnswerChallenge(line.id, False))

    def _cmd_withdraw(self, argument: str) -> None:
        line = self._challenge(argument, incoming=False)
        if line is not None:
            self._send(WithdrawChallenge(line.id))
            self._say(f"Challenge to {line.name} withdrawn.")

    def _cmd_who(self, argument: str) -> None:
        people = self.online.people
        if not people:  # the server lists a newcomer half a second after they come
            self._say("The list of who is online is on its way: type who again in a moment.")
            return
        total = max(self.online.total, len(people))
        self._say(f"{plural(total, 'person', 'people')} online:",
                  *(f"{person_words(person, self.online.you)}." for person in people))

    def _cmd_matches(self, argument: str) -> None:
        if not self.matches:
            self._say("No match in play. Type quick for a quick match.")
            return
        self._say(f"{plural(len(self.matches), 'match')} in play:",
                  *(listed_words(number, listed) for number, listed in enumerate(self.matches, 1)),
                  "Type watch and a number to watch one.")

    def _listed(self, argument: str) -> ListedMatch | None:
        if argument.isascii() and argument.isdigit() and 1 <= int(argument) <= len(self.matches):
            return self.matches[int(argument) - 1]
        code = argument.upper()
        return next((listed for listed in self.matches if listed.code == code), None)

    def _cmd_watch(self, argument: str) -> None:
        listed = self._listed(argument) if argument else None
        if listed is None:
            self._say("Which match? Type watch and its number from matches, like watch 1."
                      if self.matches else "No match in play to watch.")
            return
        self.following = listed.code
        self._send(WatchMatch(listed.code))

    def _cmd_return(self, argument: str) -> None:
        listed = next((listed for listed in self.matches if listed.yours), None)
        if listed is None:
            self._say("No seat of yours is held in a match in play.")
            return
        self.following = listed.code
        self._send(JoinMatch(listed.code, self.choices.hints))

    def _cmd_talk(self, argument: str) -> None:
        self._read_talk()

    def _read_talk(self) -> None:
        remote = self.remote
        code, watching = (remote.code, remote.watching) if remote is not None else (None, False)
        lines = self.talk.lines(code, watching)[-TALK_READ_BACK:]
        if self.talk.closed is not None:
            self._say(self.talk.closed)
        if not lines:
            self._say("No talk here yet. Type say and a line to talk.")
            return
        self._say(*(self._talk_words(line, remote is not None and not watching) for line in lines))

    def _cmd_say(self, argument: str) -> None:
        self._talk(argument)

    def _talk(self, text: str) -> None:
        if not text:
            self._say("Say what? Type say and the line, like say good game.")
            return
        try:
            chat_line(text)
        except ChatRefused as refusal:
            self._say(f"Not said: {refusal}")
            return
        self._send(Say(text))

