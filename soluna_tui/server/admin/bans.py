"""Runs in the server process.

The owner's ban list: its file read line by line, who it bans, and the file edited line by line.

One entry a line: a key's fingerprint as the server logs it (``SHA256:...``), an OpenSSH
public key line (``ssh-ed25519 AAAA... bob@laptop``, banned by its fingerprint), an address
or a network in CIDR notation, IPv4 or IPv6 (an IPv4-mapped one, ``::ffff:203.0.113.9``, is read
as the IPv4 address it maps, so it matches the client that address is). Anything after ``#`` is a
comment (the owner's reason, never shown to the player). A line that is none of these is *damaged*:
it is reported with its number and left out, and every other line still applies. An entry no
client can ever come from (a multicast address, ``0.0.0.0``) is kept, and said to be useless.
Pure: no file, no server.
"""

from __future__ import annotations

import base64
import binascii
import ipaddress
import re
from dataclasses import dataclass
from functools import cached_property

from ..ssh.quiet_asyncssh import asyncssh

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
#: IPv4 addresses written as IPv6 (``::ffff:a.b.c.d``), and the deprecated IPv4-compatible form (``::a.b.c.d``).
_MAPPED = ipaddress.IPv6Network("::ffff:0:0/96")
_COMPATIBLE = ipaddress.IPv6Network("::/96")
#: ``::`` and ``::1``: inside ``_COMPATIBLE``, yet no IPv4 address. IPv4's reserved block (the broadcast address in it).
_NOT_COMPATIBLE = ipaddress.IPv6Network("::/127")
_RESERVED = ipaddress.IPv4Network("240.0.0.0/4")
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
        return _shown(self.network)

    @property
    def is_key(self) -> bool:
        return self.fingerprint is not None

    @property
    def never_matches(self) -> str | None:
        """Why no client can ever come from the addresses this bans (``None``: some can, or it bans a key)."""
        network = self.network
        if network is None:
            return None
        if network.is_multicast:
            return "a multicast address is never a client's"
        if network.prefixlen == network.max_prefixlen and network.network_address.is_unspecified:
            return f"{network.network_address} is no client's address"
        if isinstance(network, ipaddress.IPv4Network) and network.subnet_of(_RESERVED):
            return "a reserved address (240.0.0.0/4, the broadcast address) is never a client's"
        if isinstance(network, ipaddress.IPv6Network) and network.prefixlen >= 96 and network.subnet_of(_COMPATIBLE) \
                and not network.subnet_of(_NOT_COMPATIBLE):
            mapped = ipaddress.IPv4Network((int(network.network_address), network.prefixlen - 96))
            return f"an IPv4-compatible address (a form no longer used) is never a client's: write {_shown(mapped)}"
        return None

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
        network = ipaddress.ip_network(text, strict=False)
    except ValueError:
        raise BanEntryError(f"{_quoted(text)} is not {WHAT_GOES_IN}") from None
    return Banned(network=_unmapped(network))


def _unmapped(network: Network) -> Network:
    """An IPv4-mapped IPv6 network (``::ffff:203.0.113.0/120``) as the IPv4 one it maps (``203.0.113.0/24``): the
    server sees an IPv4 client by its IPv4 address; other networks as they are."""
    if isinstance(network, ipaddress.IPv6Network) and network.prefixlen >= 96 and network.subnet_of(_MAPPED):
        mapped = network.network_address.ipv4_mapped
        assert mapped is not None
        return ipaddress.IPv4Network((mapped, network.prefixlen - 96))
    return network


def _shown(network: Network) -> str:
    """A network as the file and the log write it: one address alone, without ``/32`` or ``/128``."""
    return str(network.network_address) if network.prefixlen == network.max_prefixlen else str(network)


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
    def useless(self) -> tuple[tuple[BanEntry, str], ...]:
        """The entries no client can ever match, each with why."""
        return tuple((entry, why) for entry in self.entries if (why := entry.banned.never_matches) is not None)

    def warnings(self) -> list[str]:
        """What is wrong with the file, in at most two lines however long it is: its damaged lines, and its entries
        that can never match (how many of each, and the first)."""
        said = []
        if self.damaged:
            first = self.damaged[0]
            said.append(_how_many(len(self.damaged), "damaged line", "damaged lines", "ignored",
                                  f"line {first.line}: {first.problem}"))
        if self.useless:
            entry, why = self.useless[0]
            said.append(_how_many(len(self.useless), "entry", "entries", "can never match",
                                  f"line {entry.line}: {entry.banned}: {why}"))
        return said

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


def _how_many(number: int, one: str, many: str, what: str, first: str) -> str:
    """``3 damaged lines ignored (first: line 7: ...)``: how many lines are so, and the first of them."""
    return f"{_count(number, one, many)} {what} ({'first: ' if number > 1 else ''}{first})"


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
