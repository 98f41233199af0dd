"""The keys on offer, on one line at the bottom: drawn as one strip, redrawn only when it changes.

Textual's own footer is a container of a widget per key, rebuilt (30-40 ms) whenever the set of
keys changes; this one is a single line drawn with the line API, so a key that only dims or
lights another costs one line's repaint.
"""

from __future__ import annotations

from dataclasses import dataclass, replace
from time import monotonic
from typing import ClassVar

from rich.cells import cell_len
from rich.segment import Segment
from rich.style import Style
from textual import events
from textual.binding import Binding
from textual.dom import DOMNode
from textual.geometry import Region
from textual.keys import key_to_character
from textual.screen import Screen
from textual.strip import Strip
from textual.widget import Widget

from ..app.soluna_view import app_view
from ..compat.textual_internals import action_state, bindings_of
from .cached_lines import CachedLines

#: Columns around a key in the roomy look (a space either side), and after it in the compact one.
ROOMY_EXTRA, COMPACT_EXTRA = 2, 1
#: Columns the command-palette key takes besides its text (its rule to the left and a space).
PALETTE_EXTRA = 2
#: Seconds after the keys drawn in a narrow footer changed (a key lit or dimmed moves the others) in which a tap
#: that lands on another key than it would have a moment before presses nothing: it may have been aimed at that one.
TAP_SETTLE = 0.5


@dataclass(frozen=True)
class FooterEntry:
    """One key as the footer shows it."""

    key: str
    display: str
    description: str
    action: str
    enabled: bool

    @property
    def width(self) -> int:
        return cell_len(self.display) + 1 + cell_len(self.description)


@dataclass(frozen=True)
class Placed:
    """A key where it is drawn: from column ``start`` to ``end`` (exclusive)."""

    entry: FooterEntry
    start: int
    end: int


def compact_width(entries: tuple[FooterEntry, ...]) -> int:
    """The columns ``entries`` take close together (a space after each but the last)."""
    return sum(entry.width + COMPACT_EXTRA for entry in entries) - (COMPACT_EXTRA if entries else 0)


def offered_keys(screen: Screen[object]) -> tuple[tuple[FooterEntry, ...], FooterEntry | None]:
    """The keys a footer shows for ``screen`` (one per action, each lit or dimmed), and the command
    palette's key: what ``Screen.active_bindings`` gives, but asking only about the keys shown.

    Textual asks every binding of the focused widget and its ancestors whether it is enabled
    (the board alone has three dozen, none shown), on every change: that was most of a footer's cost.
    """
    app = screen.app
    focused = screen.focused
    nodes: list[DOMNode] = ([screen, app] if focused is None or focused.loading
                            else list(focused.ancestors_with_self))
    chain: list[DOMNode] = []
    for node in nodes:
        chain.append(node)
        if node.is_modal:
            break
    candidates: dict[str, list[tuple[DOMNode, Binding]]] = {}
    consumers: list[DOMNode] = []
    for node in chain:
        for key, binding in bindings_of(node):
            if consumers and any(consumer.check_consume_key(key, key_to_character(key)) for consumer in consumers):
                continue  # typed into the focused input (a letter), not a key of the screen's
            candidates.setdefault(key, []).append((node, binding))
        if type(node).check_consume_key is not Widget.check_consume_key:
            consumers.append(node)  # only widgets that take keys as text (an input) consume any
    shown: dict[str, FooterEntry] = {}
    palette = None
    for key, bindings in candidates.items():
        is_palette = key == app.COMMAND_PALETTE_BINDING
        if not is_palette and not any(binding.show for _, binding in bindings):
            continue  # never shown: not asked about (the board alone has three dozen such keys)
        # As Textual runs them: priority bindings first, then the nearest; one that does not apply
        # here at all (its check says False) passes the key on to the next.
        for node, binding in sorted(bindings, key=lambda found: not found[1].priority):
            state = action_state(app, binding.action, node)
            if state is False:
                continue
            if (binding.show or is_palette) and (is_palette or binding.action not in shown):
                entry = FooterEntry(key, app.get_key_display(binding), binding.description, binding.action,
                                    bool(state))
                if is_palette:
                    palette = entry if app.ENABLE_COMMAND_PALETTE else None
                else:
                    shown[binding.action] = entry
            break
    return tuple(shown.values()), palette


class KeyFooter(CachedLines, Widget, can_focus=False):
    """Every key the screen offers, one per action, dimmed while it does nothing; the command
    palette's key on the right. When the keys do not fit the width (ASCII key names are longer),
    they close up, then the palette key makes way (Ctrl+P still works; the help lists it); a footer narrower
    still draws the keys that do something now first. Clicking a key presses it (see ``on_click``).
    """

    DIRECT_LINES = True

    DEFAULT_CSS = """
    KeyFooter {
        dock: bottom;
        height: 1;
        background: $footer-background;
        color: $footer-foreground;
    }
    KeyFooter > .key-footer--key {
        color: $footer-key-foreground;
        background: $footer-key-background;
        text-style: bold;
    }
    KeyFooter > .key-footer--description {
        color: $footer-description-foreground;
        background: $footer-description-background;
    }
    KeyFooter > .key-footer--rule {
        color: $foreground 20%;
    }
    """
    COMPONENT_CLASSES: ClassVar[set[str]] = {"key-footer--key", "key-footer--description", "key-footer--rule"}
    ALLOW_SELECT: ClassVar[bool] = False

    def __init__(self, *, id: str | None = None) -> None:
        super().__init__(id=id)
        #: Whether the keys are drawn close together (chosen from the width; readable by tests).
        self.compact = False
        #: Whether the command palette's key is shown (it makes way when the keys need its room).
        self.show_command_palette = True
        self._entries: tuple[FooterEntry, ...] = ()
        self._palette: FooterEntry | None = None
        self._placed: list[Placed] = []
        self._strip: Strip | None = None
        #: The keys as drawn before they last moved, and when (``monotonic``) they moved.
        self._placed_before: list[Placed] = []
        self._moved_at = float("-inf")

    def on_mount(self) -> None:
        # At once, not a message later: a key's dimming lands in the frame of the key that changed it.
        self.screen.bindings_updated_signal.subscribe(self, self.bindings_changed, immediate=True)
        self.bindings_changed(self.screen)

    def on_unmount(self) -> None:
        self.screen.bindings_updated_signal.unsubscribe(self)

    @property
    def entries(self) -> tuple[FooterEntry, ...]:
        """The keys shown (the palette key aside), in order."""
        return self._entries

    @property
    def placed(self) -> list[Placed]:
        """The keys as drawn, with their columns (the palette key last, when shown)."""
        self._layout()
        return list(self._placed)

    def bindings_changed(self, screen: Screen[object]) -> None:
        if screen is not self.screen or not self.is_attached:
            return
        entries, palette = offered_keys(screen)
        if (entries, palette) == (self._entries, self._palette):
            return
        dimmed_only = (self._strip is not None and palette == self._palette
                       and [replace(entry, enabled=True) for entry in entries]
                       == [replace(entry, enabled=True) for entry in self._entries])
        before = self._placed
        # A footer too narrow for every key chooses which to draw by whether they do something now.
        all_drawn = len([placed for placed in before if placed.entry != self._palette]) == len(self._entries)
        self._entries, self._palette = entries, palette
        self._strip = None
        if not dimmed_only or not all_drawn:
            self.repaint()
            return
        # The same keys, every one drawn, some dimmed or lit: repaint those keys only.
        enabled = {entry.action: entry.enabled for entry in self._entries}
        for old in before:
            if old.entry.enabled != enabled.get(old.entry.action, old.entry.enabled):
                self.repaint(Region(old.start, 0, old.end - old.start, 1))

    def on_resize(self) -> None:
        self._strip = None

    def notify_style_update(self) -> None:
        self._strip = None
        super().notify_style_update()

    def _fit(self, width: int) -> tuple[bool, bool]:
        """(compact, with the palette key) for the keys on offer in ``width`` columns."""
        palette_width = self._palette.width + PALETTE_EXTRA if self._palette is not None else 0
        roomy = sum(entry.width + ROOMY_EXTRA for entry in self._entries)
        compact = compact_width(self._entries)
        if roomy + palette_width <= width:
            return False, self._palette is not None
        return True, self._palette is not None and compact + palette_width <= width

    def _shown(self, width: int) -> tuple[FooterEntry, ...]:
        """The keys drawn: all of them where they fit close together; else (a phone's 40 columns) those that fit,
        the keys that do something now before the dimmed ones, each kept in its place, and the help's key last:
        every key is in the help."""
        entries = self._entries
        if not self.compact or compact_width(entries) <= width:
            return entries
        helps = [entry for entry in entries if entry.action.rpartition(".")[2] == "help"]
        room = width - sum(entry.width + COMPACT_EXTRA for entry in helps)
        chosen: set[str] = set()
        for entry in sorted((entry for entry in entries if entry not in helps), key=lambda entry: not entry.enabled):
            if entry.width + COMPACT_EXTRA <= room:
                chosen.add(entry.action)
                room -= entry.width + COMPACT_EXTRA
        return (*(entry for entry in entries if entry.action in chosen), *helps)

    def _layout(self) -> Strip:
        width = self.size.width or self.app.size.width
        if self._strip is not None and self._strip.cell_length == width:
            return self._strip
        self.compact, self.show_command_palette = self._fit(width)
        entries = self._shown(width)
        base = self.base_style()
        key_style = self.part_style("key-footer--key")
        description_style = self.part_style("key-footer--description")
        dim = Style(dim=True)
        segments: list[Segment] = []
        placed: list[Placed] = []
        column = 0
        last = len(entries) - 1
        for index, entry in enumerate(entries):
            key, description = (key_style, description_style) if entry.enabled else (
                key_style + dim, description_style + dim)
            start = column
            if self.compact:  # the space after a key in its description's style, where that looks the same
                gap_alike = description.bgcolor == base.bgcolor and not description.underline
                gap = "" if index == last and not (self._palette is not None and self.show_command_palette) else " "
                pieces = ([(entry.display, key), (f" {entry.description}{gap}", description)] if gap_alike
                          else [(entry.display, key), (f" {entry.description}", description), (gap, base)])
            else:
                pieces = [(f" {entry.display} ", key), (f"{entry.description} ", description)]
            for text, style in pieces:
                segments.append(Segment(text, style))
                column += cell_len(text)
            placed.append(Placed(entry, start, column))
        if self._palette is not None and self.show_command_palette:
            entry = self._palette
            rule = " " if app_view(self).ascii_mode else "▏"
            tail = f"{rule}{entry.display} {entry.description}" + ("" if self.compact else " ")
            start = max(column, width - cell_len(tail))
            if start > column:
                segments.append(Segment(" " * (start - column), base))
            segments.append(Segment(rule, self.part_style("key-footer--rule")))
            segments.append(Segment(entry.display, key_style))
            segments.append(Segment(f" {entry.description}" + ("" if self.compact else " "), description_style))
            placed.append(Placed(entry, start + 1, start + cell_len(tail)))
            column = start + cell_len(tail)
        if column < width:
            segments.append(Segment(" " * (width - column), base))
        strip = Strip(segments).crop(0, width) if column > width else Strip(segments, width)
        if self._placed and [(each.entry.action, each.start) for each in placed] != [
                (each.entry.action, each.start) for each in self._placed]:
            self._placed_before, self._moved_at = self._placed, monotonic()
        self._placed = placed
        self._strip = strip
        return strip

    def render_line(self, y: int) -> Strip:
        if y:
            return Strip.blank(self.size.width, self.base_style())
        return self._layout()

    def on_click(self, event: events.Click) -> None:
        """A click on a key presses it (a dimmed key only rings the bell, and so does a tap just after the keys
        moved that lands on another key than it would have before: ``TAP_SETTLE``)."""
        self._layout()
        tapped = self._key_at(self._placed, event.x)
        if tapped is None:
            return
        event.stop()
        moved = monotonic() - self._moved_at < TAP_SETTLE
        before = self._key_at(self._placed_before, event.x) if moved else tapped
        if tapped.enabled and (before is not None and before.action == tapped.action):
            self.app.simulate_key(tapped.key)
        else:
            self.app.bell()

    @staticmethod
    def _key_at(placed: list[Placed], x: int) -> FooterEntry | None:
        return next((each.entry for each in placed if each.start <= x < each.end), None)
