"""One tower on the table: a focusable stack of discs with its top symbol and notation."""

from __future__ import annotations

from dataclasses import dataclass

from rich.style import Style
from rich.text import Text
from textual import events
from textual.message import Message
from textual.reactive import reactive
from textual.widget import Widget

from ..glyphs import UNICODE, Frame, Glyphs
from ..rules import Tower

#: Width of the drawn frame: a side, three cells inside, a side.
FRAME_WIDTH = 5
#: Lines a tower needs besides its discs: the top cap, the bottom cap, the lift when picked up.
EXTRA_LINES = 3


@dataclass(frozen=True)
class TowerLook:
    """Everything a tower widget shows; the board computes it, the widget only draws it."""

    tower: Tower | None = None
    label: str = ""
    picked: bool = False
    target: bool = False
    dimmed: bool = False
    last: bool = False
    hinted: bool = False
    note: str = ""
    note_kind: str = ""


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
        if self.look.dimmed and not part.startswith("note"):
            part = "dimmed"
        return self.parent.get_component_rich_style(f"board--{part}")

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

    def disc_lines(self, tower: Tower) -> list[tuple[str, str]]:
        """The inside of each drawn disc line, top first, with the component class it is drawn in."""
        glyphs = self.glyphs
        drawn = min(tower.height, max(1, self.max_discs))
        lines = [(f" {glyphs.symbol(tower.symbol)} ", "symbol")]
        lower = [(glyphs.disc * 3, "disc")] * (drawn - 1)
        if drawn < tower.height and lower:
            lower[len(lower) // 2] = (f" {glyphs.elided} ", "disc")
        return lines + lower

    def render(self) -> Text:
        look = self.look
        width, height = self.size.width, self.size.height
        tower = look.tower
        if tower is None or height < 1:
            return Text("")
        frame = self._frame()
        frame_style = self._frame_style()
        label_style = self._style("label")
        disc_style = self._style("disc")
        pad = " " * max(0, (width - FRAME_WIDTH) // 2)
        left_mark, right_mark = self.glyphs.target_marks if look.target else (frame.top, frame.top)

        rows: list[Text] = []
        top = Text(pad)
        top.append(frame.top_left + left_mark, frame_style)
        top.append((look.label or frame.top)[:1], label_style)
        top.append(right_mark + frame.top_right, frame_style)
        rows.append(top)
        for inside, kind in self.disc_lines(tower):
            row = Text(pad)
            row.append(frame.side, frame_style)
            row.append(inside, self._style(tower.symbol.name.lower()) if kind == "symbol" else disc_style)
            row.append(frame.side, frame_style)
            rows.append(row)
        notation = str(tower)
        bottom = Text(pad)
        bottom.append(frame.bottom_left, frame_style)
        bottom.append(notation.center(3, frame.bottom) if len(notation) < 3 else notation[:3], label_style)
        bottom.append(frame.bottom_right, frame_style)
        rows.append(bottom)
        if look.picked:
            rows.append(Text(""))  # lifted: one line above the table
        if self.note_line:
            note_style = self._style(f"note-{look.note_kind}") if look.note else Style()
            rows.append(Text(look.note.center(width)[:width], note_style))
        lines = [Text("")] * max(0, height - len(rows)) + rows
        return Text("\n").join(lines[-height:])
