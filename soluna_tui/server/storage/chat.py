"""Table talk the owner keeps: the lines players reported (always: a line once per reporter, the owner's list
showing each line once with how many reported it), and a match's talk (only with ``--keep-chat``), each with its
match (its code and when it began; a lobby line reported has neither); and whom each keyed player muted, kept with
their key. Nothing else of the talk is ever written: it passes between servers as notifications."""

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
    """A chat line players reported: the line, who reported it last (name and fingerprint) and when, and how many
    reported it (each reporter once)."""

    id: int
    line: ChatRecord
    reporter: str
    reporter_fingerprint: str | None
    reported_at: float
    count: int = 1


@dataclass(frozen=True, slots=True)
class ChatMute:
    """Someone a keyed player muted: the speaker (``talk.speaker_of``: a key, or a guest's address), the name they
    were muted under, and when."""

    speaker: str
    name: str
    muted_at: float


class ChatKept:
    """The ``chat_reports`` and ``chat_lines`` tables."""

    def __init__(self, database: Database) -> None:
        self._db = database

    async def report(self, line: ChatRecord, reporter: str, reporter_fingerprint: str | None,
                     line_key: str | None = None, reporter_key: str | None = None) -> bool:
        """Keep a report of ``line``; with ``line_key`` (the line, however many servers heard it) and
        ``reporter_key`` (a key, or a guest's address), once each: whether it was new."""
        async with self._db.transaction() as tx:
            added = await tx.execute(
                f"INSERT INTO chat_reports ({LINE_COLUMNS}, reporter, reporter_fingerprint, reported_at, line_key, "
                "reporter_key) VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?) "
                "ON CONFLICT (line_key, reporter_key) DO NOTHING",
                (*_values(line), reporter, reporter_fingerprint, self._db.clock(), line_key, reporter_key))
        return added == 1

    async def reports(self, last: int = 50) -> list[ChatReport]:
        """The ``last`` lines reported, newest report first, each once (its last report, and how many)."""
        async with self._db.transaction(write=False) as tx:
            groups = await tx.fetch("SELECT MAX(id), COUNT(*) FROM chat_reports "
                                    "GROUP BY COALESCE(line_key, CAST(id AS TEXT)) "
                                    "ORDER BY MAX(reported_at) DESC, MAX(id) DESC LIMIT ?", (last,))
            counts = {row[0]: row[1] for row in groups}
            rows = await tx.fetch(f"SELECT id, {LINE_COLUMNS}, reporter, reporter_fingerprint, reported_at "
                                  f"FROM chat_reports WHERE id IN ({', '.join('?' * len(counts))}) "
                                  "ORDER BY reported_at DESC, id DESC", tuple(counts)) if counts else []
        return [ChatReport(row[0], ChatRecord(*row[1:8]), row[8], row[9], row[10], counts[row[0]]) for row in rows]

    async def mutes(self, listener: str) -> list[ChatMute]:
        """Whom the key ``listener`` (a fingerprint) muted, newest first."""
        async with self._db.transaction(write=False) as tx:
            rows = await tx.fetch("SELECT speaker, name, muted_at FROM chat_mutes WHERE listener = ? "
                                  "ORDER BY muted_at DESC", (listener,))
        return [ChatMute(*row) for row in rows]

    async def mute(self, listener: str, mute: ChatMute, most: int) -> None:
        """``listener`` mutes ``mute.speaker`` (again: under the name and time now given); at most ``most`` kept,
        the oldest let go."""
        async with self._db.transaction() as tx:
            await tx.execute("INSERT INTO chat_mutes (listener, speaker, name, muted_at) VALUES (?, ?, ?, ?) "
                             "ON CONFLICT (listener, speaker) DO UPDATE SET name = excluded.name, "
                             "muted_at = excluded.muted_at", (listener, mute.speaker, mute.name, mute.muted_at))
            await tx.execute("DELETE FROM chat_mutes WHERE listener = ? AND speaker NOT IN (SELECT speaker FROM "
                             "chat_mutes WHERE listener = ? ORDER BY muted_at DESC LIMIT ?)",
                             (listener, listener, most))

    async def unmute(self, listener: str, speaker: str) -> None:
        async with self._db.transaction() as tx:
            await tx.execute("DELETE FROM chat_mutes WHERE listener = ? AND speaker = ?", (listener, speaker))

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
