"""What the lobby's screens (the lobby, the leaderboard, a record, the name chooser) send up: wishes.

A screen shown over SSH only gathers what the player wants and posts it as a ``LobbyWish``; the
session's app grants each (most by asking the server), all through one handler.
"""

from __future__ import annotations

from textual.message import Message


class LobbyWish(Message):
    """Something the player wants that the screen cannot do itself; the app that shows it grants it."""
