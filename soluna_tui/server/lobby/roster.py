"""Runs in the server process.

Who is online on every server, kept current and told.

This server keeps a line for each of its guests (``online.Attendance``), made again after each of their
steps and whenever their match changes. The other servers' lines ride on their heartbeats (``Presence``):
read again only when a server's list has changed, and counted only while that server is alive. A change is
told a moment later (``TELL_AFTER``), however many came meanwhile:

- the guests in the lobby hear what changed in its list of who is online (``OnlineChanges``), having had the
  whole list once as they came to the lobby (``OnlinePeople``);
- the lobby's listing hears when the number watching a match changed;
- the players and spectators of a match hear who watches it (``Spectators``), when that changed.

So what a guest is sent on a change is the change, never the whole list, and a heartbeat that brings nothing
new costs one comparison per server.
"""

from __future__ import annotations

import asyncio
import itertools
import json
import logging
from collections.abc import Callable, Collection, Mapping
from dataclasses import replace

from ...link.messages import Doing, OnlinePeople, OnlinePerson, Spectators
from ..storage import ServerRecord
from .online import (
    KEY,
    NOBODY,
    Attendance,
    Watching,
    activity,
    changes,
    guest_person,
    key_person,
    lines_document,
    lines_from_document,
    listed,
    people,
    spectators,
)
from .tables import Table
from .visitors import Guest, Visitor

log = logging.getLogger("soluna.server")

#: Seconds a change waits before it is told, with whatever else changed meanwhile (each lobby then draws it at the
#: next of its own moments, ``online.panes.lobby_pace.ONLINE_EVERY`` apart: the two together are how late a change
#: can be). At 0.5 s, with a lobby's moments a second apart, who is online was p95 1.5 s late in 150 lobbies
#: (``ssh_load.py --scene meet --sessions 200``); at 0.2 s, 1.2 s; with the moments half a second apart, 0.7-0.8 s.
TELL_AFTER = 0.2
#: What a player does away from the lobby: back from it, their rating may have moved.
AT_A_MATCH = frozenset({Doing.PLAYING, Doing.COMPUTER})


class Roster:
    """Who is online: this server's guests, and the other servers' as their heartbeats said."""

    def __init__(self, server_id: str, visitors: Mapping[Guest, Visitor], tables: Mapping[str, Table],
                 live: Callable[[], Collection[str]], clock: Callable[[], float],
                 watchers_changed: Callable[[], None], tell_after: float = TELL_AFTER) -> None:
        self.server_id = server_id
        self._visitors = visitors
        self._tables = tables
        self._live = live
        self._clock = clock
        self._watchers_changed = watchers_changed
        self._tell_after = tell_after
        #: This server's guests' lines, and the version of them (the heartbeat writes it when it changed).
        self.lines: dict[Guest, Attendance] = {}
        self.version = 0
        self._written = 0
        self._sessions = itertools.count(1)
        #: The other servers' lines (by server: the version read, and the lines).
        self.others: dict[str, tuple[int, tuple[Attendance, ...]]] = {}
        #: The lobby's list as last told, by number; how many it counts; each person's number.
        self.shown: dict[int, OnlinePerson] = {}
        self.total = 0
        self._numbers: dict[str, int] = {}
        self._next_number = itertools.count(1)
        #: The guests who had the whole list and hear its changes (those in the lobby).
        self._listening: set[Guest] = set()
        #: Who watches each match (by code), how many (the listing shows it), and what each guest at a match was
        #: last told of it.
        self.watching: dict[str, Watching] = {}
        self.watcher_counts: dict[str, int] = {}
        self._told: dict[Guest, tuple[str, Watching]] = {}
        self._due: asyncio.TimerHandle | None = None
        #: This server's guests waiting for a quick match (listed as waiting for an opponent).
        self._seeking: set[Guest] = set()

    # ---- this server's guests ------------------------------------------------------------

    def enter(self, guest: Guest, rating: int | None, hidden: bool) -> None:
        """``guest`` is in the lobby now: listed (unless it hides) as a key's person or a guest's session."""
        fingerprint = guest.fingerprint
        person = key_person(fingerprint) if fingerprint is not None else guest_person(self.server_id,
                                                                                      next(self._sessions))
        visitor = self._visitors.get(guest)
        name = visitor.name if visitor is not None else guest.name
        self._set(guest, Attendance(person, name, rating, hidden=hidden, since=self._clock()))
        self.follow(guest)

    def follow(self, guest: Guest) -> bool:
        """``guest``'s line made again (after a step of its, a change to its match); a guest that came to the
        lobby has the whole list. Whether it has just come back from a match (its rating may have moved)."""
        line, visitor = self.lines.get(guest), self._visitors.get(guest)
        if line is None or visitor is None:
            return False
        table = self._tables.get(visitor.code) if visitor.code is not None else None
        doing, code, others = activity(guest, table, visitor.computer, guest in self._seeking)
        self._set(guest, replace(line, name=visitor.name, doing=doing, code=code, others=others))
        if visitor.code is not None:
            self._listening.discard(guest)
        elif guest not in self._listening:
            self._listening.add(guest)
            guest.send(OnlinePeople(tuple(self.shown.values()), self.total, self._number(line.person)))
        return line.doing in AT_A_MATCH and doing not in AT_A_MATCH

    def seeking(self, guest: Guest, waiting: bool) -> None:
        """``guest`` waits for a quick match now (or no longer does)."""
        if waiting:
            self._seeking.add(guest)
        else:
            self._seeking.discard(guest)
        self.follow(guest)

    def hide(self, guest: Guest, hidden: bool) -> None:
        line = self.lines.get(guest)
        if line is not None:
            self._set(guest, replace(line, hidden=hidden))

    def rate(self, guest: Guest, rating: int | None) -> None:
        line = self.lines.get(guest)
        if line is not None:
            self._set(guest, replace(line, rating=rating))

    def match_gone(self, code: str) -> None:
        """The match ``code`` is gone from play: the lines of those who were at it say so."""
        for guest in [guest for guest, line in self.lines.items() if line.code == code]:
            self.follow(guest)

    def leave(self, guest: Guest) -> None:
        """``guest`` has gone."""
        self._listening.discard(guest)
        self._told.pop(guest, None)
        self._seeking.discard(guest)
        if self.lines.pop(guest, None) is not None:
            self._changed()

    def _set(self, guest: Guest, line: Attendance) -> None:
        if self.lines.get(guest) != line:
            self.lines[guest] = line
            self._changed()

    def _changed(self) -> None:
        self.version += 1
        self.soon()

    # ---- the other servers, as their heartbeats say (``presence.Passengers``) ---------------

    def outgoing(self) -> tuple[int, str] | None:
        """This server's lines for its heartbeat, with their version, when they changed since last written."""
        if self.version == self._written:
            return None
        return self.version, json.dumps(lines_document(self.lines.values()), ensure_ascii=False)

    def written(self, version: int) -> None:
        self._written = version

    def stale(self, servers: list[ServerRecord]) -> list[str]:
        """The living servers whose lines changed since read (those gone are forgotten)."""
        known = {server.id for server in servers}
        for gone in [server for server in self.others if server not in known]:
            del self.others[gone]
            self.soon()
        live = self._live()
        return [server.id for server in servers if server.id != self.server_id and server.id in live
                and server.online_version != self.others.get(server.id, (0, ()))[0]]

    def heard(self, rosters: Mapping[str, tuple[int, str]]) -> None:
        """Other servers' lines, as their heartbeats wrote them."""
        for server, (version, text) in rosters.items():
            try:
                lines = lines_from_document(json.loads(text))
            except (ValueError, RecursionError):
                log.warning("a server's list of who is online could not be read; it is left out")
                lines = ()
            if self.others.get(server, (0, ()))[1] != lines:
                self.soon()
            self.others[server] = (version, lines)

    def servers_changed(self) -> None:
        """The servers alive are not those they were: their people come or go with them."""
        self.soon()

    # ---- telling ---------------------------------------------------------------------------

    def soon(self) -> None:
        """Tell what changed a moment from now (with whatever else changes meanwhile)."""
        if self._due is None:
            self._due = asyncio.get_running_loop().call_later(self._tell_after, self.tell)

    def tell(self) -> None:
        """The lobby's guests hear what changed in its list, the listing how many watch, those at a match who
        watches it."""
        self._due = None
        lines = self._live_lines()
        persons = people(lines)
        shown, total = listed(persons, self._number)
        news = changes(self.shown, shown, total, self.total)
        self.shown, self.total = shown, total
        if news is not None:
            for guest in list(self._listening):
                visitor = self._visitors.get(guest)
                if visitor is not None and visitor.code is not None:
                    # Sat down at a match, its line not made again yet (its step still waits on the store): no
                    # lobby news there, and the whole list when it is back (``follow``).
                    self._listening.discard(guest)
                    continue
                guest.send(news)
        self.watching = spectators(lines)
        counts = {code: each.count for code, each in self.watching.items()}
        if counts != self.watcher_counts:
            self.watcher_counts = counts
            self._watchers_changed()
        self._tell_spectators()
        present = {person.person for person in persons}
        self._numbers = {person: number for person, number in self._numbers.items()
                         if person in present or person.startswith(KEY)}  # a key keeps its number: its card

    def _tell_spectators(self) -> None:
        """Each guest at a match hears who watches it, when that changed since they were last told."""
        for guest, visitor in self._visitors.items():
            code = visitor.code
            if code is None:
                self._told.pop(guest, None)
                continue
            now = (code, self.watching.get(code, NOBODY))
            told = self._told.get(guest)
            if told != now:
                self._told[guest] = now
                if told is not None or now[1] != NOBODY:
                    guest.send(Spectators(code, now[1].count, now[1].names))

    def person_numbered(self, number: int) -> tuple[str, OnlinePerson] | None:
        """The person the lobby's list tells as ``number``, and their line as last told (``None``: not listed)."""
        shown = self.shown.get(number)
        person = next((person for person, each in self._numbers.items() if each == number), None)
        return (person, shown) if shown is not None and person is not None else None

    def _live_lines(self) -> list[Attendance]:
        """Every session's line: this server's, and those of the other servers alive."""
        live = self._live()
        return [*self.lines.values(),
                *(line for server, (_, theirs) in self.others.items() if server in live for line in theirs)]

    def everyone(self) -> list[Attendance]:
        """Every person online now, on every server alive (hidden or not), as ``online.people`` merges them."""
        return people(self._live_lines())

    def number_of(self, person: str) -> int:
        """The number ``person`` is told as (``OnlinePerson.id``): a key keeps it while this server runs, a guest's
        session while it is online."""
        return self._number(person)

    def person_of(self, number: int) -> str | None:
        """The person told as ``number`` (``None``: no one, or a guest gone)."""
        return next((person for person, each in self._numbers.items() if each == number), None)

    def _number(self, person: str) -> int:
        """The number a person is told as (never their identity: a key's fingerprint stays on the server)."""
        number = self._numbers.get(person)
        if number is None:
            number = self._numbers[person] = next(self._next_number)
        return number

    def close(self) -> None:
        if self._due is not None:
            self._due.cancel()
            self._due = None
