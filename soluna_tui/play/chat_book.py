"""Table talk over SSH, as the server last said it (``ChatBook``): each room's lines (the lobby's, a match's
players' and spectators'), whether this player may talk and why not, and what a line typed means (``typed``):
a line to say, or one of the chat line's commands (mute, unmute, report, tell), pure, tested without a screen.
"""

from __future__ import annotations

import itertools
from dataclasses import dataclass
from typing import TYPE_CHECKING

from ..link.safe_talk import MATCH_LINES_KEPT, Room

if TYPE_CHECKING:  # the messages' module is only the SSH child's: the local game never imports it
    from ..link.messages import Chat, ChatLine

Where = tuple[Room, str | None]

#: What the opened chat line says it takes, while it is empty.
PLACEHOLDER = "Enter says it, 1-4 canned, Esc closes"
COMMANDS_HELP = ("Commands: /tell NAME TEXT (to them alone), /mute (all talk), /mute NAME, /unmute [NAME], "
                 "/report NAME (their last line).")


@dataclass(frozen=True)
class Mute:
    """Hear ``name`` (``None``: all talk) no more, or (``muted`` False) again."""

    name: str | None
    muted: bool = True


@dataclass(frozen=True)
class Report:
    """Report ``name``'s last line shown to the server's owner."""

    name: str


@dataclass(frozen=True)
class Explain:
    """A command that is not one: say what the chat line takes."""

    text: str


@dataclass(frozen=True)
class Tell:
    """A private line to ``name`` alone (someone online, on any server)."""

    name: str
    text: str


Command = Mute | Report | Tell | Explain


def typed(text: str) -> Command | None:
    """What a line typed in the chat line asks: a command (``/mute``...), or ``None``: a line to say."""
    stripped = text.strip()
    if not stripped.startswith("/"):
        return None
    word, _, rest = stripped[1:].partition(" ")
    name = rest.strip() or None
    match word.casefold():
        case "mute":
            return Mute(name)
        case "unmute":
            return Mute(name, muted=False)
        case "report" if name is not None:
            return Report(name)
        case "report":
            return Explain("Whose line? /report NAME reports their last line to the server's owner.")
        case "tell" | "t":
            return told(rest)
    return Explain(f"No such command /{word}. {COMMANDS_HELP}")


def told(rest: str) -> Tell | Explain:
    """``/tell NAME TEXT``: a tell, or what the command takes."""
    name, _, text = rest.strip().partition(" ")
    if not name or not text.strip():
        return Explain("Tell whom what? /tell NAME TEXT says it to them alone, wherever they are.")
    return Tell(name, text.strip())


def spoken_by(line: ChatLine, players_see_spectators: bool = False) -> str:
    """Who said a line, as the panel names them: a spectator's marked so where players read it; a tell, who told
    this player (``bob tells you``), or whom this player told (``to bob``)."""
    if line.tell:
        return f"to {line.name}" if line.yours else f"{line.name} tells you"
    return f"{line.name} (watching)" if players_see_spectators and line.room is Room.SPECTATORS else line.name


class ChatBook:
    """Every room's lines this terminal has heard, and whether this player may talk."""

    def __init__(self) -> None:
        self.rooms: dict[Where, list[ChatLine]] = {}
        #: Why this player may not talk here (``None``: they may), as the server last said.
        self.closed: str | None = None
        #: This player muted all talk.
        self.deaf = False
        #: The people this player muted, by speaker number, with their name.
        self.muted: dict[int, str] = {}

    def take(self, message: Chat) -> None:
        """A room's lines so far (``whole``), or a line just said."""
        where = (message.room, message.code)
        if message.whole:
            self.rooms[where] = list(message.lines)
            self.closed = message.closed
            if message.room is Room.PLAYERS:  # a seat taken: spectators heard at an earlier match of this code go
                self.rooms.pop((Room.SPECTATORS, message.code), None)
            return
        lines = self.rooms.setdefault(where, [])
        lines.extend(message.lines)
        del lines[:-MATCH_LINES_KEPT]

    @staticmethod
    def _rooms(code: str | None, watching: bool) -> tuple[Where, ...]:
        """The rooms a panel shows: the lobby (``code`` ``None``), or a match's spectators, and to a player its
        players too."""
        return (((Room.LOBBY, None),) if code is None else ((Room.SPECTATORS, code),) if watching
                else ((Room.PLAYERS, code), (Room.SPECTATORS, code)))

    def heard(self, code: str | None, watching: bool = False) -> list[ChatLine]:
        """The lobby's lines (``code`` ``None``), or a match's (its spectators'; and to a player, its players'),
        in the order they were said: each was shown as it came (the server sends none of the muted)."""
        rooms = self._rooms(code, watching)
        return sorted((line for where in rooms for line in self.rooms.get(where, ())), key=lambda line: line.id)

    def shows(self, line: ChatLine, where: Where, watching: bool = False) -> bool:
        """Whether the panel of the lobby or of the match ``where`` names shows ``line``, heard in that room: a
        room the panel shows, and a line this player said or someone not muted did (and not all talk muted)."""
        return where in self._rooms(where[1], watching) and self._unmuted(line)

    def _unmuted(self, line: ChatLine) -> bool:
        return line.yours or (not self.deaf and line.speaker not in self.muted)

    def lines(self, code: str | None, watching: bool = False, last: int | None = None) -> list[ChatLine]:
        """What the panel shows: the lines heard, without those of people muted since; ``last``: only the last so
        many, found from the end of each room (a panel redrawn for each line never goes through the hundreds kept
        before it). A room keeps its lines in the order they came, which is their numbers' order: the server
        numbers each line as it tells it, and a room's lines so far come whole, in order."""
        if last is None:
            return [line for line in self.heard(code, watching) if self._unmuted(line)]
        tails: list[ChatLine] = []
        for where in self._rooms(code, watching):
            tails.extend(itertools.islice(filter(self._unmuted, reversed(self.rooms.get(where, ()))), last))
        return sorted(tails, key=lambda line: line.id)[-last:] if last > 0 else []

    def speakers(self, name: str) -> dict[int, str]:
        """The people (not this player) whose lines were heard under ``name`` (case aside), by speaker number."""
        wanted = name.casefold()
        return {line.speaker: line.name for lines in self.rooms.values() for line in lines
                if not line.yours and line.name.casefold() == wanted}

    def last_line_of(self, name: str, code: str | None, watching: bool = False) -> ChatLine | None:
        """The last line ``name`` said among those shown, muted since or not (muting someone first, then
        reporting them, is what a player does)."""
        wanted = name.casefold()
        return next((line for line in reversed(self.heard(code, watching)) if not line.yours
                     and line.name.casefold() == wanted), None)
