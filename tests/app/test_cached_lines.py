"""Widgets that keep their lines (``soluna_tui/widgets/cached_lines.py``): the same lines handed back while nothing
changed, drawn afresh after every repaint: their own ``repaint``, and Textual's through its public calls only (a
refresh of the whole widget or a part, a new style, a new size, a scroll of a ``ScrollView``)."""

from __future__ import annotations

from rich.segment import Segment
from textual.app import App, ComposeResult
from textual.geometry import Region, Size
from textual.scroll_view import ScrollView
from textual.strip import Strip
from textual.widget import Widget

from soluna_tui.widgets.cached_lines import CachedLines


class Lettered(CachedLines, Widget):
    """A letter repeated over every cell, in the widget's own style; counts the lines it draws."""

    DIRECT_LINES = True
    DEFAULT_CSS = """
    Lettered { width: 12; height: 3; color: red; background: black; }
    Lettered.-blue { color: blue; }
    Lettered.-wide { width: 20; }
    """

    def __init__(self) -> None:
        super().__init__()
        self.letter = "a"
        self.drawn = 0

    def render_line(self, y: int) -> Strip:
        self.drawn += 1
        return Strip([Segment(self.letter * self.outer_size.width, self.base_style())])


class Numbered(CachedLines, ScrollView):
    """A hundred lines, each showing its number: what a scroll shows depends on the scroll only."""

    DEFAULT_CSS = "Numbered { height: 5; }"

    def on_mount(self) -> None:
        self.virtual_size = Size(10, 100)

    def render_line(self, y: int) -> Strip:
        return Strip([Segment(f"{round(self.scroll_offset.y) + y:<10}")])


class Holding(App[None]):
    def compose(self) -> ComposeResult:
        yield Lettered()
        yield Numbered()


def text(lines: list[Strip]) -> list[str]:
    return [line.text for line in lines]


async def test_kept_lines_are_handed_back_until_refreshed_restyled_or_resized() -> None:
    app = Holding()
    async with app.run_test(size=(40, 12)) as pilot:
        await pilot.pause()
        lettered = app.query_one(Lettered)
        whole = lettered.size.region
        first = lettered.render_lines(whole)
        drawn = lettered.drawn
        assert lettered.render_lines(whole) is first and lettered.drawn == drawn  # kept: nothing drawn

        lettered.letter = "b"
        assert text(lettered.render_lines(whole)) == ["a" * 12] * 3  # not refreshed: still the lines kept
        lettered.refresh(Region(0, 1, 12, 1))  # a part of it: the lines kept are dropped all the same
        assert text(lettered.render_lines(whole)) == ["b" * 12] * 3
        lettered.letter = "c"
        lettered.repaint(Region(0, 0, 12, 1))  # the widgets' own way, straight to the next frame
        assert text(lettered.render_lines(whole)) == ["c" * 12] * 3

        red = lettered.render_lines(whole)[0]
        lettered.add_class("-blue")
        await pilot.pause()
        blue = lettered.render_lines(whole)[0]
        assert blue.text == red.text == "c" * 12
        assert [segment.style for segment in blue] != [segment.style for segment in red]

        lettered.add_class("-wide")
        await pilot.pause()
        assert text(lettered.render_lines(lettered.size.region)) == ["c" * 20] * 3


async def test_a_scrolled_widget_shows_the_lines_of_where_it_is_scrolled_to() -> None:
    app = Holding()
    async with app.run_test(size=(40, 12)) as pilot:
        await pilot.pause()
        numbered = app.query_one(Numbered)
        region = Region(0, 0, 10, 5)
        assert [line.strip() for line in text(numbered.render_lines(region))] == ["0", "1", "2", "3", "4"]
        numbered.scroll_to(y=10, animate=False, immediate=True)
        await pilot.pause()
        assert [line.strip() for line in text(numbered.render_lines(region))] == ["10", "11", "12", "13", "14"]
