"""Runs in the server process.

What ``soluna serve`` is told: where to listen, where to keep its files, and its limits."""

from __future__ import annotations

import ipaddress
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from ..rules.clock import PRESETS, ClockSetting
from .rating_model import RANKED_AFTER, RANKED_OPPONENTS

#: Seconds nobody could play (the database away, every server down) past which the matches in play are adjourned
#: rather than played on at once: their players have most likely gone (``lobby.decisions.Referee.adjourn``).
ADJOURN_AFTER = 24 * 3600.0

DEFAULT_PORT = 2222
HOST_KEY_NAME = "ssh_host_ed25519_key"
#: The ban list's file in the data directory (``bans.py``; ``--ban-file`` chooses another).
BAN_FILE_NAME = "bans.txt"
SPAWN_MODES = ("zygote", "exec")


@dataclass(frozen=True)
class Limits:
    """Every limit has a flag; the defaults suit a small public server on two cores."""

    #: Game sessions (child processes) at once, over all connections.
    sessions: int = 32
    #: Connections at once from one address (playing or not).
    per_ip: int = 3
    #: New connections a minute from one address.
    new_per_minute: int = 12
    #: Connections at once that have not started a game (logging in), in all and from one address; past the
    #: first, a newcomer takes the place of the one that has waited longest (they never take a game's place).
    unstarted: int = 32
    unstarted_per_ip: int = 2
    #: Sessions (terminals) on one SSH connection.
    sessions_per_connection: int = 1
    #: Bytes a second a player may send; bursts of a few seconds' worth are allowed.
    input_rate: int = 8192
    #: Channel requests a second one session may make (window changes, signals, env...); bursts of 10 s allowed.
    request_rate: int = 50
    #: Seconds without the player doing anything (a key that acts) before the session closes (warned a minute before).
    idle_timeout: float = 900.0
    idle_warning: float = 60.0
    #: Seconds one session may last, keys or not.
    session_time: float = 3 * 3600.0
    #: Seconds a player may be away from a match, in all (each absence holds the seat for what is left), before
    #: the opponent wins by forfeit.
    hold_time: float = 300.0
    #: Address space of one child process, in MiB, and its CPU time in seconds.
    child_memory_mb: int = 1024
    child_cpu_seconds: int = 900
    #: Sessions whose apps share one process (a house, ``sessions/houses.py``); 1: a process each.
    sessions_per_process: int = 8
    #: Seconds to log in and start a game (time enough to accept a host key); keepalive interval (three missed
    #: answers close the connection).
    login_timeout: float = 20.0
    keepalive_interval: float = 30.0

    @property
    def input_burst(self) -> int:
        """The most input accepted at once (a paste, a flurry of mouse events)."""
        return 4 * self.input_rate

    @property
    def request_burst(self) -> int:
        """The most channel requests at once (a window dragged to a new size sends dozens)."""
        return 10 * self.request_rate

    @property
    def channels_per_connection(self) -> int:
        """Session channels open at once on one connection: the games, and a couple more to refuse politely."""
        return self.sessions_per_connection + 2


@dataclass(frozen=True)
class WebDoor:
    """The web door (``soluna serve --web``): where it listens, the address players reach it at, whom to believe."""

    port: int
    host: str = "127.0.0.1"
    #: The URL players open when the server is behind a reverse proxy (``https://soluna.example.org``): the
    #: websocket's Origin must be its origin. ``None``: the address listened on, and ``host_names``.
    public_url: str | None = None
    #: Names players open the page at besides the address listened on (``--web-host-name``), without a public
    #: URL; never whatever a request's Host says (``web/origins.py``).
    host_names: tuple[str, ...] = ()
    #: Reverse proxies whose ``X-Forwarded-For`` names the player's address (``--web-proxy-from``); others' is not read.
    proxy_from: tuple[ipaddress.IPv4Network | ipaddress.IPv6Network, ...] = ()


@dataclass(frozen=True)
class ServerConfig:
    """One server: its address, its files, its limits, and how children start."""

    data_dir: Path
    host: str = ""
    port: int = DEFAULT_PORT
    #: A host key file (created on first start when missing); default ``DATA_DIR/ssh_host_ed25519_key``.
    host_key_path: Path | None = None
    #: A host key object instead of a file (tests use an in-memory key).
    host_key: Any = None
    limits: Limits = field(default_factory=Limits)
    #: ``postgresql://...`` (several servers share it), a SQLite file, or ``None``: ``DATA_DIR/soluna.sqlite3``.
    database: str | None = None
    #: ``zygote`` forks children from a process with the app already imported; ``exec`` starts Python each time.
    spawn: str = "zygote"
    #: The computer's least time to move and how long its move is shown, in every child.
    computer_pause: float = 0.6
    reveal_pause: float = 0.5
    #: Load balancers whose PROXY protocol headers are believed (``--proxy-from``); others may send none.
    proxy_from: tuple[ipaddress.IPv4Network | ipaddress.IPv6Network, ...] = ()
    #: The clocks a two-player match may be created with (besides none).
    clocks: tuple[ClockSetting, ...] = PRESETS
    #: Rated matches a player has played before the leaderboard lists them.
    ranked_after: int = RANKED_AFTER
    #: Different established players they must have had rated matches against (0: ``ranked_after`` alone).
    ranked_opponents: int = RANKED_OPPONENTS
    #: Keys established from the start (``--established``): the trust the leaderboard admits players by spreads
    #: from them (``rating_model.py``).
    established: tuple[str, ...] = ()
    #: The ban list's file (``bans.py``), read again when it changes; default ``DATA_DIR/bans.txt``.
    ban_file: Path | None = None
    #: Table talk at all (``--no-chat``), and for guests without an SSH key (``--no-guest-chat``); a match's talk
    #: written to the database with it (``--keep-chat``; never otherwise).
    chat: bool = True
    guest_chat: bool = True
    keep_chat: bool = False
    #: Whether the lobby pairs players who ask for an opponent, and passes challenges on.
    quick_match: bool = True
    challenges: bool = True
    #: Whether players with an SSH key may announce tournaments from the lobby (``--player-tournaments``); the
    #: owner always may (``soluna serve tournament create``).
    player_tournaments: bool = False
    #: The web door, if the server opens one (``--web PORT``): browsers play in the same lobby.
    web: WebDoor | None = None
    #: Seconds nobody could play before the matches in play are adjourned (no flag: tests shorten it).
    adjourn_after: float = ADJOURN_AFTER

    @property
    def resolved_host_key_path(self) -> Path:
        return self.host_key_path if self.host_key_path is not None else self.data_dir / HOST_KEY_NAME

    @property
    def resolved_ban_file(self) -> Path:
        return self.ban_file if self.ban_file is not None else self.data_dir / BAN_FILE_NAME

    @property
    def matches_dir(self) -> Path:
        """Where servers before the database kept their JSON match files (imported once at start)."""
        return self.data_dir / "matches"
