"""What the game screen's parts use of the screen, as typed views.

The game screen owns its parts, one job each: picking (``picking.Picking``, which the puzzle and the guided
round screens own too), hints and analysis (``teaching.Teaching``), the dialogs of a decided round or match
(``match_dialogs.MatchDialogs``), browsing the history and playing on from it (``history_browsing``), the
computer's turns (``computer_turns.ComputerTurns``) and a clock kept at the table (``clock_watch.ClockWatch``).
The parts are handed the screen itself; they name it through these Protocols, for types only, rather than
importing ``game.py``, which imports them (as the app's parts see the app through ``app.host.AppHost``).
Whoever hands a screen to a part is checked, there, to be what the part asks for.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any, Protocol, TypeVar

from .solver_work import RunsWorkers

if TYPE_CHECKING:
    from collections.abc import Callable

    from textual.app import App
    from textual.notifications import SeverityLevel
    from textual.screen import Screen
    from textual.timer import Timer
    from textual.widget import Widget

    from ..app.soluna_view import SolunaView
    from ..local.table import Table
    from ..play.match_flow import MatchFlow
    from ..play.view import SideLineStart
    from ..rules import Arrangement, Match, PlacedMove
    from ..terminal.glyphs import Glyphs
    from ..widgets.board import Board
    from .clock_watch import ClockWatch
    from .computer_turns import ComputerTurns
    from .history_browsing import HistoryBrowsing
    from .match_dialogs import MatchDialogs
    from .picking import Picking
    from .teaching import Teaching

WidgetT = TypeVar("WidgetT", bound="Widget")


class PickingHost(Protocol):
    """A screen with a board to pick towers up on (the game, a puzzle, the guided round), as its ``Picking``
    sees it."""

    @property
    def board(self) -> Board:
        """The board the towers are picked on."""

    @property
    def picking_arrangement(self) -> Arrangement:
        """The table the player may move on now."""

    def may_pick(self) -> bool:
        """Whether the player may pick a tower up or play now; if not, the screen has said why."""

    def commit(self, placed: PlacedMove) -> None:
        """Play the move chosen, picked and placed or typed."""

    def redraw(self, cursor: int | None = None) -> None:
        """Show what is true now, the board's cursor on ``cursor`` (``None``: where it is)."""

    def say(self, text: str, kind: str = "warning") -> None:
        """A line on the status line."""

    # Textual's, as picking calls them.

    @property
    def app(self) -> App[object]:
        """The app the screen runs in."""

    @property
    def focused(self) -> Widget | None:
        """The widget with the focus."""

    def set_focus(self, widget: Widget | None, scroll_visible: bool = True) -> None:
        """Give ``widget`` the focus."""

    def query_one(self, selector: type[WidgetT]) -> WidgetT:
        """The screen's one widget of that kind."""

    def check_action(self, action: str, parameters: tuple[object, ...]) -> bool | None:
        """Whether the key of ``action`` works now (``None``: shown dimmed)."""


class GameHost(PickingHost, RunsWorkers, Protocol):
    """The game screen as its parts see it (its workers run the solver and the computer: ``RunsWorkers``)."""

    #: Who sits where; through it, the match (a new match on the same screen brings a new table).
    table: Table
    #: What the match's flow decides (whose turn, what comes next), for the match on the screen.
    flow: MatchFlow
    picking: Picking
    teaching: Teaching
    browsing: HistoryBrowsing
    dialogs: MatchDialogs
    computer: ComputerTurns
    clock_watch: ClockWatch

    @property
    def match(self) -> Match:
        """The match on the screen."""

    @property
    def glyphs(self) -> Glyphs:
        """The drawing set (Unicode, or ASCII)."""

    @property
    def soluna(self) -> SolunaView:
        """The app, with the game's own settings and stores."""

    @property
    def side_line_start(self) -> SideLineStart | None:
        """Where this screen's side line left its match (``None``: this is a match, not a side line)."""

    def widget_of(self, kind: type[WidgetT]) -> WidgetT:
        """The screen's one widget of ``kind``, looked up once."""

    def after_change(self, cursor: int | None = None) -> None:
        """Redraw, tell what there is to tell, and start whatever comes next."""

    def play(self, placed: PlacedMove) -> None:
        """Play a move from and onto its places."""

    def end_match_now(self, end: Callable[[], None] | None = None) -> None:
        """End the match before it is played out (``end`` ends it), and tell the end."""

    def action_undo(self) -> None:
        """Take the last move back (``u``)."""

    def action_rematch(self) -> None:
        """The same players again (``r`` once the match is over)."""

    # Textual's, as the parts call them.

    @property
    def screen(self) -> Screen[object]:
        """The screen itself, as Textual's (for what opens a screen over it)."""

    def notify(self, message: str, *, title: str = "", severity: SeverityLevel = "information",
               timeout: float | None = None) -> None:
        """A toast."""

    def set_timer(self, delay: float, callback: Callable[[], object]) -> Timer:
        """Call ``callback`` once, ``delay`` seconds from now."""

    def set_interval(self, interval: float, callback: Callable[[], object]) -> Timer:
        """Call ``callback`` every ``interval`` seconds."""

    def call_after_refresh(self, callback: Callable[..., Any], *args: Any) -> bool:
        """Call ``callback`` once the screen has been refreshed."""

    def set_class(self, add: bool, *class_names: str) -> object:
        """Add or remove the screen's classes."""
