"""Shared by the server process and the child: every message between the server and a session's child.

Each is declared once as a small value.

A message is a frozen dataclass that knows its wire ``type``, its fields declared with the
length each may have (``Longest``); ``wire.py`` turns one into the JSON object that travels
and reads one back, every field checked against its declaration. What is not a message is a
``ProtocolError``: the server never trusts what a child says.

``Request`` is what a child asks of the server, ``Reply`` what the server tells a child; a
few names exist both ways (``leaderboard``, ``record``, ``finished_match``: the question and
its answer), so a line is read as one or the other (``REQUESTS``, ``REPLIES``). A ``Question``
is a request whose ``Answer`` (or ``error``) goes back to whoever asked: the child numbers it
(``ask``) and the answer carries the number (``answer_to``).
"""

from __future__ import annotations

import enum
import types
from collections.abc import Mapping
from dataclasses import dataclass
from typing import Annotated, Any, ClassVar, Final, Literal

from ..rules.clock import ClockReading, ClockSetting
from ..rules.end_reason import EndReason
from .safe_talk import CHAT_LONGEST, MATCH_LINES_KEPT, Room

#: The longest crash report a child sends (its traceback's end).
CRASH_REPORT_LIMIT: Final = 8000
#: Sentences (notices, errors) are at most this long.
LONGEST_TEXT: Final = 1000
#: The longest list of matches in play, of leaderboard rows or of recent matches a reply carries.
LONGEST_LISTING: Final = 5000
#: The most people the lobby's online list carries (the first to arrive; everyone is counted).
ONLINE_LISTED: Final = 100
#: The most spectators of a match named (everyone is counted).
SPECTATORS_NAMED: Final = 8
#: The most challenges to and from one player a list carries (the server keeps fewer open).
CHALLENGES_LISTED: Final = 32


class ProtocolError(ValueError):
    """A line that is not a message of this protocol."""


@dataclass(frozen=True)
class Longest:
    """How long a string, list or object in this field may be (``rules.json_fields.LONGEST`` without it)."""

    limit: int


Code = Annotated[str, Longest(8)]
Secret = Annotated[str, Longest(20)]
MoveText = Annotated[str, Longest(40)]
Text = Annotated[str, Longest(LONGEST_TEXT)]
#: A document read by its own reader where it is used (a match, a saved match): a few keys.
Document = Annotated[dict[str, Any], Longest(16)]
Severity = Literal["information", "warning", "error"]
#: A name as others see it (a chosen name, an SSH user name cleaned, "ann (guest)"), at most this long.
LONGEST_NAME: Final = 40
ShownName = Annotated[str, Longest(LONGEST_NAME)]
#: A chat line as said (the server cleans it and cuts nothing: a longer line is refused), and as heard.
SaidText = Annotated[str, Longest(LONGEST_TEXT)]
HeardText = Annotated[str, Longest(CHAT_LONGEST)]


class Message:
    """A message of either side; a subclass declares its wire ``TYPE`` and its fields."""

    TYPE: ClassVar[str]


class Request(Message):
    """What a session's child asks of the server."""


class Reply(Message):
    """What the server tells a session's child."""


class Question(Request):
    """A request answered by one ``Answer`` (or an ``error``) for whoever asked: the child numbers it
    (``ask``), the server's answer carries the number back (``answer_to``), so the answer reaches the
    screen that asked whatever is on top meanwhile. Each question declares ``ask`` as its last field."""

    __dataclass_fields__: ClassVar[dict[str, Any]]  # every question is a dataclass: ``replace`` sets ``ask``
    ask: int | None


class Answer(Reply):
    """The server's answer to a ``Question``; ``answer_to`` is the question's ``ask`` (``None``: unasked,
    such as the welcome on arrival). Each answer declares ``answer_to`` as its last field."""

    __dataclass_fields__: ClassVar[dict[str, Any]]  # every answer is a dataclass: ``replace`` sets ``answer_to``
    answer_to: int | None


# ---- records inside replies -------------------------------------------------------------------


@dataclass(frozen=True)
class LobbyChoices:
    """The lobby's settings as a player left them: kept with their key, set again on their next visit."""

    level: Annotated[str, Longest(16)]
    rules: Annotated[str, Longest(16)]
    stars: int
    discs: int
    opener: Literal[0, 1]
    hints: bool
    clock: ClockSetting | None = None
    #: Left out of the lobby's list of who is online (and named to nobody as watching a match).
    hidden: bool = False
    #: Quick matches and challenges sent: rated (keyed players only, never one address) or not.
    rated: bool = True
    #: Every challenge refused at once.
    refuse_challenges: bool = False
    #: The game in lines for a screen reader on every visit with this key, without asking for it by its command
    #: (``ssh -t HOST screen-reader``).
    screen_reader: bool = False
    #: The full screen shows the terminal's real cursor on the focus, for a braille display (``--cursor-follows-focus``
    #: on this terminal).
    cursor_follows_focus: bool = False
    #: The terminal's bell when the opponent moves, a challenge comes or a pairing is made (at a match: its players').
    bell: bool = True


@dataclass(frozen=True)
class ListedMatch:
    """A match in play in the lobby's listing (the screen shows its code only where the seat is this player's)."""

    code: Code
    players: tuple[str, str]
    round: int
    stars: tuple[int, int]
    watchers: int
    away: tuple[bool, bool]
    #: This player's own seat is held there (they may take it back).
    yours: bool = False
    #: Seconds this player's seat is still held, while they are away from it (``None``: not away, or not theirs).
    held: float | None = None


@dataclass(frozen=True)
class ComputerOffer:
    """A match against the computer kept for this player, offered to resume."""

    level: str
    round: int
    stars: tuple[int, int]
    needs_secret: bool


@dataclass(frozen=True)
class LeaderboardRow:
    rank: int
    name: str
    rating: int
    played: int
    won: int
    #: The number the server tells this player by (``OnlinePerson.id``): their card is asked by it (``AskCard``).
    person: int | None = None


@dataclass(frozen=True)
class Standing:
    """Where the player asking stands (``None`` parts: not rated yet)."""

    rank: int | None
    rating: int | None


class SideResult(enum.StrEnum):
    """How a finished match ended for one player."""

    WON = "won"
    LOST = "lost"
    ABANDONED = "abandoned"
    #: Ended before both players had moved: nobody won, nothing rated.
    ABORTED = "aborted"


@dataclass(frozen=True)
class RecentMatch:
    """One of a player's finished matches, from their side."""

    id: int
    opponent: str
    result: SideResult
    forfeit: bool
    stars: tuple[int, int]
    finished_at: float
    #: Won or lost because a clock ran out.
    on_time: bool = False
    #: How it ended (on the board, on time, by forfeit, by resignation...); ``None``: not said.
    ended: EndReason | None = None
    #: A rated match: this player's rating before and after it, as players see ratings.
    rating: tuple[int, int] | None = None


@dataclass(frozen=True)
class RatingShift:
    """One player's rating before and after a rated match, as players see ratings."""

    name: str
    before: int
    after: int

    @property
    def line(self) -> str:
        """``ann: rating 1000 to 1021 (+21)``: as the match-over summary shows it."""
        return f"{self.name}: rating {self.before} to {self.after} ({self.after - self.before:+d})"


class Doing(enum.StrEnum):
    """What someone online is doing, as the lobby's list says."""

    LOBBY = "lobby"
    #: A match created, waiting for its opponent.
    WAITING = "waiting"
    PLAYING = "playing"
    WATCHING = "watching"
    COMPUTER = "computer"


@dataclass(frozen=True)
class OnlinePerson:
    """Someone connected now, as the lobby's list of who is online shows them. ``id`` is who they are in the
    changes that follow (their key, or a guest's session: never their name, which two guests may share)."""

    id: int
    name: ShownName
    #: Came with an SSH key (rated); else a guest.
    keyed: bool
    #: A keyed player's rating as players see it (``None``: no rated match yet, or a guest).
    rating: int | None
    doing: Doing
    #: Whom: the opponent (playing), the two players (watching), the computer's level (playing it).
    others: Annotated[tuple[ShownName, ...], Longest(2)] = ()


@dataclass(frozen=True)
class ChatLine:
    """One line of table talk as a terminal hears it: its number (to report it), the room it was said in, who
    said it (``speaker``: a number this server gave them, to mute them by; never their key) and what."""

    id: int
    room: Room
    speaker: int
    name: ShownName
    text: HeardText
    #: When it was said (seconds since the epoch).
    at: float
    #: This player said it.
    yours: bool = False
    #: A tell: a private line to this player (``name`` the teller), or from them (``yours``: ``name`` the one told).
    tell: bool = False


@dataclass(frozen=True)
class MatchTerms:
    """What a quick match or a challenge is for: the match's options and clock, rated or not, hints allowed (the
    player's own, as when creating or joining)."""

    options: Annotated[dict[str, Any], Longest(10)]
    clock: ClockSetting | None = None
    rated: bool = False
    hints: bool = False


@dataclass(frozen=True)
class ChallengeLine:
    """A challenge this player sent (``incoming`` False) or has to answer: who the other is, the terms, when it
    was sent; ``waiting``: the one challenged is at a match, and is told once back in the lobby."""

    id: int
    name: ShownName
    incoming: bool
    terms: MatchTerms
    sent_at: float
    rating: int | None = None
    waiting: bool = False


@dataclass(frozen=True)
class SignedInBrowser:
    """A browser signed in as this key's player: when it was linked, when last seen, from which address, and what it
    said it was (its browser and system, in a few words)."""

    id: int
    linked_at: float
    last_seen: float
    address: Annotated[str, Longest(64)]
    agent: Annotated[str, Longest(60)]


# ---- child to server ----------------------------------------------------------------------------


@dataclass(frozen=True)
class CreateMatch(Question):
    TYPE: ClassVar[str] = "create"
    options: Annotated[dict[str, Any], Longest(10)]
    hints: bool
    #: One of the clocks the server offers (its ``Welcome`` lists them), or ``None``: no clock.
    clock: ClockSetting | None = None
    ask: int | None = None


@dataclass(frozen=True)
class JoinMatch(Question):
    """Join a waiting match, or come back to a held seat (with the seat's secret when without its key)."""

    TYPE: ClassVar[str] = "join"
    code: Code
    hints: bool
    secret: Secret | None = None
    ask: int | None = None


@dataclass(frozen=True)
class WatchMatch(Question):
    TYPE: ClassVar[str] = "watch"
    code: Code
    ask: int | None = None


@dataclass(frozen=True)
class CancelMatch(Request):
    """Stop waiting for an opponent."""

    TYPE: ClassVar[str] = "cancel"


@dataclass(frozen=True)
class LeaveMatch(Request):
    """Back to the lobby from the match ``code`` (``None``: from whatever match, a computer's too): the server leaves
    only that match, never one the player was seated at meanwhile (a tournament's next pairing)."""

    TYPE: ClassVar[str] = "leave"
    code: Code | None = None


@dataclass(frozen=True)
class PlayMove(Request):
    """A move, and the moment it was played at (a late one is refused)."""

    TYPE: ClassVar[str] = "move"
    move: MoveText
    round: int
    ply: int


@dataclass(frozen=True)
class StartNextRound(Request):
    TYPE: ClassVar[str] = "next_round"
    opener: int
    round: int


@dataclass(frozen=True)
class AskRematch(Request):
    TYPE: ClassVar[str] = "rematch"


@dataclass(frozen=True)
class Resign(Request):
    """Give the match up (asked first on the player's screen): the opponent wins."""

    TYPE: ClassVar[str] = "resign"


@dataclass(frozen=True)
class SyncMatch(Request):
    """The whole state again, after a gap in versions."""

    TYPE: ClassVar[str] = "sync"
    code: Code


@dataclass(frozen=True)
class ComputerSaved(Request):
    """The session's match against the computer after each change (kept through a lost connection)."""

    TYPE: ClassVar[str] = "computer_saved"
    save: Document


@dataclass(frozen=True)
class ComputerDropped(Request):
    """The match against the computer is over or given up."""

    TYPE: ClassVar[str] = "computer_dropped"


@dataclass(frozen=True)
class ComputerResume(Question):
    TYPE: ClassVar[str] = "computer_resume"
    secret: Secret | None = None
    ask: int | None = None


@dataclass(frozen=True)
class AskLeaderboard(Question):
    TYPE: ClassVar[str] = "leaderboard"
    offset: int
    ask: int | None = None


@dataclass(frozen=True)
class AskRecord(Question):
    TYPE: ClassVar[str] = "record"
    ask: int | None = None


@dataclass(frozen=True)
class AskFinishedMatch(Question):
    TYPE: ClassVar[str] = "finished_match"
    id: int
    ask: int | None = None


@dataclass(frozen=True)
class ChooseName(Question):
    TYPE: ClassVar[str] = "choose_name"
    name: Annotated[str, Longest(80)]
    ask: int | None = None


@dataclass(frozen=True)
class KeepChoices(Request):
    """The lobby's settings changed (and then stayed a moment): a player with a key finds them so next time."""

    TYPE: ClassVar[str] = "keep_choices"
    choices: LobbyChoices


@dataclass(frozen=True)
class Seek(Question):
    """Find me an opponent with these terms (a quick match): paired at once, or waiting (``Seeking``)."""

    TYPE: ClassVar[str] = "seek"
    terms: MatchTerms
    ask: int | None = None


@dataclass(frozen=True)
class CancelSeek(Request):
    """Stop waiting for a quick match (nothing, once paired)."""

    TYPE: ClassVar[str] = "cancel_seek"


@dataclass(frozen=True)
class ChallengePerson(Question):
    """Challenge someone in the list of who is online (by its ``OnlinePerson.id``) to a match on these terms."""

    TYPE: ClassVar[str] = "challenge"
    person: int
    terms: MatchTerms
    ask: int | None = None


@dataclass(frozen=True)
class AnswerChallenge(Question):
    """Accept (the match is created, ``Waiting``, and the challenger joins it) or decline a challenge."""

    TYPE: ClassVar[str] = "answer_challenge"
    id: int
    accept: bool
    ask: int | None = None


@dataclass(frozen=True)
class WithdrawChallenge(Request):
    TYPE: ClassVar[str] = "withdraw_challenge"
    id: int


@dataclass(frozen=True)
class AskBrowserCode(Question):
    """A code that signs a browser in as this key's player (a keyed player over SSH, where there is a web door)."""

    TYPE: ClassVar[str] = "browser_code"
    ask: int | None = None


@dataclass(frozen=True)
class AskBrowsers(Question):
    """The browsers signed in as this key's player."""

    TYPE: ClassVar[str] = "browsers"
    ask: int | None = None


@dataclass(frozen=True)
class RevokeBrowser(Question):
    """Sign this browser out (its tabs closed, its cookie no good); answered with the browsers left."""

    TYPE: ClassVar[str] = "revoke_browser"
    id: int
    ask: int | None = None


@dataclass(frozen=True)
class CrashReport(Request):
    """The end of a child's traceback, for the server's log (never the player's screen)."""

    TYPE: ClassVar[str] = "crash"
    text: Annotated[str, Longest(CRASH_REPORT_LIMIT)]


@dataclass(frozen=True)
class Activity(Request):
    """The player did something (a key that acted, a click on something): the idle timeout starts again."""

    TYPE: ClassVar[str] = "activity"


@dataclass(frozen=True)
class Say(Request):
    """A chat line, said where this terminal is: the lobby, its match's players or its spectators."""

    TYPE: ClassVar[str] = "say"
    text: SaidText


@dataclass(frozen=True)
class MuteChat(Request):
    """Hear one person (``speaker``, as a chat line numbered them) no more, or nobody (``None``); ``muted`` False:
    hear them again. With ``name`` (and no ``speaker``), mute someone online under that name whose lines this
    terminal has not heard yet, or hear again whoever was muted under it (a mute kept from an earlier visit)."""

    TYPE: ClassVar[str] = "mute"
    speaker: int | None
    muted: bool = True
    name: ShownName | None = None


@dataclass(frozen=True)
class ReportChat(Request):
    """A chat line (by its number) reported to the server's owner."""

    TYPE: ClassVar[str] = "report"
    line: int


# ---- server to child ----------------------------------------------------------------------------


@dataclass(frozen=True)
class Welcome(Answer):
    """This session's secret, how long seats are held (in all, over a match), who the server says this player
    is, the clocks a match may be created with, how many rated matches put a player on the leaderboard, and
    the lobby's settings as this player's key last left them."""

    TYPE: ClassVar[str] = "welcome"
    secret: Secret
    hold_seconds: float
    name: str | None = None
    rated: bool | None = None
    name_chosen: bool = True
    clocks: Annotated[tuple[ClockSetting, ...], Longest(8)] = ()
    ranked_after: int = 0
    #: The leaderboard's other conditions: established opponents, and a pair's rated matches in 24 hours.
    ranked_opponents: int = 0
    pair_rated_per_day: int = 0
    choices: LobbyChoices | None = None
    #: Whether this server pairs players who ask for an opponent, and passes challenges on.
    quick_match: bool = False
    challenges: bool = False
    #: Whether this player may sign a browser in as themselves here (a key over SSH, a server with a web door).
    browser_link: bool = False
    answer_to: int | None = None


@dataclass(frozen=True)
class Seeking(Answer):
    """Waiting for a quick match on these terms, since then (the store's time)."""

    TYPE: ClassVar[str] = "seeking"
    since: float
    answer_to: int | None = None


@dataclass(frozen=True)
class Paired(Reply):
    """A quick match found, or a challenge accepted: this terminal joins the match ``code`` against ``opponent``
    (its ``MatchState`` follows)."""

    TYPE: ClassVar[str] = "paired"
    code: Code
    opponent: ShownName


@dataclass(frozen=True)
class ChallengeSent(Answer):
    TYPE: ClassVar[str] = "challenge_sent"
    name: ShownName
    answer_to: int | None = None


@dataclass(frozen=True)
class Challenges(Reply):
    """The challenges open to and from this player, all of them, each time they change; ``new``: the ids of
    those just come to this player (a notice says so)."""

    TYPE: ClassVar[str] = "challenges"
    challenges: Annotated[tuple[ChallengeLine, ...], Longest(CHALLENGES_LISTED)]
    new: Annotated[tuple[int, ...], Longest(CHALLENGES_LISTED)] = ()


@dataclass(frozen=True)
class LobbyListing(Reply):
    TYPE: ClassVar[str] = "lobby"
    matches: Annotated[tuple[ListedMatch, ...], Longest(LONGEST_LISTING)]
    computer: ComputerOffer | None = None


@dataclass(frozen=True)
class OnlinePeople(Reply):
    """Who is online, all at once (on arrival in the lobby): the people listed (at most ``ONLINE_LISTED``),
    how many are listed in all, and which of them is this player (``None``: not listed). Changes follow."""

    TYPE: ClassVar[str] = "online"
    people: Annotated[tuple[OnlinePerson, ...], Longest(ONLINE_LISTED)]
    total: int
    you: int | None = None


@dataclass(frozen=True)
class OnlineChanges(Reply):
    """Who is online, what changed: people who came or whose line changed (by ``id``), people who went."""

    TYPE: ClassVar[str] = "online_changes"
    came: Annotated[tuple[OnlinePerson, ...], Longest(ONLINE_LISTED)] = ()
    went: Annotated[tuple[int, ...], Longest(ONLINE_LISTED)] = ()
    total: int = 0


@dataclass(frozen=True)
class Spectators(Reply):
    """Who watches the match this terminal shows: how many, and the names of those who do not hide (at most
    ``SPECTATORS_NAMED``)."""

    TYPE: ClassVar[str] = "spectators"
    code: Code
    count: int
    names: Annotated[tuple[ShownName, ...], Longest(SPECTATORS_NAMED)] = ()


@dataclass(frozen=True)
class Chat(Reply):
    """Table talk: a room's lines so far (``whole``: as the terminal comes to it), or a line just said. ``code``:
    the match the room is at (``None``: the lobby); ``closed``: why this player may not talk (chat off, guests
    not allowed), ``None`` when they may; ``refused``: why this player's last line was not said (or what became
    of a report), in one line."""

    TYPE: ClassVar[str] = "chat"
    room: Room
    lines: Annotated[tuple[ChatLine, ...], Longest(MATCH_LINES_KEPT)]
    whole: bool = False
    code: Code | None = None
    closed: Text | None = None
    refused: Text | None = None


@dataclass(frozen=True)
class Waiting(Answer):
    """A created match's code, while it waits for an opponent."""

    TYPE: ClassVar[str] = "waiting"
    code: Code
    answer_to: int | None = None


@dataclass(frozen=True)
class MatchState(Reply):
    """The whole match, this terminal's seat (``None``: watching) and the match's ``version``."""

    TYPE: ClassVar[str] = "match"
    code: Code
    version: int
    seat: Literal[0, 1] | None
    match: Document
    hints: bool = False
    #: Per seat: ``None`` while the player is here, else the seconds the seat is still held.
    away: tuple[float | None, float | None] = (None, None)
    secret: Secret | None = None
    notice: Text | None = None
    #: The match's clock, if it has one.
    clock: ClockReading | None = None
    #: How the match ended, once it is over (played out, by forfeit, on time).
    ended: EndReason | None = None
    #: A rated match over: what it did to each player's rating (by seat).
    ratings: tuple[RatingShift, ...] = ()
    #: Sent because the server found its database away (the clocks shown stopped): never the answer to a move this
    #: terminal has just sent, which stays on its board until the server says what became of it.
    clocks_stopped: bool = False
    #: The seat that asks to take its last move back, while the other has not answered (``None``: nobody asks).
    takeback: Literal[0, 1] | None = None
    #: The tournament the match is played for (``None``: none): no rematch, and the next pairing comes by itself.
    tournament: ShownName | None = None


@dataclass(frozen=True)
class Moved(Reply):
    """One move: the match's next ``version``."""

    TYPE: ClassVar[str] = "moved"
    code: Code
    version: int
    round: int
    ply: int
    move: MoveText
    notice: Text | None = None
    #: The match's clock after the move, if it has one.
    clock: ClockReading | None = None


@dataclass(frozen=True)
class SecretNeeded(Answer):
    """Coming back without the key: the secret is asked for (``code`` ``None``: a computer match)."""

    TYPE: ClassVar[str] = "secret_needed"
    code: Code | None
    answer_to: int | None = None


@dataclass(frozen=True)
class ComputerGameKept(Answer):
    """A match against the computer to resume."""

    TYPE: ClassVar[str] = "computer_game"
    secret: Secret
    save: Document
    answer_to: int | None = None


@dataclass(frozen=True)
class Notice(Reply):
    TYPE: ClassVar[str] = "notice"
    text: Text
    severity: Severity = "information"


@dataclass(frozen=True)
class ComputerResult(Reply):
    """A rated match against the computer, filed: what it did to the player's rating and the level's (which
    does not move), by seat, or why it was not rated after all (``unrated``, one line)."""

    TYPE: ClassVar[str] = "computer_result"
    ratings: tuple[RatingShift, ...] = ()
    unrated: Text | None = None


@dataclass(frozen=True)
class MatchGone(Reply):
    """The match this terminal shows has gone from play without a result (abandoned, aborted): the lobby
    again, and why."""

    TYPE: ClassVar[str] = "match_gone"
    code: Code
    text: Text


@dataclass(frozen=True)
class ErrorReply(Answer):
    """A request that could not be done, and why."""

    TYPE: ClassVar[str] = "error"
    text: Text
    answer_to: int | None = None


@dataclass(frozen=True)
class ClosingSoon(Reply):
    """No key pressed for a while: the session closes in ``seconds`` unless the player presses one."""

    TYPE: ClassVar[str] = "closing_soon"
    idle: float
    seconds: float


@dataclass(frozen=True)
class Exit(Reply):
    """The session is ending: the child leaves by itself (which restores the player's terminal)."""

    TYPE: ClassVar[str] = "exit"


@dataclass(frozen=True)
class LeaderboardPage(Answer):
    TYPE: ClassVar[str] = "leaderboard"
    offset: int
    total: int
    rows: Annotated[tuple[LeaderboardRow, ...], Longest(LONGEST_LISTING)]
    you: Standing | None = None
    #: The fewest rated matches a player on the board has played, and different established opponents.
    minimum: int = 0
    opponents: int = 0
    answer_to: int | None = None


@dataclass(frozen=True)
class PlayerRecord(Answer):
    """A player's own record: rating, rank, counts and recent matches."""

    TYPE: ClassVar[str] = "record"
    name: str
    rated: bool
    rating: int | None
    rank: int | None
    played: int
    won: int
    lost: int
    recent: Annotated[tuple[RecentMatch, ...], Longest(LONGEST_LISTING)] = ()
    #: Rated matches against the computer won and lost (``played``, ``won`` and ``lost`` are between people).
    computer: tuple[int, int] = (0, 0)
    answer_to: int | None = None


@dataclass(frozen=True)
class FinishedMatch(Answer):
    """A finished match the player asked to replay."""

    TYPE: ClassVar[str] = "finished_match"
    id: int
    players: tuple[str, str]
    result: EndReason
    finished_at: float
    match: Document
    answer_to: int | None = None


@dataclass(frozen=True)
class BrowserCode(Answer):
    """A one-time code (``ABCD-EFGHJK``) that signs a browser in as this key's player, the page's address with it,
    and the seconds it may be used in."""

    TYPE: ClassVar[str] = "browser_code"
    code: Annotated[str, Longest(16)]
    link: Annotated[str, Longest(300)]
    seconds: float
    answer_to: int | None = None


@dataclass(frozen=True)
class Browsers(Answer):
    """The browsers signed in as this key's player, the last seen first."""

    TYPE: ClassVar[str] = "browsers"
    browsers: Annotated[tuple[SignedInBrowser, ...], Longest(LONGEST_LISTING)]
    answer_to: int | None = None


# ---- player cards, tells and the seats' people (issue 42) -----------------------------------------


#: The most ratings a card's graph carries (the last rated matches).
GRAPH_POINTS: Final = 40


@dataclass(frozen=True)
class SeatPerson:
    """Who sits at a seat of the match shown: the number the server tells them by (``OnlinePerson.id``; their card
    is asked by it, ``None``: none to ask) and, for a keyed player, their rating (``None``: none yet, or a guest)."""

    person: int | None
    keyed: bool = False
    rating: int | None = None


@dataclass(frozen=True)
class AskCard(Question):
    """A player's card, by the number the server tells them by (``OnlinePerson.id``, ``LeaderboardRow.person``,
    ``SeatPerson.person``): never by a name, which changes."""

    TYPE: ClassVar[str] = "card"
    person: int
    ask: int | None = None


@dataclass(frozen=True)
class TellPerson(Request):
    """A private line to one person online (on any server), named as they are shown."""

    TYPE: ClassVar[str] = "tell"
    name: Annotated[str, Longest(80)]
    text: SaidText


@dataclass(frozen=True)
class SeatPeople(Reply):
    """Who sits at each seat of the match ``code`` (the tally shows a keyed player's rating beside the name)."""

    TYPE: ClassVar[str] = "seat_people"
    code: Code
    seats: Annotated[tuple[SeatPerson, ...], Longest(2)]


@dataclass(frozen=True)
class PlayerCard(Answer):
    """A player's card: who, their rating and its graph (the rating after each of the last rated matches, oldest
    first), their rated record, their record against the player asking (``None``: their own card, or asked by a
    guest), recent matches (each replayable) and since when the server knows their key (``None``: a guest, whose
    recent matches are this visit's)."""

    TYPE: ClassVar[str] = "card"
    person: int
    name: ShownName
    keyed: bool
    rating: int | None = None
    rank: int | None = None
    played: int = 0
    won: int = 0
    lost: int = 0
    graph: Annotated[tuple[int, ...], Longest(GRAPH_POINTS)] = ()
    against_you: tuple[int, int] | None = None
    recent: Annotated[tuple[RecentMatch, ...], Longest(LONGEST_LISTING)] = ()
    member_since: float | None = None
    answer_to: int | None = None


# ---- takebacks and coming back (appended) ----------------------------------------------------------------


@dataclass(frozen=True)
class AskTakeback(Request):
    """Ask the opponent to take this player's last move back (``u`` in a match between two players)."""

    TYPE: ClassVar[str] = "ask_takeback"


@dataclass(frozen=True)
class AnswerTakeback(Request):
    """The opponent's takeback request accepted (the move is taken back) or declined."""

    TYPE: ClassVar[str] = "answer_takeback"
    accept: bool


@dataclass(frozen=True)
class BackAtTable(Reply):
    """A keyed player connected again while their match ``code`` runs: this terminal sits at it again (its
    ``MatchState`` follows)."""

    TYPE: ClassVar[str] = "back_at_table"
    code: Code


# ---- tournaments (issue 42) --------------------------------------------------------------------------------


#: The most tournaments a list carries, and the most standings or pairings a tournament's page carries.
TOURNAMENTS_LISTED: Final = 50
TOURNAMENT_ROWS: Final = 500
TournamentKind = Literal["swiss", "arena"]
TournamentState = Literal["upcoming", "running", "finished", "cancelled"]


@dataclass(frozen=True)
class TournamentLine:
    """A tournament as the lobby's list shows it: its kind and length (a Swiss's rounds, an arena's minutes), when it
    starts (the store's time), its match terms, who may enter, how many have, and whether this player has."""

    id: int
    name: ShownName
    kind: TournamentKind
    state: TournamentState
    length: int
    starts_at: float
    terms: MatchTerms
    entrants: int
    joined: bool = False
    min_rating: int | None = None
    min_rated_matches: int = 0
    #: Once finished: the winner's name.
    winner: ShownName | None = None


@dataclass(frozen=True)
class TournamentStanding:
    """One entrant's line in a tournament's standings: points (a draw's half as .5), the tie-breaks (a Swiss's
    Buchholz and Sonneborn-Berger; an arena's none), matches played, paused (missed a pairing), this player."""

    rank: int
    name: ShownName
    points: float
    played: int
    tie_breaks: Annotated[tuple[float, ...], Longest(4)] = ()
    paused: bool = False
    you: bool = False


@dataclass(frozen=True)
class TournamentGame:
    """One pairing of a tournament: its round (an arena's pairings are numbered in order), the two players (the
    second ``None``: a bye) and its result as the standings count it (``""``: in play)."""

    round: int
    players: tuple[ShownName, ShownName | None]
    result: Annotated[str, Longest(40)] = ""


@dataclass(frozen=True)
class AskTournaments(Question):
    """The tournaments: upcoming, running, and lately finished."""

    TYPE: ClassVar[str] = "tournaments"
    ask: int | None = None


@dataclass(frozen=True)
class AskTournament(Question):
    """One tournament's page (anyone may ask, entrant or not)."""

    TYPE: ClassVar[str] = "tournament"
    id: int
    ask: int | None = None


@dataclass(frozen=True)
class JoinTournament(Question):
    """Enter a tournament (a keyed player meeting its minimum), or come back to it once paused: its page answers."""

    TYPE: ClassVar[str] = "join_tournament"
    id: int
    ask: int | None = None


@dataclass(frozen=True)
class WithdrawTournament(Question):
    """Leave a tournament (a match in play is played out): its page answers."""

    TYPE: ClassVar[str] = "withdraw_tournament"
    id: int
    ask: int | None = None


@dataclass(frozen=True)
class CreateTournament(Question):
    """A keyed player announces a tournament, where the server lets players do so: its page answers."""

    TYPE: ClassVar[str] = "create_tournament"
    name: ShownName
    kind: TournamentKind
    length: int
    starts_in: float
    terms: MatchTerms
    ask: int | None = None


@dataclass(frozen=True)
class Tournaments(Answer):
    """The tournaments, the soonest first; ``may_create``: this player may announce one here; ``now``: the store's
    time (the countdowns read it)."""

    TYPE: ClassVar[str] = "tournaments"
    tournaments: Annotated[tuple[TournamentLine, ...], Longest(TOURNAMENTS_LISTED)]
    may_create: bool = False
    now: float = 0.0
    answer_to: int | None = None


@dataclass(frozen=True)
class TournamentPage(Answer):
    """A tournament's page: its line, the standings, every pairing so far, the round in play (an arena's: 0), when
    the next thing happens (it starts, a Swiss's next round may begin, an arena ends: the store's time, ``None``:
    nothing to count down to) and the store's time now (the countdown reads both); whether this player is paused."""

    TYPE: ClassVar[str] = "tournament"
    tournament: TournamentLine
    standings: Annotated[tuple[TournamentStanding, ...], Longest(TOURNAMENT_ROWS)] = ()
    games: Annotated[tuple[TournamentGame, ...], Longest(TOURNAMENT_ROWS)] = ()
    round: int = 0
    next_at: float | None = None
    now: float = 0.0
    paused: bool = False
    answer_to: int | None = None


# ---- the open seeks board (issue 42) ---------------------------------------------------------------------------


#: The most open seeks the board lists (the longest waiting first).
SEEKS_LISTED: Final = 50


@dataclass(frozen=True)
class SeekLine:
    """A quick match waiting for an opponent, as the seeks board lists it: who (a keyed player's rating), on what
    terms, since when (the store's time); ``key`` names it to accept it (``AcceptSeek``); ``yours``: this player's;
    ``keyed``: the seeker came with a key (no rating yet: new, not a guest)."""

    key: Annotated[str, Longest(64)]
    name: ShownName
    terms: MatchTerms
    since: float
    rating: int | None = None
    yours: bool = False
    keyed: bool = False


@dataclass(frozen=True)
class WatchSeeks(Request):
    """The seeks board opened (``True``: the open seeks now, then each time they change) or closed."""

    TYPE: ClassVar[str] = "watch_seeks"
    watch: bool


@dataclass(frozen=True)
class AcceptSeek(Question):
    """Accept an open seek from the board, on its terms (``hints``: this player's own): paired at once, as a quick
    match is, or refused in one line (gone meanwhile, or not a match these two may play)."""

    TYPE: ClassVar[str] = "accept_seek"
    key: Annotated[str, Longest(64)]
    hints: bool = False
    ask: int | None = None


@dataclass(frozen=True)
class OpenSeeks(Reply):
    """The open seeks, the longest waiting first, each time they change while the board is open."""

    TYPE: ClassVar[str] = "open_seeks"
    seeks: Annotated[tuple[SeekLine, ...], Longest(SEEKS_LISTED)]
    total: int = 0


def _registry(*kinds: type[Message]) -> Mapping[str, type[Message]]:
    return types.MappingProxyType({kind.TYPE: kind for kind in kinds})


REQUESTS: Final = _registry(CreateMatch, JoinMatch, WatchMatch, CancelMatch, LeaveMatch, PlayMove, StartNextRound,
                            AskRematch, Resign, SyncMatch, ComputerSaved, ComputerDropped, ComputerResume,
                            AskLeaderboard, AskRecord, AskFinishedMatch, ChooseName, KeepChoices, CrashReport,
                            Activity, Say, MuteChat, ReportChat, Seek, CancelSeek, ChallengePerson, AnswerChallenge,
                            WithdrawChallenge, AskBrowserCode, AskBrowsers, RevokeBrowser, AskCard, TellPerson,
                            AskTakeback, AnswerTakeback, AskTournaments, AskTournament, JoinTournament,
                            WithdrawTournament, CreateTournament, WatchSeeks, AcceptSeek)
REPLIES: Final = _registry(Welcome, LobbyListing, Waiting, MatchState, Moved, SecretNeeded, ComputerGameKept, Notice,
                           MatchGone, ErrorReply, ClosingSoon, Exit, LeaderboardPage, PlayerRecord, FinishedMatch,
                           ComputerResult, OnlinePeople, OnlineChanges, Spectators, Chat, Seeking, Paired,
                           ChallengeSent, Challenges, BrowserCode, Browsers, SeatPeople, PlayerCard,
                           BackAtTable, Tournaments, TournamentPage, OpenSeeks)
