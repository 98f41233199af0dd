"""Keys that arrive together, as from a paste, ``tmux send-keys`` or one SSH packet.

``pilot.press`` waits for the app to go idle after every key, which hides any key that
acts on state the previous key has not finished changing. ``burst`` queues every key at
once, as a terminal read of several bytes does, and only then lets the app run.
"""

from __future__ import annotations

import unicodedata

from textual import events
from textual.app import App
from textual.keys import _character_to_key, _get_unicode_name_from_key

#: What a terminal sends for the keys with a control character.
CONTROL_CHARACTERS = {"enter": "\r", "escape": "\x1b", "tab": "\t", "ctrl+u": "\x15"}


def key_event(key: str) -> events.Key:
    """The event a terminal driver makes for ``key``: one character, or a key's name (``enter``)."""
    if len(key) == 1:
        return events.Key(key if key.isalnum() else _character_to_key(key), key)
    try:
        character = unicodedata.lookup(_get_unicode_name_from_key(key))
    except KeyError:
        character = CONTROL_CHARACTERS.get(key)
    return events.Key(key, character)


async def burst(pilot, *keys: str) -> None:
    """Queue ``keys`` in the app in one go (nothing runs between them), then let them all play out."""
    app: App = pilot.app
    for key in keys:
        event = key_event(key)
        event.set_sender(app)
        app.post_message(event)
    for _ in range(200):
        await pilot.pause()
        if not getattr(app, "input_pending", False):
            break
    await pilot.pause()
