"""The main screen: the board, the status line, the star tally and the move history.

The screen wires the parts: the table (and through it the match), the picker, the coach
and the view functions of ``soluna_tui.play`` decide; the screen runs the computer's
workers, handles the widgets' messages and opens the dialogs.
"""

from __future__ import annotations

import time
from collections.abc import Callable
from typing import TYPE_CHECKING, ClassVar, TypeVar, cast

from textual import events, on
from textual.app import ComposeResult
from textual.binding import Binding
from textual.message import Message
from textual.screen import ModalScreen, Screen
from textual.timer import Timer
from textual.widget import Widget

from ..app_view import SolunaView, app_view
from ..files import SaveError
from ..glyphs import Glyphs, glyphs_for
from ..match_setup import computer_rng
from ..play import view
from ..play.coach import Coach, Turn
from ..play.looks import HistoryEntry
from ..play.picker import Picker
from ..play.view import Moment, Phase, TableFacts
from ..rules import Arrangement, Budget, Match, Move, PlacedMove, Position, SolunaError, shared_solver
from ..rules.players import choose_move, choose_to_open, think_seconds
from ..rules.strengths import strength_of
from ..table import Seat, Table
from ..widgets.board import Board
from ..widgets.cached_lines import CachedLines, Column, Row
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
    from .match_over import MatchOverChoice
    from .round_over import RoundOverChoice

PartT = TypeVar("PartT", bound=Widget)
#: How long judging a whole finished match may take (only large discs counts come near it).
MATCH_REVIEW_SECONDS = 20.0


#: Keys of a player, hidden from a spectator's footer (they would do nothing there).
SPECTATOR_HIDDEN = frozenset({"press_focused", "put_back", "open_move_prompt", "hint", "analysis", "resign"})


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
    ]

    class ComputerMoved(Message):
        """The computer's worker has chosen ``move`` for ``turn``."""

        def __init__(self, turn: Turn, move: Move, guessed: bool = False) -> None:
            super().__init__()
            self.turn = turn
            self.move = move
            #: The position was too large to solve in time, so the move is a heuristic's.
            self.guessed = guessed

    class MatchFinished(Message):
        """The match is over and every move has been judged (accuracy per player, when known)."""

        def __init__(self, turn: Turn, accuracy: tuple[float | None, float | None]) -> None:
            super().__init__()
            self.turn = turn
            self.accuracy = accuracy

    class TableChanged(Message):
        """The match changed from elsewhere (a remote player's move, the server's news)."""

    class ComputerChoseOpener(Message):
        def __init__(self, turn: Turn, opens: bool) -> None:
            super().__init__()
            self.turn = turn
            self.opens = opens

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
        self.picker = Picker()
        self.coach = Coach()
        self.viewing: HistoryEntry | None = None
        self.phase = Phase.IDLE
        #: The computer's move held over its target (``Phase.REVEALING``).
        self.revealing: Move | None = None
        self._reveal_timer: Timer | None = None
        self._stop_watching_time()  # another match on this screen: the last one's clock is done with
        #: The end of round (or match) already announced, so it is announced once.
        self._announced: Turn | None = None
        #: The saving trouble already told, so it is told once.
        self._save_warned: str | None = None
        self._guess_told = False

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
                yield Tally(self.glyphs, id="tally")
                yield ClockPanel(self.glyphs, id="clock-panel")  # shown for a match with a clock
                yield History(id="history")
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
            self._announced = None
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
        return Turn(self._serial, self.match.round_number, self.match.round.ply)

    @property
    def thinking(self) -> bool:
        """The computer is choosing, revealing its move, or judging the finished match."""
        return self.phase is not Phase.IDLE

    @property
    def you(self) -> int | None:
        """The player the dialogs speak to as "you": the one player here, against the computer."""
        local = self.table.local_players
        if len(local) == 1 and self.table.seat(1 - local[0]) is Seat.COMPUTER:
            return local[0]
        return None

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
        return Moment(self.turn, self.phase, self.revealing, self.viewing, self.move_prompt.is_open,
                      self.picker.picked_slot, self.glyphs.ascii, self.picker.picked_tower(self.arrangement))

    def table_facts(self) -> TableFacts:
        table = self.table
        return TableFacts(
            local_to_move=table.seat(self.match.to_move) is Seat.HUMAN,
            one_local_player=len(table.local_players) == 1,
            mode_label=table.mode_label,
            hints=self.hints_allowed,
            analysis_on=self.analysis_on,
            away=(table.away_until(0), table.away_until(1)),
            comeback=table.comeback,
            computer_plays=Seat.COMPUTER in (table.seat(0), table.seat(1)),
            you=next((seat for seat in table.local_players if table.seat(1 - seat) is Seat.REMOTE), None),
            spectators=table.spectators,
            spectator_names=table.spectator_names,
        )

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
            self._part(LastMoveLine).show(view.last_move_words(self.match, self.viewing))
            tally = self._part(Tally)
            tally.info = view.tally_info(self.match, facts, moment)
            self._part(ClockPanel).show(self.table.clock, self.table.clock_read_at, self.match.players)
            subtitle = "analysis on" if facts.analysis_on else ""
            if tally.border_subtitle != subtitle:  # setting it redraws the panel, even to the same text
                tally.border_subtitle = subtitle
            self._part(History).show(view.history_entries(self.match))
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

    # ---- the flow of a match -------------------------------------------------------------

    def after_change(self, cursor: int | None = None) -> None:
        """Redraw, warn about saving trouble, and start whatever comes next."""
        if self.move_prompt.is_open and not self._human_may_move():
            self._close_prompt()  # the turn passed (a remote player, the end of the round)
            cursor = self._cursor_before_prompt if cursor is None else cursor
        self.seek_help()
        self.refresh_view(cursor)
        for notice in self.table.take_notices():
            self.show_notice(notice)
        problem = self.table.save_problem
        if problem and problem != self._save_warned:
            # After a refresh, so the toast lands even when this runs while the screen mounts.
            self.call_after_refresh(self.notify, problem, title="Not saved", severity="warning", timeout=8)
        self._save_warned = problem
        self._watch_time()
        match = self.match
        if match.round.is_over or match.is_over:
            self._announce_end()
        elif self.table.seat(match.to_move) is Seat.COMPUTER and not self.thinking:
            self._start_thinking()

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
        deadline = self.table.time_runs_out_at()
        if deadline is None:
            self._stop_watching_time()
            return
        self._time_timer = self.set_timer(max(0.0, deadline - time.monotonic()) + 0.01, self._time_ran_out)
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

    def _announce_end(self) -> None:
        """A round (or the match) has just been decided: its review, then what comes next."""
        turn = self.turn
        if self._announced == turn:
            return
        self._announced = turn
        if self.table.setup.review and self.match.forfeited_by is None:
            from .review import ReviewScreen

            review = ReviewScreen(self.match, self.match.round_number, self.you,
                                  side_lines=self.table.side_lines_allowed, hints=self.side_line_hints)
            self.app.push_screen(review, lambda _: self._after_review(turn))
        else:
            self._after_review(turn)

    def _after_review(self, turn: Turn) -> None:
        if turn != self.turn:
            return  # the match moved on meanwhile (a remote player, a take-back)
        match = self.match
        if match.is_over:
            self._set_phase(Phase.THINKING)
            self._finish_match(turn)
            return
        chooser = match.opener_chooser
        if chooser is not None and self.table.seat(chooser) is Seat.COMPUTER:
            self._set_phase(Phase.THINKING)
            self._computer_chooses_opener(turn)
            return
        self._show_round_over(None)

    def _set_phase(self, phase: Phase) -> None:
        self.phase = phase
        self.refresh_view()

    def _show_round_over(self, computer_opens: bool | None) -> None:
        from .round_over import RoundOverScreen

        count_hint = self.count_hint if self.hints_allowed else None
        screen = RoundOverScreen(self.match, self.glyphs, self.table.local_players, computer_opens, count_hint,
                                 can_take_back=self.table.can_undo, you=self.you)
        self.app.push_screen(screen, self._round_over_chosen)

    def _finish_match(self, turn: Turn) -> None:
        """Judge every move of the match (for the summary and the stats) off the event loop."""
        from ..rules.teaching import accuracy_over_rounds, review_round

        match = self.match

        def judge(budget: Budget) -> GameScreen.MatchFinished:
            reviews = [review_round(played, budget=budget) for played in match.rounds if played.moves]
            return self.MatchFinished(turn, (accuracy_over_rounds(reviews, 0), accuracy_over_rounds(reviews, 1)))

        solve_in_worker(self, judge, seconds=MATCH_REVIEW_SECONDS, aborted=self.MatchFinished(turn, (None, None)),
                        group="computer")

    def on_game_screen_match_finished(self, message: MatchFinished) -> None:
        if message.turn != self.turn or not self.thinking:
            return
        from .match_over import MatchOverScreen

        self._set_phase(Phase.IDLE)
        self.table.judged()
        self._record_stats(message.accuracy)
        humans = self.table.local_players
        hints = self.table.hints_used
        screen = MatchOverScreen(self.match, self.glyphs, (hints[0], hints[1]), message.accuracy, humans,
                                 can_take_back=self.table.can_undo, you=self.you, ended=self.table.ended,
                                 notes=self.table.result_notes)
        self.app.push_screen(screen, self._match_over_chosen)

    def _record_stats(self, accuracy: tuple[float | None, float | None]) -> None:
        """Count a finished match in the stats (once, and only for matches played on this terminal)."""
        table = self.table
        if not table.records_stats or table.stats_recorded:
            return
        from ..stats import match_record

        table.stats_recorded = True
        record = match_record(table, accuracy)
        store = self.soluna.stats_store
        try:
            store.update(lambda stats: stats.record_match(record))
        except SaveError as error:
            self.notify(str(error), title="Stats not saved", severity="warning")
        else:
            table.stats_counted = (store, record)  # taken out again if the match is taken back
            if store.problem:  # a damaged file was set aside: this match counts in a fresh one
                self.notify(store.problem, title="Stats file unreadable", severity="warning", timeout=10)

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

    # ---- the computer --------------------------------------------------------------------

    def _start_thinking(self) -> None:
        self.picker.drop()
        self._set_phase(Phase.THINKING)
        level = self.table.setup.computer_level
        assert level is not None  # only asked of a table where the computer plays
        turn, position, rng = self.turn, self.match.position, computer_rng(self.match)
        shown_at = time.monotonic() + self.soluna.computer_pause

        def think(budget: Budget) -> GameScreen.ComputerMoved:
            """Choose the computer's move off the event loop (a level gives up in time on its own)."""
            move = choose_move(level, position, rng, budget=budget)
            guessed = strength_of(level).uses_solver and not shared_solver.is_solved(position)
            pause_until(shown_at, budget)
            return self.ComputerMoved(turn, move, guessed)

        solve_in_worker(self, think, seconds=think_seconds(position), group="computer")

    def _computer_chooses_opener(self, turn: Turn) -> None:
        """Decide, off the event loop, whether the computer opens the next round."""
        level = self.table.setup.computer_level
        assert level is not None  # only asked of a table where the computer plays
        start, rng = self.match.layout_for(self.match.round_number + 1), computer_rng(self.match)

        def choose(budget: Budget) -> GameScreen.ComputerChoseOpener:
            return self.ComputerChoseOpener(turn, choose_to_open(level, start, rng, budget=budget))

        solve_in_worker(self, choose, seconds=think_seconds(start), group="computer")

    @on(ComputerChoseOpener)
    def _opener_chosen(self, message: ComputerChoseOpener) -> None:
        if message.turn != self.turn or not self.thinking:
            return
        self._set_phase(Phase.IDLE)
        self._show_round_over(message.opens)

    @on(ComputerMoved)
    def _computer_moved(self, message: ComputerMoved) -> None:
        if message.turn != self.turn or not self.thinking:
            return  # stale: the player undid or started anew meanwhile
        self.revealing = message.move
        self._set_phase(Phase.REVEALING)
        finish = lambda: self._finish_computer_move(message)  # noqa: E731
        if self.soluna.reveal_pause > 0:
            self._reveal_timer = self.set_timer(self.soluna.reveal_pause, finish)
        else:
            self.call_after_refresh(finish)

    def _finish_computer_move(self, message: ComputerMoved) -> None:
        if message.turn != self.turn or self.revealing != message.move:
            return
        self.revealing = None
        self.phase = Phase.IDLE
        if message.guessed and not self._guess_told:
            self._guess_told = True
            self.notify("Too many discs to solve in time: the computer played its best guess. "
                        "It plays perfectly again once the table is smaller.", timeout=8)
        self._play(self.arrangement.resolve(message.move))

    def stop_thinking(self) -> None:
        """Cancel the computer's search or reveal (undo, new match, leaving the screen)."""
        self.workers.cancel_group(self, "computer")
        if self._reveal_timer is not None:
            self._reveal_timer.stop()
            self._reveal_timer = None
        self.phase = Phase.IDLE
        self.revealing = None

    def on_unmount(self) -> None:
        self.stop_thinking()
        self.table.pause_clock(True)  # the game is closing: the time used so far is saved, and no more

    # ---- the player's actions ------------------------------------------------------------

    #: The keys that say why they do nothing, when they do nothing: each with the action it stands for.
    SILENT_KEYS: ClassVar[dict[str, str]] = {"H": "hint", "enter": "press_focused", "space": "press_focused",
                                             "colon": "open_move_prompt", "p": "play_on"}

    def on_key(self, event: events.Key) -> None:
        """A key whose action does nothing now (dimmed or hidden) says why in the status line; the
        key itself goes on as before (to the bindings, which then do nothing)."""
        action = self.SILENT_KEYS.get(event.key)
        in_history = isinstance(self.focused, History)  # there, only p is the screen's (the rest are read-only)
        if action is None or self.check_action(action, ()) is True or in_history != (action == "play_on"):
            return
        self.say(self._why_not(action))

    def _why_not(self, action: str) -> str:
        """Why ``action`` does nothing now, in a line."""
        match = self.match
        if action == "play_on":
            return "No side lines until this match is over."
        if action == "hint" and not self.hints_allowed:
            return "Hints are off in this match."
        if not self.table.local_players:
            return "You are watching: only the players move here."
        if match.is_over or match.round.is_over:
            return "The round is over."
        name = match.players[match.to_move]
        if self.thinking:
            return f"{name} is thinking: wait for the move."
        if action == "hint":
            return f"Hints are for your turn: it is {name}'s move."
        return f"It is {name}'s move: wait for it."

    def _human_may_move(self) -> bool:
        match = self.match
        return (
            not self._browsing_history
            and not self.thinking
            and not match.is_over
            and not match.round.is_over
            and self.table.seat(match.to_move) is Seat.HUMAN
        )

    def check_action(self, action: str, parameters: tuple[object, ...]) -> bool | None:
        in_history = isinstance(self.focused, History)
        if in_history and action in ("press_focused", "put_back", "open_move_prompt", "hint"):
            return False  # hidden: the history view is read-only (Esc returns to play)
        if not self.table.local_players and action in SPECTATOR_HIDDEN:
            return False  # a spectator (over SSH) is offered only what a spectator can do
        if action in ("press_focused", "put_back"):
            return self.picking_check(action, self._human_may_move())
        if action == "open_move_prompt":
            return True if self._human_may_move() else None  # dimmed, as the picking keys are
        if action == "undo":
            return self.viewing is None and self.table.can_undo
        if action == "redo":
            return self.viewing is None and not self.thinking and self.table.can_redo
        if action == "hint":
            if not self.hints_allowed:
                return False  # hidden: this match has no hints at all
            return True if self._helping_live_player() else None
        if action == "analysis":
            return self.hints_allowed
        if action == "resign":
            return self.table.resigner() is not None
        if action == "play_on":  # dimmed where a side line would be an analysis board beside the game
            return (True if self.table.side_lines_allowed else None) if in_history else False
        if action == "rematch":
            return self.match.is_over and self.table.offers_rematch
        return True

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
            self.say(self._why_not("press_focused"))
        return self._human_may_move()

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
        with self.app.batch_update():
            self.stop_thinking()
            undone = self.table.undo()
            self.picker.drop()
            self._announced = None
            self.after_change()
            self.say(f"Took back {', '.join(str(move) for move in reversed(undone))}.", "info")

    def action_resign(self) -> None:
        """``R``: give the match up, asked first."""
        from .confirm import ConfirmScreen

        player = self.table.resigner()
        if player is None:
            self.say("There is no match in play to resign.")
            return
        names = self.match.players
        who = "You give" if self.table.local_players == (player,) else f"{names[player]} gives"
        question = f"{who} the match to {names[1 - player]}. It counts as a loss."
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

    def action_play_on(self) -> None:
        """``p`` in the history: play on from the position shown (a side line), the match untouched."""
        if self.thinking:  # its move would land in the match under the side line, and perhaps end the round
            self.say(self._why_not("press_focused"))
            return
        number, played, ply = view.shown_round(self.match, self.viewing)
        if self.viewing is None and not played.is_over:
            self.say("This is where the match stands: play on the board (p plays on from an earlier move).")
            return
        refusal = self.soluna.side_line_opener.play_on(self, self.match, number, ply, hints=self.side_line_hints,
                                                       analysis_on=self.analysis_on, you=self.you)
        if refusal:
            self.say(refusal)
