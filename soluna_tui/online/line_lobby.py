"""Runs in the child.

The lobby of a session in lines, for a screen reader (``ssh -t -p PORT HOST screen-reader``), then a match in lines.

``LineLobby`` is what ``line_session.py`` drives, as ``terminal_door.py`` drives the local line mode: typed lines in
(``take``), short sentences out (``say``), and each message from the server (``heard``). It speaks the same link as
the full-screen app (``link/messages.py``), kept in the same books (``who_is_online.py``, ``play/chat_book.py``): the
lobby is a numbered menu (a quick match, a challenge by name, the challenges to answer, who is online, the matches
in play to watch by number, talk), every line of talk is told with its speaker, and a match between players is the
line mode's own core (``line_mode/line_game.py``) at a ``RemoteTable``, which announces every move the server
reports, to a player or a spectator. Nothing here draws (the words for a challenge, a match's terms and a record
are the full screen's dialogs' own, so both say them alike). Its parts, each a mixin on the state
they share (``line_state.py``): talk (``line_talk.py``), quick matches, challenges and codes (``line_pairing.py``),
the matches at a table and against the computer (``line_tables.py``); its words are ``line_words.py``.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import replace
from typing import Any

from ..line_mode.runner import Runner
from ..line_mode.typed_lines import read_command
from ..link.messages import (
    AnswerTakeback,
    AskLeaderboard,
    AskRecord,
    BackAtTable,
    Challenges,
    ChallengeSent,
    Chat,
    ChooseName,
    ClosingSoon,
    ComputerGameKept,
    ComputerResult,
    ErrorReply,
    Exit,
    FinishedMatch,
    LeaderboardPage,
    LobbyListing,
    MatchGone,
    MatchState,
    Message,
    Moved,
    Notice,
    OnlineChanges,
    OnlinePeople,
    OpenSeeks,
    Paired,
    PlayerCard,
    PlayerRecord,
    Request,
    SecretNeeded,
    Seeking,
    TournamentPage,
    Tournaments,
    Waiting,
    Welcome,
)
from ..rules import MAX_DISCS, MIN_DISCS
from ..rules.match import MAX_STARS, MIN_STARS
from ..rules.wording import minutes, plural
from .line_cards import CardsPart
from .line_pairing import PairingPart
from .line_replays import ReplaysPart
from .line_tables import TablesPart
from .line_talk import TalkPart
from .line_tournaments import TournamentsPart
from .line_words import BACK_TO_LOBBY, LOBBY_ALIASES, LOBBY_WORDS, LONGEST_NAME_TYPED, MENU, RECENT_TOLD, person_words
from .screens.record import describe_recent, summary_of
from .screens.seeking import terms_words


class LineLobby(CardsPart, TournamentsPart, ReplaysPart, TalkPart, PairingPart, TablesPart):
    """The lobby in lines, then the match begun (a ``LineCore`` for the door): ``send`` tells the server,
    ``say`` shows lines, ``runner`` does the match's slow work, ``active`` tells the server the player is there."""

    def __init__(self, name: str, send: Callable[[Request], None], say: Callable[[list[str]], None],
                 runner: Runner, active: Callable[[], None] = lambda: None) -> None:
        super().__init__(name, send, say, runner, active)
        self._handlers: dict[type[Message], Callable[[Any], None]] = {
            Welcome: self._welcome, LobbyListing: self._listing, OnlinePeople: self._people,
            OnlineChanges: self._people, Chat: self._chat, Challenges: self._challenges,
            ChallengeSent: self._challenge_sent, Seeking: self._seeking, Paired: self._paired, Waiting: self._waiting,
            MatchState: self._match_news, Moved: self._match_news, MatchGone: self._match_gone, Notice: self._notice,
            ErrorReply: self._error, ClosingSoon: self._closing_soon, Exit: self._exit,
            ComputerGameKept: self._resume_computer, ComputerResult: self._computer_result,
            SecretNeeded: self._secret_needed, PlayerRecord: self._record, LeaderboardPage: self._leaderboard,
            BackAtTable: self._back_at_table, OpenSeeks: self._open_seeks, Tournaments: self._tournaments,
            TournamentPage: self._tournament_page,
            PlayerCard: self._card, FinishedMatch: self._finished_match,
        }

    @property
    def prompt(self) -> str:
        if self.finished:
            return ""
        if self.game is not None:
            return self.game.prompt
        if self.replay is not None:
            return self.replay.prompt
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
            elif word in ("mute", "unmute", "report", "tell", "tournaments", "tournament"):
                getattr(self, f"_cmd_{word}")(text[len(word):].strip())
            elif word in ("accept", "decline"):
                if self._takeback_asked():
                    self._send(AnswerTakeback(word == "accept"))  # the opponent's takeback request answered
                else:
                    self._say(f"Nothing to {word}: nobody asks for a takeback now.")
            else:
                self.game.take(line)
                if word in ("help", "?"):
                    self._say("Here also: say TEXT talks, talk reads the last lines, mute NAME, unmute NAME and "
                              "report NAME as in the lobby, lobby goes back to the lobby.")
            return
        if self.replay is not None:
            if text.casefold() in BACK_TO_LOBBY:
                self._leave_replay()
            else:
                self.replay.take(text)
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

    def _menu_lines(self) -> list[str]:
        return ["The lobby. Type a number or a word:", *(f"{number}. {words}" for number, _, words in MENU)]

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

    def _people(self, message: OnlinePeople | OnlineChanges) -> None:
        if isinstance(message, OnlinePeople):
            self.online.take(message)
        else:
            self.online.apply(message)

    def _cmd_who(self, argument: str) -> None:
        people = self.online.people
        if not people:  # the server lists a newcomer a moment after they come
            self._say("The list of who is online is on its way: type who again in a moment.")
            return
        total = max(self.online.total, len(people))
        self._say(f"{plural(total, 'person', 'people')} online:",
                  *(f"{person_words(person, self.online.you)}." for person in people))

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

    def _cmd_record(self, argument: str) -> None:
        self._send(AskRecord())

    def _record(self, message: PlayerRecord) -> None:
        self.recent = message.recent[:RECENT_TOLD]
        recent = [f"{number}. {describe_recent(entry)}." for number, entry in enumerate(self.recent, 1)]
        self._say(*summary_of(message).splitlines(),
                  *(["Recent matches (replay 1 replays the first, move by move):", *recent] if recent else []))

    def _cmd_leaderboard(self, argument: str) -> None:
        if argument and not (argument.isascii() and argument.isdigit() and int(argument) >= 1):
            self._say("Type leaderboard, or leaderboard and a rank to start from, like leaderboard 21.")
            return
        self._send(AskLeaderboard(int(argument) - 1 if argument else 0))

    def _leaderboard(self, page: LeaderboardPage) -> None:
        self._board = page  # finger NAME finds its players too
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
