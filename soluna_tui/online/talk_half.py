"""Runs in the child.

The session app's talk half: table talk heard from the server (kept in a ``ChatBook``) and drawn in the chat
panel of whatever is shown (the lobby's, in its lists' place while open; the game screen's, beside the board),
and what the player types there: a line said, a canned line, or a command (mute, unmute, report, tell). A tell
told to this player is also a notice, wherever they are.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from textual.widgets.input import Selection

from ..link.messages import Chat, Message, Say, TellPerson
from ..link.safe_talk import ChatRefused, ChatTooLong, Room, chat_line
from ..play.chat_book import ChatBook, Explain, Mute, Report, Tell, typed
from ..screens.game import GameScreen
from ..widgets.chat_panel import LINES_DRAWN, ChatPanel
from .linked_app import LinkedApp
from .panes.lobby_pace import NEWS_EVERY, UNREAD_EVERY
from .remote_table import RemoteTable
from .talk_commands import mute_requests, report_request


class TalkHalf:
    """Table talk: the book of what was said, the panels drawn from it, the chat line's lines and commands."""

    def __init__(self, app: LinkedApp) -> None:
        self.app = app
        self.book = ChatBook()
        #: A line under the talk: why the last line was not said, what a command did (until the next line said).
        self._note: str | None = None
        #: The lobby's lines come while its talk was closed (its title counts them).
        self._unread = 0

    @property
    def handlers(self) -> dict[type[Message], Callable[[Any], None]]:
        return {Chat: self._heard}

    # ---- what the server says ------------------------------------------------------------

    def _heard(self, message: Chat) -> None:
        if message.refused is not None:
            self._note = message.refused
        elif any(line.yours for line in message.lines) and not message.whole:
            self._note = None  # a line of this player's was said: whatever held the last ones back is over
        if message.whole or message.lines:
            self.book.take(message)
        lobby, where = self.app.lobby, (message.room, message.code)
        if message.code is None and not message.whole and not lobby.lists.talking:
            self._unread += sum(1 for line in message.lines if not line.yours and self.book.shows(line, where))
            lobby.show_talk_unread(self._unread)
        others = message.refused is None and not message.whole and not any(line.yours for line in message.lines)
        if message.code is None and others and lobby.composed and lobby.in_view:
            # Others' lines in the lobby shown: news, as who comes and goes; counted only, while the talk is not open.
            lobby.pace.draw_news(self.redraw, NEWS_EVERY if lobby.lists.talking else UNREAD_EVERY)
        else:
            self.redraw()
        self._told(message)
        remote, game = self._remote, self.app.game
        if others and remote is not None and game is not None and message.code == remote.code and game.is_mounted:
            # Not a muted speaker's; a tell: its own notice.
            heard = [line for line in message.lines if self.book.shows(line, where, remote.watching) and not line.tell]
            if heard and not game.chat_panel.display:  # a narrow screen's talk is behind Tab: its newest line told
                game.show_notice(f"{heard[-1].name}: {heard[-1].text} (Tab reads the talk)")

    def _told(self, message: Chat) -> None:
        """A tell to this player (from someone not muted), as a notice wherever they are: the lobby's status line,
        beside the board, or over a dialog."""
        where, watching = (message.room, message.code), message.room is Room.SPECTATORS
        shown = [line for line in message.lines
                 if line.tell and not line.yours and self.book.shows(line, where, watching)]
        if not shown:
            return
        text = f"{shown[-1].name} tells you: {shown[-1].text}"
        lobby, game = self.app.lobby, self.app.game
        if self.app.screen is lobby:
            lobby.say(text)
        elif game is not None and self.app.screen is game and game.is_mounted:
            game.show_notice(f"{text} (C answers: /tell {shown[-1].name} ...)")
        else:
            self.app.notify(text)

    # ---- where the talk is shown -----------------------------------------------------------

    @property
    def _remote(self) -> RemoteTable | None:
        """The match between players shown, if any (its rooms are the talk shown beside its board)."""
        game = self.app.game
        return game.table if game is not None and isinstance(game.table, RemoteTable) else None

    def _panel(self) -> ChatPanel | None:
        """The panel of the screen on top: the lobby's or the game screen's (``None`` over a dialog)."""
        screen = self.app.screen
        if screen is self.app.lobby or isinstance(screen, GameScreen):
            return screen.chat_panel if screen.is_mounted else None
        return None

    def redraw(self) -> None:
        """Every panel drawn again from the book: the lobby's with the lobby's talk, the game screen's with its
        match's (a player reads the spectators once the match is over), or the lobby's beside a match against
        the computer (its player is in the lobby, as the server sees it)."""
        self.app.lobby.chat_panel.show(self.book.lines(None, last=LINES_DRAWN), self._note)
        game = self.app.game
        if game is not None and game.is_mounted:
            remote, panel = self._remote, game.chat_panel
            if remote is not None:
                panel.show(self.book.lines(remote.code, remote.watching, LINES_DRAWN), self._note,
                           players_see_spectators=not remote.watching)
            else:  # against the computer: the lobby's talk, only while the player opens it
                panel.show(self.book.lines(None, last=LINES_DRAWN) if panel.is_open else (),
                           self._note if panel.is_open else None)

    # ---- the player's keys -----------------------------------------------------------------

    def open(self) -> None:
        """The chat line, opened where the player is (the lobby: in its lists' place)."""
        panel = self._panel()
        if panel is None:
            return
        if self.book.closed is not None:
            self._note = self.book.closed
        if self.app.screen is self.app.lobby:
            self.app.lobby.show_talk(True)
            self._unread = 0
            self.app.lobby.show_talk_unread(0)
        panel.open()
        self.redraw()

    def begin(self, text: str) -> None:
        """The chat line opened with ``text`` in it (``/tell bob ``, from a card), the cursor at its end."""
        self.open()
        panel = self._panel()
        if panel is None or not panel.is_open:
            return
        line = panel.chat_line

        def written() -> None:  # once focused: focusing selects what the line holds, and a key would replace it
            line.value = text
            line.selection = Selection.cursor(len(text))

        line.call_after_refresh(written)

    def close(self) -> None:
        panel = self._panel()
        if panel is None:
            return
        panel.close()
        self._note = None
        self.redraw()
        screen = self.app.screen
        if screen is self.app.lobby:
            self.app.lobby.show_talk(False)
            self.app.lobby.action_menu()
        elif isinstance(screen, GameScreen):
            screen.board.focus()

    def said(self, text: str) -> None:
        """A line typed (or canned) in the chat line: a command done, or the line said (checked here first, so a
        page pasted by mistake is refused at once, in one line)."""
        command = typed(text)
        if isinstance(command, Mute):
            self._note = self._mute(command)
        elif isinstance(command, Report):
            self._note = self._report(command)
        elif isinstance(command, Tell):
            self._note = None
            self.app.send(TellPerson(command.name[:80], command.text))
        elif isinstance(command, Explain):
            self._note = command.text
        else:
            try:
                chat_line(text)
            except ChatTooLong as refusal:  # kept, cut to fit, for the player to trim or say
                self._note = f"{refusal} It is back in the chat line, cut to fit: Enter says it."
                if (panel := self._panel()) is not None:
                    panel.chat_line.value = refusal.kept
                    panel.chat_line.cursor_position = len(refusal.kept)
            except ChatRefused as refusal:
                self._note = str(refusal)
            else:
                self.app.send(Say(text))
        self.redraw()

    def _mute(self, command: Mute) -> str | None:
        requests, told = mute_requests(self.book, command)
        for request in requests:
            self.app.send(request)
        return told

    def _report(self, command: Report) -> str | None:
        remote = self._remote
        code, watching = (remote.code, remote.watching) if remote is not None else (None, False)
        request = report_request(self.book, command.name, code, watching)
        if isinstance(request, str):
            return request
        self.app.send(request)
        return None  # the server says what came of it
