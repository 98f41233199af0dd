"""Runs in the server process.

The owner's ban list: its file read line by line, who it bans, and the file edited line by line.

One entry a line: a key's fingerprint as the server logs it (``SHA256:...``), an OpenSSH
public key line (``ssh-ed25519 AAAA... bob@laptop``, banned by its fingerprint), an address
or a network in CIDR notation, IPv4 or IPv6. Anything after ``#`` is a comment (the owner's
reason, never shown to the player). A line that is none of these is *damaged*: it is reported
with its number and left out, and every other line still applies. Pure: no file, no server.
"""

from __future__ import annotations

import base64
import binascii
import ipaddress
import re
from dataclasses import dataclass
from functools import cached_property

from .quiet_asyncssh import asyncssh

Network = ipaddress.IPv4Network | ipaddress.IPv6Network

#: What a banned player reads as their session is closed, and as a new connection is refused.
CLOSED_LINE = "This server has closed your session: you are banned from it."
REFUSED_LINE = "This server does not let you in: you are banned from it."
#: What a new ban list starts with, so that whoever opens it knows what goes in it.
HEADER = ("# Soluna server ban list: one entry a line, a key's fingerprint (SHA256:... as the server logs it),\n"
          "# an OpenSSH public key line, an address or a network (203.0.113.0/24, 2001:db8::/32).\n"
          "# Anything after '#' is a note for the owner; players never see it. The server rereads this file\n"
          "# within a second or two of a change. Edit it by hand or with 'soluna serve ban add|remove|list'.\n")
#: ``SHA256:`` then the unpadded base64 of 32 bytes, as OpenSSH and asyncssh print a fingerprint.
_FINGERPRINT = re.compile(r"sha256:(\S*?)=?", re.IGNORECASE)
#: The first word of an OpenSSH public key line (``ssh-ed25519``, ``ecdsa-sha2-nistp256``, ``sk-ssh-...``).
_KEY_TYPE = re.compile(r"(?:ssh|ecdsa|sk)-\S+\s")
#: The longest comment kept with an entry added by the subcommand.
REASON_LIMIT = 200
WHAT_GOES_IN = "a key fingerprint (SHA256:...), an OpenSSH public key, an address or a network"


class BanEntryError(ValueError):
    """Text that is not a ban entry, or a reason that cannot go on one line of the file."""


@dataclass(frozen=True)
class Banned:
    """What one entry bans: a key (its fingerprint) or an address range (one address is a /32 or /128)."""

    fingerprint: str | None = None
    network: Network | None = None

    def __str__(self) -> str:
        if self.fingerprint is not None:
            return self.fingerprint
        assert self.network is not None
        whole = self.network.prefixlen == self.network.max_prefixlen
        return str(self.network.network_address) if whole else str(self.network)

    @property
    def is_key(self) -> bool:
        return self.fingerprint is not None

    def covers(self, other: Banned) -> bool:
        """Whether everything ``other`` bans is banned by this too (a network holding an address, the same key)."""
        if self.fingerprint is not None or other.fingerprint is not None:
            return self.fingerprint == other.fingerprint
        assert self.network is not None and other.network is not None
        return self.network.version == other.network.version and other.network.subnet_of(self.network)  # type: ignore[arg-type]


@dataclass(frozen=True)
class BanEntry:
    """One line of the file that bans something: what, the owner's note, and where it is."""

    banned: Banned
    note: str
    line: int

    def __str__(self) -> str:
        return f"{self.banned}  # {self.note}" if self.note else str(self.banned)


@dataclass(frozen=True)
class DamagedLine:
    """A line that bans nothing because it cannot be read: its number and why."""

    line: int
    problem: str


def parse_banned(text: str) -> Banned:
    """What ``text`` (an entry without its comment) bans; ``BanEntryError`` in one line if nothing."""
    text = text.strip()
    if not text:
        raise BanEntryError(f"nothing to ban: give {WHAT_GOES_IN}")
    found = _FINGERPRINT.fullmatch(text)
    if found is not None:
        return Banned(fingerprint=_fingerprint(found.group(1), text))
    if _KEY_TYPE.match(text):
        return Banned(fingerprint=_key_fingerprint(text))
    if text.upper().startswith("MD5:"):
        raise BanEntryError(f"{_quoted(text)} is an MD5 fingerprint: give the SHA256:... one the server logs, "
                            "or the public key")
    try:
        return Banned(network=ipaddress.ip_network(text, strict=False))
    except ValueError:
        raise BanEntryError(f"{_quoted(text)} is not {WHAT_GOES_IN}") from None


def _fingerprint(digest: str, text: str) -> str:
    try:
        raw = base64.b64decode(digest + "=", validate=True) if len(digest) == 43 else b""
    except binascii.Error:
        raw = b""
    if len(raw) != 32:
        raise BanEntryError(f"{_quoted(text)} is not a SHA256 fingerprint (43 characters of base64 after SHA256:)")
    return "SHA256:" + digest


def _key_fingerprint(text: str) -> str:
    try:
        key = asyncssh.import_public_key(text)
    except (asyncssh.KeyImportError, ValueError):
        raise BanEntryError(f"{_quoted(text)} is not an OpenSSH public key that can be read "
                            "(type, base64 and an optional comment, no options before them)") from None
    return str(key.get_fingerprint("sha256"))


def _quoted(text: str) -> str:
    return repr(text if len(text) <= 60 else f"{text[:28]}...{text[-28:]}")


def split_line(line: str) -> tuple[str, str]:
    """A line's entry and its note (after the first ``#``; base64 and addresses never hold one)."""
    entry, _, note = line.partition("#")
    return entry.strip(), note.strip()


@dataclass(frozen=True)
class BanList:
    """Every entry of the file and its damaged lines; who is banned, answered at once for any connection."""

    entries: tuple[BanEntry, ...] = ()
    damaged: tuple[DamagedLine, ...] = ()

    @classmethod
    def parse(cls, data: bytes) -> BanList:
        entries, damaged = [], []
        for number, raw in enumerate(data.splitlines(), start=1):
            try:
                entry, note = split_line(raw.decode("utf-8"))
                if entry:
                    entries.append(BanEntry(parse_banned(entry), note, number))
            except UnicodeDecodeError:
                damaged.append(DamagedLine(number, "not UTF-8 text"))
            except BanEntryError as error:
                damaged.append(DamagedLine(number, str(error)))
        return cls(tuple(entries), tuple(damaged))

    @cached_property
    def keys(self) -> dict[str, BanEntry]:
        """Each banned key's fingerprint and its first entry."""
        found: dict[str, BanEntry] = {}
        for entry in self.entries:
            if entry.banned.fingerprint is not None:
                found.setdefault(entry.banned.fingerprint, entry)
        return found

    @cached_property
    def networks(self) -> dict[tuple[int, int], dict[Network, BanEntry]]:
        """The banned address ranges by IP version and prefix length, each with its first entry: an address is
        looked up once per length in use, however long the list (a blocklist of thousands costs no more)."""
        found: dict[tuple[int, int], dict[Network, BanEntry]] = {}
        for entry in self.entries:
            if (network := entry.banned.network) is not None:
                found.setdefault((network.version, network.prefixlen), {}).setdefault(network, entry)
        return found

    def ban_for(self, address: str | None, fingerprint: str | None = None) -> BanEntry | None:
        """The entry that bans a connection from ``address`` with the key ``fingerprint``, if any (the key's, else
        the first in the file that holds the address)."""
        if fingerprint is not None and (entry := self.keys.get(fingerprint)) is not None:
            return entry
        found = [entry for candidate in _as_addresses(address)
                 for (version, length), networks in self.networks.items() if version == candidate.version
                 if (entry := networks.get(ipaddress.ip_network((candidate, length), strict=False))) is not None]
        return min(found, key=lambda entry: entry.line, default=None)

    def summary(self) -> str:
        keys = sum(1 for entry in self.entries if entry.banned.is_key)
        others = len(self.entries) - keys
        ignored = f"; {_count(len(self.damaged), 'damaged line')} ignored" if self.damaged else ""
        return f"{_count(keys, 'key')}, {_count(others, 'address', 'addresses or networks')}{ignored}"


def _count(number: int, one: str, many: str | None = None) -> str:
    return f"{number} {one if number == 1 else many or one + 's'}"


def _as_addresses(address: str | None) -> tuple[ipaddress.IPv4Address | ipaddress.IPv6Address, ...]:
    """A peer's address as it may be banned: an IPv4 client on an IPv6 socket (``::ffff:a.b.c.d``) is both."""
    if not address:
        return ()
    try:
        parsed = ipaddress.ip_address(address.split("%", 1)[0])
    except ValueError:
        return ()
    if isinstance(parsed, ipaddress.IPv6Address) and parsed.ipv4_mapped is not None:
        return parsed, parsed.ipv4_mapped
    return (parsed,)


def check_reason(reason: str) -> str:
    """The owner's reason as the note of a new line: one line of printable text, not too long."""
    reason = reason.strip()
    if any(not char.isprintable() for char in reason):
        raise BanEntryError("the reason must be one line of printable text")
    if len(reason) > REASON_LIMIT:
        raise BanEntryError(f"the reason is longer than {REASON_LIMIT} characters")
    return reason


def with_entry(text: str, banned: Banned, note: str) -> str:
    """The file's ``text`` with a line banning ``banned`` added at its end (the header first in a new file)."""
    if not text.strip():
        text = HEADER
    elif not text.endswith("\n"):
        text += "\n"
    return text + (f"{banned}  # {note}\n" if note else f"{banned}\n")


def without_entry(text: str, banned: Banned) -> tuple[str, int]:
    """The file's ``text`` without the lines that ban exactly ``banned``, and how many there were; every other
    line (comments, damaged lines, other entries) as it was."""
    kept, removed = [], 0
    for line in text.splitlines(keepends=True):
        entry, _ = split_line(line)
        try:
            same = bool(entry) and parse_banned(entry) == banned
        except BanEntryError:
            same = False
        if same:
            removed += 1
        else:
            kept.append(line)
    return "".join(kept), removed
