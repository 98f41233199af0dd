"""Runs in the server process.

One session's channel as the server writes to it: the game's bytes, one last line, the exit
status once; and what the client asked of it (a terminal, its size, a command). A channel the client
has closed is written to no more. The channel is an SSH channel, or a browser's websocket
(``web/channel.py``): both are a ``TerminalChannel``.
"""

from __future__ import annotations

import contextlib
from collections.abc import Mapping
from typing import Protocol

from .client_env import clamp_size


class TerminalChannel(Protocol):
    """What a session uses of its channel: asyncssh's ``SSHServerChannel``, or a browser's websocket."""

    def write(self, data: bytes) -> None: ...

    def write_stderr(self, data: bytes) -> None: ...

    def exit(self, status: int) -> None: ...

    def get_environment(self) -> Mapping[str, str]: ...

    def pause_reading(self) -> None: ...

    def resume_reading(self) -> None: ...


class SessionChannel:
    """The session's channel: open from ``connection_made`` until ``connection_lost``, and what was asked of it."""

    def __init__(self) -> None:
        self.chan: TerminalChannel | None = None
        self.open = False
        self.exited = False
        #: The terminal type asked for (``None``: no terminal), its size as asked and as used (clamped).
        self.term: str | None = None
        self.requested_size = (80, 24)
        self.size = (80, 24)
        #: A command asked for instead of a shell (accepted only to answer it with one clear line).
        self.command: str | None = None

    def opened(self, chan: TerminalChannel) -> None:
        self.chan = chan
        self.open = True

    def closed(self) -> None:
        """The client closed the channel: nothing more is written to it."""
        self.open = False

    @property
    def channel(self) -> TerminalChannel:
        """The channel: there from ``connection_made`` on, before every other callback."""
        if self.chan is None:
            raise RuntimeError("the session's channel is not open yet")
        return self.chan

    @property
    def terminal(self) -> str:
        """The terminal type the client asked for (a session without one is refused: ``term_refusal``)."""
        if self.term is None:
            raise RuntimeError("no terminal was asked for")
        return self.term

    def terminal_asked(self, term_type: str, width: int, height: int) -> None:
        self.term = term_type
        self.requested_size = (width, height)
        self.size = clamp_size(width, height)

    def resized(self, width: int, height: int) -> tuple[int, int]:
        """The terminal's new size, clamped."""
        self.size = clamp_size(width, height)
        return self.size

    def write(self, data: bytes) -> None:
        if self.open:
            with contextlib.suppress(BrokenPipeError, OSError):
                self.channel.write(data)

    def say(self, line: str, status: int = 1) -> None:
        """One line to the player (on the terminal, or on standard error without one), then the end (``status``)."""
        if self.open and not self.exited:
            # On a terminal the line starts afresh below whatever was drawn; without one it is plain stderr.
            text = f"\r\n{line}\r\n" if self.term is not None else f"{line}\n"
            write = self.channel.write if self.term is not None else self.channel.write_stderr
            with contextlib.suppress(BrokenPipeError, OSError):
                write(text.encode())
        self.exit(status)

    def exit(self, status: int) -> None:
        """Close the channel with an exit status, once."""
        if self.open and not self.exited:
            self.exited = True
            with contextlib.suppress(BrokenPipeError, OSError):
                self.channel.exit(status)
