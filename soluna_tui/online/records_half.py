"""Runs in the child.

The session app's records half: the leaderboard and this player's record (the lobby's menu opens them), their pages
and finished matches asked of the server, and a finished match replayed and judged here (the server runs no solver).
"""

from __future__ import annotations

import time
from collections.abc import Callable
from typing import Any

from ..link.messages import (
    AskFinishedMatch,
    AskLeaderboard,
    AskRecord,
    FinishedMatch,
    LeaderboardPage,
    Message,
    PlayerRecord,
)
from ..rules import Match, SolunaError
from ..screens.replay import ReplayScreen
from .linked_app import LinkedApp
from .screens import lobby_wish
from .screens.leaderboard import LeaderboardScreen
from .screens.player_card import PlayerCardScreen
from .screens.record import RecordScreen


class RecordsHalf:
    """The leaderboard's and the record's wishes, asked of the server, and the answers, shown where asked."""

    def __init__(self, app: LinkedApp) -> None:
        self.app = app

    @property
    def wishes(self) -> dict[type[lobby_wish.LobbyWish], Callable[[Any], None]]:
        return {lobby_wish.ShowLeaderboard: self._show_leaderboard,
                LeaderboardScreen.PageWanted: self._leaderboard_page, lobby_wish.ShowRecord: self._show_record,
                RecordScreen.ReplayWanted: self._replay_wanted, PlayerCardScreen.ReplayWanted: self._replay_wanted}

    @property
    def handlers(self) -> dict[type[Message], Callable[[Any], None]]:
        return {LeaderboardPage: self._heard_leaderboard_page, PlayerRecord: self._heard_record,
                FinishedMatch: self._replay_finished}

    def _show_leaderboard(self, wish: lobby_wish.ShowLeaderboard) -> None:
        screen = LeaderboardScreen(self.app.player_name)
        self.app.push_screen(screen)
        self.app.ask(AskLeaderboard(0), screen, screen.refused)

    def _leaderboard_page(self, wish: LeaderboardScreen.PageWanted) -> None:
        self.app.ask(AskLeaderboard(wish.offset), wish.control, wish.control.refused)

    def _heard_leaderboard_page(self, message: LeaderboardPage) -> None:
        asked = self.app.asker(message)
        if asked is not None and isinstance(asked.screen, LeaderboardScreen):
            asked.screen.show_page(message)

    def _show_record(self, wish: lobby_wish.ShowRecord) -> None:
        screen = RecordScreen()
        self.app.push_screen(screen)
        self.app.ask(AskRecord(), screen, screen.refused)

    def _heard_record(self, message: PlayerRecord) -> None:
        asked = self.app.asker(message)
        if asked is not None and isinstance(asked.screen, RecordScreen):
            asked.screen.show_record(message)

    def _replay_wanted(self, wish: RecordScreen.ReplayWanted | PlayerCardScreen.ReplayWanted) -> None:
        self.app.ask(AskFinishedMatch(wish.match_id), wish.control, wish.control.refused)

    def _replay_finished(self, message: FinishedMatch) -> None:
        """A finished match the player asked for: replayed and judged here (the server runs no solver)."""
        asked = self.app.asker(message)
        if asked is None or not isinstance(asked.screen, (RecordScreen, PlayerCardScreen)):
            return  # the record or the card it was asked from has closed
        try:
            match = Match.from_dict(message.match)
        except SolunaError as error:
            asked.screen.say(f"That match could not be read: {error}.", error=True)
            return
        when = time.strftime("%Y-%m-%d %H:%M UTC", time.gmtime(message.finished_at))
        details = [f"Server match #{message.id}: {message.result.words}, finished {when}"]
        asked.screen.say("")
        self.app.push_screen(ReplayScreen(match, details, ascii_mode=self.app.ascii_mode, ended=message.result))
