"""Every use the game makes of Textual's private or undocumented internals, in one place.

It relies on 45 private names of Textual's (counted by ``tests/test_compat.py``: read, overridden,
imported from, or named here as relied on). Nine of them let several apps share a process, each on a
terminal of its own, for the houses of sessions (issue 43); two let the apps of a process parse each stylesheet
once between them (issue 37, the time to the first frame); eleven, eight of them its alone, spare a screen layouts
and frames it does not need (issue 43, a round's end). There were 27 before the line widgets moved to Textual's
public line API (issue 40): what is left here for drawing lines is kept because ``benchmarks/keys.py``
measured it needed, its figures in its docstring (``docs/benchmarks.md`` has the runs).

Each is a small typed function or mixin saying what it relies on. Tested with textual 8.2.x
(``pyproject.toml`` keeps it below its next major version); ``tests/test_compat.py`` fails if Textual
changes under one of them, and a test there keeps every other module of the package off its private
names. asyncssh's are in ``asyncssh_internals.py``, beside this module.

Nothing is imported here at run time but the standard library: library classes are bases only for the
type checker (the mixins are plain classes at run time, mixed in before the library class); modules
are imported where used.
"""

from __future__ import annotations

import threading
from collections import OrderedDict
from collections.abc import Callable, Iterable
from typing import TYPE_CHECKING, Any, TypeVar

if TYPE_CHECKING:
    from textual import events
    from textual._xterm_parser import XTermParser
    from textual.app import App
    from textual.binding import Binding
    from textual.command import CommandPalette
    from textual.css.model import RuleSet
    from textual.css.stylesheet import Stylesheet
    from textual.dom import DOMNode
    from textual.drivers.linux_driver import LinuxDriver
    from textual.geometry import Region, Size
    from textual.message_pump import MessagePump
    from textual.reactive import Reactive
    from textual.screen import Screen
    from textual.widget import Widget
    from textual.widgets import Button, Input, OptionList
    from textual.worker import Worker

    _PaletteBase = CommandPalette
    _LinuxDriverBase = LinuxDriver
    _ScreenBase = Screen[Any]
    #: Textual's terminal parser (a private class), for annotations.
    TerminalParser = XTermParser
    #: How Textual's terminal parser turns one sequence it read into keys.
    KeyReader = Callable[[XTermParser, str, bool], Iterable[events.Key]]
else:
    _PaletteBase = object
    _LinuxDriverBase = object
    _ScreenBase = object

T = TypeVar("T")


# ---- Textual: keys as they arrive ------------------------------------------------------------------

def parser_key_reader() -> KeyReader:
    """The function Textual's terminal parser reads a sequence of characters into keys with.

    Relies on ``textual._xterm_parser.XTermParser._sequence_to_key_events(self, sequence, alt=False)``
    (private), which every sequence the parser has delimited (a character, ESC and a character, an
    escape sequence) goes through, ``alt=True`` for the character after an ESC that began no known
    sequence. Tested with textual 8.2.x.
    """
    from textual._xterm_parser import XTermParser

    reader: KeyReader = XTermParser._sequence_to_key_events
    return reader


def set_parser_key_reader(reader: KeyReader) -> None:
    """Make every terminal parser (of this process) read sequences into keys with ``reader`` instead.

    Relies on the same private method as ``parser_key_reader``, looked up on the class by each
    parser as it reads. Tested with textual 8.2.x.
    """
    from textual._xterm_parser import XTermParser

    XTermParser._sequence_to_key_events = reader  # type: ignore[method-assign,assignment]


def active_pump(default: MessagePump) -> MessagePump:
    """The message pump (widget, screen or app) whose handler is running now, else ``default``.

    Relies on ``textual._context.active_message_pump`` (private), the context variable Textual sets
    while a pump dispatches a message; a ``Message.stop()`` called from a handler runs within it.
    Tested with textual 8.2.x.
    """
    from textual._context import active_message_pump

    return active_message_pump.get(default)


def key_destination(app: App[Any]) -> MessagePump:
    """Where ``App.on_event`` sends a key from the terminal that no priority binding takes.

    Undocumented ordering relied on: the app forwards it to the focused widget (the screen when
    nothing has focus), marks it forwarded (``Message.is_forwarded``), and it comes back up to the
    app's ``on_event`` still forwarded once the widgets and their bindings are done with it, unless a
    widget stopped it (``Message.stop()``, called in that widget's handler). Tested with textual 8.2.x.
    """
    return app.focused or app.screen


def handled_as(event_class: type[T], like: type[events.Event]) -> type[T]:
    """Make instances of ``event_class`` (a subclass of ``like``) go to ``like``'s handlers
    (``on_key`` for a key) rather than handlers named after the subclass.

    Relies on ``Message.handler_name``, set per class by ``Message.__init_subclass__`` and read as a
    message is dispatched (undocumented). Tested with textual 8.2.x.
    """
    event_class.handler_name = like.handler_name  # type: ignore[attr-defined]
    return event_class


# ---- Textual: bindings -----------------------------------------------------------------------------

def bindings_of(node: DOMNode) -> Iterable[tuple[str, Binding]]:
    """The (key, binding) pairs ``node`` has, its own and inherited, in Textual's order.

    Relies on ``DOMNode._bindings`` (private), the ``BindingsMap`` Textual builds from ``BINDINGS``
    (and which ``Screen.active_bindings`` walks); iterating it gives (key, binding) pairs.
    Tested with textual 8.2.x.
    """
    return node._bindings


def action_state(app: App[Any], action: str, node: DOMNode) -> bool | None:
    """What ``check_action`` says of ``action`` run from ``node``: True (on offer), None (shown
    dimmed) or False (does not apply: the key goes on to the next binding).

    Relies on ``App._check_action_state(action, default_namespace)`` (private): the action parsed
    (``app.``, ``screen.`` and ``focused.`` namespaces resolved) and its target's ``check_action``
    asked, as ``Screen.active_bindings`` does. Tested with textual 8.2.x.
    """
    return app._check_action_state(action, node)


# ---- Textual: widgets that draw their own lines ----------------------------------------------------

def repaint_soon(widget: Widget, *regions: Region) -> None:
    """Mark these regions of a mounted widget (all of it without any) for the next frame, and nothing
    else: what ``refresh`` comes to for a widget of a fixed size, without its two messages.

    Relies on ``Widget._set_dirty(*regions)``, ``Screen._compositor`` (which knows the widgets on
    screen) and ``Screen._dirty_widgets`` (what the next frame repaints), all private, and on
    ``Screen.check_idle`` asking for that frame. Tested with textual 8.2.x.

    Kept (issue 40, ``benchmarks/keys.py``, 80x24, four runs of each by turns, 40 keys of a kind): with
    ``refresh`` (public) in its place, a pick lighting the towers costs 0.41-0.46 of the bare app's pick
    against 0.32-0.36, a move between towers 0.31-0.36 against 0.27-0.30, a move 0.99-1.17 against
    0.81-0.99; the same bytes. Over SSH, the same CPU; the runs with the public way drew each move in one
    frame (1.80 KB on the mover's screen, against 2.15 KB in 1.4 frames), but so did one run with this.
    """
    widget._set_dirty(*regions)
    screen = widget.screen
    if screen in screen._compositor:
        screen._dirty_widgets.add(widget)
        screen.check_idle()


def option_lines(option_list: OptionList, index: int) -> tuple[int, int] | None:
    """The first line and the number of lines of option ``index`` in an ``OptionList`` (before
    scrolling), or ``None`` for no such option.

    Relies on ``OptionList._index_to_line`` and ``OptionList._heights`` (private), the list's own
    record of where each option is drawn. Tested with textual 8.2.x.

    Kept (issue 40, ``benchmarks/keys.py``, 80x24): the lobby's menu repaints the two options its highlight
    moves between with it, 0.17 KB a key; repainting the whole list, as ``OptionList`` does, writes 0.45 KB
    for about the same CPU (0.33-0.45 of the bare app's arrow against 0.28-0.44, within the noise). And a
    phone's lobby scrolls its container to the highlighted option: the list's public ``scroll_to_highlight``
    scrolls only the list itself, and no public call says where an option's lines are.
    """
    first = option_list._index_to_line.get(index)
    return None if first is None else (first, option_list._heights.get(index, 1))


def set_virtual_size_quietly(widget: Widget, size: Size) -> None:
    """Give a scrolling widget a new ``virtual_size`` without the new layout a change of it asks for:
    only its scroll bars are brought up to date.

    Relies on ``Widget.set_reactive`` (public) and ``Widget._scroll_update(virtual_size)`` (private),
    what Textual runs after a layout to size and show the scroll bars and clamp the scroll offsets.
    Tested with textual 8.2.x.

    Kept (issue 40, ``benchmarks/keys.py``, 80x24): the move history grows a line each move; setting
    ``virtual_size`` (public, as Textual's ``Log`` does) lays the screen out again, and a move then writes
    2.54 KB instead of 1.70 KB on the mover's screen and costs 1.02-1.05 of the bare app's move instead of
    0.84-0.92, all else alike (over SSH 2.5-2.8 KB instead of 1.8 KB).
    """
    from textual.widget import Widget

    widget.set_reactive(Widget.virtual_size, size)
    widget._scroll_update(size)


def retitle(widget: Widget, title: str) -> None:
    """Give ``widget`` another border title, repainting the top line of its border only: setting
    ``border_title`` repaints the whole widget, and so everything in it (the whole lobby, for a count
    that changes as players come and go).

    Relies on ``Widget._border_title`` (private), where the ``border_title`` descriptor keeps the
    title (``render_str`` of the text, tabs expanded, its first line) and whence the styles cache
    draws it; and on ``refresh`` taking regions relative to the content, so the border's top line is
    above it. Tested with textual 8.2.x.
    """
    from textual.geometry import Region

    widget._border_title = widget.render_str(title).expand_tabs(4).split()[0]
    offset = widget.content_offset
    widget.refresh(Region(-offset.x, -offset.y, widget.outer_size.width, 1))


def focus_without_repaint() -> Reactive[Widget | None]:
    """A redefinition of ``Screen.focused`` for a screen class whose widgets redraw what a change of
    focus changes themselves: the same reactive, but the whole screen is not repainted.

    Relies on ``Screen.focused`` being a plain ``Reactive(None)`` whose watcher
    (``Screen._watch_focused``, private, which refreshes the bindings) is found by name, so it still
    runs on the redefined one. Tested with textual 8.2.x.

    Kept (issue 40, ``benchmarks/keys.py``, 80x24): without it, the new-match dialog's next field writes
    4.88 KB in two frames a key and costs 0.83-0.86 of the bare app's arrow; with it, 0.36 KB in one frame,
    0.46-0.53.
    """
    from textual.reactive import Reactive

    return Reactive(None, repaint=False)


# ---- Textual: a screen laid out once as it shows ---------------------------------------------------

class LaidOutOnceAsShown(_ScreenBase):
    """Mixed in before a screen class: a screen laid out, and drawn, no more often than what it shows asks.

    - **No layout for an unchanged size.** The ``Resize`` that Textual sends a screen after its first layout (a
      screen pushed, a dialog over the board) lays it out again, and every screen under it, though the terminal is
      the size they were laid out at. That event is let go when every one of them is already laid out at its size;
      a terminal that did change size is laid out as before. What Textual's handler also does, setting the classes
      of ``HORIZONTAL_BREAKPOINTS`` and ``VERTICAL_BREAKPOINTS``, is then left to the next real resize: the app
      uses none (its narrow layouts hang on the app's own ``-narrow`` class).
    - **No layout asked for by a layout's own sizes.** A layout gives each widget its size and virtual size, and
      Textual's setter of ``virtual_size`` asks for another layout whenever one changed: a screen whose first layout
      showed a scroll bar is laid out a second time for the bar and a third time for the sizes the second gave. A
      layout after which no scroll bar came or went already holds every size it set, so what it asked of itself
      (the flag ``_layout_required`` raised during it, on a widget not waiting for a layout before it, whose
      virtual size is the one the layout gave) is let go. A scroll bar that came or went is laid out again as
      Textual does, until none does; so is a widget that sized itself while drawn (a ``Tree`` building its lines)
      and a ``ScrollView``, whose virtual size is its own.
    - **One frame for a tick's layout and repaint.** When a tick of the screen's update timer finds both a layout
      and a repaint of the whole screen due (a screen pushed: its first layout, then ``ScreenResume``'s
      ``refresh``), Textual draws the layout's changes and then the whole screen again; here the whole screen is
      marked before the layout, which then draws it once.

    Relies on ``Screen._on_resize`` (private, the handler overridden here, stopped by ``prevent_default``),
    ``Screen._refresh_layout`` and ``Screen._on_timer_update`` (private, overridden: the layout, and the timer's
    tick that calls it), ``Screen._compositor`` (private: its ``size`` is the size of the screen's last layout,
    its ``layers`` and ``widgets`` what it laid out), ``Screen._layout_widgets``, ``Widget._layout_required`` and
    ``Screen._repaint_required`` (private flags: a layout and a repaint due), ``Screen._dirty_widgets`` and
    ``Widget._set_dirty`` (private: what the next frame draws), ``App._batch_count`` (private: updates held back
    while it is above zero, as Textual's tick checks) and ``App._background_screens`` (private, the screens under
    the top one, laid out with it). Tested with textual 8.2.x.

    Kept (issue 43, the meet scene: fifty rounds ending within seconds of each other, each with a review over the
    board on both players' screens, ``benchmarks/keys.py``): a round's end laid out the review five times and the
    board under it once, in seven frames (22 KB, 63 ms); with the first point, the review three times and the
    board not at all, in five frames (17 KB, 42 ms); with the other two, the review twice, in four frames (13 KB).
    """

    async def _on_resize(self, event: events.Resize) -> None:
        screens = (self, *self.app._background_screens)
        if all(screen._compositor.size == event.size for screen in screens):
            event.stop()
            event.prevent_default()  # Textual's own handler, next in the classes' order, lays out again

    def _refresh_layout(self, size: Size | None = None, scroll: bool = False) -> None:
        if scroll and not self._layout_widgets:  # Textual's reflow of a scroll: it sets sizes without asking again
            super()._refresh_layout(size, scroll)
            return
        from textual.scroll_view import ScrollView
        from textual.widget import Widget

        # What waited for a layout before this one, and each scroll bar shown, of every widget it may lay out.
        nodes = [*self._compositor.widgets, *self.walk_children(Widget, with_self=True)]
        asked_before = {node for node in nodes if node._layout_required}
        bars_before = {node: (node.show_horizontal_scrollbar, node.show_vertical_scrollbar)
                       for node in nodes if node.is_scrollable}
        super()._refresh_layout(size, scroll)
        laid_out = self._compositor.layers
        if any(bars_before.get(node, (False, False)) != (node.show_horizontal_scrollbar, node.show_vertical_scrollbar)
               for node, _ in laid_out if node.is_scrollable):
            return  # a scroll bar came or went: laid out again, as Textual does
        for node, geometry in laid_out:
            # Only what the layout's own virtual size asked: a widget that sized itself as it was drawn (a Tree
            # building its lines) or a scroll view (whose virtual size is its own) keeps its layout.
            if (node._layout_required and node not in asked_before and not isinstance(node, ScrollView)
                    and node.virtual_size == geometry.virtual_size):
                node._layout_required = False

    def _on_timer_update(self) -> None:
        if self._layout_required and self._repaint_required and self.is_current and not self.app._batch_count:
            # the layout's own frame draws the whole screen
            self._repaint_required = False
            self._set_dirty()
            self._dirty_widgets.add(self)
        super()._on_timer_update()


# ---- Textual: stylesheets parsed once a process --------------------------------------------------

#: Rule sets parsed from each source of CSS with each set of CSS variables, for every app of the process; the most
#: recently used last. A game's first screens read about 20 sources (its sheets, each widget class's default CSS),
#: a theme or ASCII mode another set: bounded for many themes and modes, the least recently used dropped first.
_SHARED_RULES: OrderedDict[tuple[object, ...], list[RuleSet]] = OrderedDict()
SHARED_RULES_KEPT = 512
#: Each set of CSS variables (a theme's, about 170 pairs) kept once, however many keys hold it.
_VARIABLE_SETS: dict[tuple[tuple[str, str], ...], tuple[tuple[str, str], ...]] = {}
#: The cache's dictionaries change under this lock: a process's apps share one loop today, but nothing holds
#: Textual to parsing in one thread only.
_SHARED_RULES_LOCK = threading.Lock()


def share_parsed_stylesheets() -> None:
    """Parse each source of CSS once a process, for all its apps, instead of once an app and again on each reparse.

    Textual keeps parsed rules per stylesheet, and each ``reparse`` (a screen with CSS of its own pushed, a widget
    class mounted for the first time, a theme changed) builds a new stylesheet, with an empty cache, that parses
    every source again: a game's start to its first screens parsed 27 times, about 15 ms of an app's 100. Apps
    sharing a process (the tests' pilots, a house of sessions) then parse the same sheets each. Parsed rules are
    only read after (a node takes copies of their values), so apps may share them: with this, one app's start
    parses 20 times, and the next app's of the process none. Idempotent; the key holds the stylesheet's CSS
    variables, on which parsing depends (a theme's colours). A parse that fails is not kept.

    Relies on ``Stylesheet._parse_rules(self, css, read_from, is_default_rules=False, tie_breaker=0, scope="")``
    (private), through which every parse goes, and ``Stylesheet._variables`` (private), the variables it parses
    with. Tested with textual 8.2.x.
    """
    from textual.css.stylesheet import Stylesheet

    parse = Stylesheet._parse_rules
    if getattr(parse, "shared_by_the_process", False):
        return

    def parse_once(self: Stylesheet, css: str, read_from: tuple[str, str], is_default_rules: bool = False,
                   tie_breaker: int = 0, scope: str = "") -> list[RuleSet]:
        variables = tuple(self._variables.items())
        with _SHARED_RULES_LOCK:
            variables = _VARIABLE_SETS.setdefault(variables, variables)
            key = (css, read_from, is_default_rules, tie_breaker, scope, variables)
            rules = _SHARED_RULES.get(key)
            if rules is not None:
                _SHARED_RULES.move_to_end(key)
                return rules
        rules = parse(self, css, read_from, is_default_rules, tie_breaker, scope)
        with _SHARED_RULES_LOCK:
            _SHARED_RULES[key] = rules
            if len(_SHARED_RULES) > SHARED_RULES_KEPT:
                while len(_SHARED_RULES) > SHARED_RULES_KEPT:
                    _SHARED_RULES.popitem(last=False)
                kept = {key[-1] for key in _SHARED_RULES}
                for unheld in [each for each in _VARIABLE_SETS if each not in kept]:
                    del _VARIABLE_SETS[unheld]
        return rules

    parse_once.shared_by_the_process = True  # type: ignore[attr-defined]
    parse_once.__wrapped__ = parse  # type: ignore[attr-defined]  # Textual's own, for a test to put back
    Stylesheet._parse_rules = parse_once  # type: ignore[method-assign]


# ---- Textual: the app's errors ---------------------------------------------------------------------

def report_app_error(app: App[Any], error: Exception) -> None:
    """Hand ``error`` to the app as Textual hands it an exception no handler caught: the app shows the
    traceback on its error console and exits with a failing return code.

    Relies on ``App._handle_exception(error)`` (private), which Textual calls only while the error is
    being handled: it draws the traceback of the exception in hand, and raises instead of exiting when
    there is none. So it is called here from an ``except`` block of ``error``. Tested with textual 8.2.x.
    """
    try:
        raise error
    except Exception:  # noqa: BLE001 - ``error`` itself, in hand for the traceback
        app._handle_exception(error)


def before_app_errors(app: App[Any], first: Callable[[Exception], None]) -> None:
    """Make ``first`` run on every exception that reaches the app unhandled (from a handler, a worker
    or ``report_app_error``), then the app's own handling of it.

    Relies on ``App._handle_exception`` (private) being the one way in for such errors.
    Tested with textual 8.2.x.
    """
    handle = app._handle_exception

    def first_then_handle(error: Exception) -> None:
        first(error)
        handle(error)

    app._handle_exception = first_then_handle  # type: ignore[method-assign]


# ---- Textual: a driver on a terminal of its own ---------------------------------------------------

class OwnTerminalDriver(_LinuxDriverBase):
    """Mixed in before Textual's ``LinuxDriver``: the driver on a terminal descriptor given to it (``use_terminal``),
    not the process's standard streams, for a process that runs several apps, each on its own terminal
    (``online/house.py``). Its size is read from that terminal, and told to it (``terminal_resized``) rather than
    by ``SIGWINCH``, which reaches a terminal's own process only. Its keys are read on the app's event loop, not in
    a thread of their own: no thread waking ten times a second for each of a process's apps, and no hop between
    threads for a key. A terminal gone (the session ended) ends the app quietly.

    Relies on these private members of ``textual.drivers.linux_driver.LinuxDriver``: ``_file`` (what its writer
    thread writes to), ``_get_terminal_size()``, ``_run_input_thread()`` (its input thread's body, here only
    starting the reading on the loop), ``_in_band_window_resize``, ``_debug`` and ``_app``; and on Textual's
    terminal parser (``textual._xterm_parser.XTermParser``, private), which it feeds as Textual's thread does,
    calling its ``tick`` once an escape's delay has passed. Tested with textual 8.2.x.
    """

    def use_terminal(self, fd: int, file: Any) -> None:
        """Read keys from ``fd`` and write frames to ``file`` (a file-like object on the same terminal); called
        on the app's event loop, as the driver is made."""
        import asyncio

        self.fileno = fd
        self.input_tty = True
        self._file = file
        self.key_loop = asyncio.get_running_loop()
        self.key_reader: Any = None
        self.key_tick: Any = None
        self.keys_stopped = False

    def _get_terminal_size(self) -> tuple[int, int]:
        import os

        try:
            columns, lines = os.get_terminal_size(self.fileno)
        except OSError:
            return 80, 24
        return columns or 80, lines or 24

    def terminal_resized(self) -> None:
        """The terminal has a new size: the app lays out for it (unless the terminal tells it in band)."""
        from textual import events
        from textual.geometry import Size

        if not self._in_band_window_resize:
            size = Size(*self._get_terminal_size())
            self._app.post_message(events.Resize(size, size))

    def send_message(self, message: Any) -> None:
        """A key or an event for the app, from its own event loop: posted at once."""
        self._app.post_message(message)

    def _run_input_thread(self) -> None:
        """Textual starts this in a thread of its own: here it only has the loop read the keys, and ends."""
        self.key_loop.call_soon_threadsafe(self.read_keys_on_the_loop)

    #: The most read from the terminal at once, and the keys waiting in the app (``inputs_waiting``) past which
    #: the terminal is not read until they are down to a quarter: a flood of keys waits in the terminal (and then
    #: in the player's connection), not in the event loop other apps share.
    KEYS_READ_AT_ONCE = 512
    KEYS_WAITING_AT_MOST = 32

    def read_keys_on_the_loop(self) -> None:
        import codecs

        from textual._xterm_parser import XTermParser

        if self.keys_stopped:
            return
        self.key_reader = (XTermParser(self._debug), codecs.getincrementaldecoder("utf-8")("replace").decode)
        self.key_loop.add_reader(self.fileno, self.keys_arrived)

    def keys_arrived(self) -> None:
        import os

        from textual import constants

        try:
            data = os.read(self.fileno, self.KEYS_READ_AT_ONCE)
        except BlockingIOError:
            return
        except OSError:
            data = b""
        if not data:  # the terminal has gone: the session is over
            self.stop_reading_keys()
            self._app.exit()
            return
        parser, decode = self.key_reader
        for event in parser.feed(decode(data)):
            self.process_message(event)
        if self.key_tick is not None:
            self.key_tick.cancel()
        self.key_tick = self.key_loop.call_later(constants.ESCAPE_DELAY + 0.01, self.keys_waited)
        if getattr(self._app, "inputs_waiting", 0) > self.KEYS_WAITING_AT_MOST:
            self.key_loop.remove_reader(self.fileno)
            self.key_loop.call_later(0.02, self.read_again_when_caught_up)

    def read_again_when_caught_up(self) -> None:
        if self.key_reader is None:
            return
        if getattr(self._app, "inputs_waiting", 0) > self.KEYS_WAITING_AT_MOST // 4:
            self.key_loop.call_later(0.02, self.read_again_when_caught_up)
        else:
            self.key_loop.add_reader(self.fileno, self.keys_arrived)

    def keys_waited(self) -> None:
        """An escape's delay has passed since the last bytes: what the parser held back (a lone Escape) is a key."""
        self.key_tick = None
        if self.key_reader is not None:
            for event in self.key_reader[0].tick():
                self.process_message(event)

    def stop_reading_keys(self) -> None:
        self.keys_stopped = True
        if self.key_reader is not None:
            self.key_loop.remove_reader(self.fileno)
            self.key_reader = None
        if self.key_tick is not None:
            self.key_tick.cancel()
            self.key_tick = None

    def disable_input(self) -> None:
        self.stop_reading_keys()
        super().disable_input()


def print_to_the_process(app: App[Any]) -> None:
    """``app`` leaves the process's standard streams as they are while it runs, instead of capturing what is
    printed (Textual redirects ``sys.stdout`` and ``sys.stderr`` to the app as it runs, and back as it ends: in a
    process of several apps that start and end in any order, they would end up pointing into an app that has gone,
    keeping it alive and losing the process's own lines).

    Relies on ``App._capture_stdout`` and ``App._capture_stderr`` (private), what Textual redirects the streams
    to. Tested with textual 8.2.x.
    """
    import sys

    app._capture_stdout = sys.__stdout__  # type: ignore[assignment]
    app._capture_stderr = sys.__stderr__  # type: ignore[assignment]


def app_driver(app: App[Any]) -> object:
    """The driver ``app`` runs on (``None`` before it starts and after it ends).

    Relies on ``App._driver`` (private). Tested with textual 8.2.x.
    """
    return app._driver


# ---- Textual: the command palette ------------------------------------------------------------------

class PaletteSteps(_PaletteBase):
    """Mixed in before ``CommandPalette``: its private steps under names of our own, each of its own
    actions run only while ``answering`` says so, and a palette closing without errors.

    Relies on these private members of ``textual.command.CommandPalette``: ``_gather_commands(search)``
    (a worker; also started by the palette itself), ``_cancel_gather_commands()``,
    ``_stop_no_matches_countdown()``, ``_list_visible``, ``_select_command(event)``,
    ``_select_or_command(event=None)``, ``_action_escape()``, ``_action_command_list(action)``,
    ``_action_cursor_down()``, ``_on_click(event)`` and the watchers ``_watch__list_visible`` and
    ``_watch__show_busy`` (which query widgets that are gone once the palette closes).
    Tested with textual 8.2.x.
    """

    def answering(self) -> bool:
        """Whether the palette still acts on keys and clicks (always, unless a subclass says not)."""
        return True

    def search_started(self, search_value: str, search: Worker[None]) -> None:
        """Every search for commands the palette starts comes here (its own as well as ``search``'s)."""

    def search(self, search_value: str) -> Worker[None]:
        """Start searching for the commands matching ``search_value``."""
        return self._gather_commands(search_value)

    def cancel_search(self) -> None:
        self._cancel_gather_commands()

    def stop_no_matches_countdown(self) -> None:
        self._stop_no_matches_countdown()

    @property
    def list_visible(self) -> bool:
        """Whether the list of commands is shown."""
        return self._list_visible

    def select_command(self, event: OptionList.OptionSelected) -> None:
        """Run the command ``event`` chose and close the palette, as a click on it would, at once."""
        self._select_command(event)

    def select_or_command(self) -> None:
        """What the stock palette's Enter does when no command is highlighted."""
        super()._select_or_command()

    def cursor_down(self) -> None:
        """Highlight the next command (the first when none is), showing the list."""
        self._action_cursor_down()

    def _gather_commands(self, search_value: str) -> Worker[None]:
        search: Worker[None] = super()._gather_commands(search_value)
        self.search_started(search_value, search)
        return search

    def _on_click(self, event: events.Click) -> None:  # type: ignore[override]
        if not self.answering():
            event.prevent_default()

    def _action_escape(self) -> None:
        if self.answering():
            super()._action_escape()

    def _select_or_command(self, event: Input.Submitted | Button.Pressed | None = None) -> None:
        if self.answering():
            super()._select_or_command(event)

    def _action_command_list(self, action: str) -> None:
        if self.answering():
            super()._action_command_list(action)

    def _action_cursor_down(self) -> None:
        if self.answering():
            super()._action_cursor_down()

    def _watch__list_visible(self) -> None:
        from textual.css.query import NoMatches

        try:
            super()._watch__list_visible()
        except NoMatches:  # closing: the list is already gone
            pass

    async def _watch__show_busy(self) -> None:
        from textual.css.query import NoMatches

        try:
            await super()._watch__show_busy()
        except NoMatches:
            pass
