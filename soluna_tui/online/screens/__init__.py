"""Runs in the child.

The screens only a session of ``soluna serve`` shows (the game's own are in ``soluna_tui/screens``).
"""
