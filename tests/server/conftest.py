"""Fixtures the server's test modules share."""

from __future__ import annotations

import pytest

from soluna_tui.server.lobby import Lobby
from soluna_tui.server.storage import open_storage

from ..clean_up import within
from .test_hostile_clients import tiny_disk
from .test_lobby import SettledLobby

__all__ = ["make_lobby", "tiny_disk"]


@pytest.fixture
async def make_lobby(database):
    """Lobbies on one fresh store each (several: several servers sharing it), closed after the test."""
    opened = []

    async def maker(hold_time: float = 60.0, ranked_after: int = 5, ranked_opponents: int = 3) -> SettledLobby:
        store = await open_storage(database)
        lobby = Lobby(store, hold_time, heartbeat=0.1, ranked_after=ranked_after, ranked_opponents=ranked_opponents)
        await lobby.start()
        opened.append(lobby)
        return SettledLobby(lobby)

    yield maker
    for lobby in opened:
        try:
            await within(lobby.close(), "closing a lobby")
        finally:
            await within(lobby.store.close(), "closing a lobby's store")
