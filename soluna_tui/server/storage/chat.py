"""Table talk the owner keeps: the lines players reported (always), and a match's talk (only with ``--keep-chat``),
each with its match (its code and when it began; a lobby line reported has neither). Nothing else of the talk is
ever written: it passes between servers as notifications."""

from __future__ import annotations

from dataclasses import dataclass

from .database import Database

#: The columns of a chat line, in both tables.
LINE_COLUMNS = "code, started_at, room, name, fingerprint, text, said_at"


@dataclass(frozen=True, slots=True)
class ChatRecord:
    """A chat line as kept: its match (``None``: the lobby), the room, who said it (the name shown; their key's
    fingerprint, ``None`` for a guest), what and when."""

    code: str | None
    started_at: float | None
    room: str
    name: str
    fingerprint: str | None
    text: str
    said_at: float


@dataclass(frozen=True, slots=True)
class ChatReport:
    """A chat line a player reported: the line, who reported it (name and fingerprint) and when."""

    id: int
    line: ChatRecord
    reporter: str
    reporter_fingerprint: str | None
    reported_at: float


class ChatKept:
    """The ``chat_reports`` and ``chat_lines`` tables."""

    def __init__(self, database: Database) -> None:
        self._db = database

    async def report(self, line: ChatRecord, reporter: str, reporter_fingerprint: str | None) -> None:
        async with self._db.transaction() as tx:
            await tx.execute(f"INSERT INTO chat_reports ({LINE_COLUMNS}, reporter, reporter_fingerprint, reported_at) "
                             "VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?)",
                             (*_values(line), reporter, reporter_fingerprint, self._db.clock()))

    async def reports(self, last: int = 50) -> list[ChatReport]:
        """The ``last`` lines reported, newest first."""
        async with self._db.transaction(write=False) as tx:
            rows = await tx.fetch(f"SELECT id, {LINE_COLUMNS}, reporter, reporter_fingerprint, reported_at "
                                  "FROM chat_reports ORDER BY reported_at DESC, id DESC LIMIT ?", (last,))
        return [ChatReport(row[0], ChatRecord(*row[1:8]), row[8], row[9], row[10]) for row in rows]

    async def keep(self, line: ChatRecord) -> None:
        """A match's line, written with the match (``--keep-chat``)."""
        async with self._db.transaction() as tx:
            await tx.execute(f"INSERT INTO chat_lines ({LINE_COLUMNS}) VALUES (?, ?, ?, ?, ?, ?, ?)", _values(line))

    async def of_match(self, code: str, started_at: float | None = None) -> list[ChatRecord]:
        """A match's kept talk, in the order it was said; ``started_at`` ``None``: of every match under ``code``
        (a code is used again once its match is over), match by match."""
        where, values = ("code = ?", (code,)) if started_at is None else ("code = ? AND started_at = ?",
                                                                          (code, started_at))
        async with self._db.transaction(write=False) as tx:
            rows = await tx.fetch(f"SELECT {LINE_COLUMNS} FROM chat_lines WHERE {where} "
                                  "ORDER BY started_at, said_at, id", values)
        return [ChatRecord(*row) for row in rows]


def _values(line: ChatRecord) -> tuple[object, ...]:
    return (line.code, line.started_at, line.room, line.name, line.fingerprint, line.text, line.said_at)
