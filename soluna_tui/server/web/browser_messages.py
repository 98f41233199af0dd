"""Runs in the server process.

What a browser's ``textual.js`` sends on its websocket, read and bounded: each message a JSON list whose
first item names it (``["stdin", "q"]``, ``["resize", {"width": 80, "height": 24}]``, ``["ping", "1234"]``,
``["focus"]``, ``["blur"]``). Anything else is a ``WebMessageError``: the browser's script never sends it.
A message is measured before it is parsed: at most ``MAX_MESSAGE`` characters, and at most ``MAX_BRACKETS``
brackets and braces outside its strings (the page's messages have two), so no message nests deep enough to cost
the parser its recursion.
"""

from __future__ import annotations

import json
import re
from dataclasses import dataclass

#: The most bytes of one message (a paste of a few pages; the input budget pays for the bytes).
MAX_MESSAGE = 64 * 1024
#: The most characters of a ping's payload (the browser sends its clock in milliseconds).
MAX_PING = 32
#: The largest terminal a resize may ask for (clamped further to what a child is given).
MAX_SIDE = 10_000
#: The most ``[`` and ``{`` outside a message's strings (``["resize", {...}]`` has two): a bound on its depth.
MAX_BRACKETS = 4
#: A JSON string, or an unclosed one to the end (so that every quote is read once, however the text is made).
_STRING = re.compile(r'"(?:[^"\\]|\\.)*+(?:"|\\?\Z)', re.DOTALL)


class WebMessageError(ValueError):
    """A websocket message that is not one ``textual.js`` sends."""


@dataclass(frozen=True)
class Stdin:
    """Keys typed, a paste, mouse reports: bytes for the terminal."""

    data: bytes


@dataclass(frozen=True)
class Resize:
    """The page's terminal has a new size, in columns and lines."""

    columns: int
    lines: int


@dataclass(frozen=True)
class Ping:
    """The page measures its round trip: answered with a pong carrying the same payload."""

    payload: str


@dataclass(frozen=True)
class Focus:
    """The page's terminal gained or lost the keyboard's focus."""

    focused: bool


WebMessage = Stdin | Resize | Ping | Focus


def read_message(text: str) -> WebMessage:
    """One text message from the browser, or ``WebMessageError`` saying why it is none of them."""
    if len(text) > MAX_MESSAGE:
        raise WebMessageError(f"a message of {len(text)} characters")
    outside = _STRING.sub("", text)
    if outside.count("[") + outside.count("{") > MAX_BRACKETS:
        raise WebMessageError("a message nested deeper than the page's")
    try:
        envelope = json.loads(text)
    except ValueError:
        raise WebMessageError("not JSON") from None
    if not isinstance(envelope, list) or not envelope or not isinstance(envelope[0], str):
        raise WebMessageError("not a list naming its message")
    kind, arguments = envelope[0], envelope[1:]
    if kind == "stdin" and len(arguments) == 1 and isinstance(arguments[0], str):
        return Stdin(arguments[0].encode("utf-8", "replace"))
    if kind == "resize" and len(arguments) == 1 and isinstance(arguments[0], dict):
        return _resize(arguments[0])
    if kind == "ping" and len(arguments) == 1 and isinstance(arguments[0], str) and len(arguments[0]) <= MAX_PING:
        return Ping(arguments[0])
    if kind in ("focus", "blur") and not arguments:
        return Focus(kind == "focus")
    raise WebMessageError(f"an unknown message {kind[:20]!r}")


def _resize(size: dict[str, object]) -> Resize:
    width, height = size.get("width"), size.get("height")
    if set(size) != {"width", "height"} or not all(
            isinstance(side, int) and not isinstance(side, bool) and 1 <= side <= MAX_SIDE for side in (width, height)):
        raise WebMessageError("a resize without a sensible width and height")
    assert isinstance(width, int) and isinstance(height, int)
    return Resize(width, height)


def pong(ping: Ping) -> str:
    """The answer to a ping, as ``textual.js`` reads it."""
    return json.dumps(["pong", ping.payload])
