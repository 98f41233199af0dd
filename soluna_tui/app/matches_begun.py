"""Matches on this terminal: the new-match form, a rematch, asking before a match in play is
abandoned, and putting a match on the screen in place of whatever was there."""

from __future__ import annotations

from collections.abc import Callable
from typing import TYPE_CHECKING

from ..local.match_setup import MatchSetup
from ..local.table import LocalTable, Table
from ..rules import Match
from ..screens.game import GameScreen

if TYPE_CHECKING:
    from .host import AppHost


class Matches:
    """Begins matches (each written as it begins) and shows them, for the app that owns this."""

    def __init__(self, app: AppHost) -> None:
        self._app = app

    def new_table(self, setup: MatchSetup, rematch_of: Match | None = None, keep: bool = True) -> LocalTable:
        """A new match at a table; written at once unless ``keep`` is False (the caller does it)."""
        match = rematch_of.rematch(setup.seed) if rematch_of is not None else setup.new_match()
        table = LocalTable(setup, match, self._app.store)
        if keep:
            self.keep_new_table(table)
        return table

    def keep_new_table(self, table: LocalTable) -> None:
        """Write a new match, and remember its setup for next time."""
        self._app.remember(setup=table.setup)
        table.save()

    def start(self, setup: MatchSetup, rematch_of: Match | None = None) -> None:
        """Begin a fresh match (a rematch keeps the players and lets the loser open)."""
        self.show(self.new_table(setup, rematch_of))

    def show(self, table: Table, shown: Callable[[], None] | None = None) -> None:
        """Put the match on screen in place of whatever was there (dialogs, an older match), then
        call ``shown`` once it has been drawn.

        Deferred: this is usually asked from a dialog's callback, while that dialog is still
        being dismissed.
        """
        self._app.call_after_refresh(self._replace_screens, table, shown)

    async def _replace_screens(self, table: Table, shown: Callable[[], None] | None = None) -> None:
        app = self._app
        game = app.game
        while len(app.screen_stack) > 1 and app.screen is not game:
            app.pop_screen()
        if game is not None:
            await game.load(table)
        else:
            app.push_screen(GameScreen(table))
        app.check_size()
        if shown is not None:
            app.call_after_refresh(shown)

    def offer_new_match(self, previous: MatchSetup | None = None, notice: str = "") -> None:
        """The new-match form, set as ``previous`` (the match on screen, else the last one played)."""
        from ..screens.new_match import NewMatchScreen

        app = self._app
        game = app.game
        if previous is None:
            previous = game.table.setup if game is not None else app.preferences.last_setup
        screen = NewMatchScreen(previous, ascii_mode=app.ascii_mode, notice=notice, in_game=game is not None,
                                pause=app.pause)
        app.push_screen(screen, self._new_match_chosen)

    def _new_match_chosen(self, setup: MatchSetup | None) -> None:
        if setup is not None:
            self.start_unless_abandoning(setup)
        elif self._app.game is None:
            self._app.exit()

    def start_unless_abandoning(self, setup: MatchSetup, rematch_of: Match | None = None) -> None:
        """Start a match (``start_match``: the app's, a session's own), asking first if that would abandon one
        in progress (nothing lost by surprise)."""
        app = self._app
        game = app.game
        match = game.match if game is not None else None
        if match is None or match.is_over or not (match.round.ply or match.round_number > 1):
            app.start_match(setup, rematch_of)
            return
        from ..screens.confirm import ConfirmScreen

        names, stars = match.players, match.stars
        question = (f"The match in progress ({names[0]} {stars[0]} - {stars[1]} {names[1]}, round "
                    f"{match.round_number}) will be abandoned: it will not be saved or counted.")
        app.push_screen(
            ConfirmScreen(question, "Abandon it and start the new match", "Keep playing", "Abandon the match?"),
            lambda yes: app.start_match(setup, rematch_of) if yes else None,
        )
