"""Runs in the server process: ``soluna serve names``, run by the owner beside the server (never in it).

A name a keyed player gives up stays reserved to their key for 30 days (``storage.players.NAME_RESERVED_FOR``):
nobody else may take it, or one that looks like it. ``soluna serve names list`` prints the names reserved now, with
their key and its name now; ``soluna serve names release NAME`` frees one at once (anyone may take it then; a name
a key holds now is not given up, and is not released). A running server needs no telling: a name is looked up in
the store as it is claimed. Bad input is one line and status 2; a name not reserved, or a database that cannot be
read or written, status 1.
"""

from __future__ import annotations

import argparse
import asyncio
import sys
import time
from collections.abc import Callable
from pathlib import Path
from typing import Any

from ..storage import StorageError, existing_location, open_storage
from ..storage.records import ReservedName


def add_names_command(commands: argparse._SubParsersAction[Any], data_dir: Callable[[str], Path]) -> None:
    """``soluna serve names`` and its two actions, among ``soluna serve``'s subcommands."""
    names = commands.add_parser(
        "names", help="list or release the names players gave up (soluna serve names --help)",
        description=("A name a keyed player gives up (choosing another) stays reserved to their key for 30 days: "
                     "nobody else may take it, or a name that looks like it. 'list' prints the names reserved now; "
                     "'release' frees one at once."),
        epilog="Examples: soluna serve names list; soluna serve names release bob --data-dir /var/lib/soluna")
    actions = names.add_subparsers(dest="names_action", metavar="ACTION", required=True)
    listing = actions.add_parser("list", help="print the names reserved now",
                                 description="Print every name given up and still reserved: the name, until when, "
                                             "its key's fingerprint and the name that key holds now.")
    release = actions.add_parser("release", help="free a reserved name at once",
                                 description="Free a name given up from its key's reservation: anyone may take it "
                                             "(or a name that looks like it) at once.")
    release.add_argument("name", metavar="NAME", help="the name given up (case, spaces and look-alike letters aside)")
    for parser, run in ((listing, run_list), (release, run_release)):
        parser.add_argument("--database", metavar="URL|PATH",
                            help="the server's database (default: DIR/soluna.sqlite3)")
        parser.add_argument("--data-dir", type=data_dir, metavar="DIR",
                            help="the server's data directory (default: the user data directory)")
        parser.set_defaults(run=run, parser=parser)


def run_list(args: argparse.Namespace) -> int:
    return _run(args, _list)


def run_release(args: argparse.Namespace) -> int:
    if not args.name.strip():
        args.parser.error("give the name to release")
    return _run(args, lambda location, directory: _release(location, directory, args.name))


def _run(args: argparse.Namespace, work: Callable[[str, Path], Any]) -> int:
    """The store found (a SQLite file must be there: this never creates one), ``work`` done, its lines printed."""
    from ...local.files import default_data_dir, one_line

    directory = args.data_dir or default_data_dir()
    try:
        status, lines = asyncio.run(work(existing_location(args.database, directory), directory))
    except StorageError as error:
        print(f"{args.parser.prog}: error: {one_line(str(error))}", file=sys.stderr)
        return 1
    print("\n".join(lines), file=sys.stdout if status == 0 else sys.stderr)
    return int(status)


async def _list(location: str, directory: Path) -> tuple[int, list[str]]:
    store = await open_storage(location, directory)
    try:
        reserved = await store.players.reserved()
    finally:
        await store.close()
    return 0, [reserved_line(each) for each in reserved] or ["No name is reserved."]


async def _release(location: str, directory: Path, name: str) -> tuple[int, list[str]]:
    store = await open_storage(location, directory)
    try:
        released = await store.players.release(name)
        holder = await store.players.name_holder(name) if released is None else None
    finally:
        await store.close()
    if released is not None:
        return 0, [f"Released {released.name} (reserved to {released.holder} [{released.fingerprint}] until "
                   f"{_when(released.until)}): anyone may take it now."]
    if holder is not None:
        return 1, [f"{holder.name} is the name {holder.fingerprint} holds now, not a name given up: nothing released."]
    return 1, [f"No key has {name.strip()} reserved: anyone may take it."]


def reserved_line(reserved: ReservedName) -> str:
    """A reserved name, as the owner reads it."""
    return f"{reserved.name}  until {_when(reserved.until)}  {reserved.fingerprint} (now {reserved.holder})"


def _when(seconds: float) -> str:
    return time.strftime("%Y-%m-%d %H:%M UTC", time.gmtime(seconds))
