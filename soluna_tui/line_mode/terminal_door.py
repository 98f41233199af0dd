"""The line mode on this terminal: lines read from standard input, answers written to standard output.

Nothing but lines: no alternate screen, no cursor addressing, no colour, so a screen reader or a braille
display follows every word in order. Each answer ends with the prompt (whose turn it is), written without a
newline; an answer that comes while the player is typing (the computer's move) starts on a line of its own.
"""

from __future__ import annotations

import threading
from collections.abc import Callable
from typing import BinaryIO, Protocol

from .speech import plain


class LineCore(Protocol):
    """What a door drives: ``LineGame``, ``LinePuzzle``, or the offer to resume before them."""

    finished: bool

    @property
    def prompt(self) -> str: ...

    def start(self) -> None: ...

    def take(self, line: str) -> None: ...

    def stop(self) -> None: ...


class TerminalLines:
    """Writes a core's lines, then its prompt, to a byte stream (one writer at a time)."""

    def __init__(self, stream: BinaryIO, encoding: str = "utf-8", ascii_only: bool = False) -> None:
        self._stream = stream
        self._encoding = encoding
        self._ascii_only = ascii_only
        self._lock = threading.Lock()
        self._prompt_on_line = False
        #: The prompt to write after each answer (set once the core exists).
        self.prompt_of: Callable[[], str] = lambda: ""

    def say(self, lines: list[str]) -> None:
        with self._lock:
            prompt = self.prompt_of()
            text = ("\n" if self._prompt_on_line else "") + "".join(f"{line}\n" for line in lines) + prompt
            self._stream.write(plain(text, self._ascii_only).encode(self._encoding, "replace"))
            self._stream.flush()
            self._prompt_on_line = bool(prompt)

    def typed(self) -> None:
        """The player pressed Enter: the prompt's line is over."""
        with self._lock:
            self._prompt_on_line = False


def run_lines(make: Callable[[Callable[[list[str]], None]], LineCore], stdin: BinaryIO, stdout: BinaryIO, *,
              encoding: str = "utf-8", ascii_only: bool = False) -> int:
    """Drive the core ``make(say)`` builds until the player leaves (``quit``, the end of input, Ctrl+C)."""
    lines = TerminalLines(stdout, encoding, ascii_only)
    core = make(lines.say)
    lines.prompt_of = lambda: core.prompt
    try:
        core.start()
        while not core.finished:
            typed = stdin.readline()
            lines.typed()
            if not typed:  # the end of input (Ctrl+D): leave as quit does, the match saved
                core.take("quit")
                break
            core.take(typed.decode(encoding, "replace"))
    except KeyboardInterrupt:
        lines.typed()
        core.take("quit")
    finally:
        core.stop()
    return 0
