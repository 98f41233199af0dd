"""Textual's footer, redrawn only when the keys it shows actually change, and never overlapping."""

from __future__ import annotations

from rich.cells import cell_len
from textual.screen import Screen
from textual.widgets import Footer

#: Columns around a key in the roomy look (a space either side), and after it in the compact one.
ROOMY_EXTRA, COMPACT_EXTRA = 2, 1
#: Columns the command-palette key takes besides its text (its left rule and right padding).
PALETTE_EXTRA = 2


class KeyFooter(Footer):
    """Moving between towers changes the focus but not the keys on offer; the stock footer
    rebuilds itself on every focus change, which costs most of a keystroke's time.

    It also shows its keys in the very first frame, where the stock footer waits a frame.
    When the keys do not fit the width (ASCII key names are longer), it draws them closer
    together, then leaves out the command-palette key (Ctrl+P still works; the help lists
    it), rather than let the keys slide under it.
    """

    _shown: tuple | None = None

    def on_mount(self) -> None:
        # Once the stock footer has subscribed (its own on_mount runs after this one), listen at
        # once instead of a message later: a key's dimming then lands in the same frame as the
        # board it goes with, not in a frame of its own.
        self.call_next(self._listen_at_once)

    def _listen_at_once(self) -> None:
        signal = self.screen.bindings_updated_signal
        signal.unsubscribe(self)
        signal.subscribe(self, self.bindings_changed, immediate=True)

    def compose(self):
        if self._shown is None:
            # The stock footer draws nothing until told the keys are ready; tell it now, not a frame later.
            super().bindings_changed(self.screen)
        self._shown = self._signature(self.screen)
        compact, palette = self._fit(self.size.width or self.app.size.width)
        self.set_reactive(Footer.compact, compact)
        self.set_class(compact, "-compact")
        self.set_reactive(Footer.show_command_palette, palette)
        yield from super().compose()

    def on_resize(self) -> None:
        if self._fit(self.size.width) != (self.compact, self.show_command_palette):
            self.call_after_refresh(self.recompose)

    def _fit(self, width: int) -> tuple[bool, bool]:
        """(compact, with the palette key) for the keys on offer in ``width`` columns."""
        app = self.app
        shown = {}  # one key per action, as the footer shows them
        for active in self.screen.active_bindings.values():
            if active.binding.show and active.binding.key != app.COMMAND_PALETTE_BINDING:
                shown.setdefault(active.binding.action, active.binding)
        texts = [cell_len(app.get_key_display(binding)) + 1 + cell_len(binding.description)
                 for binding in shown.values()]
        palette = self.screen.active_bindings.get(app.COMMAND_PALETTE_BINDING)
        palette_width = 0
        if palette is not None and app.ENABLE_COMMAND_PALETTE:
            binding = palette.binding
            palette_width = cell_len(app.get_key_display(binding)) + 1 + cell_len(binding.description) + PALETTE_EXTRA
        roomy = sum(text + ROOMY_EXTRA for text in texts)
        compact = sum(text + COMPACT_EXTRA for text in texts)
        if roomy + palette_width <= width:
            return False, True
        return True, compact + palette_width <= width

    def _signature(self, screen: Screen) -> tuple:
        return tuple(
            (key, active.binding.action, active.binding.description, active.enabled, active.binding.show)
            for key, active in screen.active_bindings.items()
        )

    def bindings_changed(self, screen: Screen) -> None:
        if screen is self.screen and self.is_attached:
            signature = self._signature(screen)
            if signature == self._shown:
                return
            if self._shown is not None and _without_enabled(signature) == _without_enabled(self._shown):
                self._shown = signature
                self._dim_in_place(screen)
                return
            self._shown = signature
        # A rebuild on the footer's own turn: it composes its keys in its own context.
        self.call_next(super().bindings_changed, screen)

    def _dim_in_place(self, screen: Screen) -> None:
        """Only keys' enabled states changed: dim or light the keys shown, no rebuild."""
        enabled = {active.binding.action: active.enabled for active in screen.active_bindings.values()}
        for key in self.query("FooterKey"):
            # The class alone, as the footer itself marks a disabled key: disabling the widget
            # restyles it twice over, and a click on a dimmed key already does nothing.
            key.set_class(not enabled.get(key.action, True), "-disabled")


def _without_enabled(signature: tuple) -> tuple:
    return tuple((key, action, description, show) for key, action, description, _, show in signature)
