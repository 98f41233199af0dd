"""Soluna TUI: Bruno Faidutti's stacking game in the terminal, locally and over SSH."""

__version__ = "0.1.0"
