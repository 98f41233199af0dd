"""What a line-mode core says, put together into replies: the lines said while the core answers a line (or
starts) are shown together at the end of that answer, after the line saying where things stand if nothing
else was said; lines said outside an answer (a reply from the solver's thread) are shown when flushed."""

from __future__ import annotations

from collections.abc import Callable, Iterator
from contextlib import contextmanager


class Reply:
    """The lines a core has said and not yet shown (``show`` shows them, in one go)."""

    def __init__(self, show: Callable[[list[str]], None]) -> None:
        self._show = show
        self._lines: list[str] = []
        self._holding = False
        #: The line being answered is answered by news to come (a takeback asked of the opponent): no state line.
        self._answer_to_come = False

    def say(self, *lines: str) -> None:
        """Lines for the player (empty ones left out), shown at the end of the reply being put together."""
        self._lines.extend(line for line in lines if line)

    def flush(self) -> None:
        """Show what has been said, unless a reply is being put together (it is shown at its end)."""
        if self._holding or not self._lines:
            return
        lines, self._lines = self._lines, []
        self._show(lines)

    def answer_to_come(self) -> None:
        """The line being answered is answered by news to come (the server's word): nothing said in its place now
        (not even where things stand)."""
        self._answer_to_come = True

    @contextmanager
    def held(self, state_line: Callable[[], str]) -> Iterator[None]:
        """A reply put together: shown once it is, with ``state_line()`` if it said nothing else."""
        self._holding, self._answer_to_come = True, False
        try:
            yield
        finally:
            self._holding = False
            if not self._lines and not self._answer_to_come:
                self.say(state_line())
            self.flush()
