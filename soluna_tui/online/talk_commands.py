"""Runs in the child.

Muting, unmuting and reporting a talker: what each asks of the server, and what the player is told, worked out once
for the full screen's chat line (``/mute bob``, ``talk_half.py``) and the lobby in lines (``mute bob``,
``line_talk.py``). ``typed_as`` is how the player types a command where they are: ``/`` on the chat line, nothing in
lines.
"""

from __future__ import annotations

from ..link.messages import LONGEST_NAME, MuteChat, ReportChat
from ..play.chat_book import ChatBook, Mute


def mute_requests(book: ChatBook, command: Mute, typed_as: str = "/") -> tuple[list[MuteChat], str | None]:
    """What muting (or unmuting) someone, or all talk, asks of the server, kept in ``book`` at once; and what the
    player is told (``None``: the server says what came of it)."""
    if command.name is None:
        book.deaf = command.muted
        return [MuteChat(None, command.muted)], (f"All talk muted ({typed_as}unmute undoes it)." if command.muted
                                                 else "You hear the talk again.")
    speakers = book.speakers(command.name)
    if not speakers:  # muted on an earlier visit, perhaps, or online and silent so far: the server knows who is
        return [MuteChat(None, command.muted, name=command.name[:LONGEST_NAME])], None
    for number, name in speakers.items():
        if command.muted:
            book.muted[number] = name
        else:
            book.muted.pop(number, None)
    shown = next(iter(speakers.values()))
    told = f"Muted {shown} ({typed_as}unmute {shown} undoes it)." if command.muted else f"You hear {shown} again."
    return [MuteChat(number, command.muted) for number in speakers], told


def report_request(book: ChatBook, name: str, code: str | None, watching: bool = False) -> ReportChat | str:
    """What reporting ``name``'s last line shown here (a match's, ``code``; else the lobby's) asks of the server (the
    server says what came of it), or why there is nothing to report."""
    line = book.last_line_of(name, code, watching)
    if line is None:
        return f"No line of {name}'s is shown here to report."
    return ReportChat(line.id)
