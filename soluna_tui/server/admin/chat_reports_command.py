"""Runs in the server process: ``soluna serve chat-reports``, run by the owner beside the server (never in it).

``soluna serve chat-reports``: the chat lines players reported, newest first, each once with its match (its code
and when it began), who said it (the name shown, and their key's fingerprint: what a ban names), how many reported
it (each key, or each guest's address, once), who reported it last and when. With ``--match CODE``, that match's
talk kept with it (``--keep-chat``). The database is opened to read only: nothing is created, migrated or written.
Bad input is one line and status 2; a database that cannot be read, status 1.
"""

from __future__ import annotations

import argparse
import asyncio
import sys
import time
from collections.abc import Callable
from pathlib import Path
from typing import Any

from ..storage import ChatRecord, ChatReport, Storage, StorageError, existing_location, open_storage

#: Reports shown unless ``--last`` says otherwise.
LAST_REPORTS = 50


def add_chat_reports_command(commands: argparse._SubParsersAction[Any], data_dir: Callable[[str], Path],
                             whole_number: Callable[[int, int, str], Callable[[str], int]]) -> None:
    """``soluna serve chat-reports``, under the ``serve`` parser's subcommands."""
    reports = commands.add_parser(
        "chat-reports", help="the chat lines players reported, newest first (soluna serve chat-reports --help)",
        description=("The chat lines players reported, newest first, each once: the match (code, when it began), "
                     "who said it (name, key fingerprint), the line, how many reported it, who last and when. "
                     "With --match, a match's talk kept by --keep-chat. The database is only read."))
    reports.add_argument("--database", metavar="URL|PATH", help="the server's database (default: DIR/soluna.sqlite3)")
    reports.add_argument("--data-dir", type=data_dir, metavar="DIR", help="the server's data directory")
    reports.add_argument("--last", type=whole_number(1, 100_000, "--last"), default=LAST_REPORTS, metavar="N",
                         help=f"how many reports (default {LAST_REPORTS})")
    reports.add_argument("--match", metavar="CODE", help="a match's talk kept with it (--keep-chat), by its code")
    reports.set_defaults(run=run_chat_reports, parser=reports)


def run_chat_reports(args: argparse.Namespace) -> int:
    from ...local.files import default_data_dir

    directory = args.data_dir or default_data_dir()
    try:  # reading must not create a database: the file must be there
        lines = asyncio.run(_read(existing_location(args.database, directory), directory, args.last, args.match))
    except StorageError as error:
        print(f"soluna serve chat-reports: {error}", file=sys.stderr)
        return 1
    print("\n".join(lines))
    return 0


async def _read(location: str, directory: Path, last: int, code: str | None) -> list[str]:
    store = await open_storage(location, directory, read_only=True)
    try:
        if code is None:
            return [report_text(report) for report in await store.chat.reports(last)] or ["No chat line reported."]
        return await _match_talk(store, code.upper())
    finally:
        await store.close()


async def _match_talk(store: Storage, code: str) -> list[str]:
    """The talk kept with each match under ``code`` (a code is used again once its match is over), oldest first."""
    kept = await store.chat.of_match(code)
    if not kept:
        return [f"No talk kept under match {code} (a match's talk is kept only with --keep-chat)."]
    lines: list[str] = []
    started: float | None = None
    for line in kept:
        if not lines or line.started_at != started:
            started = line.started_at
            lines.append(f"Match {code}, begun {_when(started or 0)}:")
        lines.append(f"  {_when(line.said_at)}  {_speaker(line)}: {line.text}")
    return lines


def report_text(report: ChatReport) -> str:
    """A line reported, as the owner reads it (two lines)."""
    line = report.line
    where = "the lobby" if line.code is None else f"match {line.code} (begun {_when(line.started_at or 0)})"
    who = _speaker(line)
    reporter = report.reporter + (f" [{report.reporter_fingerprint}]" if report.reporter_fingerprint else "")
    by = f"reported by {reporter}" if report.count == 1 else f"reported {report.count} times, last by {reporter}"
    return (f"#{report.id} {_when(report.reported_at)}  {by}, in {where} ({line.room}):\n"
            f"  {_when(line.said_at)}  {who}: {line.text}")


def _speaker(line: ChatRecord) -> str:
    return f"{line.name} [{line.fingerprint}]" if line.fingerprint else f"{line.name} [guest]"


def _when(seconds: float) -> str:
    return time.strftime("%Y-%m-%d %H:%M:%S UTC", time.gmtime(seconds))
