"""Textual's footer, redrawn only when the keys it shows actually change."""

from __future__ import annotations

from textual.screen import Screen
from textual.widgets import Footer
from textual.widgets._footer import FooterKey


class KeyFooter(Footer):
    """Moving between towers changes the focus but not the keys on offer; the stock footer
    rebuilds itself on every focus change, which costs most of a keystroke's time.

    It also shows its keys in the very first frame, where the stock footer waits a frame.
    """

    _shown: tuple | None = None

    def __init__(self) -> None:
        super().__init__()
        self.set_reactive(Footer._bindings_ready, True)

    def compose(self):
        self._shown = self._signature(self.screen)
        yield from super().compose()

    def _signature(self, screen: Screen) -> tuple:
        return tuple(
            (key, active.binding.action, active.binding.description, active.enabled, active.binding.show)
            for key, active in screen.active_bindings.items()
        )

    def bindings_changed(self, screen: Screen) -> None:
        if screen is self.screen and self.is_attached:
            signature = self._signature(screen)
            if signature == self._shown:
                self._bindings_ready = True
                return
            if self._shown is not None and _without_enabled(signature) == _without_enabled(self._shown):
                self._shown = signature
                self._bindings_ready = True
                self._dim_in_place(screen)
                return
            self._shown = signature
        super().bindings_changed(screen)

    def _dim_in_place(self, screen: Screen) -> None:
        """Only keys' enabled states changed: dim or light the keys shown, no rebuild."""
        enabled = {active.binding.action: active.enabled for active in screen.active_bindings.values()}
        for key in self.query(FooterKey):
            disabled = not enabled.get(key.action, True)
            key._disabled = disabled
            key.set_class(disabled, "-disabled")


def _without_enabled(signature: tuple) -> tuple:
    return tuple((key, action, description, show) for key, action, description, _, show in signature)
