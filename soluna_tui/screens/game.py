"""The main screen: the board, the status line, the star tally and the move history.

The screen owns the table (and through it the match) and decides what every
widget shows; widgets report the player's choices with messages.
"""

from __future__ import annotations

import time
from dataclasses import dataclass

from rich.cells import set_cell_size
from textual import events, on, work
from textual.app import ComposeResult
from textual.binding import Binding
from textual.containers import Horizontal, Vertical
from textual.message import Message
from textual.screen import Screen
from textual.timer import Timer
from textual.worker import get_current_worker

from ..glyphs import glyphs_for
from ..match_setup import computer_rng
from ..rules import Budget, Move, Position, SearchAborted, SolunaError, Tower, shared_solver
from ..rules.players import choose_move, choose_to_open, default_budget
from ..rules.teaching import accuracy_over_rounds, review_round
from ..rules.wording import plural
from ..saves import SaveError
from ..stats import match_record
from ..table import COMPUTER, HUMAN, Table
from ..widgets.board import Board
from ..widgets.history import History, HistoryEntry
from ..widgets.key_footer import KeyFooter
from ..widgets.move_prompt import MovePrompt
from ..widgets.status_line import StatusLine
from ..widgets.tally import Tally, TallyInfo
from ..widgets.tower import TowerLook
from .match_over import MatchOverScreen
from .picking import PICKING_BINDINGS, PickingMixin, tower_looks
from .review import ReviewScreen
from .round_over import RoundOverChoice, RoundOverScreen
from .teaching import TEACHING_BINDINGS, TeachingMixin

HISTORY_NAME_WIDTH = 9
#: Levels that play from the solver (and fall back to a heuristic when it runs out of time).
SOLVING_LEVELS = ("trap", "perfect")
#: How long judging a whole finished match may take (only large discs counts come near it).
MATCH_REVIEW_SECONDS = 20.0


@dataclass(frozen=True)
class Turn:
    """Identifies one moment of one match, so late answers from a worker are recognised as stale."""

    match_serial: int
    round_number: int
    ply: int


class GameScreen(TeachingMixin, PickingMixin, Screen):
    """A match in play on this terminal."""

    BINDINGS = [
        *PICKING_BINDINGS,
        Binding("colon", "open_move_prompt", "Type"),
        *TEACHING_BINDINGS,
        Binding("u", "undo", "Undo"),
        Binding("r", "redo", "Redo"),
        Binding("n", "app.new_match", "New match", show=False),
        Binding("tab,shift+tab", "toggle_history", "Moves", show=False),
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
        self._reset_state()

    #: Counts the matches shown on this screen, so a worker's late answer about an old one is ignored.
    _serial = 0

    def _reset_state(self) -> None:
        self._serial += 1
        self.picked_slot: int | None = None
        self.viewing: HistoryEntry | None = None
        self.thinking = False
        self.revealing: Move | None = None
        self._reveal_timer: Timer | None = None
        self._announced: Turn | None = None
        self._save_warned: str | None = None
        self._guess_told = False
        self._slot_before_prompt = 0
        self.reset_teaching()

    # ---- composition ---------------------------------------------------------------------

    @property
    def glyphs(self):
        return glyphs_for(getattr(self.app, "ascii_mode", False))

    def compose(self) -> ComposeResult:
        with Horizontal(id="game-main"):
            with Vertical(id="play-area"):
                yield Board(self.glyphs, self.match.options.discs, id="board")
                yield MovePrompt(id="move-prompt")
                yield StatusLine(id="status")
            with Vertical(id="sidebar"):
                yield Tally(self.glyphs, id="tally")
                yield History(id="history")
        footer = KeyFooter()
        footer.compact = True  # one space between keys, so every key fits on 80 columns
        yield footer

    @property
    def board(self) -> Board:
        return self.query_one(Board)

    @property
    def move_prompt(self) -> MovePrompt:
        return self.query_one(MovePrompt)

    @property
    def match(self):
        return self.table.match

    def on_mount(self) -> None:
        self.query_one("#tally").border_title = "Soluna"
        self.query_one("#history").border_title = "Moves"
        self._watch_table()
        self.after_change(focus_slot=0)

    def _watch_table(self) -> None:
        # post_message is thread-safe, so a table may report changes from any thread.
        self.table.on_change = lambda: self.post_message(self.TableChanged())

    @on(TableChanged)
    def _table_changed(self) -> None:
        if self.picked_slot is not None and self.picked_slot >= len(self.match.position):
            self.picked_slot = None
        self._close_stale_dialogs()
        self.after_change()

    def _close_stale_dialogs(self) -> None:
        """A round-over or match-over dialog goes once the match has moved past it (decided elsewhere)."""
        dialog = self.app.screen
        if isinstance(dialog, (RoundOverScreen, MatchOverScreen)) and not dialog.still_true(self.match):
            dialog.dismiss(None)
            self._announced = None

    async def load(self, table: Table) -> None:
        """Play another match on this screen (a rematch, a new match)."""
        self.stop_thinking()
        self.workers.cancel_group(self, "oracle")
        self.table.on_change = None
        self.table = table
        self._reset_state()
        self._watch_table()
        if self.board.capacity < self.match.options.discs:
            await self.board.remove()
            await self.query_one("#play-area").mount(
                Board(self.glyphs, self.match.options.discs, id="board"), before="#status"
            )
        self.after_change(focus_slot=0)

    # ---- what the widgets show -----------------------------------------------------------

    @property
    def turn(self) -> Turn:
        return Turn(self._serial, self.match.round_number, self.match.round.ply)

    @property
    def shown_position(self) -> Position:
        if self.viewing is not None:
            return self.match.rounds[self.viewing.round_number - 1].position_at(self.viewing.ply)
        return self.match.position

    def _last_result(self) -> Tower | None:
        """The tower the latest move shown made, to highlight it."""
        if self.viewing is not None:
            played = self.match.rounds[self.viewing.round_number - 1]
            ply = self.viewing.ply
        else:
            played, ply = self.match.round, self.match.round.ply
        return played.moves[ply - 1].result if ply else None

    def tower_looks(self) -> list[TowerLook]:
        position = self.shown_position
        if self.viewing is None and self.revealing is not None:
            return tower_looks(position, mover_slot=position.towers.index(self.revealing.mover),
                               target=self.revealing.target)
        mover_slot = self.picked_slot if self.viewing is None else None
        # A hint points at towers; with a tower in hand, its lit targets say more.
        hint_marks = self.hint_marks(position) if mover_slot is None else {}
        notes = {**self.analysis_notes(position, mover_slot), **hint_marks}
        return tower_looks(position, mover_slot=mover_slot, last=self._last_result(),
                           hinted=frozenset(hint_marks), notes=notes)

    def tally_info(self) -> TallyInfo:
        match = self.match
        setup = self.table.setup
        to_move = None if match.round.is_over or match.is_over else match.to_move
        if self.thinking:
            status = "thinking..." if self.glyphs.ascii else "thinking…"
        else:
            status = ""
        return TallyInfo(
            names=match.players,
            stars=match.stars,
            stars_to_win=match.options.stars_to_win,
            round_number=match.round_number,
            to_move=to_move,
            rules=f"{match.options.preset_name} rules",
            mode=f"{plural(match.options.discs, 'disc')}, {setup.mode_label}",
            seed=match.seed,
            hints=self.hints_allowed,
            status=status,
            away=(self.table.away_until(0), self.table.away_until(1)),
            comeback=self.table.comeback,
        )

    def history_entries(self) -> list[HistoryEntry]:
        entries = []
        match = self.match
        for number, played in enumerate(match.rounds, start=1):
            outcome = played.outcome
            if outcome is not None:
                heading = f"Round {number}: {match.players[outcome.winner]} won"
            else:
                heading = f"Round {number}: {match.players[played.opener]} opened"
            entries.append(HistoryEntry(number, 0, heading, heading=True))
            for ply, move in enumerate(played.moves, start=1):
                name = set_cell_size(match.players[played.mover_at(ply - 1)], HISTORY_NAME_WIDTH)
                entries.append(HistoryEntry(number, ply, f"{ply:>2}. {name} {move}"))
        return entries

    def prompt(self) -> tuple[str, str]:
        """The status line for the current moment, and its kind."""
        match = self.match
        teaching = self.teaching_prompt()
        if self.viewing is not None:
            entry = self.viewing
            when = "start" if entry.ply == 0 else f"after move {entry.ply}"
            viewing = f"Round {entry.round_number}, {when} (read-only). Esc returns to play."
            return (f"{viewing} {teaching[0]}", teaching[1]) if teaching else (viewing, "info")
        if match.is_over:
            return (f"{match.players[match.winner]} won the match. Press n for a new match.", "info")
        if match.round.is_over:
            return (f"{match.players[match.round.outcome.winner]} won round {match.round_number}.", "info")
        name = match.players[match.to_move]
        if self.revealing is not None:
            return (f"{name} plays {self.revealing}.", "thinking")
        if self.thinking:
            return (f"{name} is thinking...", "thinking")
        if self.table.seat(match.to_move) != HUMAN:
            return (f"Waiting for {name}.", "info")
        if self.move_prompt.is_open:
            return (f"{name}: type a move, 2S>1S or by the towers' keys 3>6; Enter plays it, Esc closes.", "info")
        if teaching is not None:
            return teaching
        if self.picked_slot is not None:
            return (f"{name}: put {self.picked_tower} on a lit tower (Enter), or Esc to put it back.", "info")
        # "Your move" where this terminal has one player (a remote match, the computer): no doubt who.
        mover = "Your move" if len(self.table.local_players) == 1 else f"{name} to move"
        return (f"{mover}: pick a tower up (arrows, Enter).", "info")

    def refresh_view(self, focus_slot: int | None = None) -> None:
        """Hand every widget what it should show now."""
        self.board.reserve_notes = self.hints_allowed
        self.board.show(self.tower_looks(), focus_slot)
        tally = self.query_one(Tally)
        tally.info = self.tally_info()
        tally.border_subtitle = "analysis on" if self.analysis_on else ""
        self.query_one(History).show(self.history_entries())
        self.query_one(StatusLine).say(*self.prompt())
        self.refresh_bindings()

    def say(self, text: str, kind: str = "warning") -> None:
        self.query_one(StatusLine).say(text, kind)

    # ---- the flow of a match -------------------------------------------------------------

    def after_change(self, focus_slot: int | None = None) -> None:
        """Redraw, warn about saving trouble, and start whatever comes next."""
        if self.move_prompt.is_open and not self._human_may_move():
            self.move_prompt.close()  # the turn passed (a remote player, the end of the round)
            focus_slot = self._slot_before_prompt if focus_slot is None else focus_slot
        self.refresh_view(focus_slot)
        for notice in self.table.take_notices():
            self.notify(notice, timeout=8)
        problem = self.table.save_problem
        if problem and problem != self._save_warned:
            # After a refresh, so the toast lands even when this runs while the screen mounts.
            self.call_after_refresh(self.notify, problem, title="Not saved", severity="warning", timeout=8)
        self._save_warned = problem
        match = self.match
        if match.round.is_over or match.is_over:
            self._announce_end()
        elif self.table.seat(match.to_move) == COMPUTER and not self.thinking:
            self._start_thinking()

    def _announce_end(self) -> None:
        """A round (or the match) has just been decided: its review, then what comes next."""
        turn = self.turn
        if self._announced == turn:
            return
        self._announced = turn
        if self.table.setup.review and self.match.forfeited_by is None:
            review = ReviewScreen(self.match, self.match.round_number)
            self.app.push_screen(review, lambda _: self._after_review(turn))
        else:
            self._after_review(turn)

    def _after_review(self, turn: Turn) -> None:
        if turn != self.turn:
            return  # the match moved on meanwhile (a remote player, a take-back)
        match = self.match
        if match.is_over:
            self.thinking = True
            self.refresh_view()
            self._finish_match(turn)
            return
        chooser = match.opener_chooser
        if chooser is not None and self.table.seat(chooser) == COMPUTER:
            self.thinking = True
            self.refresh_view()
            self._computer_chooses_opener(turn)
            return
        self._show_round_over(None)

    def _show_round_over(self, computer_opens: bool | None) -> None:
        count_hint = self.count_hint if self.hints_allowed else None
        screen = RoundOverScreen(self.match, self.glyphs, self.table.local_players, computer_opens, count_hint,
                                 can_take_back=self.table.can_undo)
        self.app.push_screen(screen, self._round_over_chosen)

    @work(thread=True, exclusive=True, group="computer")
    def _finish_match(self, turn: Turn) -> None:
        """Judge every move of the match (for the summary and the stats) off the event loop."""
        worker = get_current_worker()
        budget = Budget(MATCH_REVIEW_SECONDS, cancelled=lambda: worker.is_cancelled)
        try:
            reviews = [review_round(played, budget=budget) for played in self.match.rounds if played.moves]
            accuracy = (accuracy_over_rounds(reviews, 0), accuracy_over_rounds(reviews, 1))
        except SearchAborted:
            accuracy = (None, None)
        if not worker.is_cancelled:
            self.post_message(self.MatchFinished(turn, accuracy))

    def on_game_screen_match_finished(self, message: MatchFinished) -> None:
        if message.turn != self.turn or not self.thinking:
            return
        self.thinking = False
        self.refresh_view()
        self._record_stats(message.accuracy)
        humans = self.table.local_players
        screen = MatchOverScreen(self.match, self.glyphs, tuple(self.table.hints_used), message.accuracy, humans)
        self.app.push_screen(screen, self._match_over_chosen)

    def _record_stats(self, accuracy: tuple[float | None, float | None]) -> None:
        """Count a finished match in the stats (once, and only for matches played on this terminal)."""
        table = self.table
        if not table.records_stats or table.stats_recorded:
            return
        table.stats_recorded = True
        record = match_record(table, accuracy)
        store = self.app.stats_store
        try:
            store.update(lambda stats: stats.record_match(record))
        except SaveError as error:
            self.notify(str(error), title="Stats not saved", severity="warning")
        else:
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
        self.picked_slot = None
        self.after_change(focus_slot=0)

    def _match_over_chosen(self, choice: str | None) -> None:
        if choice == "undo":
            self.action_undo()
        elif choice == "rematch":
            self.app.start_match(self.table.setup.with_seed(None), rematch_of=self.match)
        elif choice == "new":
            self.app.action_new_match()
        elif choice == "quit":
            self.app.exit()

    # ---- the computer --------------------------------------------------------------------

    def _start_thinking(self) -> None:
        self.thinking = True
        self.picked_slot = None
        self.refresh_view()
        self._think(self.turn, self.table.setup.computer_level, self.match.position, computer_rng(self.match))

    @work(thread=True, exclusive=True, group="computer")
    def _think(self, turn: Turn, level: str, position: Position, rng) -> None:
        """Choose the computer's move off the event loop; never touches widgets."""
        worker = get_current_worker()
        started = time.monotonic()
        move = choose_move(level, position, rng, budget=default_budget(position, lambda: worker.is_cancelled))
        guessed = level in SOLVING_LEVELS and not shared_solver.is_solved(position)
        while time.monotonic() - started < self.app.computer_pause and not worker.is_cancelled:
            time.sleep(0.02)
        if not worker.is_cancelled:
            self.post_message(self.ComputerMoved(turn, move, guessed))

    @work(thread=True, exclusive=True, group="computer")
    def _computer_chooses_opener(self, turn: Turn) -> None:
        """Decide, off the event loop, whether the computer opens the next round."""
        worker = get_current_worker()
        level = self.table.setup.computer_level
        start = self.match.layout_for(self.match.round_number + 1)
        opens = choose_to_open(level, start, computer_rng(self.match),
                               budget=default_budget(start, lambda: worker.is_cancelled))
        if not worker.is_cancelled:
            self.post_message(self.ComputerChoseOpener(turn, opens))

    @on(ComputerChoseOpener)
    def _opener_chosen(self, message: ComputerChoseOpener) -> None:
        if message.turn != self.turn or not self.thinking:
            return
        self.thinking = False
        self.refresh_view()
        self._show_round_over(message.opens)

    @on(ComputerMoved)
    def _computer_moved(self, message: ComputerMoved) -> None:
        if message.turn != self.turn or not self.thinking:
            return  # stale: the player undid or started anew meanwhile
        self.revealing = message.move
        self.refresh_view()
        finish = lambda: self._finish_computer_move(message)  # noqa: E731
        if self.app.reveal_pause > 0:
            self._reveal_timer = self.set_timer(self.app.reveal_pause, finish)
        else:
            self.call_after_refresh(finish)

    def _finish_computer_move(self, message: ComputerMoved) -> None:
        if message.turn != self.turn or self.revealing != message.move:
            return
        self.revealing = None
        self.thinking = False
        if message.guessed and not self._guess_told:
            self._guess_told = True
            self.notify("Too many discs to solve in time: the computer played its best guess. "
                        "It plays perfectly again once the table is smaller.", timeout=8)
        self.table.play(message.move, self.match.to_move)
        self.after_change(focus_slot=self.match.position.towers.index(message.move.result))

    def stop_thinking(self) -> None:
        """Cancel the computer's search or reveal (undo, new match, leaving the screen)."""
        self.workers.cancel_group(self, "computer")
        if self._reveal_timer is not None:
            self._reveal_timer.stop()
            self._reveal_timer = None
        self.thinking = False
        self.revealing = None

    def on_unmount(self) -> None:
        self.stop_thinking()

    # ---- the player's actions ------------------------------------------------------------

    def _human_may_move(self) -> bool:
        match = self.match
        return (
            not self._browsing_history
            and not self.thinking
            and not match.is_over
            and not match.round.is_over
            and self.table.seat(match.to_move) == HUMAN
        )

    def check_action(self, action: str, parameters: tuple[object, ...]) -> bool | None:
        if action in ("press_focused", "put_back"):
            may_play = self._human_may_move() and not isinstance(self.focused, History)
            return self.picking_check(action, may_play)
        if action == "open_move_prompt":
            return self._human_may_move()
        if action == "undo":
            return self.viewing is None and self.table.can_undo
        if action == "redo":
            return self.viewing is None and not self.thinking and self.table.can_redo
        if action == "hint":
            return self.hints_allowed and self._helping_live_player()
        if action == "analysis":
            return self.hints_allowed
        return True

    # ---- picking (see PickingMixin) --------------------------------------------------------

    @property
    def picking_position(self) -> Position:
        return self.match.position

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
            self.say(f"{self.match.players[self.match.to_move]} is thinking: wait for the move.")
        return self._human_may_move()

    def redraw(self, focus_slot: int | None = None) -> None:
        self.refresh_view(focus_slot)

    def commit(self, move: Move) -> None:
        self.move_prompt.close()  # the move is played, however it was chosen
        self.table.play(move, self.match.to_move)
        self.after_change(focus_slot=self.match.position.towers.index(move.result))

    def action_undo(self) -> None:
        if not self.table.can_undo:
            self.say("Nothing to undo.")
            return
        self.stop_thinking()
        undone = self.table.undo()
        self.picked_slot = None
        self._announced = None
        self.after_change()
        self.say(f"Took back {', '.join(str(move) for move in reversed(undone))}.", "info")

    def action_redo(self) -> None:
        if not self.table.can_redo:
            self.say("Nothing to redo.")
            return
        redone = self.table.redo()
        self.picked_slot = None
        self.after_change(focus_slot=self.match.position.towers.index(redone[-1].result))

    # ---- typing a move (see MovePrompt) ----------------------------------------------------

    def action_open_move_prompt(self) -> None:
        """``:``: a line to type a move on; the tower in hand, if any, is put back."""
        self._slot_before_prompt = self.board.focused_slot or 0
        self.picked_slot = None
        self.move_prompt.open()
        self.set_focus(self.move_prompt)
        self.refresh_view()

    def on_paste(self, event: events.Paste) -> None:
        """A move pasted on the board (``2S>1S``, ``:3>6``) lands in the prompt, ready to play."""
        lines = event.text.strip().splitlines()
        if lines and self.check_action("open_move_prompt", ()):
            event.stop()
            self.action_open_move_prompt()
            self.move_prompt.insert_text_at_cursor(lines[0].strip().removeprefix(":").strip())

    def action_close_move_prompt(self) -> None:
        """Escape in the prompt: close it, back to the towers."""
        self.move_prompt.close()
        self.refresh_view(focus_slot=self._slot_before_prompt)

    def action_play_typed_move(self) -> None:
        """Enter in the prompt: play the move typed, or say why not and keep the text to mend."""
        if self.move_prompt.is_open:
            self.play_typed(self.move_prompt.value)

    # ---- browsing the history ------------------------------------------------------------

    def action_toggle_history(self) -> None:
        """Tab: from the board to the move history and back."""
        history = self.query_one(History)
        if self.move_prompt.is_open:
            self.move_prompt.close()
        if self.focused is history:
            self.board.focus_slot(self.board.focused_slot or 0)
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
        self.picked_slot = None if self.viewing else self.picked_slot
        self.refresh_view()

    @on(History.Left)
    def _history_left(self) -> None:
        if self.viewing is not None:
            self.viewing = None
            self.refresh_view()
