"""What the app's own parts (starting up, matches, the palette's commands, the screens it opens) use
of the app, as a typed view: more than the screens see (``app_view``), and a few of Textual's calls.

The parts are handed the app itself; they name it through this Protocol, for types only, rather
than importing ``soluna_app.py``, which imports them. ``SolunaApp`` (and so the SSH session's ``ChildApp``,
which overrides some of it) is checked to be one where it hands itself over.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any, Protocol

from .soluna_view import SolunaView

if TYPE_CHECKING:
    from collections.abc import Callable

    from textual.await_complete import AwaitComplete
    from textual.geometry import Size
    from textual.notifications import SeverityLevel
    from textual.screen import Screen, ScreenResultCallbackType

    from ..local.preferences import Preferences
    from ..local.saves import SaveStore
    from ..play.where import Where
    from ..screens.game import GameScreen


class AppHost(SolunaView, Protocol):
    """The Soluna app as its own parts see it."""

    #: The save of the match in play; None where nothing is kept (an SSH session).
    store: SaveStore | None

    @property
    def preferences(self) -> Preferences:
        """What the player chose last time."""

    @property
    def game(self) -> GameScreen | None:
        """The game screen of the match being played, if any (side lines passed over)."""

    @property
    def side_line(self) -> GameScreen | None:
        """The side line being played, if it is the game screen nearest the top."""

    @property
    def where(self) -> Where:
        """Where the player is, for the keys the help lists and the commands the palette offers."""

    @property
    def pause(self) -> float:
        """The computer's whole pause before its move lands, in seconds."""

    def set_pause(self, pause: float) -> None:
        """A new pause for the computer, remembered for next time."""

    def remember(self, **choices: Any) -> None:
        """Keep the theme, match setup or pause for next time (where anything is kept)."""

    @property
    def keeps_choices(self) -> bool:
        """Whether ``remember`` keeps anything: this terminal's preferences, or over SSH a player's key."""

    def server_rules(self) -> str:
        """What the help says about the server's rules for matches between players."""

    def check_size(self, size: Size | None = None) -> None:
        """Cover whatever is on top with the too-small notice while the terminal is too small."""

    def action_help(self) -> None:
        """Show the help."""

    def action_stats(self) -> None:
        """Show the statistics."""

    def action_guided_round(self) -> None:
        """Show the guided round."""

    # Textual's, as the parts call them.

    @property
    def screen(self) -> Screen[object]:
        """The screen on top."""

    @property
    def screen_stack(self) -> list[Screen[Any]]:
        """The screens, the top one last."""

    def push_screen(self, screen: Screen[Any], callback: ScreenResultCallbackType[Any] | None = None) -> object:
        """Put ``screen`` on top; ``callback`` hears what it is dismissed with."""

    def pop_screen(self) -> AwaitComplete:
        """Take the top screen away."""

    def call_after_refresh(self, callback: Callable[..., Any], *args: Any, **kwargs: Any) -> bool:
        """Call ``callback`` once the screen has been refreshed."""

    def call_from_thread(self, callback: Callable[..., Any], *args: Any, **kwargs: Any) -> Any:
        """From a worker's thread: call ``callback`` on the app's."""

    def run_worker(self, work: Callable[[], None], *, group: str = "default", exclusive: bool = False,
                   thread: bool = False) -> object:
        """Run ``work`` in a worker (in a thread of its own with ``thread``)."""

    def notify(self, message: str, *, severity: SeverityLevel = "information", timeout: float | None = None) -> None:
        """Show a notification."""

    def exit(self) -> None:
        """Leave the app."""

    def action_change_theme(self) -> None:
        """Offer the themes."""

    async def action_quit(self) -> None:
        """Quit (asked first, where that means something to lose)."""
