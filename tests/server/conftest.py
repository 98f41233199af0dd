"""Fixtures the server's test modules share."""

from __future__ import annotations

import pytest

from soluna_tui.server.lobby import Lobby
from soluna_tui.server.storage import open_storage

from ..clean_up import within
from .test_hostile_clients import tiny_disk
from .test_lobby import SettledLobby

__all__ = ["make_lobby", "tiny_disk"]


#: How long these lobbies' servers may be silent before the others take them for gone. Their heartbeat is a tenth
#: of a second (the tests wait less), which made it 0.6 s: a loaded runner stalls both lobbies' one event loop
#: for that long, and a server taken for gone loses its players' lines, challenges and waiting matches (a
#: challenge accepted across two servers never seated its challenger in CI once). Three seconds: thirty of their
#: heartbeats, where a real server's six seconds are six of its own.
SILENT_FOR = 3.0


@pytest.fixture
async def make_lobby(database):
    """Lobbies on one fresh store each (several: several servers sharing it), closed after the test."""
    opened = []

    async def maker(hold_time: float = 60.0, ranked_after: int = 5, ranked_opponents: int = 3) -> SettledLobby:
        store = await open_storage(database)
        lobby = Lobby(store, hold_time, heartbeat=0.1, ranked_after=ranked_after, ranked_opponents=ranked_opponents)
        lobby.presence.dead_after = SILENT_FOR
        await lobby.start()
        opened.append(lobby)
        return SettledLobby(lobby)

    yield maker
    for lobby in opened:
        try:
            await within(lobby.close(), "closing a lobby")
        finally:
            await within(lobby.store.close(), "closing a lobby's store")
