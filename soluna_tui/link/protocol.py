"""Shared by the server process and the child: the two ends of each session's link.

The server and each child talk in newline-delimited JSON objects, each with a ``type``.

Each line is one message of ``messages.py``, where every kind is declared once as a typed
value (``Request``: child to server; ``Reply``: server to child). ``encode`` writes one,
``decode`` reads one and checks every field against its declaration. Child to server:
``create``, ``join`` (with ``secret`` when coming back without the seat's key), ``watch``,
``cancel``, ``leave``, ``move``, ``next_round``, ``rematch``, ``resign``, ``sync`` (the whole state again,
after a gap in versions), ``computer_saved`` (the session's match against the computer after
each change), ``computer_dropped``, ``computer_resume``, ``leaderboard``, ``record``,
``finished_match``, ``choose_name``, ``crash``. Server to child: ``welcome`` (this session's
secret, how long seats are held, the player's name), ``lobby`` (matches in play, a computer
match to resume), ``waiting`` (a created match's code), ``match`` (the whole match, this
terminal's seat and the match's ``version``), ``moved`` (one move: the next ``version``),
``secret_needed``, ``computer_game`` (a computer match to resume), ``notice``, ``error``,
``exit``, ``leaderboard`` (a page), ``record`` (the player's), ``finished_match`` (to replay).
The questions (``create``, ``join``, ``watch``, ``computer_resume``, ``leaderboard``, ``record``,
``finished_match``, ``choose_name``) carry a number, ``ask``, that their answer carries back as
``answer_to``. Either side treats a malformed line as a ``ProtocolError``: the server never trusts
what a child says.
"""

from __future__ import annotations

import asyncio
import json
import socket
from collections.abc import Mapping
from enum import StrEnum
from typing import Any, Final

from .messages import REPLIES, REQUESTS, Message, ProtocolError
from .wire import from_wire, to_wire

__all__ = ["MAX_BACKLOG", "MAX_LINE", "End", "Link", "ProtocolError", "decode", "encode", "encoded"]

#: The longest line either side accepts (a whole match is a few kilobytes).
MAX_LINE: Final = 256 * 1024
#: Beyond this much unsent data the reader is not keeping up.
MAX_BACKLOG: Final = 4 * 1024 * 1024


class End(StrEnum):
    """Which end of a link this is: the server reads requests and sends replies, a child the reverse."""

    SERVER = "server"
    CHILD = "child"

    @property
    def reads(self) -> Mapping[str, type[Message]]:
        return REQUESTS if self is End.SERVER else REPLIES

    @property
    def sends(self) -> Mapping[str, type[Message]]:
        return REPLIES if self is End.SERVER else REQUESTS


def encode(message: Message) -> bytes:
    """One line of JSON; ``ProtocolError`` for a number ``decode`` would refuse (infinite, not a number)."""
    try:
        text = json.dumps(to_wire(message), ensure_ascii=False, separators=(",", ":"), allow_nan=False)
    except ValueError:
        raise ProtocolError(f"a {message.TYPE!r} message with a number that is not finite") from None
    return text.encode("utf-8") + b"\n"


class _LastEncoded:
    """The last message encoded, and its line: a message told to every terminal at once (what changed in who is
    online) is encoded once, not once a terminal. Messages are frozen: the same object is the same line."""

    message: Message | None = None
    line = b""


def encoded(message: Message) -> bytes:
    """``encode(message)``, encoded again only when it is another message than the last one."""
    if message is not _LastEncoded.message:
        _LastEncoded.line = encode(message)
        _LastEncoded.message = message
    return _LastEncoded.line


def _no_constant(text: str) -> Any:
    raise ProtocolError(f"a line with {text[:20]}, which is not a number this protocol carries")


def decode(line: bytes, kinds: Mapping[str, type[Message]] = REQUESTS) -> Message:
    """The message in one line, one of ``kinds`` (what a child sends, unless told); ``ProtocolError`` if not."""
    try:
        document = json.loads(line.decode("utf-8"), parse_constant=_no_constant)
    except (UnicodeDecodeError, ValueError, RecursionError) as error:
        if isinstance(error, ProtocolError):
            raise
        raise ProtocolError("a line that is not JSON") from None
    return from_wire(document, kinds)


class Link:
    """One end of the socketpair between the server and a child, on the running event loop."""

    def __init__(self, reader: asyncio.StreamReader, writer: asyncio.StreamWriter, end: End = End.SERVER) -> None:
        self._reader = reader
        self._writer = writer
        self.end = end

    @classmethod
    async def over(cls, sock: socket.socket, end: End = End.SERVER) -> Link:
        reader, writer = await asyncio.open_connection(sock=sock, limit=MAX_LINE)
        return cls(reader, writer, end)

    @property
    def closed(self) -> bool:
        return self._writer.is_closing()

    def send(self, message: Message) -> None:
        """Queue a message (never blocks); ``ProtocolError`` when the other side stopped reading."""
        if self._writer.is_closing():
            return
        if self._writer.transport.get_write_buffer_size() > MAX_BACKLOG:
            raise ProtocolError("the other side is not reading")
        self._writer.write(encoded(message))

    async def receive(self) -> Message | None:
        """The next message, or ``None`` once the other side has closed."""
        try:
            line = await self._reader.readuntil(b"\n")
        except asyncio.IncompleteReadError as error:
            if error.partial:
                raise ProtocolError("the last line was cut short") from None
            return None
        except asyncio.LimitOverrunError:
            raise ProtocolError("a line too long") from None
        except ConnectionError:
            return None
        return decode(line, self.end.reads)

    def close(self) -> None:
        self._writer.close()
