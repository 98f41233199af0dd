"""The table: every tower of the position as a focusable widget, reflowed to fit the width."""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import replace
from math import ceil

from textual import on
from textual.binding import Binding
from textual.containers import Container
from textual.message import Message

from ..glyphs import UNICODE, Glyphs
from ..play.looks import JUMP_KEYS, TowerLook
from ..rules import MAX_DISCS, Tower
from .tower import SCALES, SMALL, TowerScale, TowerWidget

#: A larger scale is chosen only if every row of the opening table could show this many discs.
MIN_DISCS_SHOWN = 4


def choose_scale(width: int, height: int, towers: int) -> TowerScale:
    """The largest scale at which ``towers`` towers (the opening table) fit in ``width`` x ``height``
    with room to grow; the compact scale when no larger one does."""
    for scale in reversed(SCALES[1:]):
        columns = width // scale.cell_width
        if columns and ceil(towers / columns) * scale.lines_for(MIN_DISCS_SHOWN, note_line=True) <= height:
            return scale
    return SMALL


class Board(Container, can_focus=False):
    """Shows the towers it is given and reports which one the player chooses.

    Attributes down: ``show`` hands it one ``TowerLook`` per tower. Messages up:
    ``Board.Chosen`` when a tower is pressed (Enter, Space or a click).
    """

    BINDINGS = [
        Binding("left,h,a", "step(-1, 0)", "Left", show=False),
        Binding("right,l,d", "step(1, 0)", "Right", show=False),
        Binding("up,k,w", "step(0, -1)", "Up", show=False),
        Binding("down,j,s", "step(0, 1)", "Down", show=False),
        Binding("home", "jump(0)", "First tower", show=False),
        Binding("end", "jump(-1)", "Last tower", show=False),
        *(Binding(key, f"jump({index})", f"Tower {index + 1}", show=False) for index, key in enumerate(JUMP_KEYS)),
    ]

    #: Styles of the parts of every tower (see ``TowerWidget._style``).
    COMPONENT_CLASSES = {
        "board--frame",
        "board--frame-focus",
        "board--frame-picked",
        "board--frame-target",
        "board--frame-hint",
        "board--label",
        "board--disc",
        "board--sun",
        "board--moon",
        "board--stars",
        "board--comet",
        "board--note-win",
        "board--note-loss",
        "board--note-none",
        "board--dimmed",
        "board--note-hint",
        "board--engraved",
        "board--cell-focus",
        "board--cell-last",
        "board--cell-last-focus",
        "board--cell-hinted",
    }

    class Chosen(Message):
        """The player pressed the tower in ``slot``."""

        def __init__(self, board: Board, slot: int, tower: Tower) -> None:
            super().__init__()
            self.board = board
            self.slot = slot
            self.tower = tower

        @property
        def control(self) -> Board:
            return self.board

    def __init__(self, glyphs: Glyphs = UNICODE, capacity: int = MAX_DISCS, *, id: str | None = None) -> None:
        super().__init__(id=id)
        self.glyphs = glyphs
        self.capacity = capacity
        self._looks: list[TowerLook] = []
        self.columns = 1
        self.scale = SMALL
        #: Keep a line under every tower for hint and analysis marks, so they appear without moving it.
        self.reserve_notes = False
        self._arrangement: tuple | None = None

    def compose(self):
        for slot in range(self.capacity):
            widget = TowerWidget(slot, self.glyphs)
            widget.display = False
            yield widget

    @property
    def tower_widgets(self) -> list[TowerWidget]:
        return list(self.query_children(TowerWidget))

    @property
    def count(self) -> int:
        return len(self._looks)

    def show(self, looks: Sequence[TowerLook], focus_slot: int | None = None) -> None:
        """Draw these towers (one look each, in canonical order); optionally focus one of them."""
        self._looks = [replace(look, label=JUMP_KEYS[slot]) for slot, look in enumerate(looks)]
        for widget in self.tower_widgets:
            if widget.slot < len(self._looks):
                widget.look = self._looks[widget.slot]
                widget.display = True
            else:
                widget.display = False
                widget.look = TowerLook()
        self._reflow()
        focused = self.focused_slot
        if focus_slot is not None:
            self.focus_slot(focus_slot)
        elif focused is not None and focused >= len(self._looks):
            self.focus_slot(len(self._looks) - 1)

    @property
    def focused_slot(self) -> int | None:
        focused = self.screen.focused if self.is_mounted else None
        if isinstance(focused, TowerWidget) and focused.parent is self:
            return focused.slot
        return None

    def focus_slot(self, slot: int) -> None:
        if self._looks:
            slot = max(0, min(slot, len(self._looks) - 1))
            # At once, not as ``focus()`` does it (a message later): the next key of a burst
            # (``6`` then Enter) must act on this tower. The board reflows, so nothing to scroll.
            self.screen.set_focus(self.tower_widgets[slot], scroll_visible=False)

    def on_resize(self) -> None:
        self._reflow()

    def _reflow(self) -> None:
        """Choose the scale and columns from the size, and row heights from the towers.

        Each row is as tall as its tallest tower (capped so every row fits: taller stacks are drawn
        elided). At the larger scales the towers stand together in the middle of the board (``-large``).
        """
        if not self._looks or not self.size.width:
            return
        width, height = self.size
        count = len(self._looks)
        scale = choose_scale(width, height, max(count, self.capacity))
        most = max(1, width // scale.cell_width)
        if scale is SMALL:
            self.columns = min(count, most)
        else:  # rows as even as can be: 6 and 6 rather than 10 and 2
            self.columns = ceil(count / ceil(count / most))
        rows = ceil(count / self.columns)
        note_line = self.reserve_notes or any(look.note for look in self._looks)
        cap = scale.discs_within(height // rows, note_line)
        heights = []
        for row in range(rows):
            looks = self._looks[row * self.columns : (row + 1) * self.columns]
            tallest = max(look.tower.height for look in looks if look.tower is not None)
            heights.append(scale.lines_for(min(tallest, cap), note_line))
        arrangement = (scale, self.columns, rows, tuple(heights), cap, note_line)
        if arrangement == self._arrangement:
            return  # the same grid: the towers repaint themselves, no new layout needed
        self._arrangement = arrangement
        self.scale = scale
        self.set_class(scale is not SMALL, "-large")
        for widget in self.tower_widgets:
            widget.scale = scale
            widget.max_discs = cap
            widget.note_line = note_line
        self.styles.grid_size_columns = self.columns
        self.styles.grid_size_rows = rows
        # Compact towers share the width; larger ones keep their own width, the block centred.
        self.styles.grid_columns = "1fr" if scale is SMALL else str(scale.frame_width + 2)
        self.styles.grid_gutter_vertical = 0 if scale is SMALL else scale.gap - 2
        self.styles.grid_rows = " ".join(str(height) for height in heights)
        self.refresh(layout=True)

    # ---- keys ----------------------------------------------------------------------------

    def action_step(self, across: int, down: int) -> None:
        """Move the focus left/right (wrapping through rows) or up/down a row (wrapping round)."""
        count = len(self._looks)
        if not count:
            return
        current = self.focused_slot
        if current is None:
            self.focus_slot(0)
            return
        if across:
            target = (current + across) % count
        else:
            target = current + down * self.columns
            if target >= count or target < 0:
                column = current % self.columns
                rows = ceil(count / self.columns)
                row = (current // self.columns + down) % rows
                target = min(row * self.columns + column, count - 1)
        self.focus_slot(target)

    def action_jump(self, slot: int) -> None:
        if slot < 0:
            slot = len(self._looks) - 1
        if slot < len(self._looks):
            self.focus_slot(slot)

    @on(TowerWidget.Pressed)
    def _tower_clicked(self, event: TowerWidget.Pressed) -> None:
        event.stop()
        self.choose(event.tower_widget.slot)

    def choose(self, slot: int) -> None:
        """Report the tower in ``slot`` as chosen (Enter, Space or a click)."""
        if slot < len(self._looks) and self._looks[slot].tower is not None:
            self.post_message(self.Chosen(self, slot, self._looks[slot].tower))
