"""What the game screen's parts use of the screen, as typed views.

The game screen owns its parts, one job each: picking (``picking.Picking``, which the puzzle and the guided
round screens own too), hints and analysis (``teaching.Teaching``), the dialogs of a decided round or match
(``match_dialogs.MatchDialogs``), browsing the history and playing on from it (``history_browsing``), the
computer's turns (``computer_turns.ComputerTurns``) and a clock kept at the table (``clock_watch.ClockWatch``).
The parts are handed the screen itself; they name it through these Protocols, for types only, rather than
importing ``game.py``, which imports them (as the app's parts see the app through ``app.host.AppHost``); and
one another through the screen, by what they use of each other (``PickingFace``...), so no part's module
imports another's. Whoever hands a screen to a part is checked, there, to be what the part asks for.
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
    from ..play.looks import HistoryEntry
    from ..play.match_flow import MatchFlow, MatchOver, Next
    from ..play.view import SideLineStart
    from ..rules import Arrangement, Match, PlacedMove
    from ..terminal.glyphs import Glyphs
    from ..widgets.board import Board
    from ..widgets.move_prompt import MovePrompt

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


class PickingFace(Protocol):
    """What the other parts use of picking (``picking.Picking``)."""

    @property
    def move_prompt(self) -> MovePrompt:
        """The line to type a move on."""

    def close_prompt(self) -> None:
        """Close the prompt; the board takes the keys again."""

    def drop(self) -> None:
        """Forget the tower in hand."""


class TeachingFace(Protocol):
    """What the other parts use of the teacher (``teaching.Teaching``)."""

    @property
    def hints_allowed(self) -> bool:
        """Whether this match allows hints and analysis."""

    @property
    def analysis_on(self) -> bool:
        """Whether analysis mode is on."""

    @property
    def side_line_hints(self) -> bool:
        """Whether a side line from this match has hints."""

    def count_hint(self, player: int) -> None:
        """One more hint used by ``player``, kept."""

    def seek_help(self) -> None:
        """What analysis mode needs for the position shown now."""


class BrowsingFace(Protocol):
    """What the other parts use of the history's browsing (``history_browsing.HistoryBrowsing``)."""

    @property
    def viewing(self) -> HistoryEntry | None:
        """The earlier position shown (``None``: the live one)."""


class DialogsFace(Protocol):
    """What the other parts use of the match's dialogs (``match_dialogs.MatchDialogs``)."""

    def show_round_over(self, computer_opens: bool | None) -> None:
        """The round-over dialog."""

    def show_match_over(self, over: MatchOver) -> None:
        """The finished match counted, and its summary shown."""


class ComputerFace(Protocol):
    """What the other parts use of the computer's turns (``computer_turns.ComputerTurns``)."""

    def go_on(self, coming: Next) -> None:
        """Do what the match's flow says comes next."""


class GameHost(PickingHost, RunsWorkers, Protocol):
    """The game screen as its parts see it (its workers run the solver and the computer: ``RunsWorkers``)."""

    #: Who sits where; through it, the match (a new match on the same screen brings a new table).
    table: Table
    #: What the match's flow decides (whose turn, what comes next), for the match on the screen.
    flow: MatchFlow

    @property
    def picking(self) -> PickingFace:
        """Picking towers up, and the prompt to type a move on."""

    @property
    def teaching(self) -> TeachingFace:
        """Hints and analysis."""

    @property
    def browsing(self) -> BrowsingFace:
        """The position shown, picked in the history or the live one."""

    @property
    def dialogs(self) -> DialogsFace:
        """The dialogs of a decided round or match."""

    @property
    def computer(self) -> ComputerFace:
        """The computer's turns."""

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
