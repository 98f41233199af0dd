"""What ``soluna_tui/compat/`` relies on inside Textual and asyncssh is still there and still behaves so.

Each test fails if the library changes under one of compat's functions: the private member is gone or
takes other arguments, or no longer does what the game relies on. The last tests keep every other
module of the package off the libraries' private names.

The channel guard's behaviour on a real loopback server (an ``env`` refused after the start, a flood
of window changes cut off) is proved by ``tests/server/test_hostile_clients.py``
(``test_env_is_capped_before_the_start_and_refused_after``,
``test_a_window_change_flood_is_cut_off_and_a_bystander_keeps_typing``); here, what it relies on.
"""

from __future__ import annotations

import ast
import importlib
import inspect
import re
import time
from pathlib import Path
from typing import Any, ClassVar

import asyncssh
import pytest
from textual import events
from textual.app import App, ComposeResult
from textual.binding import Binding
from textual.command import CommandPalette, Hit, Hits, Provider
from textual.containers import Vertical, VerticalScroll
from textual.geometry import Region, Size
from textual.reactive import Reactive
from textual.screen import Screen
from textual.scroll_view import ScrollView
from textual.strip import Strip
from textual.widget import Widget
from textual.widgets import Input, OptionList, Static, Tree
from textual.worker import Worker

import soluna_tui
from soluna_tui.compat import asyncssh_internals
from soluna_tui.compat import textual_internals as compat

PACKAGE = Path(soluna_tui.__file__).parent
#: The modules that may touch the libraries' internals.
COMPAT = (PACKAGE / "compat" / "textual_internals.py", PACKAGE / "compat" / "asyncssh_internals.py")


def parameters(function: Any) -> list[str]:
    return list(inspect.signature(function).parameters)


# ---- keys as they arrive -------------------------------------------------------------------------

def test_the_parser_reads_every_sequence_through_the_key_reader() -> None:
    from textual._xterm_parser import XTermParser

    from soluna_tui.terminal.key_order import read_escape_then_key

    read_escape_then_key()  # as the game runs (once per process, so in any order of the tests)
    reader = compat.parser_key_reader()
    assert parameters(reader) == ["self", "sequence", "alt"]
    read: list[tuple[str, bool]] = []

    def recording(parser: XTermParser, sequence: str, alt: bool = False) -> Any:
        read.append((sequence, alt))
        return reader(parser, sequence, alt)

    compat.set_parser_key_reader(recording)
    try:
        keys = [event.key for event in XTermParser().feed("a\x1b[A") if isinstance(event, events.Key)]
        assert keys == ["a", "up"]
        assert read[0] == ("a", False) and read[-1] == ("\x1b[A", False)
        # ESC and a character that begin no sequence: the character alone, with alt, once the delay is over.
        parser = XTermParser()
        list(parser.feed("\x1bz"))
        deadline = time.monotonic() + 5
        while ("z", True) not in read and time.monotonic() < deadline:
            list(parser.tick())
            time.sleep(0.01)
        assert ("z", True) in read
    finally:
        compat.set_parser_key_reader(reader)


class Taker(Static, can_focus=True):
    """Stops the keys it is sent (as a field stops the characters typed into it) when ``takes`` is set."""

    takes = False

    def __init__(self) -> None:
        super().__init__("taker")
        self.seen: list[str] = []

    def on_key(self, event: events.Key) -> None:
        self.seen.append(event.key)
        if self.takes:
            event.stop()


class Recorded(events.Key):
    """A key that notes which message pump stopped it."""

    stopped_in: Any = None

    def stop(self, stop: bool = True) -> Any:
        self.stopped_in = compat.active_pump(None)  # type: ignore[arg-type]
        return super().stop(stop)


class KeyWatcher(App[None]):
    BINDINGS: ClassVar = [Binding("x", "note('binding')", "")]

    def __init__(self) -> None:
        super().__init__()
        self.log_of_keys: list[tuple[str, bool]] = []
        self.destinations: list[Any] = []

    def compose(self) -> ComposeResult:
        yield Taker()

    def action_note(self, what: str) -> None:
        self.log_of_keys.append((what, True))

    async def on_event(self, event: events.Event) -> None:
        if isinstance(event, events.Key):
            self.log_of_keys.append((f"app {event.key}", event.is_forwarded))
            if not event.is_forwarded:
                self.destinations.append(compat.key_destination(self))
        await super().on_event(event)


async def test_a_key_goes_to_the_focused_widget_and_comes_back_to_the_app_forwarded() -> None:
    app = KeyWatcher()
    async with app.run_test() as pilot:
        taker = app.query_one(Taker)
        taker.focus()
        await pilot.pause()
        await pilot.press("x")
        assert app.destinations == [taker]
        assert taker.seen == ["x"]
        # In at the app fresh, to the widget, back to the app forwarded, and then the binding runs.
        assert app.log_of_keys == [("app x", False), ("app x", True), ("binding", True)]


async def test_a_key_a_widget_stops_is_stopped_in_that_widget_and_never_comes_back() -> None:
    app = KeyWatcher()
    async with app.run_test() as pilot:
        taker = app.query_one(Taker)
        taker.takes = True
        taker.focus()
        await pilot.pause()
        key = compat.handled_as(type("RecordedKey", (Recorded,), {}), events.Key)("x", "x")
        app.post_message(key)
        await pilot.pause()
        assert taker.seen == ["x"]
        assert key.stopped_in is taker
        assert app.log_of_keys == [("app x", False)]  # no binding: it never came back


def test_an_event_subclass_is_handled_as_its_base_only_when_told() -> None:
    class Plain(events.Key):
        pass

    class Told(events.Key):
        pass

    assert Plain.handler_name == "on_plain"
    assert compat.handled_as(Told, events.Key) is Told and Told.handler_name == "on_key"
    assert events.Paste.handler_name == "on_paste"


# ---- bindings ------------------------------------------------------------------------------------

class Offering(Screen[None]):
    BINDINGS: ClassVar = [Binding("a", "on_offer", "On"), Binding("b", "dimmed", "Dim"),
                          Binding("c", "elsewhere", "No"), Binding("d", "app.bell", "Bell")]

    def compose(self) -> ComposeResult:
        yield Static("offering")

    def check_action(self, action: str, parameters: tuple[object, ...]) -> bool | None:
        return {"dimmed": None, "elsewhere": False}.get(action, True)


class OfferingApp(App[None]):
    def get_default_screen(self) -> Screen[Any]:
        return Offering()

    def check_action(self, action: str, parameters: tuple[object, ...]) -> bool | None:
        return None if action == "bell" else True


async def test_the_bindings_and_their_states_are_as_the_footer_reads_them() -> None:
    app = OfferingApp()
    async with app.run_test():
        screen = app.screen
        keys = {key: binding.action for key, binding in compat.bindings_of(screen)}
        assert {"a": "on_offer", "b": "dimmed", "c": "elsewhere", "d": "app.bell"}.items() <= keys.items()
        assert any(binding.action == "command_palette" for _, binding in compat.bindings_of(app))  # inherited
        assert [compat.action_state(app, action, screen) for action in ("on_offer", "dimmed", "elsewhere")] == [
            True, None, False]
        assert compat.action_state(app, "app.bell", screen) is None  # the namespace is resolved: the app asked
        assert parameters(App._check_action_state) == ["self", "action", "default_namespace"]


# ---- widgets that draw their own lines -----------------------------------------------------------

class Counted(Widget):
    """Counts its lines drawn and the times Textual marks it for repainting."""

    def __init__(self) -> None:
        super().__init__()
        self.drawn = 0
        self.dirtied = 0

    def _set_dirty(self, *regions: Region) -> None:
        self.dirtied += 1
        super()._set_dirty(*regions)

    def render_line(self, y: int) -> Strip:
        self.drawn += 1
        return Strip.blank(self.size.width)


class Holding(App[None]):
    """A bare app showing one widget, styled by ``css``."""

    def __init__(self, widget: Widget, css: str) -> None:
        self.CSS = css
        super().__init__()
        self.held = widget

    def compose(self) -> ComposeResult:
        yield self.held


def counted_app() -> Holding:
    return Holding(Counted(), "Counted { width: 20; height: 3; } Counted.-wide { width: 30; }")


async def test_repaint_soon_draws_the_region_in_the_next_frame() -> None:
    app = counted_app()
    async with app.run_test(size=(60, 10)) as pilot:
        counted = app.query_one(Counted)
        await pilot.pause()
        drawn, dirtied = counted.drawn, counted.dirtied
        compat.repaint_soon(counted, Region(0, 1, 5, 1))
        assert counted.dirtied == dirtied + 1 and counted in app.screen._dirty_widgets
        await pilot.pause()
        assert counted.drawn > drawn
    assert parameters(Widget._set_dirty) == ["self", "regions"]


class Framed(Static):
    """A bordered widget that keeps the regions Textual marks it dirty with."""

    marked: ClassVar[list[tuple[Region, ...]]] = []

    def _set_dirty(self, *regions: Region) -> None:
        self.marked.append(regions)
        super()._set_dirty(*regions)


async def test_a_new_border_title_repaints_the_border_s_top_line_only_and_shows() -> None:
    app = Holding(Framed("inside"), "Framed { border: round white; padding: 1 2; width: 30; height: 7; }")
    async with app.run_test(size=(40, 10)) as pilot:
        framed = app.query_one(Framed)
        framed.border_title = "Soluna"
        await pilot.pause()
        Framed.marked.clear()
        compat.retitle(framed, "Soluna · 3 online")
        assert framed.border_title == "Soluna · 3 online"
        assert Framed.marked == [(Region(-3, -2, 30, 1),)]  # above the content: the border's top line
        await pilot.pause()
        top = framed.render_lines(Region(0, 0, 30, 1))[0]  # the widget's first line: its border's top
        assert "Soluna · 3 online" in top.text


class Lines(ScrollView):
    def render_line(self, y: int) -> Strip:
        return Strip.blank(self.size.width)


async def test_a_quiet_virtual_size_shows_and_sizes_the_scroll_bar() -> None:
    app = Holding(Lines(), "Lines { height: 5; }")
    async with app.run_test(size=(40, 10)) as pilot:
        lines = app.query_one(Lines)
        await pilot.pause()
        assert not lines.show_vertical_scrollbar
        compat.set_virtual_size_quietly(lines, Size(lines.size.width, 100))
        assert lines.virtual_size.height == 100
        assert lines.show_vertical_scrollbar and lines.vertical_scrollbar.window_virtual_size == 100
        lines.scroll_to(y=200, animate=False, immediate=True)
        await pilot.pause()
        assert lines.scroll_y == lines.max_scroll_y == 100 - lines.scrollable_content_region.height


class Options(App[None]):
    def compose(self) -> ComposeResult:
        yield OptionList("one line", "two\nlines", "one again")


async def test_an_option_s_lines_are_where_the_list_draws_it() -> None:
    app = Options()
    async with app.run_test(size=(30, 10)) as pilot:
        await pilot.pause()
        options = app.query_one(OptionList)
        assert [compat.option_lines(options, index) for index in range(4)] == [(0, 1), (1, 2), (3, 1), None]
        assert "two" in options.render_line(1).text and "one again" in options.render_line(3).text


class QuietFocus(Screen[None]):
    focused: Reactive[Widget | None] = compat.focus_without_repaint()

    def compose(self) -> ComposeResult:
        yield Input(id="one")
        yield Input(id="two")


class QuietFocusApp(App[None]):
    def get_default_screen(self) -> Screen[Any]:
        return QuietFocus()


async def test_a_screen_s_focus_redefined_still_refreshes_its_bindings_and_repaints_nothing_itself() -> None:
    assert isinstance(vars(Screen)["focused"], Reactive) and Screen._watch_focused
    app = QuietFocusApp()
    async with app.run_test() as pilot:
        screen = app.screen
        await pilot.pause()
        told: list[Screen[Any]] = []
        screen.bindings_updated_signal.subscribe(screen, told.append, immediate=True)
        repaints: list[dict[str, Any]] = []
        refresh = screen.refresh
        screen.refresh = lambda *regions, **how: repaints.append(how) or refresh(*regions, **how)  # type: ignore[method-assign]
        second = screen.query_one("#two", Input)
        second.focus()
        await pilot.pause()
        assert screen.focused is second and told
        assert not [how for how in repaints if how.get("repaint", True) and not how.get("layout")]


# ---- a screen laid out once as it shows ------------------------------------------------------------

class Dialog(compat.LaidOutOnceAsShown, Screen[None]):
    def compose(self) -> ComposeResult:
        yield Static("a dialog")


class Board(compat.LaidOutOnceAsShown, Screen[None]):
    def compose(self) -> ComposeResult:
        yield Static("the board")


class LayoutsCounted(App[None]):
    def on_mount(self) -> None:
        self.push_screen(Board())


def counting_layouts(monkeypatch: pytest.MonkeyPatch) -> list[tuple[str, Size]]:
    """Each layout pass of a screen from now on: its class, and the size laid out at."""
    passes: list[tuple[str, Size]] = []
    refresh_layout = Screen._refresh_layout

    def counted(screen: Screen[Any], size: Size | None = None, scroll: bool = False) -> None:
        passes.append((type(screen).__name__, screen.outer_size if size is None else size))
        refresh_layout(screen, size, scroll)

    monkeypatch.setattr(Screen, "_refresh_layout", counted)
    return passes


@pytest.mark.parametrize("mixed_in", [True, False])
async def test_a_screen_pushed_is_laid_out_again_only_for_a_new_size(monkeypatch: pytest.MonkeyPatch,
                                                                       mixed_in: bool) -> None:
    """Without the mixin (Textual's own way), the ``Resize`` after a pushed screen's first layout lays it out again
    and the screen under it; with it, neither; a terminal resized while it shows lays out both, at the new size."""
    assert "_on_resize" in vars(Screen) and isinstance(Screen()._compositor.size, Size)
    assert "_background_screens" in dir(App)
    if not mixed_in:
        monkeypatch.delattr(compat.LaidOutOnceAsShown, "_on_resize")
    app = LayoutsCounted()
    async with app.run_test(size=(60, 20)) as pilot:
        await pilot.pause()
        passes = counting_layouts(monkeypatch)
        await app.push_screen(Dialog())
        await pilot.pause()
        await pilot.pause()
        # Two passes are Textual's for any new screen: the first, and one for its widgets' new virtual sizes.
        if mixed_in:
            assert passes == [("Dialog", Size(60, 20))] * 2
        else:  # what the mixin spares (this test would pass without it otherwise)
            assert passes.count(("Board", Size(60, 20))) == 1 and passes.count(("Dialog", Size(60, 20))) == 3, passes
        passes.clear()
        await pilot.resize_terminal(50, 16)
        await pilot.pause()
        await pilot.pause()
        assert ("Dialog", Size(50, 16)) in passes and ("Board", Size(50, 16)) in passes
        assert app.screen.query_one(Static).region.width == 50


async def ticks_pass(pilot: Any) -> None:
    """Four of Textual's ticks: room for every layout and frame a screen just pushed or changed asks, and for one
    more it should not ask (the counts below would see it)."""
    for _ in range(4):
        await pilot.pause()


class LongDialog(compat.LaidOutOnceAsShown, Screen[None]):
    """A dialog whose text needs a scroll bar, as a long round's review does at 24 rows."""
    DEFAULT_CSS = "#body { height: auto; max-height: 8; } #words { width: 1fr; }"

    def compose(self) -> ComposeResult:
        with VerticalScroll(id="body"):
            yield Static("\n".join(f"line {number}" for number in range(20)), id="words")


class WrappedDialog(compat.LaidOutOnceAsShown, Screen[None]):
    """A bordered dialog of text that comes later (a server's answer) and wraps onto more lines than the screen
    holds, more still once the dialog's own scroll bar narrows it."""
    DEFAULT_CSS = "#box { height: auto; max-height: 100%; border: round white; overflow-y: auto; }"

    def compose(self) -> ComposeResult:
        with Vertical(id="box"):
            yield Static("Asking...", id="words")
            yield Static("", id="more")

    def answered(self) -> None:
        self.query_one("#words", Static).update(" ".join(["word"] * 120))
        self.query_one("#more", Static).update(" ".join(["more"] * 40))


@pytest.mark.parametrize("mixed_in", [True, False])
async def test_a_layout_s_own_sizes_ask_for_no_layout_again_unless_a_scroll_bar_came(
        monkeypatch: pytest.MonkeyPatch, mixed_in: bool) -> None:
    """A dialog that needs a scroll bar: Textual lays it out once, once more for the bar, and a third time because
    the second gave its widgets new sizes; with the mixin, not the third, and the screen is as Textual leaves it."""
    assert {"_layout_required", "_layout_widgets"} <= set(dir(Screen()))
    if not mixed_in:
        monkeypatch.delattr(compat.LaidOutOnceAsShown, "_refresh_layout")
    app = LayoutsCounted()
    async with app.run_test(size=(60, 20)) as pilot:
        await pilot.pause()
        passes = counting_layouts(monkeypatch)
        await app.push_screen(LongDialog())
        await ticks_pass(pilot)
        assert passes.count(("LongDialog", Size(60, 20))) == (2 if mixed_in else 3), passes
        body = app.screen.query_one("#body", VerticalScroll)
        assert body.show_vertical_scrollbar and body.size.height == 8
        assert app.screen.query_one("#words").size.width == 60 - body.styles.scrollbar_size_vertical
        passes.clear()
        body.scroll_end(animate=False)  # a scroll lays nothing out again
        await pilot.pause()
        assert body.scroll_y == body.max_scroll_y > 0 and passes.count(("LongDialog", Size(60, 20))) <= 1


async def test_a_scroll_bar_that_narrows_the_text_is_laid_out_until_the_screen_is_settled(
        monkeypatch: pytest.MonkeyPatch) -> None:
    """The dialog's text comes after it shows; its scroll bar narrows the text, which then wraps onto more lines
    still. The layouts go on while a bar comes or goes, so the dialog ends laid out as Textual lays it out (a mixin
    that let go of layouts asked for by any widget but the one whose bar came fails here)."""
    laid_out = {}
    for mixed_in in (True, False):
        if not mixed_in:
            monkeypatch.delattr(compat.LaidOutOnceAsShown, "_refresh_layout")
        app = LayoutsCounted()
        async with app.run_test(size=(40, 20)) as pilot:
            await app.push_screen(WrappedDialog())
            await pilot.pause()
            app.screen.answered()  # type: ignore[attr-defined]
            await ticks_pass(pilot)
            box = app.screen.query_one("#box")
            laid_out[mixed_in] = (box.show_vertical_scrollbar, box.size, box.virtual_size,
                                  app.screen.query_one("#words").size, app.screen.query_one("#more").region)
    assert laid_out[True] == laid_out[False] and laid_out[True][0], laid_out


class TreeDialog(compat.LaidOutOnceAsShown, Screen[None]):
    """A tree that works out its lines, and so its virtual size, as it is first drawn: as high as its lines, at
    most 12."""
    DEFAULT_CSS = "#tree { height: auto; max-height: 12; }"

    def compose(self) -> ComposeResult:
        tree: Tree[None] = Tree("root", id="tree")
        for number in range(40):
            tree.root.add_leaf(f"leaf {number}")
        tree.root.expand()
        yield tree


async def test_a_widget_that_sizes_itself_as_it_is_drawn_is_laid_out_again() -> None:
    """A ``Tree`` works out its lines, and so its virtual size, as it draws, which may fall inside the layout's call:
    under the mixin it still ends as high as its lines allow, with its scroll bar, and scrolls to its last line."""
    app = LayoutsCounted()
    async with app.run_test(size=(40, 20)) as pilot:
        await app.push_screen(TreeDialog())
        await ticks_pass(pilot)
        tree = app.screen.query_one(Tree)
        assert tree.size.height == 12 and tree.show_vertical_scrollbar and tree.max_scroll_y > 0, tree.size


@pytest.mark.parametrize("mixed_in", [True, False])
async def test_a_layout_and_a_repaint_due_in_one_tick_are_drawn_in_one_frame(monkeypatch: pytest.MonkeyPatch,
                                                                           mixed_in: bool) -> None:
    """A dialog pushed: its first layout's frame, then a tick with its second layout and the repaint its
    ``ScreenResume`` asked for. Textual draws that tick's layout, then the whole screen again; the mixin, once."""
    assert "_on_timer_update" in vars(Screen) and "_display" in vars(App)
    if not mixed_in:
        monkeypatch.delattr(compat.LaidOutOnceAsShown, "_on_timer_update")
    app = LayoutsCounted()
    async with app.run_test(size=(60, 20)) as pilot:
        await pilot.pause()
        frames: list[str] = []
        display = App._display

        def counted(app: App[Any], screen: Screen[Any], renderable: Any) -> None:
            if renderable is not None:
                frames.append(type(renderable).__name__)
            display(app, screen, renderable)

        monkeypatch.setattr(App, "_display", counted)
        await app.push_screen(Dialog())
        await ticks_pass(pilot)
        assert frames == (["LayoutUpdate"] * 2 if mixed_in else ["LayoutUpdate", "ChopsUpdate", "LayoutUpdate"]), frames
        assert "a dialog" in app.export_screenshot().replace("&#160;", " ")


# ---- stylesheets parsed once a process ----------------------------------------------------------

def counting_parses(monkeypatch: pytest.MonkeyPatch) -> list[str]:
    """The sources Textual parses from now on (its parser, called by ``Stylesheet._parse_rules`` on a miss)."""
    import textual.css.stylesheet

    parsed: list[str] = []
    parse = textual.css.stylesheet.parse

    def counted(scope: str, css: str, *args: Any, **kwargs: Any) -> Any:
        parsed.append(css)
        return parse(scope, css, *args, **kwargs)

    monkeypatch.setattr(textual.css.stylesheet, "parse", counted)
    return parsed


def test_stylesheets_of_one_process_parse_a_source_once_for_each_set_of_variables(
        monkeypatch: pytest.MonkeyPatch) -> None:
    from textual.css.stylesheet import Stylesheet

    compat.share_parsed_stylesheets()
    shared = Stylesheet._parse_rules
    compat.share_parsed_stylesheets()  # once is enough: no second layer
    assert Stylesheet._parse_rules is shared
    parsed = counting_parses(monkeypatch)
    name = f"shared-{time.monotonic_ns()}"
    css = f"Static.{name} {{ color: $accent; }}"  # a source no other test parsed

    def sheet(accent: str) -> Stylesheet:
        stylesheet = Stylesheet(variables={"accent": accent})
        stylesheet.add_source(css, read_from=("test_compat.py", "css"))
        stylesheet.parse()
        return stylesheet

    first, second = sheet("#ff0000"), sheet("#ff0000")
    assert parsed == [css]
    assert second.rules[0] is first.rules[0] and first.rules[0].selector_names == {f".{name}"}
    first.reparse()  # Textual's fresh stylesheet, all sources again: none parsed
    assert parsed == [css]
    other = sheet("#0000ff")  # other variables parse again, to other colours
    assert parsed == [css, css]
    assert first.rules[0].styles.color != other.rules[0].styles.color
    assert other.rules[0].styles.color.hex == "#0000FF"


def test_the_rules_kept_for_the_process_are_bounded_and_keep_each_set_of_variables_once(
        monkeypatch: pytest.MonkeyPatch) -> None:
    from textual.css.stylesheet import Stylesheet

    compat.share_parsed_stylesheets()
    monkeypatch.setattr(compat, "SHARED_RULES_KEPT", 4)
    name = f"bounded-{time.monotonic_ns()}"
    for accent in ("#ff0000", "#00ff00"):
        for number in range(3):
            stylesheet = Stylesheet(variables={"accent": accent})
            stylesheet.add_source(f"Static.{name}-{number} {{ color: $accent; }}", read_from=("test_compat.py", "css"))
            stylesheet.parse()
    ours = [(key[0], dict(key[-1])["accent"]) for key in compat._SHARED_RULES]
    assert ours == [(f"Static.{name}-{number} {{ color: $accent; }}", accent)  # the least recently used went
                    for accent, number in (("#ff0000", 2), ("#00ff00", 0), ("#00ff00", 1), ("#00ff00", 2))]
    held = [key[-1] for key in compat._SHARED_RULES]
    assert held[1] is held[2] is held[3] and list(compat._VARIABLE_SETS) == [held[0], held[1]]  # each set once


async def test_the_second_app_of_a_process_parses_no_stylesheet(tmp_path: Path,
                                                                  monkeypatch: pytest.MonkeyPatch) -> None:
    """Every sheet, and every widget's default CSS, a game's start reads: parsed by the first app at most."""
    from textual.css.stylesheet import Stylesheet

    from soluna_tui.app.soluna_app import SolunaApp

    # Textual's own parse, as if no app had shared it yet: the app shares it as it is made.
    monkeypatch.setattr(Stylesheet, "_parse_rules", getattr(Stylesheet._parse_rules, "__wrapped__",
                                                            Stylesheet._parse_rules))
    parsed = counting_parses(monkeypatch)
    for run in range(2):
        parsed.clear()
        app = SolunaApp(data_dir=tmp_path / str(run), offer_guided_round=False)
        async with app.run_test(size=(80, 24)) as pilot:
            await pilot.press("n")  # the new-match form: the dialogs' sheets too
            await pilot.pause()
            assert app.stylesheet.rules
    assert parsed == []


# ---- the app's errors ----------------------------------------------------------------------------

class Failing(App[None]):
    """Reports an error from outside any ``except`` block (as a task's done callback does)."""

    def __init__(self, report: Any) -> None:
        super().__init__()
        self.report = report

    def on_mount(self) -> None:
        self.report(self, ValueError("reported"))


async def test_an_error_reported_goes_first_to_the_hook_then_ends_the_app() -> None:
    app = Failing(compat.report_app_error)
    seen: list[Exception] = []
    compat.before_app_errors(app, seen.append)
    with pytest.raises(ValueError, match="reported"):
        async with app.run_test() as pilot:
            await pilot.pause()
    assert [str(error) for error in seen] == ["reported"]
    assert app.return_code == 1
    assert parameters(App._handle_exception) == ["self", "error"]


async def test_textual_s_own_handling_needs_the_error_in_hand() -> None:
    """Why ``report_app_error`` raises the error first: called bare, Textual fails to draw it."""
    app = Failing(lambda app, error: app._handle_exception(error))
    seen: list[Exception] = []
    compat.before_app_errors(app, seen.append)
    with pytest.raises(ValueError, match="reported"):
        async with app.run_test() as pilot:
            await pilot.pause()
    assert [str(error) for error in seen][:1] == ["reported"]
    assert len(seen) == 2 and "trace" in str(seen[1])  # drawing it failed: a second error, from rich


# ---- the command palette -------------------------------------------------------------------------

class Things(Provider):
    async def search(self, query: str) -> Hits:
        for name in ("alpha", "beta"):
            if query in name:
                yield Hit(1, name, lambda: None)


class StepsPalette(compat.PaletteSteps, CommandPalette):
    def __init__(self) -> None:
        super().__init__(providers=[Things])
        self.searched: list[str] = []
        self.open = True

    def answering(self) -> bool:
        return self.open

    def search_started(self, search_value: str, search: Worker[None]) -> None:
        assert isinstance(search, Worker)
        self.searched.append(search_value)


class PaletteApp(App[None]):
    def compose(self) -> ComposeResult:
        yield Static("under the palette")


async def test_the_palette_s_steps_under_names_of_our_own() -> None:
    for name, expected in {"_gather_commands": ["self", "search_value"], "_cancel_gather_commands": ["self"],
                           "_stop_no_matches_countdown": ["self"], "_select_command": ["self", "event"],
                           "_select_or_command": ["self", "event"], "_action_escape": ["self"],
                           "_action_command_list": ["self", "action"], "_action_cursor_down": ["self"],
                           "_on_click": ["self", "event"], "_watch__list_visible": ["self"],
                           "_watch__show_busy": ["self"]}.items():
        assert parameters(getattr(CommandPalette, name)) == expected, name
    assert isinstance(vars(CommandPalette)["_list_visible"], Reactive)
    app = PaletteApp()
    async with app.run_test() as pilot:
        palette = StepsPalette()
        await app.push_screen(palette)
        # the palette's own first search comes through the hook
        await settled(pilot, lambda: palette.searched == [""], "the palette's first search")
        palette.cancel_search()  # as the palette does when the input changes: the first search's countdown to
        palette.stop_no_matches_countdown()  # "no matches" would hide the list found next, half a second later
        search = palette.search("alp")
        await search.wait()
        await settled(pilot, lambda: palette.searched == ["", "alp"] and palette.list_visible,
                      lambda: f"the search for alp: searched {palette.searched}, list shown {palette.list_visible}")
        palette.cursor_down()
        palette.open = False
        palette._action_escape()  # not answering: stays open
        await pilot.pause()
        assert app.screen is palette
        palette.open = True
        palette.cancel_search()
        palette.stop_no_matches_countdown()
        palette._action_escape()
        await settled(pilot, lambda: app.screen is not palette, "the palette closing")


async def settled(pilot, condition, what, timeout: float = 10.0) -> None:
    """Until ``condition()`` holds, the app's messages handled in between; ``AssertionError`` after ``timeout`` s
    saying ``what`` (or what ``what()`` says then)."""
    deadline = time.monotonic() + timeout
    await pilot.pause()
    while not condition():
        assert time.monotonic() < deadline, f"{what() if callable(what) else what} never came"
        await pilot.pause(0.02)


# ---- asyncssh: channel requests ------------------------------------------------------------------

def test_every_channel_request_goes_through_the_method_the_guard_overrides() -> None:
    from asyncssh.channel import SSHChannel as channel
    assert parameters(channel._service_next_request) == ["self"]
    assert parameters(channel._report_response) == ["self", "result"]
    # The request in service is the first of the queue, a (name, packet, want_reply) triple.
    assert "self._request_queue[0]" in inspect.getsource(channel._service_next_request)
    assert "self._request_queue.append((request, packet, want_reply))" in inspect.getsource(channel)
    assert "self._service_next_request()" in inspect.getsource(channel._process_request)


def test_a_channel_can_be_given_the_guarded_class() -> None:
    from soluna_tui.server.ssh.channel_guard import GuardedChannel

    assert GuardedChannel.__mro__[1] is asyncssh.SSHServerChannel
    assert vars(GuardedChannel)["_service_next_request"].__module__ == asyncssh_internals.__name__
    made = asyncssh.SSHServerChannel.__new__(asyncssh.SSHServerChannel)  # the layout asyncssh's channels have
    assert type(asyncssh_internals.adopt_class(made, GuardedChannel)) is GuardedChannel

    class Plain:
        pass

    class More(Plain):
        def extra(self) -> str:
            return "more"

    assert asyncssh_internals.adopt_class(Plain(), More).extra() == "more"
    with pytest.raises(TypeError):
        asyncssh_internals.adopt_class(More(), Plain)


# ---- nobody else touches the libraries' private names --------------------------------------------

#: The modules whose functions may stand in for the libraries' private methods.
OURS = (compat.__name__, asyncssh_internals.__name__)
#: The libraries whose internals only compat/ may touch.
LIBRARIES = ("textual", "asyncssh")
#: Private names used outside compat/ that are not the libraries' (each, why).
ALLOWED: dict[str, str] = {
    "_SubParsersAction": "argparse's, the type its add_subparsers returns (no public name in the standard library)",
    "_exit": "os's: a forked child (the zygote's) leaves without the parent's clean-up, the standard library's own way",
}


def package_modules() -> list[Path]:
    return sorted(path for path in PACKAGE.rglob("*.py") if path not in COMPAT)


def private(name: str) -> bool:
    return name.startswith("_") and not name.startswith("__")


def names_defined_here() -> set[str]:
    """Every name the package (compat/ aside) defines: functions, classes, attributes, variables."""
    defined = set()
    for path in package_modules():
        for node in ast.walk(ast.parse(path.read_text(), str(path))):
            if isinstance(node, (ast.FunctionDef, ast.AsyncFunctionDef, ast.ClassDef)):
                defined.add(node.name)
            elif isinstance(node, ast.Attribute) and isinstance(node.ctx, ast.Store):
                defined.add(node.attr)
            elif isinstance(node, ast.Name) and isinstance(node.ctx, ast.Store):
                defined.add(node.id)
            elif isinstance(node, ast.arg):
                defined.add(node.arg)
    return defined


def test_no_module_but_compat_reads_a_private_attribute_of_the_libraries() -> None:
    defined = names_defined_here()
    found = []
    for path in package_modules():
        for node in ast.walk(ast.parse(path.read_text(), str(path))):
            if isinstance(node, ast.Attribute) and private(node.attr) and node.attr not in defined | set(ALLOWED):
                found.append(f"{path.relative_to(PACKAGE)}:{node.lineno} .{node.attr}")
            elif (isinstance(node, ast.ImportFrom) and node.module and node.module.split(".")[0] in LIBRARIES
                  and any(private(part) for part in node.module.split("."))):
                found.append(f"{path.relative_to(PACKAGE)}:{node.lineno} from {node.module}")
    assert found == []


def test_no_class_but_compat_s_overrides_a_private_method_of_the_libraries() -> None:
    from textual.app import App
    from textual.screen import Screen

    found = []
    for path in package_modules():
        if path.name == "__main__.py":
            continue
        module = importlib.import_module(".".join(path.relative_to(PACKAGE.parent).with_suffix("").parts))
        for name, cls in vars(module).items():
            if not inspect.isclass(cls) or cls.__module__ != module.__name__:
                continue
            library = [base for base in cls.__mro__[1:] if base.__module__.split(".")[0] in LIBRARIES]
            if issubclass(cls, (Widget, App)):
                library += [Widget, Screen, App]
            for attr, value in vars(cls).items():
                if private(attr) and inspect.isfunction(value) and value.__module__ not in OURS and (
                        attr not in ALLOWED and any(attr in vars(base) for base in library)):
                    found.append(f"{module.__name__}.{name}.{attr}")
    assert found == []


def private_names_relied_on(path: Path) -> set[str]:
    """The library's private names a compat module relies on: read, overridden, imported from, or named in a
    docstring as relied on (a watcher found by name)."""
    names: set[str] = set()
    for node in ast.walk(ast.parse(path.read_text(), str(path))):
        if isinstance(node, ast.Attribute) and private(node.attr):
            names.add(node.attr)
        elif isinstance(node, ast.ImportFrom) and node.module:
            names.update(part for part in node.module.split(".") if private(part))
        elif isinstance(node, (ast.FunctionDef, ast.AsyncFunctionDef)) and private(node.name):
            names.add(node.name)
        if isinstance(node, (ast.Module, ast.ClassDef, ast.FunctionDef, ast.AsyncFunctionDef)):
            for span in re.findall(r"``([^`]+)``", ast.get_docstring(node) or ""):
                names.update(word for word in re.findall(r"\w+", span) if private(word))
    return names


def test_the_count_of_textual_s_private_names_is_the_one_compat_says() -> None:
    said = re.search(r"(\d+) private names of Textual's", compat.__doc__ or "")
    assert said, "textual_internals.py's docstring says how many private names of Textual's it relies on"
    assert int(said.group(1)) == len(private_names_relied_on(COMPAT[0])), sorted(private_names_relied_on(COMPAT[0]))


def test_the_checks_above_would_see_a_private_use() -> None:
    """They would pass vacuously if they missed what they look for."""
    code = "def f(node):\n    return node._bindings\n"
    tree = ast.parse(code)
    assert any(isinstance(node, ast.Attribute) and private(node.attr) and node.attr not in names_defined_here()
               for node in ast.walk(tree))
    assert "_on_click" in vars(compat.PaletteSteps) and "_on_click" in vars(CommandPalette)
