"""Keys (and pastes) that arrive together are handled one after another, as if typed slowly.

Textual sends each key to the widget focused when the key arrives, and runs its bindings
when it comes back up to the app. Keys that arrive together (a paste, ``tmux send-keys``,
one SSH packet) are all sent before the first has done anything, so ``:`` then ``3`` sends
the ``3`` to the tower in focus, not to the prompt ``:`` opens. Here the app holds each key
until the one before it is done with: back at the app (its bindings have run) or stopped by
the widget that used it (a character typed into an input). A key held up behind a busy widget
waits for it, however long; only a key whose widget went away (so never comes back) is
given up on.
"""

from __future__ import annotations

import time
from collections import deque

from textual import events
from textual.message_pump import MessagePump, active_message_pump
from textual.timer import Timer

#: How often an input not yet back is checked on: is the widget it went to still there?
CHECK_SECONDS = 0.5
#: An input not back after this long holds up no other, even if its widget is still there.
GIVE_UP_SECONDS = 5.0


class _Sequenced:
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

    def stop(self, stop: bool = True):
        result = super().stop(stop)
        if stop:
            # Through the stopping widget's queue, then the app's: the widget may still pass the
            # event on to the app (a screen does, to its parent), and the app must see it first.
            app = self.owner
            stopper = active_message_pump.get(app)
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
SequencedKey.handler_name = events.Key.handler_name
SequencedPaste.handler_name = events.Paste.handler_name


class InOrderInput:
    """Mixed into an ``App`` (before it): keys and pastes from the terminal go on one at a time."""

    def __init__(self, *args, **kwargs) -> None:
        super().__init__(*args, **kwargs)
        self._waiting_input: deque[events.Key | events.Paste] = deque()
        self._input_in_flight: _Sequenced | None = None
        self._give_up_timer: Timer | None = None

    @property
    def input_pending(self) -> bool:
        """Whether keys or pastes from the terminal are still on their way (tests wait on it)."""
        return self._input_in_flight is not None or bool(self._waiting_input)

    async def on_event(self, event: events.Event) -> None:
        fresh = isinstance(event, (events.Key, events.Paste)) and not event.is_forwarded
        if fresh and not isinstance(event, _Sequenced):
            self._waiting_input.append(event)
            await self._send_next_input()
            return
        await super().on_event(event)
        if isinstance(event, _Sequenced) and not fresh:
            self.input_done(event)  # back from the widgets: its bindings have run

    async def _send_next_input(self) -> None:
        if self._input_in_flight is not None:
            if self._give_up_timer is None:
                self._give_up_timer = self.set_timer(CHECK_SECONDS, self._give_up)
            return
        if not self._waiting_input:
            return
        waiting = self._waiting_input.popleft()
        sequenced = SequencedKey(waiting, self) if isinstance(waiting, events.Key) else SequencedPaste(waiting, self)
        self._input_in_flight = sequenced
        target = self.focused or self.screen  # where Textual forwards it, unless a priority key takes it
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
