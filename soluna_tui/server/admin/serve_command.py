"""Runs in the server process.

``soluna serve``: its options, and the server run until Ctrl+C or SIGTERM.

Bad values are argparse errors (one line, exit 2, like every ``soluna``
command); a server that cannot start (a port in use, an unreadable host key)
says why in one line and exits with status 1. Started as root, it runs as ``--user`` once the host key
is read, or refuses to start (``privileges.py``).
"""

from __future__ import annotations

import argparse
import asyncio
import contextlib
import logging
import os
import resource
import signal
import sys
from collections.abc import Callable
from pathlib import Path
from typing import Any

from ...rules.clock import PRESETS, ClockSetting, ClockSettingError
from ..config import BAN_FILE_NAME, DEFAULT_PORT, SPAWN_MODES, Limits, ServerConfig, WebDoor
from ..gate import EXPLAINING_AT_ONCE
from ..rating_model import RANKED_AFTER, RANKED_OPPONENTS
from .ban_command import add_ban_command
from .chat_reports_command import add_chat_reports_command
from .names_command import add_names_command
from .tournament_command import add_tournament_command

#: The most clocks a server offers.
MOST_CLOCKS = 6

#: (flag, Limits field, lowest, highest, what it limits)
LIMIT_FLAGS = (
    ("--max-sessions", "sessions", 1, 10_000, "game sessions at once, in all"),
    ("--max-per-ip", "per_ip", 1, 1_000, "connections at once from one address, playing or not"),
    ("--max-new-per-minute", "new_per_minute", 1, 10_000, "new connections a minute from one address"),
    ("--max-unstarted", "unstarted", 1, 10_000,
     "connections at once that have not started a game; past it, the one waiting longest makes room"),
    ("--max-unstarted-per-ip", "unstarted_per_ip", 1, 1_000,
     "connections at once from one address that have not started a game"),
    ("--login-timeout", "login_timeout", 2, 600, "seconds a connection has to log in and start a game"),
    ("--max-sessions-per-connection", "sessions_per_connection", 1, 100, "game sessions on one SSH connection"),
    ("--max-input-rate", "input_rate", 64, 10_000_000, "bytes a second a player may send (bursts of 4 s allowed)"),
    ("--max-request-rate", "request_rate", 5, 100_000,
     "channel requests (resizes, signals) a second per session (bursts of 10 s allowed)"),
    ("--idle-timeout", "idle_timeout", 10, 86_400,
     "seconds without a key that does something (other bytes do not count) before a session closes"),
    ("--max-session-time", "session_time", 60, 7 * 86_400, "seconds one session may last"),
    ("--hold-time", "hold_time", 5, 86_400,
     "seconds a player may be away from a match in all (each absence holds the seat for what is left) "
     "before a forfeit"),
    ("--child-memory", "child_memory_mb", 128, 65_536, "MiB of address space for each session's process"),
    ("--child-cpu", "child_cpu_seconds", 10, 86_400, "seconds of CPU time for each session's process"),
    ("--sessions-per-process", "sessions_per_process", 1, 64,
     "sessions whose games share one process, in about half the memory each; their memory and CPU limits "
     "are pooled and a crash of the process ends them all (1: a process each)"),
)


def add_serve_command(commands: argparse._SubParsersAction[Any],
                      whole_number: Callable[[int, int, str], Callable[[str], int]],
                      data_dir: Callable[[str], Path]) -> None:
    """The ``serve`` subcommand, with the CLI's own converters for whole numbers and the data directory."""
    defaults = Limits()
    serve = commands.add_parser(
        "serve",
        help="offer the game over SSH: ssh -p 2222 HOST plays it",
        description=("Offer the game as an SSH service. Anyone who connects gets a lobby: play the computer, "
                     "create a match and give its four-letter code to a friend, join one, or watch one. "
                     "No shell, commands, file transfer or forwarding are ever offered."),
        epilog="Stop the server with Ctrl+C or SIGTERM: players are told, and matches in play are kept.",
    )
    serve.add_argument("--host", default="", metavar="H", help="the address to listen on (default: every address)")
    serve.add_argument("--port", type=whole_number(0, 65_535, "the port"), default=DEFAULT_PORT, metavar="P",
                       help=f"the port to listen on (default {DEFAULT_PORT}; 0 picks a free one)")
    serve.add_argument("--data-dir", type=data_dir, metavar="DIR",
                       help="where the host key and the matches are kept (default: the user data directory)")
    serve.add_argument("--host-key", type=Path, metavar="PATH",
                       help="the host key file, created (ed25519, mode 0600) when missing "
                            "(default: DIR/ssh_host_ed25519_key)")
    serve.add_argument("--database", metavar="URL",
                       help="where players, matches and ratings are kept: postgresql://USER@HOST/DB to share one "
                            "lobby between several servers, or a SQLite file (default: DIR/soluna.sqlite3)")
    serve.add_argument("--spawn", choices=SPAWN_MODES, default="zygote",
                       help="how each session's process starts: forked from a warm process (zygote, default) "
                            "or a fresh Python each time (exec)")
    serve.add_argument("--proxy-from", type=_proxy_network, action="append", default=[], metavar="CIDR",
                       help="a load balancer (address or CIDR block; repeatable) whose PROXY protocol v1/v2 "
                            "headers give the real client's address; others may send none")
    serve.add_argument("--ban-file", type=Path, metavar="PATH",
                       help="the ban list: keys and addresses kept out, read again within seconds of a change "
                            f"(default: DIR/{BAN_FILE_NAME}; edit it with 'soluna serve ban')")
    serve.add_argument("--clocks", type=_clocks, default=PRESETS, metavar="LIST",
                       help="the clocks a two-player match may be created with, as MINUTES+SECONDS a move, "
                            f"comma-separated, or 'none' (default {','.join(each.label for each in PRESETS)})")
    serve.add_argument("--user", metavar="NAME",
                       help="started as root: the unprivileged user to run as once the host key is read (the "
                            "server, the store and every session); required then")
    serve.add_argument("--allow-root", action="store_true",
                       help="started as root without --user: run as root all the same, sessions included "
                            "(a throwaway container; never a public server)")
    serve.add_argument("--ranked-after", type=whole_number(0, 1_000, "--ranked-after"), default=RANKED_AFTER,
                       metavar="N", help=f"rated matches a player has played before the leaderboard lists them "
                                         f"(default {RANKED_AFTER})")
    serve.add_argument("--ranked-opponents", type=whole_number(0, 100, "--ranked-opponents"),
                       default=RANKED_OPPONENTS, metavar="N",
                       help="different established players a player has had rated matches against before the "
                            f"leaderboard lists them; 0 lists by --ranked-after alone (default {RANKED_OPPONENTS})")
    serve.add_argument("--established", type=_established_key, action="append", default=[], metavar="KEY",
                       help="a key established from the start (its SHA256:... fingerprint or OpenSSH public key; "
                            "repeat for more): trust spreads from such keys to those who play them (see "
                            "docs/serving.md)")
    serve.add_argument("--no-quick-match", dest="quick_match", action="store_false",
                       help="pair nobody who asks the lobby for an opponent (quick matches are offered by default)")
    serve.add_argument("--no-challenges", dest="challenges", action="store_false",
                       help="pass no challenges on between players in the lobby (they are by default)")
    serve.add_argument("--player-tournaments", action="store_true",
                       help="players with an SSH key may announce tournaments from the lobby (the owner always may: "
                            "soluna serve tournament create)")
    talk = serve.add_argument_group("table talk")
    talk.add_argument("--no-chat", dest="chat", action="store_false",
                      help="no chat at all: in the lobby, between players, among spectators")
    talk.add_argument("--no-guest-chat", dest="guest_chat", action="store_false",
                      help="only players with an SSH key may chat (guests still read it)")
    talk.add_argument("--keep-chat", action="store_true",
                      help="write each match's talk to the database with the match (never written otherwise; "
                           "lines players report are kept either way: soluna serve chat-reports)")
    door = serve.add_argument_group("web door", "the same lobby in a web browser (see docs/serving.md)")
    door.add_argument("--web", type=whole_number(0, 65_535, "--web"), metavar="PORT",
                      help="also serve the game to web browsers on this port (0 picks a free one): SSH and "
                           "browser players share the lobby, the store and every limit")
    door.add_argument("--web-host", default="127.0.0.1", metavar="H",
                      help="the address the web door listens on (default 127.0.0.1: a reverse proxy in front; "
                           "0.0.0.0 for every address)")
    door.add_argument("--public-url", type=_public_url, metavar="URL",
                      help="the address players open, behind a reverse proxy (https://soluna.example.org): "
                           "the page's websocket is accepted only from it")
    door.add_argument("--web-host-name", type=_web_host_name, action="append", default=[], metavar="NAME",
                      help="a name players open the page at, without --public-url (soluna.lan; repeatable): "
                           "besides the address the web door listens on (where it listens on every address, any "
                           "of the machine's addresses) and localhost, the page is served and its websocket "
                           "accepted at these names only, never at whatever name a request says")
    door.add_argument("--web-proxy-from", type=_proxy_network, action="append", default=[], metavar="CIDR",
                      help="a reverse proxy (address or CIDR block; repeatable) whose X-Forwarded-For header "
                           "gives the player's address; nobody else's is read")
    limits = serve.add_argument_group("limits")
    for flag, name, low, high, what in LIMIT_FLAGS:
        default = getattr(defaults, name)
        limits.add_argument(flag, dest=name, type=whole_number(low, high, flag), default=int(default),
                            metavar="N", help=f"{what} (default {int(default)})")
    commands = serve.add_subparsers(dest="serve_command", title="subcommand")
    add_ban_command(commands, data_dir)
    add_chat_reports_command(commands, data_dir, whole_number)
    add_names_command(commands, data_dir)
    add_tournament_command(commands, data_dir, whole_number)
    serve.set_defaults(run=run_serve, parser=serve)


def _proxy_network(text: str) -> Any:
    from ..ssh.proxy_protocol import ProxyHeaderError, parse_network

    try:
        return parse_network(text)
    except ProxyHeaderError as error:
        raise argparse.ArgumentTypeError(str(error)) from None


def _established_key(text: str) -> str:
    """A key's fingerprint, from its ``SHA256:...`` fingerprint or its OpenSSH public key (as the ban list reads)."""
    from .bans import BanEntryError, parse_banned

    try:
        banned = parse_banned(text)
    except BanEntryError as error:
        raise argparse.ArgumentTypeError(str(error)) from None
    if banned.fingerprint is None:
        raise argparse.ArgumentTypeError(f"{text.strip()!r} is an address: give a key's SHA256:... fingerprint")
    return banned.fingerprint


def _public_url(text: str) -> str:
    from ..web.page import PublicUrlError, public_origin

    try:
        return public_origin(text)
    except PublicUrlError as error:
        raise argparse.ArgumentTypeError(str(error)) from None


def _web_host_name(text: str) -> str:
    from ..web.origins import WebHostNameError, parse_host_name

    try:
        return parse_host_name(text)
    except WebHostNameError as error:
        raise argparse.ArgumentTypeError(str(error)) from None


def _clocks(text: str) -> tuple[ClockSetting, ...]:
    """``3+2,10+5``: the clocks offered; ``none``: matches have no clock."""
    if text.strip().lower() == "none":
        return ()
    try:
        clocks = tuple(dict.fromkeys(ClockSetting.parse(part) for part in text.split(",")))
    except ClockSettingError as error:
        raise argparse.ArgumentTypeError(str(error)) from None
    if len(clocks) > MOST_CLOCKS:
        raise argparse.ArgumentTypeError(f"at most {MOST_CLOCKS} clocks")
    return clocks


def config_from(args: argparse.Namespace) -> ServerConfig:
    from ...local.files import default_data_dir

    values = {name: getattr(args, name) for _, name, *_ in LIMIT_FLAGS}
    limits = Limits(**values, idle_warning=min(60.0, values["idle_timeout"] / 4))
    return ServerConfig(data_dir=args.data_dir or default_data_dir(), host=args.host, port=args.port,
                        host_key_path=args.host_key, limits=limits, spawn=args.spawn,
                        proxy_from=tuple(args.proxy_from), database=args.database, clocks=args.clocks,
                        ranked_after=args.ranked_after, ranked_opponents=args.ranked_opponents,
                        established=tuple(args.established),
                        ban_file=args.ban_file.expanduser() if args.ban_file is not None else None, chat=args.chat,
                        guest_chat=args.guest_chat, keep_chat=args.keep_chat, quick_match=args.quick_match,
                        challenges=args.challenges, player_tournaments=args.player_tournaments, web=_web_door(args))


def _web_door(args: argparse.Namespace) -> WebDoor | None:
    """The web door's settings, if ``--web`` opens one (its other flags alone are an error)."""
    if args.web is None:
        if args.public_url is not None or args.web_proxy_from or args.web_host_name:
            args.parser.error("--public-url, --web-proxy-from and --web-host-name need --web PORT")
        return None
    if args.public_url is not None and args.web_host_name:
        args.parser.error("--web-host-name is for a web door without --public-url: the public URL is the page's "
                          "only address")
    return WebDoor(port=args.web, host=args.web_host, public_url=args.public_url,
                   proxy_from=tuple(args.web_proxy_from), host_names=tuple(args.web_host_name))


def run_serve(args: argparse.Namespace) -> int:
    from .privileges import UserRefused, drop_root, run_as

    try:
        account = run_as(args.user, args.allow_root)
    except UserRefused as error:
        print(f"{args.parser.prog}: error: {error}", file=sys.stderr)
        return 2
    logging.basicConfig(level=logging.INFO, format="%(asctime)s %(message)s", stream=sys.stderr)
    logging.getLogger("asyncssh").setLevel(logging.WARNING)  # its info lines would log commands clients send
    config = config_from(args)
    raise_file_limit(config.limits)
    try:
        if account is not None:
            config = drop_root(config, account)  # before the store, the zygote, any thread and the listener
        elif os.geteuid() == 0:
            logging.getLogger("soluna.server").warning("running as root (--allow-root): so does every session")
        asyncio.run(_serve_until_stopped(config))
    except (OSError, ValueError) as error:
        reason = error.strerror if isinstance(error, OSError) and error.strerror else str(error)
        print(f"soluna serve: cannot serve: {reason}", file=sys.stderr)
        return 1
    return 0


def raise_file_limit(limits: Limits) -> None:
    """Open files enough for every connection (a socket: one per game, the unstarted ones, refused ones being told
    why) and session (a PTY, a link, a pidfd), if the system allows."""
    connections = limits.sessions + limits.unstarted + EXPLAINING_AT_ONCE
    wanted = 64 + 2 * connections + 4 * limits.sessions
    soft, hard = resource.getrlimit(resource.RLIMIT_NOFILE)
    if soft != resource.RLIM_INFINITY and soft < wanted:
        target = wanted if hard == resource.RLIM_INFINITY else min(wanted, hard)
        with contextlib.suppress(ValueError, OSError):
            resource.setrlimit(resource.RLIMIT_NOFILE, (max(soft, target), hard))


async def _serve_until_stopped(config: ServerConfig) -> None:
    from ..ssh.ssh_server import serve

    stop = asyncio.Event()
    loop = asyncio.get_running_loop()
    for number in (signal.SIGINT, signal.SIGTERM):
        loop.add_signal_handler(number, stop.set)
    await serve(config, stop)
