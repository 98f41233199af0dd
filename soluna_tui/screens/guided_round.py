"""The guided round: a newcomer plays a small round against the computer, one step at a time (``play/guided.py``
decides; this screen shows the step beside the board and hands the lesson the player's moves).

Offered by itself at the very first start on this terminal, and from the help (``g``) and the palette
("Guided round") later. Returns ``True`` when played to the end, ``False`` when skipped (``n``).
"""

from __future__ import annotations

from dataclasses import replace

from textual.app import ComposeResult
from textual.binding import Binding
from textual.containers import Horizontal, Vertical, VerticalScroll
from textual.widgets import Static

from ..app.soluna_view import app_view
from ..play.guided import Lesson, Step
from ..play.view import tower_looks
from ..rules import Arrangement, Move, PlacedMove
from ..terminal.glyphs import glyphs_for
from ..widgets.board import Board
from ..widgets.key_footer import KeyFooter
from ..widgets.status_line import StatusLine
from .help import SHOWN_HELP_BINDING
from .picking import PICKING_BINDINGS, BoardScreen, Picking
from .quiet_focus import QuietFocus
from .styled_as_mounted import StyledAsMounted


class GuidedRoundScreen(QuietFocus, StyledAsMounted, BoardScreen[bool]):
    """Four steps on a real layout; ``n`` skips, ``r`` starts again, Enter at the end goes on."""

    BINDINGS = [
        # The step's text scrolls where it is taller than its panel (a phone: the board keeps its rows).
        Binding("pagedown", "scroll_step(1)", "More"),
        Binding("pageup", "scroll_step(-1)", "Back up", show=False),
        *PICKING_BINDINGS,
        Binding("enter,space", "go_on", "Go on"),  # once the round is over (Pick/place is hidden then)
        Binding("r", "again", "Start again"),
        Binding("n", "skip", "Skip"),
        SHOWN_HELP_BINDING,
    ]

    def __init__(self) -> None:
        super().__init__()
        self.picking = Picking(self)
        self.lesson = Lesson.start()

    def compose(self) -> ComposeResult:
        glyphs = glyphs_for(app_view(self).ascii_mode)
        with Horizontal(id="guided-main"):
            with Vertical(id="play-area"):
                yield Board(glyphs, id="board")
                yield StatusLine(id="status")
            with Vertical(id="sidebar"):
                with VerticalScroll(id="guided-step", can_focus=False):
                    yield Static("", id="guided-text", markup=False)
        yield KeyFooter()

    @property
    def board(self) -> Board:
        return self.query_one(Board)

    def on_mount(self) -> None:
        self.query_one("#guided-step").border_title = "Guided round"
        self.redraw(cursor=0)

    def action_scroll_step(self, pages: int) -> None:
        step = self.query_one("#guided-step", VerticalScroll)
        step.scroll_to(y=step.scroll_y + pages * max(1, step.scrollable_content_region.height - 1), animate=False)
        self.call_after_refresh(self.refresh_bindings)

    # ---- the player's moves ----------------------------------------------------------------

    @property
    def picking_arrangement(self) -> Arrangement:
        return self.lesson.table

    def may_pick(self) -> bool:
        return not self.lesson.over

    def commit(self, placed: PlacedMove) -> None:
        refusal = self.lesson.refusal(placed.move)
        if refusal is not None:  # the tower stays in hand, for a target the step is about
            self.picking.picker.picked_slot = placed.mover_slot
            self.redraw(cursor=placed.target_slot)
            self.say(refusal, "error")
            return
        self.lesson = self.lesson.played(placed)
        reply = self.lesson.reply
        self.redraw(cursor=reply.target_slot if reply is not None else placed.target_slot)

    def action_go_on(self) -> None:
        """Enter once the round is over: the new-match form."""
        self.dismiss(True)

    def action_again(self) -> None:
        self.picking.drop()
        self.lesson = Lesson.start()
        self.redraw(cursor=0)

    def action_skip(self) -> None:
        self.dismiss(False)

    def check_action(self, action: str, parameters: tuple[object, ...]) -> bool | None:
        """Over, the round has only Go on and Start again (and help and quit); before, the picking keys."""
        if action in ("go_on", "press_focused", "skip"):
            return self.lesson.over is (action == "go_on")
        if action == "put_back":
            return self.picking.key_state(action, not self.lesson.over)
        if action == "open_move_prompt":
            return False  # no typed moves here: the steps are about the towers
        if action == "scroll_step":
            if not self.is_mounted:
                return False
            step = self.query_one("#guided-step", VerticalScroll)
            return step.max_scroll_y > 0 and (step.scroll_y < step.max_scroll_y if parameters == (1,) else None)
        return True

    def on_resize(self) -> None:
        self.call_after_refresh(self.refresh_bindings)  # the step's text may scroll now, or no longer

    # ---- drawing ---------------------------------------------------------------------------

    def redraw(self, cursor: int | None = None) -> None:
        if self.picking.picked_slot is not None:
            self.lesson = self.lesson.picked()
        lesson = self.lesson
        looks = tower_looks(lesson.table, mover_slot=self.picking.picked_slot,
                            last=lesson.reply if self.picking.picked_slot is None else None)
        held = self.picking.picked_tower
        if held is not None:  # the symbol step lights the targets by symbol only
            looks = [replace(look, target=False, dimmed=True)
                     if look.target and look.tower is not None and not lesson.lights(Move(held, look.tower)) else look
                     for look in looks]
        self.board.show(looks, cursor)
        self.query_one("#guided-text", Static).update(lesson.text)
        self.query_one("#guided-step").scroll_home(animate=False)
        self.call_after_refresh(self.refresh_bindings)
        self.say(*self.prompt())
        self.refresh_bindings()

    def prompt(self) -> tuple[str, str]:
        """The status line: what to press now."""
        if self.lesson.over:
            return ("Round over. Enter goes on; r plays the guided round again.", "info")
        held = self.picking.picked_tower
        if held is not None:
            lit = [move for move in self.lesson.table.position.legal_moves
                   if move.mover == held and self.lesson.lights(move)]
            if not lit:
                return (f"{held} has no tower of another height with a {held.symbol.word} on top: Esc puts it "
                        "back, then pick another.", "warning")
            if self.lesson.step is Step.BY_SYMBOL:
                return (f"Put {held} on a lit tower: another height, the same symbol (Enter); Esc puts it back.",
                        "info")
            return (f"Put {held} on a lit tower (Enter), or Esc to put it back.", "info")
        return ("Your move: pick a tower up (arrows, Enter).", "info")

    def say(self, text: str, kind: str = "warning") -> None:
        self.query_one(StatusLine).say(text, kind)
