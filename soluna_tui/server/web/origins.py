"""Runs in the server process.

Where the web door's page is its own: the origin a websocket, a sign-in and a sign-out must come
from, and the Host a page is served for. Behind a reverse proxy it is the ``--public-url``'s origin
alone. Otherwise it is at the address the door listens on (where it listens on every address, any
IP address of the machine, as typed in a browser's address bar), at ``localhost`` where it listens
on a loopback address or on every address, and at the names the owner gives (``--web-host-name``):
never at whatever name a Host header says. A DNS-rebinding page (at an attacker's name, made to
resolve to this server) is at its own name, which is none of these, so its requests are refused;
an address typed in the address bar cannot be rebound. The port is the Host's (a port forwarded
from another is fine): a page at another port of the same host has another origin than the Host
says, so its Origin does not match. Pure: no server.
"""

from __future__ import annotations

import ipaddress
import re
from dataclasses import dataclass

#: What ``--web-host`` is to listen on every address.
EVERY_ADDRESS = ("", "0.0.0.0", "::")
#: A host name (letters, digits, dots and dashes), or an IPv6 address in brackets; then an optional port.
_HOST = re.compile(r"(?P<name>[A-Za-z0-9.-]{1,253}|\[(?P<v6>[0-9A-Fa-f:.]{2,45})\])(?::(?P<port>\d{1,5}))?")
#: The port a URL without one means.
HTTP_PORT = 80


class WebHostNameError(ValueError):
    """A ``--web-host-name`` that is not a host name or address (without a port)."""


@dataclass(frozen=True)
class Host:
    """A host as a Host header or a ``--web-host-name`` names it: its name or address (lower case, an IPv6 one
    without brackets) and its port."""

    name: str
    port: int

    @classmethod
    def parse(cls, text: str, default_port: int = HTTP_PORT) -> Host | None:
        """``soluna.lan``, ``soluna.lan:8080``, ``192.0.2.7:8080``, ``[2001:db8::7]:8080``; ``None`` if it is none
        of these."""
        found = _HOST.fullmatch(text.strip())
        if found is None:
            return None
        port = int(found["port"]) if found["port"] else default_port
        if found["port"] and not 1 <= port <= 65_535:
            return None
        if found["v6"] is not None:
            address = _address(found["v6"])
            return cls(address, port) if address is not None and ":" in address else None
        name = found["name"].lower().rstrip(".")
        return cls(name, port) if name and ".." not in name else None

    @property
    def is_address(self) -> bool:
        return _address(self.name) is not None

    @property
    def origin(self) -> str:
        """``http://`` and the host as a browser writes its page's origin (no port for port 80)."""
        name = f"[{self.name}]" if ":" in self.name else self.name
        return f"http://{name}" if self.port == HTTP_PORT else f"http://{name}:{self.port}"


def parse_host_name(text: str) -> str:
    """A ``--web-host-name`` as the owner gave it, checked (``WebHostNameError`` in one line if it is not one)."""
    host = Host.parse(text, default_port=0)
    if host is None:
        raise WebHostNameError(f"{text!r} is not a host name or address (soluna.lan, 192.0.2.7)")
    if host.port:
        raise WebHostNameError(f"{text!r}: give the name without a port (the page is its own at any port that "
                               "reaches the web door)")
    return host.name


@dataclass(frozen=True)
class PageOrigins:
    """The page's own origins: the public URL's, or those of the hosts the door is its own at."""

    #: The ``--public-url``'s origin: the only one, whatever the Host (a reverse proxy in front).
    public: str | None
    #: The names and addresses the page is its own at (lower case, IPv6 without brackets), at any port.
    names: frozenset[str]
    #: Listening on every address: any IP address is its own too.
    every_address: bool = False

    @classmethod
    def of(cls, public: str | None, listening: str, names: tuple[str, ...] = ()) -> PageOrigins:
        """The origins of a door listening on ``listening`` (an address or a name, or every address), reached at
        ``names`` too."""
        every = listening in EVERY_ADDRESS
        own = {_address(name) or name.lower().rstrip(".") for name in names}
        if not every:
            own.add(_address(listening) or listening.lower())
        if every or _loopback(listening):
            own.add("localhost")
        return cls(public, frozenset(own), every)

    def origin(self, host_header: str) -> str | None:
        """The page's origin for a request whose Host is ``host_header``: the public URL's, else that host's if it
        is one of the page's own; ``None``: not a host this page is at (served nothing)."""
        if self.public is not None:
            return self.public
        host = Host.parse(host_header)
        if host is None or not (host.name in self.names or (self.every_address and host.is_address)):
            return None
        return host.origin


def _address(text: str) -> str | None:
    """``text`` as an IP address is written in a Host (IPv6 compressed, lower case), if it is one."""
    try:
        return str(ipaddress.ip_address(text))
    except ValueError:
        return None


def _loopback(listening: str) -> bool:
    address = _address(listening)
    return ipaddress.ip_address(address).is_loopback if address else listening.lower() == "localhost"
