"""What the screens and widgets need from the app beyond Textual's ``App``, as a typed view.

Screens reach the app through ``app_view(self)`` rather than a cast to ``SolunaApp`` or a
``getattr`` on an untyped ``App``: the type checker then knows what they use, and checks that
``SolunaApp`` (and so the SSH session's ``ChildApp``) provides it. Nothing is imported here at run
time, so a screen importing it imports no other screen and not the app.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Protocol, cast

if TYPE_CHECKING:
    from textual.message_pump import MessagePump

    from .app import SolunaApp
    from .match_setup import MatchSetup
    from .rules import Match
    from .screens.game import GameScreen
    from .stats import StatsStore


class SolunaView(Protocol):
    """The Soluna app as its screens and widgets see it."""

    @property
    def ascii_mode(self) -> bool:
        """Whether to draw with ASCII characters only."""

    @property
    def computer_pause(self) -> float:
        """Seconds the computer appears to think before its chosen tower is lifted."""

    @property
    def reveal_pause(self) -> float:
        """Seconds the computer's chosen tower stays lifted before it lands."""

    @property
    def stats_store(self) -> StatsStore:
        """The player's statistics (records of matches and puzzles)."""

    @property
    def game(self) -> GameScreen | None:
        """The match being played, if any."""

    def start_match(self, setup: MatchSetup, rematch_of: Match | None = None) -> None:
        """Begin a fresh match (a rematch keeps the players and lets the loser open)."""

    def action_new_match(self, previous: MatchSetup | None = None, notice: str = "") -> None:
        """Offer the new-match dialog."""



def app_view(node: MessagePump) -> SolunaView:
    """The app ``node`` (a screen or a widget) runs in, as a ``SolunaView``: every app that shows the
    game's screens and widgets is a ``SolunaApp`` (the SSH session's ``ChildApp`` is one too)."""
    return cast("SolunaView", node.app)


if TYPE_CHECKING:
    def _soluna_app_is_a_view(app: SolunaApp) -> SolunaView:
        """Checked by mypy only: ``SolunaApp`` provides everything the view promises."""
        return app
