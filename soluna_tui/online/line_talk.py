"""Runs in the child.

Talk in the lobby in lines: every line said where the player is, told with its speaker as it comes (``bob says:
hi``), the last ones read back (``talk``), a line said (``say TEXT``), checked here first; a talker muted
(``mute bob``; ``mute`` alone: all talk), heard again (``unmute bob``) or their last line reported (``report bob``),
as the full screen's chat line does it (``talk_commands.py``).
"""

from __future__ import annotations

from ..link.messages import (
    Chat,
    ChatLine,
    Say,
)
from ..link.safe_talk import ChatRefused, chat_line
from ..play.chat_book import Mute, spoken_by
from .line_state import LobbyState
from .line_words import TALK_READ_BACK
from .talk_commands import mute_requests, report_request


class TalkPart(LobbyState):
    """Table talk, heard and said."""

    def _chat(self, message: Chat) -> None:
        if message.refused is not None:
            self._say(message.refused)  # as the full screen shows it: a line refused says "Not sent", a mute its own
        if not (message.whole or message.lines):
            return
        self.talk.take(message)
        if message.whole:
            return
        remote = self.remote
        code, watching = (remote.code, remote.watching) if remote is not None else (None, False)
        if message.code != code:
            return  # another room's (the lobby's while at a match, a match's left)
        players_see = remote is not None and not watching
        where = (message.room, message.code)
        self._say(*(self._talk_words(line, players_see) for line in message.lines
                    if self.talk.shows(line, where, watching)))  # without those of people muted

    def _talk_words(self, line: ChatLine, players_see_spectators: bool) -> str:
        if line.tell:
            return f"You tell {line.name}: {line.text}" if line.yours else f"{line.name} tells you: {line.text}"
        if line.yours:
            return f"You said: {line.text}"
        return f"{spoken_by(line, players_see_spectators)} says: {line.text}"

    def _cmd_talk(self, argument: str) -> None:
        self._read_talk()

    def _read_talk(self) -> None:
        remote = self.remote
        code, watching = (remote.code, remote.watching) if remote is not None else (None, False)
        lines = self.talk.lines(code, watching, last=TALK_READ_BACK)
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

    def _cmd_mute(self, argument: str) -> None:
        self._mute(Mute(argument or None))

    def _cmd_unmute(self, argument: str) -> None:
        self._mute(Mute(argument or None, muted=False))

    def _mute(self, command: Mute) -> None:
        requests, told = mute_requests(self.talk, command, typed_as="")
        for request in requests:
            self._send(request)
        if told is not None:
            self._say(told)

    def _cmd_report(self, argument: str) -> None:
        if not argument:
            self._say("Whose line? Type report and their name: their last line goes to the server's owner.")
            return
        remote = self.remote
        code, watching = (remote.code, remote.watching) if remote is not None else (None, False)
        request = report_request(self.talk, argument, code, watching)
        if isinstance(request, str):
            self._say(request)
        else:
            self._send(request)  # the server says what came of it
