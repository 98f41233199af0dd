"""The main screen: the board, the status line, the star tally and the move history.

The screen composes the widgets, hands them what to show, and runs the match's flow after every change; its
keys and messages go to the parts it owns, one job each, which see it through ``GameHost`` (``game_host.py``):
picking (``picking.Picking``), hints and analysis (``teaching.Teaching``), the dialogs of a decided round or
match and resigning (``match_dialogs.MatchDialogs``), browsing the history and playing on from it
(``history_browsing.HistoryBrowsing``), the computer's turns in the screen's workers
(``computer_turns.ComputerTurns``) and a clock kept at this table (``clock_watch.ClockWatch``). The table (and
through it the match), the match's flow and the view functions of ``soluna_tui.play`` decide.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import TYPE_CHECKING, TypeVar, cast

from textual import events, on
from textual.app import ComposeResult
from textual.binding import Binding
from textual.message import Message
from textual.screen import ModalScreen
from textual.widget import Widget

from ..app.soluna_view import SolunaView, app_view
from ..local.table import Table, UndoTooLateError
from ..play import view
from ..play.coach import Coach, Turn
from ..play.match_flow import KeyFacts, MatchFlow, Step
from ..play.view import Moment, TableFacts
from ..rules import Arrangement, Match, PlacedMove
from ..terminal.glyphs import Glyphs, glyphs_for
from ..widgets.board import Board
from ..widgets.cached_lines import CachedLines, Column, Row
from ..widgets.chat_panel import ChatPanel
from ..widgets.clock_panel import ClockPanel
from ..widgets.history import History
from ..widgets.key_footer import KeyFooter
from ..widgets.last_move import LastMoveLine
from ..widgets.move_prompt import MovePrompt
from ..widgets.notice_line import NoticeLine
from ..widgets.status_line import StatusLine
from ..widgets.tally import Tally
from .clock_watch import ClockWatch
from .computer_turns import ComputerAnswered, ComputerTurns
from .history_browsing import HistoryBrowsing
from .match_dialogs import MatchDialogs
from .picking import PICKING_BINDINGS, TYPING_BINDING, BoardScreen, Picking
from .quiet_focus import QuietFocus
from .styled_as_mounted import StyledAsMounted
from .teaching import TEACHING_BINDINGS, Consulted, Teaching

if TYPE_CHECKING:
    from ..play.view import SideLineStart

WidgetT = TypeVar("WidgetT", bound=Widget)


class GameScreen(QuietFocus, StyledAsMounted, CachedLines, BoardScreen[None]):
    """A match in play on this terminal."""

    #: The screen's own background, under everything: one blank line repeated (see ``CachedLines``).
    BLANK_LINES = True
    #: The title of the star tally's panel.
    TALLY_TITLE = "Soluna"

    BINDINGS = [
        *PICKING_BINDINGS,
        # Undo before typing and teaching: a phone's footer has room for about four keys (``KeyFooter``).
        Binding("u", "undo", "Undo"),
        Binding("r", "redo", "Redo"),
        Binding("r", "rematch", "Rematch"),  # once the match is over (nothing to redo then)
        TYPING_BINDING,
        *TEACHING_BINDINGS,
        Binding("n", "app.new_match", "New match", show=False),
        Binding("R", "resign", "Resign", show=False),
        Binding("tab,shift+tab", "toggle_history", "Moves", show=False),
        # Only while the history has the focus (on the board, p is a tower's key).
        Binding("p", "play_on", "Play on"),
        Binding("Y", "copy_position", "Copy position", show=False),
    ]

    class TableChanged(Message):
        """The match changed from elsewhere (a remote player's move, the server's news)."""

    class KeysChanged(Message):
        """Nothing shown changed but what the player may ask (their own move confirmed by the server)."""

    def __init__(self, table: Table) -> None:
        super().__init__()
        self.table = table
        self._board: Board | None = None
        self._widgets: dict[type[Widget], Widget] = {}
        self.picking = Picking(self)
        self.teaching = Teaching(self)
        self.browsing = HistoryBrowsing(self)
        self.dialogs = MatchDialogs(self)
        self.computer = ComputerTurns(self)
        self.clock_watch = ClockWatch(self)
        self._reset_state()

    #: Counts the matches shown on this screen, so a worker's late answer about an old one is ignored.
    _serial = 0

    def _reset_state(self) -> None:
        self._serial += 1
        self.flow = MatchFlow(self.table, self._serial)
        self.picking.drop()
        self.teaching.coach = Coach()
        self.browsing.viewing = None
        self.clock_watch.stop()  # another match on this screen: the last one's clock is done with

    # ---- composition ---------------------------------------------------------------------

    @property
    def glyphs(self) -> Glyphs:
        return glyphs_for(app_view(self).ascii_mode)

    def compose(self) -> ComposeResult:
        with Row(id="game-main"):
            with Column(id="play-area"):
                yield Board(self.glyphs, self.match.options.discs, id="board")
                yield LastMoveLine(id="last-move")
                # A box of fixed height: the prompt opens in the status's place, never moving the board.
                with Column(id="under-board"):
                    yield MovePrompt(id="move-prompt")
                    yield StatusLine(id="status")
            with Column(id="sidebar"):
                with Column(id="score"):  # on a narrow terminal, a line above the board (styles/game.tcss)
                    yield Tally(self.glyphs, id="tally")
                    yield ClockPanel(self.glyphs, id="clock-panel")  # shown for a match with a clock
                yield History(id="history")
                yield ChatPanel(shown_with_lines=True, id="chat")  # table talk over SSH: hidden until there is some
                yield NoticeLine(id="notice")
        yield KeyFooter()

    @property
    def board(self) -> Board:
        if self._board is None or not self._board.is_attached:
            self._board = self.query_one(Board)
        return self._board

    def widget_of(self, kind: type[WidgetT]) -> WidgetT:
        """The screen's one widget of ``kind``, looked up once (every key asks for a few)."""
        found = self._widgets.get(kind)
        if found is None or not found.is_attached:
            found = self._widgets[kind] = self.query_one(kind)
        return cast(WidgetT, found)

    @property
    def chat_panel(self) -> ChatPanel:
        """Table talk over SSH, beside the board (drawn into on every line heard)."""
        return self.widget_of(ChatPanel)

    @property
    def soluna(self) -> SolunaView:
        """The app, with the game's own settings and stores."""
        return app_view(self)

    @property
    def match(self) -> Match:
        return self.table.match

    def on_mount(self) -> None:
        self.query_one("#tally").border_title = self.TALLY_TITLE
        self.query_one("#history").border_title = "Moves"
        self._watch_table()
        self.after_change(cursor=0)

    def _watch_table(self) -> None:
        def changed() -> None:
            # post_message is thread-safe, so a table may report changes from any thread.
            self.post_message(self.TableChanged())

        def keys_changed() -> None:
            self.post_message(self.KeysChanged())

        self.table.on_change, self.table.on_keys_change = changed, keys_changed

    @on(KeysChanged)
    def _keys_changed(self) -> None:
        """The keys alone: the whole screen redrawn from the table for this cost each move a frame's worth of CPU
        on the mover's terminal, for a footer."""
        self.refresh_bindings()

    @on(TableChanged)
    def _table_changed(self) -> None:
        with self.app.batch_update():
            self.picking.picker.forget_gone(self.picking_arrangement)
            self.dialogs.close_stale()
            self.after_change()

    async def load(self, table: Table) -> None:
        """Play another match on this screen (a rematch, a new match)."""
        self.computer.stop()
        self.workers.cancel_group(self, "oracle")
        self.table.on_change = self.table.on_keys_change = None
        self.table.pause_clock(True)
        self.table = table
        self._reset_state()
        self._watch_table()
        self.table.pause_clock(not self.is_current)
        if self.board.capacity < self.match.options.discs:
            await self.board.remove()
            await self.query_one("#play-area").mount(
                Board(self.glyphs, self.match.options.discs, id="board"), before="#last-move"
            )
        self.after_change(cursor=0)
        self.board.focus()

    # ---- what the widgets show (see soluna_tui.play.view) ---------------------------------

    @property
    def picking_arrangement(self) -> Arrangement:
        """The live table, every tower in the place it has kept since the round's opening."""
        return self.match.round.table

    def moment(self) -> Moment:
        flow, picker = self.flow, self.picking.picker
        return Moment(flow.turn, flow.phase, flow.revealing, self.browsing.viewing, self.picking.move_prompt.is_open,
                      picker.picked_slot, self.glyphs.ascii, picker.picked_tower(self.picking_arrangement))

    def table_facts(self) -> TableFacts:
        return TableFacts.of(self.table, hints=self.teaching.hints_allowed, analysis_on=self.teaching.analysis_on)

    @property
    def side_line_start(self) -> SideLineStart | None:
        """Where this screen's side line left its match (``None``: this is a match, not a side line)."""
        return None

    def prompt(self, facts: TableFacts | None = None, moment: Moment | None = None) -> tuple[str, str]:
        """The status line for the current moment, and its kind."""
        return view.status_prompt(self.match, facts or self.table_facts(), moment or self.moment(),
                                  self.teaching.prompt())

    def redraw(self, cursor: int | None = None) -> None:
        """Hand every widget what it should show now (drawing only: nothing is asked or saved).
        Each widget redraws only what changed, and all of it lands in one frame."""
        with self.app.batch_update():
            moment, facts = self.moment(), self.table_facts()
            board, viewing, side_line_start = self.board, self.browsing.viewing, self.side_line_start
            board.reserve_notes = facts.hints
            board.discs = self.match.options.discs
            table, last = view.shown_table(self.match, viewing)
            board.show(view.board_looks(table, last, moment, self.teaching.coach, facts.analysis_on), cursor)
            self.widget_of(LastMoveLine).show(view.last_move_words(self.match, viewing, side_line_start))
            tally = self.widget_of(Tally)
            tally.info = view.tally_info(self.match, facts, moment, side_line_start)
            self.widget_of(ClockPanel).show(self.table.clock, self.table.clock_read_at, self.match.players)
            subtitle = "analysis on" if facts.analysis_on else ""
            if tally.border_subtitle != subtitle:  # setting it redraws the panel, even to the same text
                tally.border_subtitle = subtitle
            self.widget_of(History).show(view.history_entries(self.match, side_line_start))
            self.widget_of(StatusLine).say(*self.prompt(facts, moment))
            self.refresh_bindings()

    def say(self, text: str, kind: str = "warning") -> None:
        self.widget_of(StatusLine).say(text, kind)

    def show_notice(self, text: str) -> None:
        """News at the match, in its own lines under the moves (the newest replaces the last), there too under a
        dialog (it says what the player must answer; the lines are read as it goes): never a toast over the
        board, its status or a panel's border. A whole screen over the match (a replay) has a toast too."""
        self.widget_of(NoticeLine).show(text)
        if self.app.screen is not self and not isinstance(self.app.screen, ModalScreen):
            self.notify(text, timeout=8)

    def withdraw_notice(self, text: str) -> None:
        """The notice ``text`` no longer holds (a request answered or lapsed): its lines go, unless newer news
        replaced it already."""
        self.widget_of(NoticeLine).withdraw(text)

    # ---- the flow of a match (decided by ``self.flow``, a MatchFlow) ---------------------------

    def after_change(self, cursor: int | None = None) -> None:
        """Redraw, warn about saving trouble, and start whatever comes next."""
        if self.picking.move_prompt.is_open and not self.flow.human_may_move(self.browsing.browsing):
            self.picking.close_prompt()  # the turn passed (a remote player, the end of the round)
            cursor = self.picking.cursor_before_prompt if cursor is None else cursor
        self.teaching.seek_help()
        self.redraw(cursor)
        for notice in self.table.take_notices():
            self.show_notice(notice)
        problem = self.flow.save_problem_to_tell()
        if problem:
            # After a refresh, so the toast lands even when this runs while the screen mounts.
            self.call_after_refresh(self.notify, problem, title="Not saved", severity="warning", timeout=8)
        self.clock_watch.watch()
        step = self.flow.step()
        if step is Step.ANNOUNCE:
            # The move that decided it is drawn first, and its dialog over it in the next frame: the player sees
            # the move land, and the dialog's frame (a screen laid out and drawn whole) does not hold it back. The
            # keys typed after the move wait until the end is announced (the dialog they are meant for shown).
            release = self.soluna.hold_input()
            if not self.call_after_refresh(self._announce_end, self.flow.turn, release):
                release()  # the screen is closing: nothing to announce, nothing to wait for
        elif step is Step.THINK:
            self.picking.drop()
            self.computer.think()

    def _announce_end(self, turn: Turn, then: Callable[[], None]) -> None:
        """The end decided at ``turn`` announced, unless the match moved on meanwhile (a move taken back); then the
        keys typed since go on."""
        try:
            if self.flow.turn == turn and self.is_attached:
                self.dialogs.announce_end()
            else:
                self.flow.unannounce(turn)  # should the match come back to the same turn decided, it is announced
        finally:
            then()

    @on(ComputerAnswered)
    def _computer_answered(self, message: ComputerAnswered) -> None:
        self.computer.heard(message.answer)

    def end_match_now(self, end: Callable[[], None] | None = None) -> None:
        """The match ends before it is played out (a resignation, a clock run out): nothing more is thought,
        picked or typed, and the end is told."""
        with self.app.batch_update():
            self.computer.stop()
            self.picking.close_prompt()
            self.picking.drop()
            if end is not None:
                end()
            self.after_change()

    def on_screen_resume(self) -> None:
        self.clock_watch.resumed()

    def on_screen_suspend(self) -> None:
        self.clock_watch.suspended()

    def on_unmount(self) -> None:
        self.computer.stop()
        self.table.pause_clock(True)  # the game is closing: the time used so far is saved, and no more

    # ---- the player's moves --------------------------------------------------------------

    @property
    def _keys(self) -> KeyFacts:
        """Where the player's keys are, for the flow's rules about them."""
        return KeyFacts(in_history=isinstance(self.focused, History), viewing=self.browsing.viewing is not None,
                        picked=self.picking.picked_slot is not None, hints=self.teaching.hints_allowed)

    def on_key(self, event: events.Key) -> None:
        """A key whose action does nothing now (dimmed or hidden) says why in the status line; the
        key itself goes on as before (to the bindings, which then do nothing)."""
        why = self.flow.why_silent(event.key, self._keys)
        if why is not None:
            self.say(why)

    def check_action(self, action: str, parameters: tuple[object, ...]) -> bool | None:
        return self.flow.key_state(action, self._keys)

    def may_pick(self) -> bool:
        if not self.browsing.live_shown():
            return False
        if self.flow.thinking:
            self.say(self.flow.why_not("press_focused", self.teaching.hints_allowed))
        return self.flow.human_may_move(self.browsing.browsing)

    def commit(self, placed: PlacedMove) -> None:
        if self.picking.move_prompt.is_open:
            self.picking.close_prompt()  # the move is played, however it was chosen
        self.play(placed)

    def play(self, placed: PlacedMove) -> None:
        """Play a move from and onto its places; the cursor lands on the new tower."""
        with self.app.batch_update():
            self.table.play(placed, self.match.to_move)
            self.after_change(cursor=placed.target_slot)

    def action_undo(self) -> None:
        if not self.table.can_undo:
            self.say("Nothing to undo.")
            return
        refusal = self.table.undo_refusal()
        if refusal is not None:  # asked first: the computer's thinking (and its pause) goes on untouched
            self.say(str(refusal))
            return
        with self.app.batch_update():
            self.computer.stop()
            try:
                undone = self.table.undo()
            except UndoTooLateError as error:  # the time it held ran below the increment meanwhile
                self.after_change()  # the computer thinks again, if it was thinking
                self.say(str(error))
                return
            if not undone:  # the clock had run out: the match is lost on time, and that is told
                self.after_change()
                return
            self.picking.drop()
            self.flow.taken_back()
            self.after_change()
            self.say(f"Took back {', '.join(str(move) for move in reversed(undone))}.", "info")

    def action_redo(self) -> None:
        if not self.table.can_redo:
            self.say("Nothing to redo.")
            return
        with self.app.batch_update():
            self.table.redo()
            self.picking.drop()
            _, last = view.shown_table(self.match, None)
            self.after_change(cursor=last.target_slot if last is not None else None)

    def action_rematch(self) -> None:
        """``r`` once the match is over (its dialog closed to look at the board), or the dialog's choice: the same
        players again, the loser opening (over SSH, once both have asked)."""
        self.soluna.start_match(self.table.setup.with_seed(None), rematch_of=self.match)

    def action_resign(self) -> None:
        self.dialogs.ask_resign()

    # ---- the parts' keys and messages ----------------------------------------------------

    def action_hint(self) -> None:
        self.teaching.hint()

    def action_analysis(self) -> None:
        self.teaching.analysis()

    @on(Consulted)
    def _consulted(self, message: Consulted) -> None:
        self.teaching.consulted(message)

    def action_toggle_history(self) -> None:
        self.browsing.toggle()

    @on(History.Viewed)
    def _history_viewed(self, event: History.Viewed) -> None:
        self.browsing.viewed(event.entry)

    @on(History.Left)
    def _history_left(self) -> None:
        self.browsing.left()

    def watch_focused(self, focused: Widget | None) -> None:
        self.browsing.show_side(focused)

    def on_resize(self) -> None:
        self.browsing.show_side(self.focused)

    def action_copy_position(self) -> None:
        self.browsing.copy_position()

    def action_play_on(self) -> None:
        self.browsing.play_on()
