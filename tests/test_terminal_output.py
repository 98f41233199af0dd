"""The app's frames in fewer bytes: the same screen, read through a real terminal emulator (pyte)."""

from __future__ import annotations

import pyte
from hypothesis import given, settings
from hypothesis import strategies as st
from rich.color import Color
from rich.console import Console
from rich.segment import Segment
from rich.style import Style
from textual.app import App
from textual.driver import Driver
from textual.strip import Strip

from soluna_tui.app.soluna_app import SolunaApp
from soluna_tui.terminal.driver import compact, compact_driver, transition

WIDTH, HEIGHT = 40, 8
CONSOLE = Console(color_system="truecolor", force_terminal=True)

colours = st.one_of(
    st.none(),
    st.just(Color.default()),
    st.integers(0, 15).map(Color.from_ansi),
    st.integers(16, 255).map(Color.from_ansi),
    st.tuples(st.integers(0, 255), st.integers(0, 255), st.integers(0, 255)).map(lambda rgb: Color.from_rgb(*rgb)),
)
#: The attributes a style may turn on, drawn as the bits of one number: one draw, not six (the same examples, a
#: quarter of the property test's CPU time saved).
ATTRIBUTES = ("bold", "dim", "italic", "underline", "reverse", "strike")


def style_of(color: Color | None, bgcolor: Color | None, attributes: int) -> Style:
    return Style(color=color, bgcolor=bgcolor,
                 **{name: True for bit, name in enumerate(ATTRIBUTES) if attributes >> bit & 1})


styles = st.builds(style_of, colours, colours, st.integers(0, 2 ** len(ATTRIBUTES) - 1)) | st.none()
texts = st.sampled_from(["a", "ab", " ", "   ", "│", "▐██", "Player 1", "x y", "─"])
strips = st.lists(st.tuples(texts, styles).map(lambda piece: Segment(*piece)), min_size=1, max_size=6).map(Strip)


#: Lines as Textual writes an update: a move to each span, its strips, a newline between spans.
updates = st.lists(st.tuples(st.integers(0, HEIGHT - 1), st.integers(0, WIDTH - 12), st.lists(strips, min_size=1,
                                                                                              max_size=2)),
                   min_size=1, max_size=8)


def render_update(spans: list[tuple[int, int, list[Strip]]]) -> str:
    parts = ["\x1b[?2026h"]
    for index, (y, x, line) in enumerate(sorted(spans, key=lambda span: span[0])):
        parts.append(f"\x1b[{y + 1};{x + 1}H")
        room = WIDTH - x  # Textual crops what it writes to the screen: nothing wraps
        for strip in line:
            cropped = strip.crop(0, room)
            parts.append(cropped.render(CONSOLE))
            room -= cropped.cell_length
        if index < len(spans) - 1:
            parts.append("\n")
    parts.append("\x1b[1;1H\x1b[?2026l")
    return "".join(parts)


def screen_after(*writes: str) -> pyte.Screen:
    screen = pyte.Screen(WIDTH, HEIGHT)
    stream = pyte.Stream(screen)
    for data in writes:
        stream.feed(data)
    return screen


def visible(screen: pyte.Screen) -> list[list[tuple[object, ...]]]:
    """Every cell as it shows: a blank's colour and weight do not (its background and lines do)."""
    def cell(char: pyte.screens.Char) -> tuple[object, ...]:
        if char.data == " ":
            return (" ", char.bg, char.reverse and char.fg, char.underscore, char.strikethrough)
        return tuple(char)
    return [[cell(screen.buffer[y][x]) for x in range(WIDTH)] for y in range(HEIGHT)]


@settings(max_examples=250, deadline=None)
@given(updates, updates)
def test_compacted_frames_show_the_same_screen(first, second) -> None:
    frames = [render_update(first), render_update(second)]
    plain, compacted = screen_after(*frames), screen_after(*(compact(frame) for frame in frames))
    assert visible(compacted) == visible(plain)
    assert (compacted.cursor.x, compacted.cursor.y) == (plain.cursor.x, plain.cursor.y)
    assert compacted.cursor.attrs == plain.cursor.attrs  # the style left in effect: a reset, as Textual leaves it
    assert all(len(compact(frame)) <= len(frame) for frame in frames)


def test_a_tower_line_needs_only_its_colour_changes() -> None:
    frame = ("\x1b[17;24H\x1b[38;2;141;141;141;48;2;18;18;18m  │\x1b[0m\x1b[1;38;2;209;126;146;48;2;18;18;18m ▐████"
             "\x1b[0m\x1b[1;38;2;18;18;18;48;2;209;126;146m☄\x1b[0m\x1b[1;38;2;209;126;146;48;2;18;18;18m████▌ \x1b[0m"
             "\x1b[38;2;141;141;141;48;2;18;18;18m│  \x1b[0m\n"
             "\x1b[18;24H\x1b[38;2;141;141;141;48;2;18;18;18m  ╰──\x1b[0m")
    small = compact(frame)
    # The write's first style stays as it came (what the terminal had before is not known), then
    # only what changes: the weight and colour, the colours, both, the weight and colour back.
    assert small == ("\x1b[17;24H\x1b[38;2;141;141;141;48;2;18;18;18m  │"
                     "\x1b[0m\x1b[1;38;2;209;126;146;48;2;18;18;18m ▐████"
                     "\x1b[38;2;18;18;18;48;2;209;126;146m☄\x1b[38;2;209;126;146;48;2;18;18;18m████▌ "
                     "\x1b[22;38;2;141;141;141m│  \x1b[18;24H  ╰──\x1b[0m")
    assert len(small.encode()) < 0.8 * len(frame.encode())


def test_styles_turned_off_one_by_one_or_by_a_reset_whichever_is_shorter() -> None:
    assert transition("1;3;38;2;1;2;3", "3;38;2;1;2;3") == "\x1b[22m"
    assert transition("1;2;38;5;1", "2;38;5;1") == "\x1b[22;2m"  # 22 ends bold and dim alike: dim again
    assert transition("1;2", "2") == "\x1b[0;2m"  # as short as a reset: the reset
    assert transition("38;5;200;48;5;17", "48;5;17") == "\x1b[39m"
    assert transition("31", "") == "\x1b[0m"
    assert transition("", "1;31") == "\x1b[1;31m"
    assert transition("1;2;3;4;5;7;9", "41") == "\x1b[0;41m"


def test_what_it_cannot_follow_passes_as_it_is() -> None:
    titled = "\x1b]0;Soluna\x07\x1b[1;1H\x1b[31mred\x1b[0m\x1b[31mred\x1b[0m"
    assert compact(titled) == titled  # not only control sequences: left alone
    unknown_start = "\x1b[31mred\x1b[0m\x1b[1;31mbold\x1b[0m"
    assert compact(unknown_start).startswith("\x1b[31mred\x1b[0m")  # the style before the first reset is not known
    assert compact("no escapes at all") == "no escapes at all"
    stacked = "\x1b[0m\x1b[1;1H\x1b[31m\x1b[1mred\x1b[0m\x1b[32mgreen\x1b[0m"  # one style on another
    assert compact(stacked) == stacked
    assert screen_after(compact(stacked * 50)).buffer == screen_after(stacked * 50).buffer
    assert len(compact(stacked * 50)) <= len(stacked * 50)  # never grows, however many are stacked


async def test_the_app_writes_through_the_compacting_driver() -> None:
    written: list[str] = []

    class Recording(Driver):
        def write(self, data: str) -> None:
            written.append(data)

        def start_application_mode(self) -> None: ...

        def stop_application_mode(self) -> None: ...

        def disable_input(self) -> None: ...

    driver_class = compact_driver(Recording)
    assert compact_driver(Recording) is driver_class
    driver_class(App()).write("\x1b[1;1H\x1b[31mA\x1b[0m\x1b[31mB\x1b[0m")
    assert written == ["\x1b[1;1H\x1b[31mA\x1b[0m\x1b[31mB\x1b[0m"]  # the first style is not known
    written.clear()
    driver_class(App()).write("\x1b[0m\x1b[1;1H\x1b[31mA\x1b[0m\x1b[31mB\x1b[0m")
    assert written == ["\x1b[0m\x1b[1;1H\x1b[31mAB\x1b[0m"]
    assert SolunaApp(data_dir=None).driver_class.__name__.startswith("Compact")
