"""Shared by the server process and the child: how a session's child is started, and what its exit status says.

The server starts a child by module name (``CHILD_MODULE``, or forked by the ``ZYGOTE_MODULE``
process) and hands it a ``ChildConfig``; it never imports the child's package. The child reports
the player's doings no more often than ``ACTIVITY_EVERY`` (the server may ask for less), and ends
with an exit status the server reads (``FAILED``, ``OUT_OF_MEMORY``).
"""

from __future__ import annotations

import json
from dataclasses import asdict, dataclass, field

#: The modules the server runs (``python -m``): a session's child, and the warm process that forks children.
CHILD_MODULE = "soluna_tui.online.child"
ZYGOTE_MODULE = "soluna_tui.online.zygote"
#: The one command a session may ask for (``ssh -t -p PORT HOST screen-reader``): the game in lines, for a screen
#: reader (``online/line_session.py``); every other command is refused.
SCREEN_READER_COMMAND = "screen-reader"
#: Exit statuses: an internal error, and the memory limit reached (the server's line to the player says which).
FAILED, OUT_OF_MEMORY = 1, 3
#: The fewest seconds between two reports that the player did something (the server may ask for fewer).
ACTIVITY_EVERY = 3.0


@dataclass(frozen=True)
class ChildConfig:
    """Everything a child needs besides its terminal and its link to the server."""

    name: str
    ascii_mode: bool = False
    environment: dict[str, str] = field(default_factory=dict)
    memory_mb: int = 1024
    cpu_seconds: int = 900
    computer_pause: float = 0.6
    reveal_pause: float = 0.5
    #: Seconds between two reports to the server that the player did something, at the fewest.
    activity_every: float = ACTIVITY_EVERY
    #: The game in lines for a screen reader (``SCREEN_READER_COMMAND``), not the full-screen app.
    line_mode: bool = False

    def to_json(self) -> str:
        return json.dumps(asdict(self))

    @classmethod
    def from_json(cls, text: str) -> ChildConfig:
        return cls(**json.loads(text))
