"""Every use the server makes of asyncssh's private or undocumented internals, in one place.

Each is a small typed function saying what it relies on. Tested with asyncssh 2.24.x (``pyproject.toml`` keeps it
below its next major version); ``tests/test_compat.py`` fails if asyncssh changes under one of them, and a test
there keeps every other module of the package off its private names. asyncssh is imported for types only: the
channel classes given here are the server's own.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import TYPE_CHECKING, TypeVar

if TYPE_CHECKING:
    from asyncssh import SSHServerChannel

T = TypeVar("T")
ChannelT = TypeVar("ChannelT", bound="SSHServerChannel[bytes]")


def ask_before_requests(cls: type[ChannelT], allowed: Callable[[ChannelT, str, int], bool]) -> None:
    """Make channels of ``cls`` (a subclass of an asyncssh channel class) ask ``allowed(channel, request,
    size)`` before acting on any channel request (``env``, ``window-change``, ``signal``, ``break``,
    ``shell``...): one it refuses is answered "failure" and never reaches asyncssh's handler.

    asyncssh has no public hook before it acts on a request. Relies on ``SSHChannel._service_next_request()``
    (private), through which every channel request goes, with ``SSHChannel._request_queue`` (private;
    the request in service first, as ``(name, packet, want_reply)``) and
    ``SSHChannel._report_response(result)`` (private). Set on the class itself rather than through a
    mixin: a mixin base would change the instance layout, and ``adopt_class`` could no longer give the
    class to a channel asyncssh made. Tested with asyncssh 2.24.x.
    """
    act = cls._service_next_request

    def _service_next_request(channel: ChannelT) -> None:
        request, packet, _ = channel._request_queue[0]
        if allowed(channel, request, len(packet.get_remaining_payload())):
            act(channel)
        else:
            channel._report_response(False)

    cls._service_next_request = _service_next_request  # type: ignore[method-assign,assignment]


def adopt_class(obj: object, cls: type[T]) -> T:
    """Make ``obj`` an instance of ``cls``, a subclass of its class that adds methods and no state an
    ``__init__`` would set (a channel asyncssh made, given a class ``ask_before_requests`` guards).

    Relies on ``cls`` having the same instance layout as ``obj``'s class (Python refuses the change
    otherwise): its bases add no ``__slots__`` and no ``__dict__`` the class had not.
    """
    if not issubclass(cls, type(obj)):
        raise TypeError(f"{cls.__name__} is not a subclass of {type(obj).__name__}")
    obj.__class__ = cls
    return obj  # type: ignore[return-value]
