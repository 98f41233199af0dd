"""Runs in the server process.

``soluna serve ban add|remove|list``: the ban list's file edited from the command line.

The file is rewritten at once (a temporary file renamed over it, its mode and owner kept, so a
server running as another user still reads it), under a lock so that two owners adding at once
both count. Run as root in a folder its server's user can write, a symbolic link planted there as the
file or its lock is refused, never followed (``O_NOFOLLOW``): nothing is read, created or replaced where it
points; every other line (comments, damaged lines) stays as it was. A running server
applies the change within a second or two (``ban_watch``). Bad input is one line and status 2;
an entry that is not there to remove, or a file that cannot be read or written, status 1.
"""

from __future__ import annotations

import argparse
import os
import sys
from collections.abc import Callable
from datetime import UTC, datetime
from pathlib import Path
from typing import Any

from ..config import BAN_FILE_NAME

ENTRY_HELP = ("a key's fingerprint as the server logs it (SHA256:...), an OpenSSH public key line (quoted, or as "
              "its words), an address or a CIDR network, IPv4 or IPv6")


def add_ban_command(commands: argparse._SubParsersAction[Any], data_dir: Callable[[str], Path]) -> None:
    """``soluna serve ban`` and its three actions, among ``soluna serve``'s subcommands."""
    ban = commands.add_parser(
        "ban", help="add, remove or list the keys and addresses kept out (soluna serve ban --help)",
        description=("Keep players out by their SSH key or their address. The ban list is a file (default "
                     f"DIR/{BAN_FILE_NAME}) with one entry a line and notes after '#'; a running server reads it "
                     "again within seconds of a change, closes the sessions of whoever it bans with one line, "
                     "and refuses them as they connect. 'add' and 'remove' refuse a symbolic link in place of the "
                     "file or its lock, never following it."),
        epilog="Examples: soluna serve ban add SHA256:abc...xyz --reason 'abusive in chat'; "
               "soluna serve ban add 203.0.113.0/24; soluna serve ban add \"$(cat bob.pub)\"; "
               "soluna serve ban remove 203.0.113.0/24; soluna serve ban list")
    actions = ban.add_subparsers(dest="ban_action", metavar="ACTION", required=True)
    add = actions.add_parser("add", help="ban a key or an address", description="Add an entry to the ban list.")
    add.add_argument("entry", nargs="+", metavar="KEY-OR-ADDRESS", help=ENTRY_HELP)
    add.add_argument("--reason", default="", metavar="TEXT",
                     help="a note kept with the entry, after today's date (the owner's: players never see it)")
    remove = actions.add_parser("remove", help="lift a ban",
                                description="Remove every line of the ban list that bans exactly this.")
    remove.add_argument("entry", nargs="+", metavar="KEY-OR-ADDRESS", help=ENTRY_HELP)
    listing = actions.add_parser("list", help="print the ban list",
                                 description="Print every entry of the ban list with its line number; damaged "
                                             "lines, and entries that can never match, are reported on standard "
                                             "error.")
    for parser, run in ((add, run_add), (remove, run_remove), (listing, run_list)):
        parser.add_argument("--data-dir", type=data_dir, default=argparse.SUPPRESS, metavar="DIR",
                            help="the server's data directory (default: the user data directory)")
        parser.add_argument("--ban-file", type=Path, default=argparse.SUPPRESS, metavar="PATH",
                            help=f"the ban list's file (default: DIR/{BAN_FILE_NAME})")
        parser.set_defaults(run=run, parser=parser)


def ban_file(args: argparse.Namespace) -> Path:
    from ...local.files import default_data_dir

    if args.ban_file is not None:
        return Path(args.ban_file).expanduser()
    return (args.data_dir or default_data_dir()) / BAN_FILE_NAME


def run_add(args: argparse.Namespace) -> int:
    from .bans import BanEntryError, BanList, check_reason, parse_banned, with_entry

    typed = " ".join(args.entry)
    try:
        banned, reason = parse_banned(typed), check_reason(args.reason)
    except BanEntryError as error:
        args.parser.error(str(error))
    if banned.never_matches is not None:
        args.parser.error(f"{typed} can never match a client: {banned.never_matches}")
    if banned.network is not None and banned.network.version == 4 and ":" in typed:
        print(f"{typed} is an IPv4 address written as IPv6: banned as {banned}, the address its client is seen at.")
    path = ban_file(args)
    today = datetime.now(UTC).date().isoformat()

    def edit(text: str) -> tuple[str | None, str]:
        already = next((entry for entry in BanList.parse(_encoded(text)).entries if entry.banned.covers(banned)),
                       None)
        if already is not None:
            return None, f"{banned} is banned already, by line {already.line} of {path}: {already}"
        new = with_entry(text, banned, f"{today} {reason}".strip())  # the new entry is the last line
        return new, f"Banned {banned} (line {new.count(chr(10))} of {path}); a running server applies it within " \
                    "seconds."

    return _edit(args, path, edit)


def run_remove(args: argparse.Namespace) -> int:
    from .bans import BanEntryError, BanList, parse_banned, without_entry

    try:
        banned = parse_banned(" ".join(args.entry))
    except BanEntryError as error:
        args.parser.error(str(error))
    path = ban_file(args)

    def edit(text: str) -> tuple[str | None, str]:
        new, removed = without_entry(text, banned)
        if removed:
            lines = "1 line" if removed == 1 else f"{removed} lines"
            return new, f"Removed {banned} from {path} ({lines}); a running server applies it within seconds."
        covering = [entry for entry in BanList.parse(_encoded(text)).entries if entry.banned.covers(banned)]
        also = f"; line {covering[0].line} ({covering[0].banned}) bans it still" if covering else ""
        raise _NotThere(f"{banned} is not on the ban list {path}{also}")

    return _edit(args, path, edit)


def run_list(args: argparse.Namespace) -> int:
    from ...local.files import SaveError
    from .ban_watch import read_ban_file
    from .bans import BanList

    path = ban_file(args)
    try:
        data = read_ban_file(path)
    except SaveError as error:
        return _failed(args, f"{path}: {error}")
    bans = BanList.parse(data or b"")
    if not bans.entries:
        print(f"Nobody is banned: {path} {'has no entries' if data is not None else 'does not exist yet'}.")
    for entry in bans.entries:
        print(f"{entry.line:>5}  {entry}")
    for damaged in bans.damaged:
        print(f"{path} line {damaged.line} ignored: {damaged.problem}", file=sys.stderr)
    for entry, why in bans.useless:
        print(f"{path} line {entry.line} can never match: {why}", file=sys.stderr)
    return 0


class _NotThere(ValueError):
    """What was to be removed is not on the list."""


def _edit(args: argparse.Namespace, path: Path, edit: Callable[[str], tuple[str | None, str]]) -> int:
    """Change the file under its lock: ``edit`` gives the new text (``None``: leave it) and what to say."""
    from ...local.files import SaveError, file_lock, write_atomically
    from .ban_watch import read_ban_file

    lock = path.with_name(f".{path.name}.lock")
    linked = next((each for each in (path, lock) if os.path.islink(each)), None)
    if linked is not None:
        return _failed(args, f"{linked} is a symbolic link: not followed, nothing changed (remove the link, or "
                             "give the ban list's real file with --ban-file)")
    try:
        with file_lock(lock, f"the ban list {path}", follow_links=False):
            data = read_ban_file(path, follow_links=False)
            new, said = edit(data.decode("utf-8", "surrogateescape") if data is not None else "")
            if new is not None:
                write_atomically(path, _encoded(new), keep_access=True)
    except _NotThere as error:
        return _failed(args, str(error))
    except SaveError as error:
        return _failed(args, f"{path}: {error}")
    except OSError as error:
        return _failed(args, f"cannot write {path}: {error.strerror or error}")
    print(said)
    return 0


def _encoded(text: str) -> bytes:
    """The file's text back as its bytes (lines that were not UTF-8 kept as they were)."""
    return text.encode("utf-8", "surrogateescape")


def _failed(args: argparse.Namespace, message: str) -> int:
    from ...local.files import one_line

    print(f"{args.parser.prog}: error: {one_line(message)}", file=sys.stderr)
    return 1

