"""What the screens and widgets need from the app beyond Textual's ``App``, as a typed view.

Screens reach the app through ``app_view(self)`` rather than a cast to ``SolunaApp`` or a
``getattr`` on an untyped ``App``: the type checker then knows what they use, and checks that
``SolunaApp`` (and so the SSH session's ``ChildApp``) provides it. Nothing is imported here at run
time, so a screen importing it imports no other screen and not the app; and it names only what
lives below it (the game screen is seen as a ``ShownMatch``). ``soluna_app.py`` checks that ``SolunaApp``
is a ``SolunaView``.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any, Protocol, cast

if TYPE_CHECKING:
    from collections.abc import Callable

    from textual.message_pump import MessagePump
    from textual.screen import Screen

    from ..local.match_setup import MatchSetup
    from ..local.player_stats import StatsStore
    from ..rules import Match


class ShownMatch(Protocol):
    """The game screen as other screens see it: the match it shows."""

    @property
    def match(self) -> Match:
        """The match on the game screen."""


class SideLineOpener(Protocol):
    """How a screen opens a side line over itself: the side line's screen is a game screen, so the screens
    it stands on (the game screen, the review) reach it through the app."""

    def play_on(self, source: Screen[Any], match: Match, round_number: int, ply: int, *, hints: bool,
                analysis_on: bool = False, back_to: str = "the match", you: int | None = None) -> str | None:
        """Ask whether the computer answers, then play on from that position; or say why not."""

    def try_again(self, source: Screen[Any], match: Match, round_number: int, ply: int, *, hints: bool) -> None:
        """From the position before a mistake, its maker to move, the computer (perfect play) answering."""


class SolunaView(Protocol):
    """The Soluna app as its screens and widgets see it."""

    @property
    def ascii_mode(self) -> bool:
        """Whether to draw with ASCII characters only."""

    @property
    def cursor_follows_focus(self) -> bool:
        """Whether the terminal's real cursor is shown on the focus (``app/focus_cursor.py``)."""

    def follow_focus(self, follows: bool) -> None:
        """Show the terminal's cursor on the focus, or hide it again."""

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
    def game(self) -> ShownMatch | None:
        """The game screen of the match being played, if any."""

    @property
    def side_line_opener(self) -> SideLineOpener:
        """How a screen opens a side line over itself."""

    def start_match(self, setup: MatchSetup, rematch_of: Match | None = None) -> None:
        """Begin a fresh match (a rematch keeps the players and lets the loser open)."""

    def action_new_match(self, previous: MatchSetup | None = None, notice: str = "") -> None:
        """Offer the new-match dialog."""

    def hold_input(self) -> Callable[[], None]:
        """Keep the keys still waiting until the function returned is called (``terminal/key_order.py``)."""


def app_view(node: MessagePump) -> SolunaView:
    """The app ``node`` (a screen or a widget) runs in, as a ``SolunaView``: every app that shows the
    game's screens and widgets is a ``SolunaApp`` (the SSH session's ``ChildApp`` is one too)."""
    return cast("SolunaView", node.app)
