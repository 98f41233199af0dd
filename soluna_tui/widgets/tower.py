"""One place on the table: a tower drawn as a framed stack of discs, or the empty place it left.

The drawing is a pure function of what the place shows (its ``TowerLook``, whether the board's
cursor is on it), how the board draws towers now (``Geometry``), the cell's size and the board's
styles (``Palette``); the board keeps the drawings, shared by every place, so a key that only
moves the cursor or lights a few targets finds most of them already drawn.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, replace
from typing import ClassVar, Protocol, cast

from rich.cells import cell_len
from rich.segment import Segment
from rich.style import Style
from textual import events
from textual.message import Message
from textual.strip import Strip
from textual.widget import Widget

from ..play.looks import TowerLook
from ..rules import Tower
from ..terminal.glyphs import UNICODE, Frame, Glyphs
from .cached_lines import CachedLines


@dataclass(frozen=True)
class TowerScale:
    """How large towers are drawn: the board picks one of ``SCALES`` to fit its size."""

    #: Columns inside the frame.
    inside: int
    #: Lines each disc takes.
    disc_lines: int
    #: Where the top symbol is drawn: ``"disc"`` (the compact look: the symbol's line is the top
    #: disc), ``"face"`` (a line of its own above the discs) or ``"plate"`` (on the top disc).
    symbol_at: str
    #: The fewest columns between two frames.
    gap: int

    @property
    def frame_width(self) -> int:
        return self.inside + 2

    @property
    def cell_width(self) -> int:
        return self.frame_width + self.gap

    def lines_for(self, discs: int, note_line: bool) -> int:
        """Lines a tower of ``discs`` discs needs: the lift when picked up, both caps, the face, the note."""
        return 3 + (self.symbol_at == "face") + note_line + discs * self.disc_lines

    def discs_within(self, lines: int, note_line: bool) -> int:
        """How many discs fit in ``lines`` (at least one: a taller stack is drawn elided)."""
        return max(1, (lines - self.lines_for(0, note_line)) // self.disc_lines)


#: From the smallest (80x24 and up) to the largest, each with its thickest discs; the board draws
#: the discs thinner (``thinner``) where its rows are too short for them.
SCALES = (
    TowerScale(inside=3, disc_lines=1, symbol_at="disc", gap=2),
    TowerScale(inside=7, disc_lines=2, symbol_at="face", gap=2),
    TowerScale(inside=11, disc_lines=2, symbol_at="plate", gap=3),
    TowerScale(inside=15, disc_lines=3, symbol_at="plate", gap=3),
    TowerScale(inside=21, disc_lines=3, symbol_at="plate", gap=3),
)
SMALL = SCALES[0]


def thinner(scale: TowerScale) -> list[TowerScale]:
    """``scale`` with its discs from the thickest it allows down to one line (a symbol engraved on a
    disc needs two lines: such a scale goes no thinner than that)."""
    least = 2 if scale.symbol_at == "plate" else 1
    return [replace(scale, disc_lines=lines) for lines in range(scale.disc_lines, least - 1, -1)]


@dataclass(frozen=True)
class Geometry:
    """How the board draws every tower now (it changes with the terminal's size, a new round, and on a large
    terminal as the tallest tower grows)."""

    scale: TowerScale = SMALL
    #: The most discs drawn; a taller stack is drawn with an elision mark in the middle.
    max_discs: int = 6
    #: A line under every tower for hint and analysis marks, so they appear without moving it.
    note_line: bool = False


#: Every part of a drawing by name, each a component class of the board (``board--NAME``).
PARTS = (
    "base", "frame", "frame-focus", "frame-picked", "frame-target", "frame-hint", "label", "disc", "sun", "moon",
    "stars", "comet", "note-win", "note-loss", "note-none", "note-hint", "dimmed", "engraved", "empty",
    "cell-last", "cell-hinted",
)
#: What a tower that cannot be played onto (while another is in hand) loses: the colour of its
#: bright parts, its key, symbol, top disc and notation, drawn as its frame and lower discs are
#: (``board--dimmed``). Its other lines stay as they were, so dimming a tall tower repaints only
#: the few lines with its key, symbol and notation.
DIMMED_PARTS = frozenset({"label", "sun", "moon", "stars", "comet"})
#: The styles of the parts (``PARTS``), read from the board's stylesheet.
Palette = Mapping[str, Style]


class KeptLines(Protocol):
    """Where drawn lines are kept by their segments (a dict, Textual's ``LRUCache``)."""

    def get(self, key: tuple[Segment, ...]) -> Strip | None: ...

    def __setitem__(self, key: tuple[Segment, ...], value: Strip) -> None: ...


#: One line of a drawing as (text, part) pieces.
Pieces = list[tuple[str, str]]


def disc_lines(tower: Tower, scale: TowerScale, max_discs: int, glyphs: Glyphs) -> list[Pieces]:
    """The lines inside the frame from the top down, each as (text, part) pieces.

    The top disc is drawn in its symbol's colour, the others plain; a stack taller than
    ``max_discs`` has a disc in the middle drawn as an elision mark.
    """
    inside = scale.inside
    drawn = min(tower.height, max(1, max_discs))
    symbol, symbol_part = glyphs.symbol(tower.symbol), tower.symbol.name.lower()
    if scale.symbol_at == "disc":  # the compact look
        lines: list[Pieces] = [[(symbol.center(inside), symbol_part)]]
        lower: list[Pieces] = [[(glyphs.disc * inside, "disc")]] * (drawn - 1)
        if drawn < tower.height and lower:
            lower[len(lower) // 2] = [(glyphs.elided.center(inside), "disc")]
        return lines + lower
    discs = [glyphs.plate(inside - 2, scale.disc_lines)] * drawn
    if drawn < tower.height and drawn > 1:
        discs[drawn // 2] = [glyphs.elided] * scale.disc_lines
    lines = [[(symbol.center(inside), symbol_part)]] if scale.symbol_at == "face" else []
    for number, disc in enumerate(discs):
        part = symbol_part if number == 0 else "disc"
        for row in disc:
            lines.append([(row.center(inside), part)])
    if scale.symbol_at == "plate":  # cut into the middle of the top disc
        line = (scale.disc_lines - 1) // 2
        row = lines[line][0][0]
        middle = len(row) // 2
        lines[line] = [(row[:middle], symbol_part), (symbol, f"engraved-{symbol_part}"),
                       (row[middle + 1:], symbol_part)]
    return lines


def draw(look: TowerLook, cursor: bool, geometry: Geometry, width: int, height: int, glyphs: Glyphs,
         palette: Palette, lines: KeptLines | None = None) -> list[Strip]:
    """The drawing of one place, ``height`` strips of ``width`` cells, standing at the bottom of its cell.

    ``lines`` keeps every line drawn by its segments, so that places that look alike (two 1M
    towers, the blank above every tower) share the very same strips."""
    kept: KeptLines = {} if lines is None else lines

    def line(segments: list[Segment], cells: int) -> Strip:
        key = tuple(segments)
        strip = kept.get(key)
        if strip is None:
            strip = kept[key] = Strip(segments, cells)
        return strip

    scale = geometry.scale
    pad = max(0, (width - scale.frame_width) // 2)
    rows, base_line = _place_rows(look, cursor, geometry, width, height, glyphs)
    cell = _cell_part(look)
    base = palette["base"]

    def style(part: str, marked: bool) -> Style:
        if look.dimmed and part in DIMMED_PARTS:
            part = "dimmed"
        elif part.startswith("engraved-"):  # a symbol cut into its disc: the disc's colour behind it
            disc = palette["dimmed" if look.dimmed else part[9:]]
            return Style(color=palette["engraved"].color, bgcolor=disc.color, bold=True)
        found = palette[part]
        return found + Style(bgcolor=palette[cell].bgcolor) if marked and cell is not None else found

    strips = [line([Segment(" " * width, base)], width)] * max(0, height - len(rows))
    for number, row in enumerate(rows):
        if number < len(rows) - height:
            continue
        marked = cell is not None and (cell == "cell-hinted" or number == base_line)
        behind = base + Style(bgcolor=palette[cell].bgcolor) if marked and cell is not None else base
        pieces = [(text, style(part, marked)) for text, part in row if text]
        used = pad + sum(cell_len(text) for text, _ in pieces)
        strip = line(_joined(pad, pieces, max(0, width - used), behind), max(used, width))
        strips.append(strip.crop(0, width) if used > width else strip)
    return strips


def _place_rows(look: TowerLook, cursor: bool, geometry: Geometry, width: int, height: int,
                glyphs: Glyphs) -> tuple[list[Pieces], int]:
    """The rows of a place's drawing from the top down (standing at the bottom of its cell), and the line it
    stands on: its bottom cap, or the footprint of an empty place."""
    scale = geometry.scale
    rows: list[Pieces] = _tower_rows(look, cursor, scale, geometry.max_discs, glyphs) if look.tower is not None else [
        [(glyphs.vacant * scale.frame_width, "empty")]]
    # The last move is marked on the line it stands on only (one line to repaint when it moves on), a hint behind
    # every line.
    base_line = len(rows) - 1
    if look.picked:
        rows.append([])  # lifted: one line above the table
    if geometry.note_line:
        note = look.note.center(width)[:width] if look.note else ""
        rows.append([(note, f"note-{look.note_kind}")] if note else [])
    while len(rows) > height and len(rows) > base_line + 1 and not rows[-1]:
        rows.pop()  # a row too short for the blank note line and the lift (a phone's moves open): the tower whole
    return rows, base_line


def symbol_cell(look: TowerLook, geometry: Geometry, width: int, height: int, glyphs: Glyphs) -> tuple[int, int] | None:
    """Where the top disc's symbol is drawn in a place ``width`` x ``height`` (column, line), as ``draw`` draws it;
    ``None`` for an empty place. The terminal's real cursor is put there when it follows the focus."""
    if look.tower is None:
        return None
    rows, _ = _place_rows(look, False, geometry, width, height, glyphs)
    scale = geometry.scale
    row = 1 + ((scale.disc_lines - 1) // 2 if scale.symbol_at == "plate" else 0)  # under the top cap
    pad = max(0, (width - scale.frame_width) // 2)
    return min(width - 1, pad + 1 + scale.inside // 2), max(0, height - len(rows) + row)


def _joined(pad: int, pieces: list[tuple[str, Style]], fill: int, behind: Style) -> list[Segment]:
    """A line's segments, as few as can be: the spaces either side take the style of the piece
    beside them where that looks the same (every segment costs the terminal a change of style)."""
    if not pieces:
        return [Segment(" " * (pad + fill), behind)] if pad + fill else []
    segments: list[tuple[str, Style]] = []
    if pad and _blank_alike(pieces[0][1], behind):
        pieces[0] = (" " * pad + pieces[0][0], pieces[0][1])
    elif pad:
        segments.append((" " * pad, behind))
    if fill and _blank_alike(pieces[-1][1], behind):
        pieces[-1] = (pieces[-1][0] + " " * fill, pieces[-1][1])
        fill = 0
    segments.extend(pieces)
    if fill:
        segments.append((" " * fill, behind))
    merged: list[Segment] = []
    for text, style in segments:
        if merged and merged[-1].style == style:
            merged[-1] = Segment(merged[-1].text + text, style)
        else:
            merged.append(Segment(text, style))
    return merged


def _blank_alike(style: Style, behind: Style) -> bool:
    """Whether spaces in ``style`` look like spaces in ``behind``: the same background, nothing drawn
    on a blank (no reverse, underline or strike)."""
    return style.bgcolor == behind.bgcolor and not (style.reverse or style.underline or style.strike)


def _tower_rows(look: TowerLook, cursor: bool, scale: TowerScale, max_discs: int, glyphs: Glyphs) -> list[Pieces]:
    """The frame and discs from the top down. The cursor and a lit target change only the caps (so
    moving the cursor or lighting targets repaints two lines of a tower, not all of them)."""
    tower = look.tower
    assert tower is not None
    inside = scale.inside
    frame = _frame(look, cursor, glyphs)
    side = _side_part(look)
    # A lit target shows in its key and the marks either side of it (``▸2◂``), on its top line only:
    # lighting the targets repaints one line of each.
    base_cap = _cap_part(replace(look, target=False), cursor)
    label = (look.label or frame.top)[:1]
    before = (inside - 1) // 2
    if look.target:
        left_mark, right_mark = glyphs.target_marks
        key: Pieces = [(left_mark + label + right_mark, "frame-target")]
    else:
        key = [(frame.top, base_cap), (label, "label"), (frame.top, base_cap)]
    rows: list[Pieces] = [[(frame.top_left + frame.top * (before - 1), base_cap), *key,
                           (frame.top * (inside - before - 2) + frame.top_right, base_cap)]]
    for pieces in disc_lines(tower, scale, max_discs, glyphs):
        rows.append([(frame.side, side), *pieces, (frame.side, side)])
    notation = str(tower)
    if inside == 3 and len(notation) < 3:  # the compact look keeps its notation to the right
        bottom: Pieces = [(frame.bottom_left, base_cap), (notation.center(3, frame.bottom), "label")]
    else:
        lead = (inside - len(notation)) // 2
        bottom = [(frame.bottom_left + frame.bottom * lead, base_cap), (notation[:inside], "label"),
                  (frame.bottom * (inside - lead - len(notation)), base_cap)]
    bottom.append((frame.bottom_right, base_cap))
    rows.append(bottom)
    return rows


def _frame(look: TowerLook, cursor: bool, glyphs: Glyphs) -> Frame:
    if look.picked:
        return glyphs.picked
    if cursor:
        return glyphs.focused
    return glyphs.plain


def _side_part(look: TowerLook) -> str:
    if look.picked:
        return "frame-picked"
    if look.hinted:
        return "frame-hint"
    return "frame"


def _cap_part(look: TowerLook, cursor: bool) -> str:
    if look.picked:
        return "frame-picked"
    if look.target:
        return "frame-target"
    if look.hinted:
        return "frame-hint"
    if cursor:
        return "frame-focus"
    return "frame"


def _cell_part(look: TowerLook) -> str | None:
    """The background behind the place's rows: the hint, or the last move's places."""
    if look.hinted:
        return "cell-hinted"
    if look.last:
        return "cell-last"
    return None


class Drawings(Protocol):
    """Where a place gets its drawings: the board, which shares them between its places."""

    def drawing(self, look: TowerLook, cursor: bool, width: int, height: int) -> list[Strip]: ...


class TowerWidget(CachedLines, Widget):
    """One place of the board, drawn with the line API from the board's shared drawings.

    Not focusable: the board keeps the focus and tells each place whether its cursor is on it.
    A change repaints only the lines that differ from the drawing before it.

    No tooltip: the place draws its notation, and Textual's tooltip (a box under the mouse, turned up when
    there is no room below) covered the status lines under the board; a tap on a phone rests the mouse on the
    tower it chose, and no mouse leaves it to take the tooltip away.
    """

    DIRECT_LINES = True

    DEFAULT_CSS = """
    TowerWidget {
        width: 1fr;
        height: 1fr;
    }
    """
    ALLOW_SELECT: ClassVar[bool] = False

    class Pressed(Message):
        """The place was clicked (the board turns this into a choice of the tower)."""

        def __init__(self, tower_widget: TowerWidget) -> None:
            super().__init__()
            self.tower_widget = tower_widget

        @property
        def control(self) -> TowerWidget:
            return self.tower_widget

    def __init__(self, slot: int, glyphs: Glyphs = UNICODE) -> None:
        super().__init__(id=f"tower-{slot}")
        self.slot = slot
        self.glyphs = glyphs
        self.look = TowerLook()
        self.cursor = False
        self._drawing: list[Strip] | None = None
        self._drawn_size = (0, 0)

    def show(self, look: TowerLook, cursor: bool) -> None:
        """Draw ``look`` (with the cursor or not), repainting only the lines that change."""
        if look == self.look and cursor == self.cursor:
            return
        self.look, self.cursor = look, cursor
        self.redraw()

    @property
    def cell_size(self) -> tuple[int, int]:
        """The place's size as last laid out (``outer_size``, kept by Textual as the layout sets it: ``size``
        would look the widget up on the screen's map, for every line drawn; a tower has no border or padding)."""
        size = self.outer_size
        return size.width, size.height

    def redraw(self) -> None:
        old = self._drawing
        width, height = self.cell_size
        if old is None or not width or self._drawn_size != (width, height):
            self._drawing = None
            self.repaint()
            return
        new = self._draw()
        if new is old:
            return  # the very drawing on screen (the board keeps each one)
        self._drawing = new
        self.repaint_changes(old, new)  # the lines that changed (a cursor's caps: two lines, not the tower)

    def forget_drawing(self) -> None:
        """The board's styles or geometry changed: draw afresh when next painted."""
        self._drawing = None

    def _draw(self) -> list[Strip]:
        board = cast(Drawings, self.parent)
        width, height = self._drawn_size = self.cell_size
        return board.drawing(self.look, self.cursor, width, height)

    def notify_style_update(self) -> None:
        self._drawing = None
        super().notify_style_update()

    def render_line(self, y: int) -> Strip:
        """A line of the place's drawing (Textual's line API)."""
        drawing = self._drawing
        if drawing is None or self._drawn_size != self.cell_size:
            drawing = self._drawing = self._draw()
        if y < len(drawing):
            return drawing[y]
        return Strip.blank(self._drawn_size[0])

    def on_click(self, event: events.Click) -> None:
        event.stop()
        self.post_message(self.Pressed(self))
