"""The table: one place per tower of the round's opening, in a grid whose places keep still all round.

The board keeps the focus and draws its own cursor: moving it repaints the place it left and the
place it entered, nothing else (no focus events, no CSS classes, no layout). The grid's shape
is chosen from the board's size and the number of places, and changes only with them (a resize,
a new round of another size), never with a key: a tower that goes away leaves its place empty.

On a large terminal (discs two lines thick or more) a row is only as tall as a tower a little
taller than the tallest on the table (``GROWTH_ROOM``, in ``ROOM_STEPS``), not as tall as the height
allows: early in a round the towers stand together on the bottom of the board instead of under
twenty blank lines each, and the rows grow when the towers do (once a round at most). The board
stands on its bottom line, so the last row never moves; the rows are worked out from the table
alone, so every screen showing the same table (a player's, a spectator's, after a reconnect)
draws it alike.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from math import ceil
from typing import ClassVar

from rich.segment import Segment
from rich.style import Style
from textual import on
from textual.app import ComposeResult
from textual.binding import Binding, BindingType
from textual.cache import LRUCache
from textual.containers import Container
from textual.geometry import Offset, Region
from textual.message import Message
from textual.strip import Strip

from ..play.looks import JUMP_KEYS, TowerLook
from ..rules import MAX_DISCS, Tower
from ..terminal.glyphs import UNICODE, Glyphs
from ..terminal.sizes import NARROW_CLASS
from .cached_lines import CachedLines
from .tower import PARTS, SCALES, SMALL, Geometry, TowerScale, TowerWidget, draw, symbol_cell, thinner

#: A larger scale is chosen only if every tower of up to this many discs (or all the discs of the
#: round, if fewer) is drawn whole.
WANTED_DISCS = 6
#: The compact towers spread over more rows (fewer columns) where the rows still draw a tower of this many
#: discs whole: a tall narrow board (a phone) fills its height instead of leaving it blank above two rows.
SPREAD_DISCS = 4
#: On the large scales, a row has room for this many discs more than the tallest tower on the table...
GROWTH_ROOM = 1
#: ...in these steps (beyond the last, as many as its height holds): the rows change once a round at most, when
#: a tower of four discs is made (a move that grows them draws the whole board again: one in ten or so).
ROOM_STEPS = (4,)
#: Drawings kept for the whole board: every place in every state a few keys move it between.
DRAWINGS_KEPT = 512


@dataclass(frozen=True)
class BoardPlan:
    """The board's grid for its size: the scale, columns and rows, and the lines of a row."""

    geometry: Geometry
    columns: int
    rows: int
    row_height: int


def plan_board(width: int, height: int, places: int, discs: int, note_line: bool,
               tallest: int | None = None) -> BoardPlan:
    """The largest towers whose grid of ``places`` fits ``width`` x ``height`` and draws a tower of
    ``WANTED_DISCS`` discs whole; the compact towers when none does. Rows are as even as can be
    (6 and 6 rather than 7 and 5), and share the height between them; given the ``tallest`` tower on
    the table, rows of thick discs are only as tall as its growth needs (``GROWTH_ROOM``)."""
    wanted = min(WANTED_DISCS, max(1, discs))
    places = max(1, places)
    for widest in reversed(SCALES):
        fitting = min(places, width // widest.cell_width)
        if not fitting:
            continue
        rows = ceil(places / fitting)
        if widest is SMALL:  # the compact towers: in as many rows as still draw a tower of ``SPREAD_DISCS`` whole
            spread = min(SPREAD_DISCS, wanted)  # (a phone's tall board: 4 columns of 3, not 6 of 2)
            rows = next((more for more in range(places, rows, -1)
                         if SMALL.discs_within(height // more, note_line) >= spread), rows)
        row_height = max(1, height // rows)
        for scale in thinner(widest):  # the thickest discs that still draw such a tower whole
            shown = scale.discs_within(row_height, note_line)
            if widest is SMALL or shown >= wanted:
                if tallest is not None and scale.disc_lines >= 2:
                    shown = min(shown, next((step for step in ROOM_STEPS if step >= tallest + GROWTH_ROOM), shown))
                    row_height = min(row_height, scale.lines_for(shown, note_line))
                columns = ceil(places / rows)
                return BoardPlan(Geometry(scale, shown, note_line), columns, rows, row_height)
    rows = places  # a terminal too narrow for one compact tower: one a row, as the too-small notice covers it
    return BoardPlan(Geometry(SMALL, SMALL.discs_within(max(1, height // rows), note_line), note_line), 1, rows,
                     max(1, height // rows))


class Board(CachedLines, Container, can_focus=True):
    """Shows the places it is given and reports which tower the player chooses.

    Attributes down: ``show`` hands it one ``TowerLook`` per place (a look without a tower is an
    empty place). Messages up: ``Board.Chosen`` when a tower is clicked, ``Board.Vacant`` when a
    key names an empty place. Enter and Space belong to the screen, which asks for ``cursor``.
    """

    BINDINGS: ClassVar[list[BindingType]] = [
        Binding("left,h,a", "step(-1, 0)", "Left", show=False),
        Binding("right,l,d", "step(1, 0)", "Right", show=False),
        Binding("up,k,w", "step(0, -1)", "Up", show=False),
        Binding("down,j,s", "step(0, 1)", "Down", show=False),
        Binding("home", "edge(1)", "First tower", show=False),
        Binding("end", "edge(-1)", "Last tower", show=False),
        *(Binding(key, f"jump({index})", f"Tower {index + 1}", show=False) for index, key in enumerate(JUMP_KEYS)),
    ]

    #: Between and around its places the board is its plain background (see ``CachedLines``).
    BLANK_LINES = True
    #: Styles of the parts of every place (see ``tower.PARTS``).
    COMPONENT_CLASSES: ClassVar[set[str]] = {f"board--{part}" for part in PARTS if part != "base"}

    class Chosen(Message):
        """The player clicked the tower in ``slot``."""

        def __init__(self, board: Board, slot: int, tower: Tower) -> None:
            super().__init__()
            self.board = board
            self.slot = slot
            self.tower = tower

        @property
        def control(self) -> Board:
            return self.board

    class Vacant(Message):
        """A key named ``slot``, whose place is empty (its tower was moved)."""

        def __init__(self, board: Board, slot: int) -> None:
            super().__init__()
            self.board = board
            self.slot = slot

        @property
        def control(self) -> Board:
            return self.board

    def __init__(self, glyphs: Glyphs = UNICODE, capacity: int = MAX_DISCS, *, id: str | None = None) -> None:
        super().__init__(id=id)
        self.glyphs = glyphs
        self.capacity = capacity
        self._looks: list[TowerLook] = []
        #: The tallest tower shown (rows of thick discs are as tall as its growth needs).
        self._tallest = 0
        self._cursor = 0
        #: Keep a line under every tower for hint and analysis marks, so they appear without moving it.
        self.reserve_notes = False
        #: The discs of the round: a larger scale must draw a tower of ``WANTED_DISCS`` of them whole.
        self.discs = capacity
        self.plan: BoardPlan | None = None
        self._planned_size = (0, 0)
        #: The columns and lines the rest of its screen takes beside and under the board (a guess
        #: at its size before the first layout; a wrong one costs a second layout, nothing else).
        self.margins = (30, 5)
        #: The same on a narrow terminal (a phone): the players' lines above the board, the lines under it.
        self.narrow_margins = (0, 7)
        self._palette: dict[str, Style] | None = None
        self._last_palette: dict[str, Style] | None = None
        self._palette_serial = 0
        self._widgets: list[TowerWidget] = []
        self._drawings: LRUCache[tuple[object, ...], list[Strip]] = LRUCache(DRAWINGS_KEPT)
        #: Every line of those drawings by its segments: places that look alike share their strips.
        self._lines: LRUCache[tuple[Segment, ...], Strip] = LRUCache(4 * DRAWINGS_KEPT)

    def compose(self) -> ComposeResult:
        for slot in range(self.capacity):
            widget = TowerWidget(slot, self.glyphs)
            widget.display = False
            yield widget

    def on_mount(self) -> None:
        self._widgets = list(self.query_children(TowerWidget))

    @property
    def tower_widgets(self) -> list[TowerWidget]:
        """Every place's widget, in the order of the places (those beyond ``count`` hidden)."""
        if not self._widgets:
            self._widgets = list(self.query_children(TowerWidget))
        return self._widgets

    @property
    def count(self) -> int:
        """The places on the board (the round's opening towers)."""
        return len(self._looks)

    @property
    def looks(self) -> list[TowerLook]:
        return list(self._looks)

    @property
    def columns(self) -> int:
        return self.plan.columns if self.plan is not None else 1

    @property
    def scale(self) -> TowerScale:
        return self.plan.geometry.scale if self.plan is not None else SMALL

    @property
    def cursor(self) -> int | None:
        """The place the cursor is on (shown while the board has the focus), ``None`` on an empty board."""
        return self._cursor if self._occupied(self._cursor) else None

    def cursor_cell(self) -> Offset | None:
        """Where on the screen the terminal's real cursor goes while the board has the focus (when it follows the
        focus, for a braille display): the top symbol of the tower the board's cursor is on."""
        slot = self.cursor
        if slot is None:
            return None
        widget = self.tower_widgets[slot]
        region = widget.content_region
        if not region:
            return None
        geometry = self.plan.geometry if self.plan is not None else Geometry()
        cell = symbol_cell(self._looks[slot], geometry, region.width, region.height, self.glyphs)
        return None if cell is None else region.offset + cell

    # ---- attributes down -------------------------------------------------------------------

    def show(self, looks: Sequence[TowerLook], cursor: int | None = None) -> None:
        """Draw these places (one look each, in the order of the places); optionally put the cursor
        on one. The grid changes only when the number of places does."""
        reshaped = len(looks) != len(self._looks)
        tallest = max((look.tower.height for look in looks if look.tower is not None), default=1)
        grown = tallest != self._tallest
        self._looks, self._tallest = list(looks), tallest
        if reshaped:
            for widget in self.tower_widgets:
                widget.display = widget.slot < len(self._looks)
        if reshaped or grown:
            self._replan()
        if cursor is not None:
            self._cursor = cursor
        self._cursor = self._nearest_occupied(self._cursor)
        self._paint()

    def put_cursor(self, slot: int) -> None:
        """Move the cursor to ``slot`` (the nearest tower if that place is empty)."""
        before = self._cursor
        self._cursor = self._nearest_occupied(slot)
        if self._cursor != before:
            self._paint_places(before, self._cursor)

    def _paint(self) -> None:
        shown = self.has_focus
        for widget, look in zip(self.tower_widgets, self._looks, strict=False):
            widget.show(look, shown and widget.slot == self._cursor)

    def _paint_places(self, *slots: int) -> None:
        """Repaint ``slots``; the cursor is shown while the board has the focus."""
        widgets = self.tower_widgets
        shown = self.has_focus
        for slot in slots:
            if slot < len(self._looks):
                widgets[slot].show(self._looks[slot], shown and slot == self._cursor)

    def watch_has_focus(self, has_focus: bool) -> None:
        """Textual restyles a widget and everything in it when its focus changes; nothing of the
        board's look depends on its focus (no ``:focus`` rule, the cursor is drawn), so only the
        cursor's place is repainted: twelve places restyled for nothing cost about 10 ms when the
        game starts."""
        self._paint_places(self._cursor)

    # ---- the grid --------------------------------------------------------------------------

    def on_resize(self) -> None:
        self._replan()

    def render_lines(self, crop: Region) -> list[Strip]:
        # Textual does not always send a Resize when a sibling's change of height (a notice shown above the board
        # on a narrow screen) changes the board's: drawn at a size it was not planned for, it plans again.
        if self.plan is not None and (self.outer_size.width, self.outer_size.height) != self._planned_size:
            self.call_later(self._replan)
        return super().render_lines(crop)

    def _replan(self) -> None:
        """Choose the scale, columns and rows from the size and the number of places.

        Before the board has a size (its first ``show``, before the screen's first layout) the
        plan is made for the size it will have, as far as ``margins`` say: so the first layout is
        the right one, and the first frame draws every tower once."""
        width, height = self.outer_size  # the padding is the plan's own: the whole board is shared out
        if not width and self.is_attached:
            screen = self.app.size
            margins = self.narrow_margins if self.app.has_class(NARROW_CLASS) else self.margins
            width, height = screen.width - margins[0], screen.height - margins[1]
        if not self._looks or width <= 0 or height <= 0:
            return
        note_line = self.reserve_notes or any(look.note for look in self._looks)
        plan = plan_board(width, height, len(self._looks), self.discs, note_line, self._tallest)
        if (plan, width, height) == (self.plan, *self._planned_size):
            return
        # The same plan for another size still moves the rows down or up (the padding above them).
        self.plan, self._planned_size = plan, (width, height)
        styles = self.styles
        styles.grid_size_columns = plan.columns
        styles.grid_size_rows = plan.rows
        cell_width = width // plan.columns
        styles.grid_columns = str(cell_width)
        styles.grid_rows = str(plan.row_height)
        # The lines the rows leave over go above them (the towers stand on the bottom of the board),
        # the columns they leave over either side.
        spare = width - plan.columns * cell_width
        styles.padding = (height - plan.rows * plan.row_height, spare - spare // 2, 0, spare // 2)
        for widget in self.tower_widgets:
            widget.forget_drawing()
        self.refresh(layout=True)

    # ---- drawing (shared by every place) ---------------------------------------------------

    def drawing(self, look: TowerLook, cursor: bool, width: int, height: int) -> list[Strip]:
        """The strips of a place that shows ``look``, kept by everything they depend on."""
        palette = self._styles()
        geometry = self.plan.geometry if self.plan is not None else Geometry()
        key = (look, cursor, geometry, width, height, self._palette_serial)
        strips = self._drawings.get(key)
        if strips is None:
            strips = draw(look, cursor, geometry, width, height, self.glyphs, palette, self._lines)
            self._drawings[key] = strips
        return strips

    def _styles(self) -> dict[str, Style]:
        if self._palette is None:
            palette = {part: self.get_component_rich_style(f"board--{part}") for part in PARTS if part != "base"}
            palette["base"] = self.rich_style
            if palette != self._last_palette:
                self._palette_serial += 1
                self._drawings.clear()
                self._lines.clear()
                self._last_palette = palette
            self._palette = palette
        return self._palette

    def notify_style_update(self) -> None:
        """The theme or the stylesheet changed: the parts' styles are read again before the next drawing."""
        self._palette = None
        super().notify_style_update()

    # ---- keys ------------------------------------------------------------------------------

    def _occupied(self, slot: int) -> bool:
        return 0 <= slot < len(self._looks) and self._looks[slot].tower is not None

    def _nearest_occupied(self, slot: int) -> int:
        """``slot`` if a tower stands there, else the nearest place that holds one (0 if none does)."""
        count = len(self._looks)
        if not count:
            return 0
        slot = max(0, min(slot, count - 1))
        for distance in range(count):
            for candidate in (slot + distance, slot - distance):
                if self._occupied(candidate):
                    return candidate
        return slot

    def action_step(self, across: int, down: int) -> None:
        """Left/right to the next tower in reading order (wrapping round); up/down to the nearest
        tower in the row above or below (wrapping round), skipping empty places and rows."""
        count = len(self._looks)
        if not count or not any(self._occupied(slot) for slot in range(count)):
            return
        current = self._cursor
        if across:
            target = current
            for _ in range(count):
                target = (target + across) % count
                if self._occupied(target):
                    break
            self.put_cursor(target)
            return
        columns = self.columns
        rows = ceil(count / columns)
        row, column = divmod(current, columns)
        for step in range(1, rows + 1):
            other = (row + down * step) % rows
            candidates = [slot for slot in range(other * columns, min(count, (other + 1) * columns))
                          if self._occupied(slot)]
            if candidates:
                self.put_cursor(min(candidates, key=lambda slot: (abs(slot % columns - column), slot)))
                return

    def action_edge(self, direction: int) -> None:
        """``Home`` and ``End``: the cursor to the first or the last tower."""
        occupied = [slot for slot in range(len(self._looks)) if self._occupied(slot)]
        if occupied:
            self.put_cursor(occupied[0] if direction > 0 else occupied[-1])

    def action_jump(self, slot: int) -> None:
        """A tower's key: the cursor to it (an empty place is reported, the cursor stays)."""
        if self._occupied(slot):
            self.put_cursor(slot)
        elif slot < len(self._looks):
            self.post_message(self.Vacant(self, slot))

    @on(TowerWidget.Pressed)
    def _tower_clicked(self, event: TowerWidget.Pressed) -> None:
        event.stop()
        slot = event.tower_widget.slot
        if not self._occupied(slot):
            return
        if not self.has_focus:
            self.screen.set_focus(self, scroll_visible=False)
        self.put_cursor(slot)
        self.choose(slot)

    def choose(self, slot: int) -> None:
        """Report the tower in ``slot`` as chosen (a click)."""
        if self._occupied(slot):
            tower = self._looks[slot].tower
            assert tower is not None
            self.post_message(self.Chosen(self, slot, tower))
