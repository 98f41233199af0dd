"""Runs in the child.

The session app's half for who is online: the server's whole list, or what changed in it, kept in the app's book
(``who_is_online.py``) and handed to the lobby, which draws it in its list (``o``) and counts it in its title.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from ..link.messages import Message, OnlineChanges, OnlinePeople
from .linked_app import LinkedApp


class PeopleHalf:
    """Who is online, as the server says it, to the lobby."""

    def __init__(self, app: LinkedApp) -> None:
        self.app = app

    @property
    def handlers(self) -> dict[type[Message], Callable[[Any], None]]:
        return {OnlinePeople: self._heard, OnlineChanges: self._heard}

    def _heard(self, message: OnlinePeople | OnlineChanges) -> None:
        """The whole list, or what changed in it; the lobby draws it from the app's book (a change at its moment)."""
        online = self.app.online
        if isinstance(message, OnlinePeople):
            online.take(message)
        else:
            online.apply(message)
        self.app.lobby.show_online(online.people, online.total, online.you, news=isinstance(message, OnlineChanges))
