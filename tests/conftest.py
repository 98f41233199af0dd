"""Shared test configuration."""

from __future__ import annotations

import os

# The app must not pick ASCII mode or colours from whatever terminal runs the tests.
os.environ.setdefault("TERM", "xterm-256color")
os.environ.pop("NO_COLOR", None)

#: Test folders that start servers, child processes or installed commands: ``pytest -m "not slow"`` skips them.
SLOW_FOLDERS = {"server", "e2e", "storage"}


def pytest_collection_modifyitems(config, items):
    """Mark every test in a slow folder, so the rules and app tests run on their own in seconds."""
    import pytest

    for item in items:
        if SLOW_FOLDERS.intersection(item.path.relative_to(config.rootpath).parts[1:2]):
            item.add_marker(pytest.mark.slow)
