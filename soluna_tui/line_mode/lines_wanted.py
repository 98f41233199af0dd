"""Whether to play in lines: the command line's word, else the environment's, else the preferences'.

Read before anything of the game is loaded, so it imports only the preferences.
"""

from __future__ import annotations

import os
from collections.abc import Mapping

from ..local.preferences import Preferences

#: The environment variable that turns the line mode on (``1``) or off (``0``) for one run.
SWITCH = "SOLUNA_SCREEN_READER"
ON, OFF = frozenset({"1", "yes", "on", "true"}), frozenset({"0", "no", "off", "false"})


def wanted(flag: bool | None, preferences: Preferences, environ: Mapping[str, str] = os.environ) -> bool:
    """Whether to play in lines: ``--screen-reader`` or ``--no-screen-reader`` (``flag``, remembered in the
    preferences), else ``SOLUNA_SCREEN_READER`` for this run, else what the preferences remember."""
    if flag is not None:
        if flag != preferences.screen_reader:
            preferences.remember(screen_reader=flag)
        return flag
    switch = environ.get(SWITCH, "").strip().casefold()
    if switch in ON or switch in OFF:
        return switch in ON
    return preferences.screen_reader
