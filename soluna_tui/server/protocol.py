"""Shared by the server process and the child: the two ends of each session's link.

The server and each child talk in newline-delimited JSON objects, each with a ``type``.

Child to server: ``create``, ``join`` (with ``secret`` when coming back without the
seat's key), ``watch``, ``cancel``, ``leave``, ``move``, ``next_round``, ``rematch``,
``sync`` (the whole state again, after a gap in versions), ``computer_saved`` (the
session's match against the computer after each change), ``computer_resume``,
``crash``. Server to child: ``welcome`` (this session's secret, how long seats are
held), ``lobby`` (matches in play, a computer match to resume), ``waiting`` (a
created match's code), ``match`` (the whole match, this terminal's seat and the
match's ``version``), ``moved`` (one move: the next ``version``), ``secret_needed``,
``computer_game`` (a computer match to resume), ``notice``, ``error``, ``exit``.
Either side treats a malformed line as a ``ProtocolError``: the server never trusts
what a child says.
"""

from __future__ import annotations

import asyncio
import json
import socket
from typing import Any

#: The longest line either side accepts (a whole match is a few kilobytes).
MAX_LINE = 256 * 1024
#: Beyond this much unsent data the reader is not keeping up.
MAX_BACKLOG = 4 * 1024 * 1024


class ProtocolError(ValueError):
    """A line that is not a message of this protocol."""


def encode(message: dict[str, Any]) -> bytes:
    return json.dumps(message, ensure_ascii=False, separators=(",", ":")).encode("utf-8") + b"\n"


def decode(line: bytes) -> dict[str, Any]:
    """The message in one line; ``ProtocolError`` unless it is a JSON object with a string ``type``."""
    try:
        message = json.loads(line.decode("utf-8"))
    except (UnicodeDecodeError, json.JSONDecodeError, RecursionError):
        raise ProtocolError("a line that is not JSON") from None
    if not isinstance(message, dict) or not isinstance(message.get("type"), str):
        raise ProtocolError("a message without a type")
    return message


def field(message: dict[str, Any], key: str, kind: type | tuple[type, ...], *, longest: int = 200) -> Any:
    """``message[key]`` when it has the expected type (a bool is not an int) and a sane length."""
    value = message.get(key)
    kinds = kind if isinstance(kind, tuple) else (kind,)
    if not isinstance(value, kinds) or (isinstance(value, bool) and bool not in kinds):
        raise ProtocolError(f"{message.get('type')!r} needs {key!r} of type {' or '.join(k.__name__ for k in kinds)}")
    if isinstance(value, (str, list, dict)) and len(value) > longest:
        raise ProtocolError(f"{key!r} is too long")
    return value


class Link:
    """One end of the socketpair between the server and a child, on the running event loop."""

    def __init__(self, reader: asyncio.StreamReader, writer: asyncio.StreamWriter) -> None:
        self._reader = reader
        self._writer = writer

    @classmethod
    async def over(cls, sock: socket.socket) -> Link:
        reader, writer = await asyncio.open_connection(sock=sock, limit=MAX_LINE)
        return cls(reader, writer)

    @property
    def closed(self) -> bool:
        return self._writer.is_closing()

    def send(self, message: dict[str, Any]) -> None:
        """Queue a message (never blocks); ``ProtocolError`` when the other side stopped reading."""
        if self._writer.is_closing():
            return
        if self._writer.transport.get_write_buffer_size() > MAX_BACKLOG:
            raise ProtocolError("the other side is not reading")
        self._writer.write(encode(message))

    async def receive(self) -> dict[str, Any] | None:
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
        return decode(line)

    def close(self) -> None:
        self._writer.close()
