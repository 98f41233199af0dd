"""The installed ``soluna`` command: the garbage collector rests while the program loads.

Loading the game makes tens of thousands of objects that live as long as it does and almost no
garbage (about 4,000 objects), yet the collector would walk them all again and again: about a
fifth of the time to the first frame. The app switches it back on once its first frame is drawn
(and freezes what was loaded, see ``SolunaApp``); every other command, at once.
"""

from __future__ import annotations

import gc


def main() -> int:
    gc.disable()
    from .cli import main as run_command

    return run_command()
