"""The main screen: the board, the status line, the star tally and the move history.

The screen wires the parts: the table (and through it the match), the match's flow, the picker,
the coach and the view functions of ``soluna_tui.play`` decide; the screen runs the computer's
workers and timers, handles the widgets' messages and opens the dialogs.
"""

from __future__ import annotations

import time
from collections.abc import Callable
from typing import TYPE_CHECKING, TypeVar, cast

from textual import events, on
from textual.app import ComposeResult
from textual.binding import Binding
from textual.message import Message
from textual.screen import ModalScreen, Screen
from textual.timer import Timer
from textual.widget import Widget

from ..app.soluna_view import SolunaView, app_view
from ..local.table import Table, UndoTooLateError
from ..play import view
from ..play.coach import Coach, Turn
from ..play.looks import HistoryEntry
from ..play.match_flow import KeyFacts, MatchFlow, MatchOver, Question, Reveal, RoundOver, Step
from ..play.picker import Picker
from ..play.view import Moment, TableFacts
from ..rules import Arrangement, Match, PlacedMove, Position, SolunaError
from ..terminal.glyphs import Glyphs, glyphs_for
from ..terminal.sizes import NARROW_CLASS
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
from .match_dialog import DescribesMatch, ShowsResultNotes
from .picking import PICKING_BINDINGS, TYPING_BINDING, PickingMixin
from .quiet_focus import QuietFocus
from .solver_work import pause_until, solve_in_worker
from .teaching import TEACHING_BINDINGS, TeachingMixin

if TYPE_CHECKING:
    from ..play.match_flow import Answer, ComputerMove, Next
    from ..rules.solver import Budget
    from .match_over import MatchOverChoice
    from .round_over import RoundOverChoice

PartT = TypeVar("PartT", bound=Widget)


#: The screen's class while the moves and the talk are open on a narrow terminal (styles/game.tcss).
SIDE_OPEN_CLASS = "-side-open"

#: While a clock kept at this table runs, the time used is saved this often (seconds): a terminal closed without
#: quitting (its window shut, the SSH connection gone) loses no more than that.
TIME_KEPT_EVERY = 5.0


class GameScreen(QuietFocus, TeachingMixin, PickingMixin, CachedLines, Screen[None]):
    """A match in play on this terminal."""

    #: The screen's own background, under everything: one blank line repeated (see ``CachedLines``).
    BLANK_LINES = True
    #: The title of the star tally's panel.
    TALLY_TITLE = "Soluna"

    BINDINGS = [
        *PICKING_BINDINGS,
        TYPING_BINDING,
        *TEACHING_BINDINGS,
        Binding("u", "undo", "Undo"),
        Binding("r", "redo", "Redo"),
        Binding("r", "rematch", "Rematch"),  # once the match is over (nothing to redo then)
        Binding("n", "app.new_match", "New match", show=False),
        Binding("R", "resign", "Resign", show=False),
        Binding("tab,shift+tab", "toggle_history", "Moves", show=False),
        # Only while the history has the focus (on the board, p is a tower's key).
        Binding("p", "play_on", "Play on"),
        Binding("Y", "copy_position", "Copy position", show=False),
    ]

    class ComputerAnswered(Message):
        """A worker has answered a question of the match's flow (the computer's move, its choice of
        opener, the finished match judged)."""

        def __init__(self, answer: Answer) -> None:
            super().__init__()
            self.answer = answer

    class TableChanged(Message):
        """The match changed from elsewhere (a remote player's move, the server's news)."""

    def __init__(self, table: Table) -> None:
        super().__init__()
        self.table = table
        self._board: Board | None = None
        self._parts: dict[type[Widget], Widget] = {}
        #: Wakes the screen when a clock kept at this table reaches zero; and saves the time it used, now and then.
        self._time_timer: Timer | None = None
        self._time_keeper: Timer | None = None
        self._reset_state()

    #: Counts the matches shown on this screen, so a worker's late answer about an old one is ignored.
    _serial = 0

    def _reset_state(self) -> None:
        self._serial += 1
        self.flow = MatchFlow(self.table, self._serial)
        self.picker = Picker()
        self.coach = Coach()
        self.viewing: HistoryEntry | None = None
        self._reveal_timer: Timer | None = None
        self._stop_watching_time()  # another match on this screen: the last one's clock is done with

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

    def _part(self, kind: type[PartT]) -> PartT:
        """The screen's one widget of ``kind``, looked up once (every key asks for a few)."""
        found = self._parts.get(kind)
        if found is None or not found.is_attached:
            found = self._parts[kind] = self.query_one(kind)
        return cast(PartT, found)

    @property
    def chat_panel(self) -> ChatPanel:
        """Table talk over SSH, beside the board (drawn into on every line heard)."""
        return self._part(ChatPanel)

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

        self.table.on_change = changed

    @on(TableChanged)
    def _table_changed(self) -> None:
        with self.app.batch_update():
            self.picker.forget_gone(self.arrangement)
            self._close_stale_dialogs()
            self.after_change()

    def _close_stale_dialogs(self) -> None:
        """A round-over or match-over dialog goes once the match has moved past it (decided elsewhere).

        Those dialogs say whether they are ``still_true`` (``DescribesMatch``); asked of the screen by what it
        does, not by its class, so the dialogs' modules are imported only when a round ends."""
        dialog = self.app.screen
        if isinstance(dialog, ModalScreen) and isinstance(dialog, DescribesMatch) and not dialog.still_true(self.match):
            dialog.dismiss(None)
            self.flow.announce_again()
            return
        for screen in self.app.screen_stack:  # the match-over summary, even under another dialog (the help)
            if isinstance(screen, ShowsResultNotes):  # lines that came after it opened (ratings)
                screen.show_notes(self.table.result_notes)

    async def load(self, table: Table) -> None:
        """Play another match on this screen (a rematch, a new match)."""
        self.stop_thinking()
        self.workers.cancel_group(self, "oracle")
        self.table.on_change = None
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
    def turn(self) -> Turn:
        return self.flow.turn

    @property
    def thinking(self) -> bool:
        """The computer is choosing, revealing its move, or judging the finished match."""
        return self.flow.thinking

    @property
    def you(self) -> int | None:
        """The player the dialogs speak to as "you": the one player here, against the computer."""
        return self.flow.you

    @property
    def shown_position(self) -> Position:
        return view.shown_position(self.match, self.viewing)

    @property
    def arrangement(self) -> Arrangement:
        """The live table, every tower in the place it has kept since the round's opening."""
        return self.match.round.table

    @property
    def picking_arrangement(self) -> Arrangement:
        return self.arrangement

    def moment(self) -> Moment:
        flow = self.flow
        return Moment(flow.turn, flow.phase, flow.revealing, self.viewing, self.move_prompt.is_open,
                      self.picker.picked_slot, self.glyphs.ascii, self.picker.picked_tower(self.arrangement))

    def table_facts(self) -> TableFacts:
        return TableFacts.of(self.table, hints=self.hints_allowed, analysis_on=self.analysis_on)

    @property
    def side_line_start(self) -> view.SideLineStart | None:
        """Where this screen's side line left its match (``None``: this is a match, not a side line)."""
        return None

    def prompt(self, facts: TableFacts | None = None, moment: Moment | None = None) -> tuple[str, str]:
        """The status line for the current moment, and its kind."""
        return view.status_prompt(self.match, facts or self.table_facts(), moment or self.moment(),
                                  self.teaching_prompt())

    def refresh_view(self, cursor: int | None = None) -> None:
        """Hand every widget what it should show now (drawing only: nothing is asked or saved).
        Each widget redraws only what changed, and all of it lands in one frame."""
        with self.app.batch_update():
            moment, facts = self.moment(), self.table_facts()
            board = self.board
            board.reserve_notes = facts.hints
            board.discs = self.match.options.discs
            table, last = view.shown_table(self.match, self.viewing)
            board.show(view.board_looks(table, last, moment, self.coach, facts.analysis_on), cursor)
            self._part(LastMoveLine).show(view.last_move_words(self.match, self.viewing, self.side_line_start))
            tally = self._part(Tally)
            tally.info = view.tally_info(self.match, facts, moment, self.side_line_start)
            self._part(ClockPanel).show(self.table.clock, self.table.clock_read_at, self.match.players)
            subtitle = "analysis on" if facts.analysis_on else ""
            if tally.border_subtitle != subtitle:  # setting it redraws the panel, even to the same text
                tally.border_subtitle = subtitle
            self._part(History).show(view.history_entries(self.match, self.side_line_start))
            self._part(StatusLine).say(*self.prompt(facts, moment))
            self.refresh_bindings()

    def redraw(self, cursor: int | None = None) -> None:
        self.refresh_view(cursor)

    def say(self, text: str, kind: str = "warning") -> None:
        self._part(StatusLine).say(text, kind)

    def show_notice(self, text: str) -> None:
        """News at the match, in its own lines under the moves (the newest replaces the last); a notice
        over a dialog on top (round or match over), where those lines may be hidden."""
        if self.app.screen is self:
            self._part(NoticeLine).show(text)
        else:
            self.notify(text, timeout=8)

    # ---- the flow of a match (decided by ``self.flow``, a MatchFlow) ---------------------------

    def after_change(self, cursor: int | None = None) -> None:
        """Redraw, warn about saving trouble, and start whatever comes next."""
        if self.move_prompt.is_open and not self.flow.human_may_move(self._browsing_history):
            self._close_prompt()  # the turn passed (a remote player, the end of the round)
            cursor = self._cursor_before_prompt if cursor is None else cursor
        self.seek_help()
        self.refresh_view(cursor)
        for notice in self.table.take_notices():
            self.show_notice(notice)
        problem = self.flow.save_problem_to_tell()
        if problem:
            # After a refresh, so the toast lands even when this runs while the screen mounts.
            self.call_after_refresh(self.notify, problem, title="Not saved", severity="warning", timeout=8)
        self._watch_time()
        step = self.flow.step()
        if step is Step.ANNOUNCE:
            self._announce_end()
        elif step is Step.THINK:
            self.picker.drop()
            self._go_on(self.flow.think(self.soluna.computer_pause))

    def _announce_end(self) -> None:
        """A round (or the match) has just been decided: its review, then what comes next."""
        turn = self.turn
        if self.flow.review_first:
            from .review import ReviewScreen

            review = ReviewScreen(self.match, self.match.round_number, self.you,
                                  side_lines=self.table.side_lines_allowed, hints=self.side_line_hints)
            self.app.push_screen(review, lambda _: self._go_on(self.flow.after_review(turn)))
        else:
            self._go_on(self.flow.after_review(turn))

    def _go_on(self, coming: Next) -> None:
        """Do what the match's flow says comes next: a question for the computer, its move shown, a dialog."""
        if coming is None:
            return
        self.refresh_view()  # the computer thinks, shows its move, or is done
        if isinstance(coming, Question):
            self._ask(coming)
        elif isinstance(coming, Reveal):
            land = lambda: self._land(coming.move)  # noqa: E731
            if self.soluna.reveal_pause > 0:
                self._reveal_timer = self.set_timer(self.soluna.reveal_pause, land)
            else:
                self.call_after_refresh(land)
        elif isinstance(coming, RoundOver):
            self._show_round_over(coming.computer_opens)
        else:
            self._show_match_over(coming)

    def _show_round_over(self, computer_opens: bool | None) -> None:
        from .round_over import RoundOverScreen

        count_hint = self.count_hint if self.hints_allowed else None
        screen = RoundOverScreen(self.match, self.glyphs, self.table.local_players, computer_opens, count_hint,
                                 can_take_back=self.table.can_undo, you=self.you)
        self.app.push_screen(screen, self._round_over_chosen)

    def _show_match_over(self, over: MatchOver) -> None:
        """The finished match, judged: counted in the stats, and its summary shown."""
        from .match_over import MatchOverScreen

        for trouble in self.flow.count_in_stats(self.soluna.stats_store, over.accuracy):
            self.notify(trouble.text, title=trouble.title, severity="warning", timeout=trouble.timeout)
        hints = self.table.hints_used
        screen = MatchOverScreen(self.match, self.glyphs, (hints[0], hints[1]), over.accuracy, self.table.local_players,
                                 can_take_back=self.table.can_undo, you=self.you, ended=self.table.ended,
                                 notes=self.table.result_notes)
        self.app.push_screen(screen, self._match_over_chosen)

    def _round_over_chosen(self, choice: RoundOverChoice | None) -> None:
        if choice is None:
            return
        if choice.undo:
            self.action_undo()
            return
        try:
            self.table.start_next_round(choice.opener, choice.chooser)
        except SolunaError as error:
            self.say(str(error), "error")
            return
        self.picker.drop()
        self.after_change(cursor=0)

    def _match_over_chosen(self, choice: MatchOverChoice | None) -> None:
        from .match_over import MatchOverChoice

        if choice is MatchOverChoice.UNDO:
            self.action_undo()
        elif choice is MatchOverChoice.REMATCH:
            self.action_rematch()
        elif choice is MatchOverChoice.NEW:
            self.soluna.action_new_match()
        elif choice is MatchOverChoice.QUIT:
            self.app.exit()

    # ---- a clock kept at this table (on one terminal) -------------------------------------

    def on_screen_resume(self) -> None:
        """The match is in front again (a dialog closed, or it has just been shown): its clock runs."""
        self.table.pause_clock(False)
        if self.table.clock is not None:
            self.refresh_view()
            self._watch_time()

    def on_screen_suspend(self) -> None:
        """A dialog (or another screen) is over the match: its clock stops until the match is in front again."""
        self.table.pause_clock(True)
        if self.table.clock is not None:  # drawn stopped: behind the dialog it shows the time kept, not counting
            self._part(ClockPanel).show(self.table.clock, self.table.clock_read_at, self.match.players)
        self._watch_time()

    def _watch_time(self) -> None:
        """Wake when the running clock reaches zero, where this table keeps it; save its time now and then."""
        if self._time_timer is not None:
            self._time_timer.stop()
            self._time_timer = None
        wait = self.flow.time_left(time.monotonic())
        if wait is None:
            self._stop_watching_time()
            return
        self._time_timer = self.set_timer(wait, self._time_ran_out)
        if self._time_keeper is None:
            self._time_keeper = self.set_interval(TIME_KEPT_EVERY, lambda: self.table.keep_time())

    def _stop_watching_time(self) -> None:
        for timer in (self._time_timer, self._time_keeper):
            if timer is not None:
                timer.stop()
        self._time_timer = self._time_keeper = None

    def _time_ran_out(self) -> None:
        self._time_timer = None
        if self.table.time_is_up():
            self._end_match_now()
        else:
            self._watch_time()  # a move landed on time meanwhile

    def _end_match_now(self, end: Callable[[], None] | None = None) -> None:
        """The match ends before it is played out (a resignation, a clock run out): nothing more is thought,
        picked or typed, and the end is told."""
        with self.app.batch_update():
            self.stop_thinking()
            self._close_prompt()
            self.picker.drop()
            if end is not None:
                end()
            self.after_change()

    # ---- the computer --------------------------------------------------------------------

    def _ask(self, question: Question) -> None:
        """Run the flow's question off the event loop; its answer comes back as ``ComputerAnswered``."""

        def answer(budget: Budget) -> GameScreen.ComputerAnswered:
            found = question.ask(budget)
            pause_until(question.not_before, budget)
            return self.ComputerAnswered(found)

        aborted = None if question.aborted is None else self.ComputerAnswered(question.aborted)
        solve_in_worker(self, answer, seconds=question.seconds, aborted=aborted, group="computer")

    @on(ComputerAnswered)
    def _computer_answered(self, message: ComputerAnswered) -> None:
        self._go_on(self.flow.heard(message.answer))

    def _land(self, moved: ComputerMove) -> None:
        """The computer's move, revealed, lands (unless it was called off meanwhile)."""
        landing = self.flow.land(moved)
        if landing is None:
            return
        if landing.tell_guess:
            self.notify("Too many discs to work out in time: the computer played a guess. "
                        "It plays at its level again once the table is smaller.", timeout=8)
        self._play(landing.placed)

    def stop_thinking(self) -> None:
        """Cancel the computer's search or reveal (undo, new match, leaving the screen)."""
        self.workers.cancel_group(self, "computer")
        if self._reveal_timer is not None:
            self._reveal_timer.stop()
            self._reveal_timer = None
        self.flow.stop()

    def on_unmount(self) -> None:
        self.stop_thinking()
        self.table.pause_clock(True)  # the game is closing: the time used so far is saved, and no more

    # ---- the player's actions ------------------------------------------------------------

    @property
    def _keys(self) -> KeyFacts:
        """Where the player's keys are, for the flow's rules about them."""
        return KeyFacts(in_history=isinstance(self.focused, History), viewing=self.viewing is not None,
                        picked=self.picker.picked_slot is not None, hints=self.hints_allowed)

    def on_key(self, event: events.Key) -> None:
        """A key whose action does nothing now (dimmed or hidden) says why in the status line; the
        key itself goes on as before (to the bindings, which then do nothing)."""
        why = self.flow.why_silent(event.key, self._keys)
        if why is not None:
            self.say(why)

    def check_action(self, action: str, parameters: tuple[object, ...]) -> bool | None:
        return self.flow.key_state(action, self._keys)

    @property
    def _browsing_history(self) -> bool:
        """Showing an earlier position: only while the history has the focus (when it has just
        lost it, its ``Left`` message may still be on the way behind the next key)."""
        return self.viewing is not None and isinstance(self.focused, History)

    def may_pick(self) -> bool:
        if self.viewing is not None and not self._browsing_history:
            self._history_left()
        if self.viewing is not None:
            self.say("This is an earlier position (read-only): Esc returns to play.")
            return False
        if self.thinking:
            self.say(self.flow.why_not("press_focused", self.hints_allowed))
        return self.flow.human_may_move(self._browsing_history)

    def commit(self, placed: PlacedMove) -> None:
        if self.move_prompt.is_open:
            self._close_prompt()  # the move is played, however it was chosen
        self._play(placed)

    def _play(self, placed: PlacedMove) -> None:
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
            self.stop_thinking()
            try:
                undone = self.table.undo()
            except UndoTooLateError as error:  # the time it held ran below the increment meanwhile
                self.after_change()  # the computer thinks again, if it was thinking
                self.say(str(error))
                return
            if not undone:  # the clock had run out: the match is lost on time, and that is told
                self.after_change()
                return
            self.picker.drop()
            self.flow.taken_back()
            self.after_change()
            self.say(f"Took back {', '.join(str(move) for move in reversed(undone))}.", "info")

    def action_resign(self) -> None:
        """``R``: give the match up, asked first."""
        from .confirm import ConfirmScreen

        player = self.table.resigner()
        if player is None:
            self.say("There is no match in play to resign.")
            return
        question = self.flow.resign_question(player)
        self.app.push_screen(ConfirmScreen(question, "Resign the match", "Keep playing", "Resign?"),
                             lambda yes: self._resign_answered(player, yes))

    def _resign_answered(self, player: int, yes: bool | None) -> None:
        if not yes or self.table.resigner() != player:
            return  # kept playing, or the match moved on while asking (the computer's move ended the round)
        self._end_match_now(lambda: self.table.resign(player))

    def action_rematch(self) -> None:
        """``r`` once the match is over (its dialog closed to look at the board), or the dialog's choice: the same
        players again, the loser opening (over SSH, once both have asked)."""
        self.soluna.start_match(self.table.setup.with_seed(None), rematch_of=self.match)

    def action_redo(self) -> None:
        if not self.table.can_redo:
            self.say("Nothing to redo.")
            return
        with self.app.batch_update():
            self.table.redo()
            self.picker.drop()
            _, last = view.shown_table(self.match, None)
            self.after_change(cursor=last.target_slot if last is not None else None)

    # ---- browsing the history ------------------------------------------------------------

    def watch_focused(self, focused: Widget | None) -> None:
        """On a narrow terminal the moves and the talk show (above the board) while one of them has the focus:
        Tab opens them, Tab or Escape goes back to the board."""
        self._show_side(focused)

    def on_resize(self) -> None:
        self._show_side(self.focused)

    def _show_side(self, focused: Widget | None) -> None:
        side = focused is not None and self.app.has_class(NARROW_CLASS) and (
            focused is self._part(History) or isinstance(focused.parent, ChatPanel))
        self.set_class(side, SIDE_OPEN_CLASS)

    def action_toggle_history(self) -> None:
        """Tab: from the board to the move history and back."""
        history = self._part(History)
        if self.move_prompt.is_open:
            self._close_prompt()
        if self.focused is history:
            self.set_focus(self.board, scroll_visible=False)
        else:
            self.set_focus(history)  # at once: the next key of a burst browses the history

    @on(History.Viewed)
    def _history_viewed(self, event: History.Viewed) -> None:
        entry = event.entry
        rounds = self.match.rounds
        if entry.round_number > len(rounds) or entry.ply > rounds[entry.round_number - 1].ply:
            return  # a late message about a list since replaced (undo, a new match)
        live = entry.round_number == self.match.round_number and entry.ply == self.match.round.ply
        self.viewing = None if live else entry
        if self.viewing is not None:
            self.picker.drop()
        self.seek_help()
        self.refresh_view()

    @on(History.Left)
    def _history_left(self) -> None:
        if self.viewing is not None:
            self.viewing = None
            self.seek_help()
            self.refresh_view()

    # ---- side lines ------------------------------------------------------------------------

    @property
    def side_line_hints(self) -> bool:
        """Whether a side line from this match has hints: as the match while it is in play (a match
        without hints stays without them), always once it is over."""
        return self.hints_allowed or self.match.is_over

    def action_copy_position(self) -> None:
        """``Y``: the position shown (live, or the one picked in the history) in notation, as ``soluna analyze``
        reads it: to the terminal's clipboard (OSC 52, over SSH too) and on the status line, for a terminal
        that keeps OSC 52 from its clipboard."""
        position = str(view.shown_position(self.match, self.viewing))
        self.app.copy_to_clipboard(position)
        self.say(f"Copied, for soluna analyze: {position}", "info")

    def action_play_on(self) -> None:
        """``p`` in the history: play on from the position shown (a side line), the match untouched."""
        if self.thinking:  # its move would land in the match under the side line, and perhaps end the round
            self.say(self.flow.why_not("press_focused", self.hints_allowed))
            return
        number, played, ply = view.shown_round(self.match, self.viewing)
        if self.viewing is None and not played.is_over:
            self.say("This is where the match stands: play on the board (p plays on from an earlier move).")
            return
        refusal = self.soluna.side_line_opener.play_on(self, self.match, number, ply, hints=self.side_line_hints,
                                                       analysis_on=self.analysis_on, you=self.you)
        if refusal:
            self.say(refusal)
