"""Textual's command palette with a plain-character search mark, for ASCII mode."""

from __future__ import annotations

from textual.command import CommandPalette, SearchIcon


class AsciiCommandPalette(CommandPalette):
    """The stock palette draws a magnifier emoji; in ASCII mode a ``>`` stands in for it
    (its borders and truncation marks are set in ``styles/ascii.tcss``)."""

    def on_mount(self) -> None:
        self.query_one(SearchIcon).icon = ">"
