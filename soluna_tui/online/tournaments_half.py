"""Runs in the child.

The session app's tournaments half: the list (``t`` in the lobby, or its menu), a tournament's page, joining and
withdrawing, and a keyed player's own tournament announced (where the server allows it), each asked of the server
and its answer shown on the screen that asked. Being seated at a pairing needs nothing here: the server sends
``Paired`` and the match, as for a quick match.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from ..link.messages import (
    AskTournament,
    AskTournaments,
    CreateTournament,
    JoinTournament,
    Message,
    TournamentKind,
    TournamentPage,
    Tournaments,
    WithdrawTournament,
)
from .linked_app import LinkedApp
from .screens import lobby_wish
from .screens.tournament import TournamentScreen
from .screens.tournament_form import TournamentFormScreen
from .screens.tournaments import TournamentsScreen


class TournamentsHalf:
    """The tournaments' wishes, asked of the server, and the answers, shown where asked."""

    def __init__(self, app: LinkedApp) -> None:
        self.app = app

    @property
    def wishes(self) -> dict[type[lobby_wish.LobbyWish], Callable[[Any], None]]:
        return {lobby_wish.ShowTournaments: self._show_list, TournamentsScreen.Open: self._open,
                TournamentsScreen.Announce: self._announce_form, TournamentFormScreen.Chosen: self._announce,
                TournamentScreen.PageWanted: self._page_wanted, TournamentScreen.Join: self._join,
                TournamentScreen.Withdraw: self._withdraw}

    @property
    def handlers(self) -> dict[type[Message], Callable[[Any], None]]:
        return {Tournaments: self._heard_list, TournamentPage: self._heard_page}

    def _show_list(self, wish: lobby_wish.ShowTournaments) -> None:
        screen = TournamentsScreen()
        self.app.push_screen(screen)
        self.app.ask(AskTournaments(), screen, screen.refused)

    def _heard_list(self, message: Tournaments) -> None:
        asked = self.app.asker(message)
        if asked is not None and isinstance(asked.screen, TournamentsScreen):
            asked.screen.show(message)

    def _open(self, wish: TournamentsScreen.Open) -> None:
        screen = TournamentScreen(wish.tournament, keyed=self.app.rated)
        self.app.push_screen(screen)
        self.app.ask(AskTournament(wish.tournament), screen, screen.refused)

    def _page_wanted(self, wish: TournamentScreen.PageWanted) -> None:
        self.app.ask(AskTournament(wish.screen.tournament), wish.screen, wish.screen.refused)

    def _join(self, wish: TournamentScreen.Join) -> None:
        self.app.ask(JoinTournament(wish.screen.tournament), wish.screen, wish.screen.refused)

    def _withdraw(self, wish: TournamentScreen.Withdraw) -> None:
        self.app.ask(WithdrawTournament(wish.screen.tournament), wish.screen, wish.screen.refused)

    def _heard_page(self, message: TournamentPage) -> None:
        """A tournament's page: on the page that asked, or (the form's answer) on a page opened in the form's
        place."""
        asked = self.app.asker(message)
        if asked is None:
            return
        if isinstance(asked.screen, TournamentScreen):
            asked.screen.show(message)
        elif isinstance(asked.screen, TournamentFormScreen):
            asked.screen.dismiss(None)
            page = TournamentScreen(message.tournament.id)
            self.app.push_screen(page)
            page.show(message)

    def _announce_form(self, wish: TournamentsScreen.Announce) -> None:
        self.app.push_screen(TournamentFormScreen(self.app.lobby.settings.terms(self.app.rated),
                                                  ascii_mode=self.app.ascii_mode))

    def _announce(self, wish: TournamentFormScreen.Chosen) -> None:
        kind: TournamentKind = "arena" if wish.kind == "arena" else "swiss"
        self.app.ask(CreateTournament(wish.name, kind, wish.length, wish.starts_in, wish.terms), wish.screen,
                     wish.screen.show_error)
