"""The environment the tests run in, the same whatever machine or terminal starts them.

The process that starts the run sets it (``tests/conftest.py``, ``pytest_configure``) before its workers start,
so the workers and every process a test starts inherit it: a test that passes at 80x24 under xterm passes in a
200-column terminal, under ``TERM=dumb``, with ``NO_COLOR`` or another locale, and leaves the caller's home alone.
"""

from __future__ import annotations

import contextlib
import os
from collections.abc import Mapping
from pathlib import Path

#: Set for every run: a known terminal type with colours, a UTF-8 locale.
KNOWN_ENVIRONMENT = {"TERM": "xterm-256color", "LANG": "C.UTF-8"}
#: The caller's settings that would change what the app draws, or what a test's SSH client uses, dropped: a
#: terminal size (``COLUMNS`` and ``LINES`` win over a pseudo-terminal's own size; each test that makes one gives
#: its size), colour and terminal hints, other locale settings, Textual's switches, an SSH agent.
UNKNOWN_ENVIRONMENT = ("COLUMNS", "LINES", "JUPYTER_COLUMNS", "JUPYTER_LINES", "NO_COLOR", "FORCE_COLOR",
                       "COLORTERM", "TTY_COMPATIBLE", "TTY_INTERACTIVE", "LANGUAGE", "SSH_AUTH_SOCK", "TEXTUAL",
                       "SOLUNA_SCREEN_READER")
UNKNOWN_PREFIXES = ("LC_", "TEXTUAL_")
#: Kept, though they begin so: pytest-textual-snapshot's own, which tell its workers where to write.
KEPT_PREFIXES = ("TEXTUAL_SNAPSHOT_",)
#: A terminal's size.
TERMINAL_SIZE = ("COLUMNS", "LINES")
#: The XDG folders, each in the run's own home.
XDG_FOLDERS = {"XDG_CONFIG_HOME": ".config", "XDG_DATA_HOME": ".local/share", "XDG_STATE_HOME": ".local/state",
               "XDG_CACHE_HOME": ".cache", "XDG_RUNTIME_DIR": "run"}


def known_environment(caller: Mapping[str, str], home: Path) -> dict[str, str]:
    """``caller``'s environment without what would make a test depend on the machine or terminal it runs on, with
    ``home`` (a throwaway folder) as its home and the parent of its XDG folders."""
    kept = {name: value for name, value in caller.items()
            if name not in UNKNOWN_ENVIRONMENT
            and (not name.startswith(UNKNOWN_PREFIXES) or name.startswith(KEPT_PREFIXES))}
    folders = {name: str(home / folder) for name, folder in XDG_FOLDERS.items()}
    return kept | KNOWN_ENVIRONMENT | {"HOME": str(home)} | folders


def use_environment(environment: Mapping[str, str]) -> None:
    """Make ``environment`` this process's, and every child's it starts.

    Both in ``os.environ`` and in the C library's environment, which a child started without ``env=`` inherits:
    GNU readline (pytest's debugger imports it) puts the terminal's size there as ``COLUMNS`` and ``LINES``
    as it loads, where ``os.environ`` never sees it. Imported first, so that it cannot do so later.
    """
    with contextlib.suppress(ImportError):
        import readline  # noqa: F401
    os.environ.clear()
    os.environ.update(environment)
    for name in UNKNOWN_ENVIRONMENT:
        if name not in environment:
            os.unsetenv(name)
