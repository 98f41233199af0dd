"""One tower on the table: a focusable stack of discs with its top symbol and notation."""

from __future__ import annotations

from dataclasses import dataclass
from typing import Self

from rich.style import Style
from rich.text import Text
from textual import events
from textual.cache import LRUCache
from textual.geometry import Region
from textual.message import Message
from textual.reactive import reactive
from textual.strip import Strip
from textual.visual import Visual, visualize
from textual.widget import Widget

from ..glyphs import UNICODE, Frame, Glyphs
from ..play.looks import TowerLook
from ..rules import Tower


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
    #: Columns between two frames.
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


#: From the smallest (80x24 and up) to the largest; 80x24 draws today's compact towers.
SCALES = (
    TowerScale(inside=3, disc_lines=1, symbol_at="disc", gap=2),
    TowerScale(inside=7, disc_lines=1, symbol_at="face", gap=2),
    TowerScale(inside=11, disc_lines=2, symbol_at="plate", gap=4),
    TowerScale(inside=15, disc_lines=2, symbol_at="plate", gap=5),
    TowerScale(inside=21, disc_lines=3, symbol_at="plate", gap=5),
)
SMALL = SCALES[0]
#: Drawings a tower keeps: enough for the states a few keystrokes move it between.
DRAWINGS_KEPT = 6


class TowerWidget(Widget, can_focus=True):
    """A tower drawn as a framed stack; taller as it grows, capped at ``max_discs`` lines."""

    DEFAULT_CSS = """
    TowerWidget {
        width: 1fr;
        height: 1fr;
        min-width: 5;
    }
    """

    look: reactive[TowerLook] = reactive(TowerLook, layout=False)
    max_discs: reactive[int] = reactive(6)
    scale: reactive[TowerScale] = reactive(SMALL)
    #: Whether the board keeps a line under every tower for marks (analysis, hints).
    note_line: reactive[bool] = reactive(False)

    class Pressed(Message):
        """The tower was clicked (the board turns this into a choice of the tower)."""

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
        #: Recent drawings by everything they depend on (see ``render_line``).
        self._drawings: LRUCache[tuple, list[Strip]] = LRUCache(DRAWINGS_KEPT)

    def watch_scale(self, scale: TowerScale) -> None:
        self.set_class(scale is not SMALL, "-roomy")

    def watch_look(self, look: TowerLook) -> None:
        # Picked, target and dimmed are drawn by render() with the board's styles: toggling CSS
        # classes on a dozen towers restyled each of them and made every pick slow.
        self.set_class(look.last, "-last")
        self.set_class(look.hinted, "-hinted")
        tooltip = self._describe(look)
        if tooltip != self.tooltip:
            self.tooltip = tooltip

    def _describe(self, look: TowerLook) -> str | None:
        tower = look.tower
        if tower is None:
            return None
        description = f"{tower}: {tower.height} disc{'s' if tower.height != 1 else ''}, {tower.symbol.word} on top"
        return f"{description} ({look.note})" if look.note else description

    def on_focus(self) -> None:
        self.refresh()

    def on_blur(self) -> None:
        self.refresh()

    def on_click(self, event: events.Click) -> None:
        event.stop()
        self.focus()
        self.post_message(self.Pressed(self))

    # ---- drawing -------------------------------------------------------------------------

    #: The drawing of the tower as it is now, until the next refresh.
    _drawing: list[Strip] | None = None

    def refresh(self, *regions: Region, repaint: bool = True, layout: bool = False,
                recompose: bool = False) -> Self:
        self._drawing = None
        return super().refresh(*regions, repaint=repaint, layout=layout, recompose=recompose)

    def render_line(self, y: int) -> Strip:
        """A line of the drawing of the tower as it is now (Textual's line API).

        Keystrokes move towers between a few states and back (focused or not, lit as a target or
        dimmed while another tower is in hand), and a drawing costs most of a keystroke's time, so
        the last few are kept, each by everything it depends on.
        """
        if self._drawing is None:
            width, height = self.size
            key = (self.look, self.has_focus, width, height, self.scale, self.note_line, self.max_discs,
                   self.visual_style, self.app.theme)
            drawing = self._drawings.get(key)
            if drawing is None:
                drawing = Visual.to_strips(self, visualize(self, self.render(), markup=False), width, height,
                                           self.visual_style)
                self._drawings[key] = drawing
            self._drawing = drawing
        if y < len(self._drawing):
            return self._drawing[y]
        return Strip.blank(self.size.width, self.visual_style.rich_style)

    def _frame(self) -> Frame:
        if self.look.picked:
            return self.glyphs.picked
        if self.has_focus:
            return self.glyphs.focused
        return self.glyphs.plain

    def _style(self, part: str) -> Style:
        """A part's style, from the board's component classes (one set shared by every tower:
        styling two dozen towers each with its own set made start-up twice as slow).
        A dimmed tower (not a target of the tower in hand) is drawn all in the dimmed style."""
        if self.look.dimmed and not part.startswith(("note", "cell")):
            part = "dimmed"
        return self.parent.get_component_rich_style(f"board--{part}")

    def _cell_style(self) -> Style | None:
        """Larger towers draw the focus, last-move and hint backgrounds themselves (``-roomy``),
        behind the tower only; compact ones leave it to the stylesheet, over the whole cell."""
        if self.scale is SMALL:
            return None
        look = self.look
        if look.hinted:
            return self._style("cell-hinted")
        if look.last:
            return self._style("cell-last-focus" if self.has_focus else "cell-last")
        return self._style("cell-focus") if self.has_focus else None

    def _engraved(self, part: str) -> Style:
        """A symbol cut into its disc: the disc's colour behind, the table's colour for the symbol."""
        disc = self._style(part)
        return Style(color=self._style("engraved").color, bgcolor=disc.color, bold=True)

    def _frame_style(self) -> Style:
        look = self.look
        if look.picked:
            return self._style("frame-picked")
        if look.target:
            return self._style("frame-target")
        if look.hinted:
            return self._style("frame-hint")
        if self.has_focus:
            return self._style("frame-focus")
        return self._style("frame")

    def disc_lines(self, tower: Tower) -> list[list[tuple[str, str]]]:
        """The lines inside the frame from the top down, each as (text, component class) pieces.

        The top disc is drawn in its symbol's colour, the others plain; a stack taller than
        ``max_discs`` has a disc in the middle drawn as an elision mark.
        """
        glyphs, scale = self.glyphs, self.scale
        inside = scale.inside
        drawn = min(tower.height, max(1, self.max_discs))
        symbol, symbol_part = glyphs.symbol(tower.symbol), tower.symbol.name.lower()
        if scale.symbol_at == "disc":  # the compact look
            lines = [[(symbol.center(inside), symbol_part)]]
            lower = [[(glyphs.disc * inside, "disc")]] * (drawn - 1)
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

    def render(self) -> Text:
        look = self.look
        width, height = self.size.width, self.size.height
        tower = look.tower
        if tower is None or height < 1:
            return Text("")
        inside = self.scale.inside
        frame = self._frame()
        frame_style = self._frame_style()
        label_style = self._style("label")
        pad = " " * max(0, (width - self.scale.frame_width) // 2)
        left_mark, right_mark = self.glyphs.target_marks if look.target else (frame.top, frame.top)

        rows: list[Text] = []
        top = Text(pad)
        label = (look.label or frame.top)[:1]
        before = (inside - 1) // 2
        top.append(frame.top_left + frame.top * (before - 1) + left_mark, frame_style)
        top.append(label, label_style)
        top.append(right_mark + frame.top * (inside - before - 2) + frame.top_right, frame_style)
        rows.append(top)
        for pieces in self.disc_lines(tower):
            row = Text(pad)
            row.append(frame.side, frame_style)
            for text, part in pieces:
                row.append(text, self._engraved(part[9:]) if part.startswith("engraved-") else self._style(part))
            row.append(frame.side, frame_style)
            rows.append(row)
        notation = str(tower)
        bottom = Text(pad)
        bottom.append(frame.bottom_left, frame_style)
        if inside == 3 and len(notation) < 3:  # the compact look keeps its notation to the right
            bottom.append(notation.center(3, frame.bottom), label_style)
        else:
            lead = (inside - len(notation)) // 2
            bottom.append(frame.bottom * lead, frame_style)
            bottom.append(notation[:inside], label_style)
            bottom.append(frame.bottom * (inside - lead - len(notation)), frame_style)
        bottom.append(frame.bottom_right, frame_style)
        rows.append(bottom)
        if look.picked:
            rows.append(Text(""))  # lifted: one line above the table
        if self.note_line:
            note_style = self._style(f"note-{look.note_kind}") if look.note else Style()
            rows.append(Text(look.note.center(width)[:width], note_style))
        cell = self._cell_style()
        if cell is not None:  # only behind the tower itself, not the whole height of its row
            behind = Style(bgcolor=cell.bgcolor)
            for row in rows:
                row.align("left", width)
                row.stylize_before(behind)
        lines = [Text("")] * max(0, height - len(rows)) + rows
        return Text("\n").join(lines[-height:])
