"""Shared test configuration."""

from __future__ import annotations

import os

# The app must not pick ASCII mode or colours from whatever terminal runs the tests.
os.environ.setdefault("TERM", "xterm-256color")
os.environ.pop("NO_COLOR", None)
