"""Keys (and pastes) that arrive together are handled one after another, as if typed slowly.

Textual sends each key to the widget focused when the key arrives, and runs its bindings
when it comes back up to the app. Keys that arrive together (a paste, ``tmux send-keys``,
one SSH packet) are all sent before the first has done anything, so ``:`` then ``3`` sends
the ``3`` to the tower in focus, not to the prompt ``:`` opens. Here the app holds each key
until the one before it is done with: back at the app (its bindings have run) or stopped by
the widget that used it (a character typed into an input). A key held up behind a busy widget
waits for it, however long; only a key whose widget went away (so never comes back) is
given up on.

Escape followed at once by another key (as a burst or one SSH packet brings them) is Escape,
then that key: Textual's terminal parser reads ESC and a character as Alt and that character
(``alt+3``, or for a character with a name, ``space`` or ``colon``, the key alone: the Escape
lost). The game binds no Alt key, so there Escape is given back (``read_escape_then_key``).

A key may start something that ends a moment after it is back (the round's dialogs, which come a frame after the
move that decided the round): ``hold_input`` keeps the keys behind it waiting until that is done too.
"""

from __future__ import annotations

import functools
import time
from collections import deque
from collections.abc import Callable, Iterable
from typing import TYPE_CHECKING, Any

from textual import events
from textual.message_pump import MessagePump
from textual.timer import Timer

from ..compat.textual_internals import (
    active_pump,
    handled_as,
    key_destination,
    parser_key_reader,
    set_parser_key_reader,
)

if TYPE_CHECKING:
    from textual.app import App

    from ..compat.textual_internals import TerminalParser

    _AppBase = App[Any]
    _EventBase = events.Event
else:
    _AppBase = _EventBase = object

ESC = "\x1b"
DEL = "\x7f"
#: How often an input not yet back is checked on: is the widget it went to still there?
CHECK_SECONDS = 0.5
#: An input not back after this long holds up no other, even if its widget is still there.
GIVE_UP_SECONDS = 5.0


def read_escape_then_key() -> None:
    """Make Textual's terminal parser read ESC and a character that follows it at once as Escape,
    then that character's key. Done once per process.

    The parser reads such a pair as one key: a few from its table (``ESC 3`` is a Mac's Option+3,
    "£"; ``ESC b`` and ``ESC f`` are Ctrl+Left and Ctrl+Right), any other as Alt and the character
    (sent once its escape delay is over, the character with ``alt=True``). Here both become an
    Escape, then the character's own key. ESC DEL stays Alt+Backspace (a word deleted in a text
    field), and sequences of more characters (arrows, function keys) are not affected.
    """
    keys_of: Callable[..., Iterable[events.Key]] = parser_key_reader()
    if getattr(keys_of, "escape_then_key", False):
        return

    @functools.wraps(keys_of)  # its signature still the parser's own (tests/test_compat.py reads it)
    def escape_then_key(parser: TerminalParser, sequence: str, alt: bool = False) -> Iterable[events.Key]:
        if alt:  # the character after an ESC that began no known sequence
            yield events.Key("escape", ESC)
            yield from keys_of(parser, sequence)
            return
        keys = list(keys_of(parser, sequence))
        if keys and len(sequence) == 2 and sequence[0] == ESC and sequence[1] not in (ESC, DEL):
            yield events.Key("escape", ESC)
            yield from keys_of(parser, sequence[1])
        else:
            yield from keys

    escape_then_key.escape_then_key = True  # type: ignore[attr-defined]
    set_parser_key_reader(escape_then_key)


class _Sequenced(_EventBase):
    """What a key or paste in flight adds: its app, when it was sent, and word when it is stopped."""

    owner: InOrderInput
    sent_at: float
    #: The widget (or screen) the app forwarded it to; None while still at the app.
    target: MessagePump | None = None

    def _track(self, owner: InOrderInput) -> None:
        self.owner = owner
        self.sent_at = time.monotonic()

    @property
    def lost(self) -> bool:
        """Whether it can no longer come back: its widget was removed, or it is long overdue."""
        if time.monotonic() - self.sent_at >= GIVE_UP_SECONDS:
            return True
        target = self.target
        return target is not None and not (target.is_attached and target.is_running)

    def stop(self, stop: bool = True) -> Any:
        result = super().stop(stop)
        if stop:
            # Through the stopping widget's queue, then the app's: the widget may still pass the
            # event on to the app (a screen does, to its parent), and the app must see it first.
            app = self.owner
            stopper = active_pump(app)
            stopper.call_later(app.call_later, app.input_done, self)
        return result


class SequencedKey(_Sequenced, events.Key):
    def __init__(self, key: events.Key, owner: InOrderInput) -> None:
        super().__init__(key.key, key.character)
        self._track(owner)


class SequencedPaste(_Sequenced, events.Paste):
    def __init__(self, paste: events.Paste, owner: InOrderInput) -> None:
        super().__init__(paste.text)
        self._track(owner)


# Handled as any key or paste is (``on_key``, ``on_paste``), not under names of their own.
handled_as(SequencedKey, events.Key)
handled_as(SequencedPaste, events.Paste)


class InOrderInput(_AppBase):
    """Mixed into an ``App`` (before it): keys and pastes from the terminal go on one at a time."""

    def __init__(self, *args: Any, **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        read_escape_then_key()
        self._waiting_input: deque[events.Key | events.Paste] = deque()
        self._input_in_flight: _Sequenced | None = None
        self._give_up_timer: Timer | None = None
        #: The holds on the keys still waiting (``hold_input``), each by when it lapses.
        self._holds: dict[object, float] = {}

    @property
    def inputs_waiting(self) -> int:
        """Keys and pastes from the terminal waiting for the one before them to be done with."""
        return len(self._waiting_input)

    @property
    def input_pending(self) -> bool:
        """Whether keys or pastes from the terminal are still on their way (tests wait on it)."""
        return self._input_in_flight is not None or bool(self._waiting_input)

    async def on_event(self, event: events.Event) -> None:
        fresh = not (event.is_forwarded or isinstance(event, _Sequenced))
        if fresh and isinstance(event, (events.Key, events.Paste)):
            self._waiting_input.append(event)
            await self._send_next_input()
            return
        await super().on_event(event)
        if isinstance(event, _Sequenced) and event.is_forwarded:
            self.input_done(event)  # back from the widgets: its bindings have run

    def hold_input(self) -> Callable[[], None]:
        """Keep the keys and pastes still waiting from going on until the function returned is called (once what
        the last one started is done), or ``GIVE_UP_SECONDS`` have passed."""
        hold = object()
        self._holds[hold] = time.monotonic() + GIVE_UP_SECONDS

        def release() -> None:
            if self._holds.pop(hold, None) is not None and not self._holds and self._waiting_input:
                self.call_later(self._send_next_input)

        return release

    async def _send_next_input(self) -> None:
        if self._holds:
            now = time.monotonic()
            self._holds = {hold: lapses for hold, lapses in self._holds.items() if lapses > now}
        if self._input_in_flight is not None or self._holds:
            if self._give_up_timer is None:
                self._give_up_timer = self.set_timer(CHECK_SECONDS, self._give_up)
            return
        if not self._waiting_input:
            return
        waiting = self._waiting_input.popleft()
        sequenced = SequencedKey(waiting, self) if isinstance(waiting, events.Key) else SequencedPaste(waiting, self)
        self._input_in_flight = sequenced
        target = key_destination(self)  # where Textual forwards it, unless a priority key takes it
        await super().on_event(sequenced)
        if sequenced.is_forwarded:
            sequenced.target = target
        else:
            self.input_done(sequenced)

    async def _give_up(self) -> None:
        """An input whose widget went away before handling it never comes back: send on the next."""
        self._give_up_timer = None
        stuck = self._input_in_flight
        if stuck is not None and stuck.lost:
            self._input_in_flight = None
        await self._send_next_input()

    def input_done(self, sequenced: _Sequenced) -> None:
        """The input in flight has been handled: send the next once what it started has run."""
        if sequenced is self._input_in_flight:
            self._input_in_flight = None
            if self._waiting_input:
                self.call_later(self._send_next_input)
